#include "model/query/span_lanes.h"

#include <algorithm>
#include <cstdint>

namespace tracescope {

std::pair<size_t, size_t> spansInWindow(const DerivedSpans::Lane& lane, TimeNs t0, TimeNs t1) {
    // No box is longer than `longest`: one starting before t0 - longest ends before t0.
    const TimeNs from = minusSat(t0, lane.longest);
    const size_t first = size_t(std::lower_bound(lane.start.begin(), lane.start.end(), from) - lane.start.begin());
    const size_t last = size_t(std::lower_bound(lane.start.begin(), lane.start.end(), t1) - lane.start.begin());
    return {first, std::max(first, last)};
}

size_t spanAt(const DerivedSpans::Lane& lane, TimeNs t, TimeNs slack) {
    const auto [first, last] = spansInWindow(lane, minusSat(t, slack), plusSat(plusSat(t, slack), 1));
    for (size_t i = last; i-- > first;)
        if (lane.start[i] <= plusSat(t, slack) && lane.end[i] >= minusSat(t, slack)) return i;
    return SIZE_MAX;
}

}  // namespace tracescope
