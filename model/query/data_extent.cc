#include "model/query/data_extent.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace tracescope {

namespace {

class Buckets {
public:
    explicit Buckets(const Trace& trace) : start_(trace.startNs), span_(trace.spanNs()) {}
    // (t - start) * n / span without overflow, clamped to the span.
    size_t of(TimeNs t) const {
        const __int128 offset = std::clamp<TimeNs>(minusSat(t, start_), 0, span_);
        return std::min(DataExtent::kBuckets - 1, size_t(offset * __int128(DataExtent::kBuckets) / span_));
    }

private:
    TimeNs start_, span_;
};

// Events per bucket (by start) and how many events cover each bucket.
struct Occupancy {
    std::vector<uint64_t> starts = std::vector<uint64_t>(DataExtent::kBuckets, 0);
    std::vector<int64_t> cover = std::vector<int64_t>(DataExtent::kBuckets + 1, 0);  // a difference array, then sums
    uint64_t events = 0;
};

bool occupancy(const Trace& trace, const Buckets& b, Occupancy& o, const std::atomic<bool>* cancel) {
    auto point = [&](TimeNs t) {
        const size_t k = b.of(t);
        ++o.starts[k];
        ++o.cover[k];
        --o.cover[k + 1];
    };
    for (const Track& track : trace.tracks) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return false;
        const SliceColumns& s = track.slices;
        for (size_t i = 0; i < s.size(); ++i) {
            const size_t k = b.of(s.start[i]);
            ++o.starts[k];
            ++o.cover[k];
            --o.cover[b.of(s.end(i)) + 1];
        }
        for (TimeNs t : track.instants.time) point(t);
        for (TimeNs t : track.counter.time) point(t);
        o.events += s.size() + track.instants.size() + track.counter.size();
    }
    for (size_t k = 1; k < o.cover.size(); ++k) o.cover[k] += o.cover[k - 1];
    return true;
}

}  // namespace

DataExtent dataExtent(const Trace& trace, const std::atomic<bool>* cancel) {
    DataExtent extent{trace.startNs, trace.endNs};
    if (trace.spanNs() <= 0) return extent;
    const Buckets buckets(trace);
    Occupancy o;
    if (!occupancy(trace, buckets, o, cancel)) return extent;
    const uint64_t limit = uint64_t(double(o.events) * DataExtent::kStrayFraction);
    const size_t longGap = size_t(std::ceil(double(DataExtent::kBuckets) * DataExtent::kLongGapFraction));
    const size_t n = DataExtent::kBuckets;
    auto covered = [&](size_t k) { return o.cover[k] > 0; };

    // From the start: [0, first) is cut; `before` counts the events there and up to bucket k.
    size_t first = 0;
    uint64_t before = 0, cutBefore = 0;
    for (size_t k = 0; k < n && before <= limit;) {
        if (covered(k)) {
            before += o.starts[k++];
            continue;
        }
        size_t j = k;
        while (j < n && !covered(j)) ++j;
        if (j < n && j - k >= longGap && before <= limit) {
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
        if (j > first && k - j >= longGap && after <= limit) {
            last = j - 1;
            cutAfter = after;
        }
        k = j;
    }
    if (cutBefore == 0 && cutAfter == 0) return extent;

    // The exact times of the events kept.
    TimeNs begin = std::numeric_limits<TimeNs>::max(), end = std::numeric_limits<TimeNs>::min();
    auto keep = [&](TimeNs s, TimeNs e) {
        const size_t k = buckets.of(s);
        if (k < first || k > last) return;
        begin = std::min(begin, s);
        end = std::max(end, e);
    };
    for (const Track& track : trace.tracks) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return extent;
        for (size_t i = 0; i < track.slices.size(); ++i) keep(track.slices.start[i], track.slices.end(i));
        for (TimeNs t : track.instants.time) keep(t, t);
        for (TimeNs t : track.counter.time) keep(t, t);
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
