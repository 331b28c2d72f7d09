// Self time: a slice's duration minus the time of the slices nested directly inside it.
//
// Reusable pass over one thread track's sorted columns. Only slices accepted by the
// predicate take part: a counted slice subtracts its full duration from its nearest
// *counted* ancestor (XProf §7.1: "self = duration - sum of durations of ops that ended
// nested inside it"; non-op slices such as python_function frames in between are
// transparent). Nesting comes from the depth the importer computed, so zero-length and
// equal-start children are handled exactly.
#pragma once

#include "model/trace/track.h"

#include <functional>
#include <vector>

namespace tracescope {

// Self time per slice of `columns` (same indexing). Slices the predicate rejects get 0.
// With no predicate every slice counts. Self time is clamped at 0 (children of a
// malformed parent may add up to more than it).
std::vector<TimeNs> computeSelfTimes(const SliceColumns& columns,
                                     const std::function<bool(size_t index)>& counted = {});

// Parent (nearest counted ancestor) index per slice, kNoIndex for roots / rejected slices.
std::vector<uint32_t> computeCountedParents(const SliceColumns& columns,
                                            const std::function<bool(size_t index)>& counted = {});

// Total time covered by a set of [start, end) intervals (overlaps counted once).
TimeNs unionLength(std::vector<std::pair<TimeNs, TimeNs>> intervals);

}  // namespace tracescope
