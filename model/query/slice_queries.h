// Structural questions about one slice: its parent, its direct children, its
// self time, and which slice lies at a given time and depth.
//
// On thread tracks slices are properly nested (the importer spills partial
// overlaps to overflow lanes), so within one track a slice's parent is the
// nearest earlier slice one level up, and its direct children are the later
// slices one level down that start before it ends. Async tracks have lanes,
// not nesting: their slices have no parent and no children.
#pragma once

#include "model/trace/trace.h"

#include <vector>

namespace tracescope {

class SliceDepthIndex;

// The enclosing slice one level up on the same track; invalid for a top-level or async slice.
SliceRef parentSlice(const Trace& trace, SliceRef slice);

// Slices one level down that start inside `slice`, in start order.
std::vector<SliceRef> childSlices(const Trace& trace, SliceRef slice);

// Duration minus the durations of the direct children (never negative).
TimeNs selfTime(const Trace& trace, SliceRef slice);

// The slice at `depth` on `track` whose [start, end) contains `time`; instants
// (zero duration) match their exact time. Invalid when none.
SliceRef sliceAt(const Trace& trace, TrackIndex track, TimeNs time, uint32_t depth);
// Same, in O(log n) through a prebuilt index.
SliceRef sliceAt(const Trace& trace, const SliceDepthIndex& index, TrackIndex track, TimeNs time, uint32_t depth);

// `slice` of `from` found in `to`, another import of the same events (a preview and the whole
// trace): the same process (pid and name), track (kind, tid and name; overflow lanes searched
// too), start in the file's clock and name. Invalid when `to` does not hold it.
SliceRef correspondingSlice(const Trace& from, SliceRef slice, const Trace& to);

// The first slice named exactly `name` (earliest start over all tracks); invalid when none.
SliceRef firstSliceNamed(const Trace& trace, std::string_view name);

}  // namespace tracescope
