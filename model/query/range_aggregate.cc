#include "model/query/range_aggregate.h"

#include <algorithm>
#include <unordered_map>

namespace tracescope {

namespace {

// Adds one track's slices starting in [begin, end) to `rows`.
void aggregateTrack(const Trace& trace, TrackIndex t, TimeNs begin, TimeNs end,
                    std::unordered_map<StringId, RangeAggregateRow>& rows, size_t& sliceCount) {
    const Track& track = trace.tracks[t];
    const SliceColumns& c = track.slices;
    const auto lo = size_t(std::lower_bound(c.start.begin(), c.start.end(), begin) - c.start.begin());
    const auto hi = size_t(std::lower_bound(c.start.begin(), c.start.end(), end) - c.start.begin());
    if (lo >= hi) return;

    // Self time of each member: its duration minus its direct children. Children
    // of a member may start after `end`, so walk on until the last member ends.
    std::vector<TimeNs> self(hi - lo);
    TimeNs lastEnd = end;
    for (size_t k = lo; k < hi; ++k) {
        self[k - lo] = c.duration[k];
        lastEnd = std::max(lastEnd, c.end(k));
    }
    if (track.kind == TrackKind::Thread) {
        // lastAtDepth[d]: the latest slice seen at depth d. In a properly nested
        // track the parent of a slice at depth d is the latest slice at depth d-1.
        std::vector<size_t> lastAtDepth;
        for (size_t k = lo; k < c.size() && c.start[k] < lastEnd; ++k) {
            const uint32_t d = c.depth(k);
            if (d >= lastAtDepth.size()) lastAtDepth.resize(d + 1, SIZE_MAX);
            lastAtDepth[d] = k;
            if (d == 0) continue;
            const size_t p = lastAtDepth[d - 1];
            if (p != SIZE_MAX && p >= lo && p < hi) subSat(self[p - lo], c.duration[k]);
        }
    }
    for (size_t k = lo; k < hi; ++k) {
        RangeAggregateRow& row = rows[c.name[k]];
        row.name = c.name[k];
        ++row.count;
        addSat(row.total, c.duration[k]);
        addSat(row.self, std::max<TimeNs>(self[k - lo], 0));
    }
    sliceCount += hi - lo;
}

}  // namespace

RangeAggregate aggregateRange(const Trace& trace, TimeNs begin, TimeNs end, const std::vector<TrackIndex>& tracks) {
    RangeAggregate out;
    out.begin = begin;
    out.end = end;
    if (end <= begin) return out;
    std::unordered_map<StringId, RangeAggregateRow> rows;
    auto visit = [&](TrackIndex t) {
        if (t >= trace.tracks.size()) return;
        const TrackKind kind = trace.tracks[t].kind;
        if (kind == TrackKind::Thread || kind == TrackKind::Async)
            aggregateTrack(trace, t, begin, end, rows, out.sliceCount);
    };
    if (tracks.empty()) {
        for (TrackIndex t = 0; t < trace.tracks.size(); ++t) visit(t);
    } else {
        for (TrackIndex t : tracks) visit(t);
    }
    out.rows.reserve(rows.size());
    for (auto& [name, row] : rows) out.rows.push_back(row);
    std::sort(out.rows.begin(), out.rows.end(), [](const RangeAggregateRow& a, const RangeAggregateRow& b) {
        return a.total != b.total ? a.total > b.total : a.name < b.name;
    });
    return out;
}

}  // namespace tracescope
