// Aggregate of the slices in a time range, grouped by name (the table shown
// for a range selection in the timeline).
//
// Membership rule: a slice belongs to the range when its START lies in
// [begin, end). A slice that starts before the range is left out even if it
// overlaps it, and a slice that starts inside is counted whole even if it ends
// after `end`. This keeps every slice in at most one of two adjacent ranges,
// so range totals add up. Thread and async tracks count; counters and
// instants do not.
#pragma once

#include "model/trace/trace.h"

#include <vector>

namespace tracescope {

struct RangeAggregateRow {
    StringId name = kEmptyString;
    size_t count = 0;
    TimeNs total = 0;  // sum of durations
    TimeNs self = 0;   // sum of self times (duration minus direct children)
    TimeNs average() const { return count ? total / TimeNs(count) : 0; }
};

struct RangeAggregate {
    TimeNs begin = 0;
    TimeNs end = 0;
    size_t sliceCount = 0;
    // Sorted by total descending, then name id.
    std::vector<RangeAggregateRow> rows;
};

// `tracks` restricts the aggregate to those tracks; empty means all tracks.
RangeAggregate aggregateRange(const Trace& trace, TimeNs begin, TimeNs end,
                              const std::vector<TrackIndex>& tracks = {});

}  // namespace tracescope
