// What Fit All shows: the part of a trace's span that holds its data, without the long empty
// margins a few stray events leave (a counter sampled once when the profiler started, one event
// long after the last step), and the window shown around a moment picked on another page.
//
// The rule, on kBuckets equal buckets of the span [startNs, endNs]:
//  * a slice covers the buckets from its start's to its end's; an instant or a counter sample
//    covers the bucket of its time; every event counts once, in the bucket of its start;
//  * a long empty stretch is a run of buckets no event covers, at least kLongGapFraction of
//    the buckets long;
//  * from each end, what lies beyond a long empty stretch is a margin when it holds at most
//    kStrayFraction of the trace's events (integer division: a trace of fewer than 100 events
//    has no margins); margins are cut from the outside in while the events left out at that
//    end stay within that limit;
//  * the extent is the earliest start and the latest end of the events left.
// The whole span stays one action away (the timeline's Fit Whole Span).
#pragma once

#include "model/trace/trace.h"

#include <atomic>
#include <cstdint>
#include <utility>

namespace tracescope {

struct DataExtent {
    static constexpr size_t kBuckets = 4096;
    static constexpr double kLongGapFraction = 0.10;
    static constexpr double kStrayFraction = 0.01;

    TimeNs begin = 0, end = 0;
    uint64_t strayBefore = 0, strayAfter = 0;  // events left out at the start and at the end
    bool trimmed() const { return strayBefore != 0 || strayAfter != 0; }
};

// The trace's span itself when nothing is cut (or when cancelled). One pass over the event
// columns, a second one only when a margin is cut.
DataExtent dataExtent(const Trace& trace, const std::atomic<bool>* cancel = nullptr);

// The window shown around a moment picked elsewhere (a click on the memory chart): centred on
// it, `fraction` of the extent wide and at least 1 µs, whatever the zoom was before, so the
// ops around the moment are in view and it is not lost in a window of a few ns.
std::pair<TimeNs, TimeNs> windowAround(TimeNs moment, const DataExtent& extent, double fraction = 0.05);

}  // namespace tracescope
