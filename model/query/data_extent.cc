#include "model/query/data_extent.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace tracescope {

namespace {

// Events per bucket (by start), how many events cover each bucket, and the earliest start and
// latest end of the events starting in each: one pass, so the extent needs no second one.
struct Occupancy {
    static constexpr size_t n = DataExtent::kBuckets;
    TimeNs start, span;
    double scale;  // buckets per ns: a multiply per event, not a division
    std::vector<uint64_t> starts = std::vector<uint64_t>(n, 0);
    std::vector<int64_t> cover = std::vector<int64_t>(n + 1, 0);  // a difference array, then running sums
    std::vector<TimeNs> minStart = std::vector<TimeNs>(n, std::numeric_limits<TimeNs>::max());
    std::vector<TimeNs> maxEnd = std::vector<TimeNs>(n, std::numeric_limits<TimeNs>::min());
    uint64_t events = 0;

    explicit Occupancy(const Trace& trace)
        : start(trace.startNs), span(trace.spanNs()), scale(double(n) / double(trace.spanNs())) {}
    size_t bucket(TimeNs t) const {
        const double k = double(minusSat(t, start)) * scale;
        return k <= 0 ? 0 : std::min(n - 1, size_t(k));
    }
    void add(TimeNs s, TimeNs e) {
        const size_t k = bucket(s);
        ++starts[k];
        ++cover[k];
        --cover[(e == s ? k : bucket(e)) + 1];
        minStart[k] = std::min(minStart[k], s);
        maxEnd[k] = std::max(maxEnd[k], e);
    }
    bool collect(const Trace& trace, const std::atomic<bool>* cancel) {
        for (const Track& track : trace.tracks) {
            if (cancel && cancel->load(std::memory_order_relaxed)) return false;
            const SliceColumns& s = track.slices;
            for (size_t i = 0; i < s.size(); ++i) add(s.start[i], s.end(i));
            for (TimeNs t : track.instants.time) add(t, t);
            for (TimeNs t : track.counter.time) add(t, t);
            events += s.size() + track.instants.size() + track.counter.size();
        }
        for (size_t k = 1; k < cover.size(); ++k) cover[k] += cover[k - 1];
        return true;
    }
};

}  // namespace

DataExtent dataExtent(const Trace& trace, const std::atomic<bool>* cancel) {
    DataExtent extent{trace.startNs, trace.endNs};
    if (trace.spanNs() <= 0) return extent;
    Occupancy o(trace);
    if (!o.collect(trace, cancel)) return extent;
    const uint64_t limit = uint64_t(double(o.events) * DataExtent::kStrayFraction);
    const size_t n = DataExtent::kBuckets;
    const size_t longGap = size_t(std::ceil(double(n) * DataExtent::kLongGapFraction));
    auto covered = [&](size_t k) { return o.cover[k] > 0; };

    // From the start: [0, first) is cut; `before` counts the events up to bucket k.
    size_t first = 0;
    uint64_t before = 0, cutBefore = 0;
    for (size_t k = 0; k < n && before <= limit;) {
        if (covered(k)) {
            before += o.starts[k++];
            continue;
        }
        size_t j = k;
        while (j < n && !covered(j)) ++j;
        if (j < n && j - k >= longGap) {
            first = j;
            cutBefore = before;
        }
        k = j;
    }
    // From the end: (last, n) is cut, never reaching into what the start kept.
    size_t last = n - 1;
    uint64_t after = 0, cutAfter = 0;
    for (size_t k = n; k > first && after <= limit;) {
        if (covered(k - 1)) {
            after += o.starts[--k];
            continue;
        }
        size_t j = k;  // the run is [j, k)
        while (j > first && !covered(j - 1)) --j;
        if (j > first && k - j >= longGap) {
            last = j - 1;
            cutAfter = after;
        }
        k = j;
    }
    if (cutBefore == 0 && cutAfter == 0) return extent;
    // No event from outside [first, last] reaches into it (the long stretches between are
    // empty), so the events starting in it give the extent.
    TimeNs begin = std::numeric_limits<TimeNs>::max(), end = std::numeric_limits<TimeNs>::min();
    for (size_t k = first; k <= last; ++k) {
        begin = std::min(begin, o.minStart[k]);
        end = std::max(end, o.maxEnd[k]);
    }
    if (begin > end) return extent;
    return {begin, end, cutBefore, cutAfter};
}

std::pair<TimeNs, TimeNs> windowAround(TimeNs moment, const DataExtent& extent, double fraction) {
    const double width = std::max(1000.0, double(durationBetween(extent.begin, extent.end)) * fraction);
    const TimeNs half = TimeNs(std::llround(width / 2));
    return {minusSat(moment, half), plusSat(moment, half)};
}

}  // namespace tracescope
