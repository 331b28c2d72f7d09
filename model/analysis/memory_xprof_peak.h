// How XProf's Memory Profile breaks the peak down (`xplane_to_memory_profile.cc`), worked out
// the way XProf works it out, so that the memory page can say what XProf would show beside our
// own breakdown (which lists every allocation alive at the peak).
//
// XProf, per allocator:
//  * reads the memory events line by line; the window peak is the largest stack + heap, ties
//    going to the event read later; the peak's time is that event's time;
//  * sorts the events by time; an event's step id is its `group_id` (the host step group its
//    enclosing event belongs to), else -1; after sorting, leading -1s become 0 and a -1 after a
//    valid id k becomes k + 1;
//  * the peak's step is the step id of the last event (in time) whose stack + heap equals the peak;
//  * walks the events up to and including the peak's time, only those of the peak's step:
//    an allocation is live at its address and leaves the heap's unaccounted part ("unmapped",
//    starting at the heap at the peak); a deallocation ends its address's allocation if one is
//    live, else is counted as freed memory of an earlier step; either way it adds its bytes back;
//    at the end the freed memory of earlier steps is taken off again;
//  * lists the live allocations, and the unmapped rest as one "unused preallocated device
//    memory" row when it is above zero.
#pragma once

#include "model/analysis/memory_profile.h"
#include "model/analysis/step_groups.h"
#include "model/trace/trace.h"

#include <cstdint>
#include <vector>

namespace tracescope {

// One memory event of one allocator, as XProf reads it.
struct XprofMemoryEvent {
    TimeNs time = 0;
    int64_t heapBytes = 0;
    int64_t stackBytes = 0;
    int64_t allocationBytes = 0;
    uint64_t address = 0;
    int64_t stepId = -1;  // the event's group_id, -1 without one
    bool allocation = true;
};

struct XprofPeakBreakdown {
    bool found = false;           // some event reached the peak (the events are not all negative)
    size_t peakEvent = 0;         // index into the events of the one XProf's summary takes
    int64_t peakBytes = 0;        // stack + heap
    TimeNs peakTime = 0;
    int64_t peakStep = 0;         // after the fix-up of -1 step ids
    std::vector<size_t> active;   // the allocations it lists (indices into the events, by time)
    int64_t activeBytes = 0;
    int64_t unmappedBytes = 0;    // its "unused preallocated device memory" row when > 0
};

// `events` in the order XProf reads them: the host plane's lines in order, each line's events
// in order.
XprofPeakBreakdown xprofPeakBreakdown(const std::vector<XprofMemoryEvent>& events);

// XProf's step id of each snapshot of `timeline` (XSpace memory instants): the instant's own
// group_id stat when it has one; else, when the host events were grouped here (not read from
// group_id stats), the group id of the event enclosing it on its thread, as XProf's event forest
// nests a thread's events (in start order, each inside the latest one still open that contains
// it); else -1.
std::vector<int64_t> xprofMemoryStepIds(const Trace& trace, const StepGroups& groups,
                                        const std::vector<MemorySnapshot>& timeline);

}  // namespace tracescope
