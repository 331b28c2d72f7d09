// Window queries over a derived track's boxes (DerivedSpans, model/analysis/memory_tracks.h):
// which boxes of a lane a time window shows, and which box is under a time, in O(log n) per
// lane, for painting and tooltips.
#pragma once

#include "model/analysis/memory_tracks.h"

#include <cstddef>
#include <utility>

namespace tracescope {

// The boxes [first, last) of `lane` that may overlap [t0, t1) (a box starting before t0 counts
// when it ends after t0).
std::pair<size_t, size_t> spansInWindow(const DerivedSpans::Lane& lane, TimeNs t0, TimeNs t1);
// The box of `lane` holding time `t` within `slack` ns (the latest starting one), or SIZE_MAX.
size_t spanAt(const DerivedSpans::Lane& lane, TimeNs t, TimeNs slack);

}  // namespace tracescope
