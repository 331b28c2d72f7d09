#include "model/query/track_layout.h"

#include "model/query/track_order.h"

#include <algorithm>

namespace tracescope {

void TrackLayout::build(const Trace& trace, const std::vector<uint8_t>& collapsed, const TrackMetrics& m) {
    metrics_ = m;
    rows_.clear();
    trackRow_.assign(trace.tracks.size(), -1);
    processRow_.assign(trace.processes.size(), -1);
    int y = 0;
    for (const OrderedProcess& op : defaultTrackOrder(trace)) {
        const ProcessIndex p = op.process;
        processRow_[p] = int(rows_.size());
        rows_.push_back({LayoutRow::Kind::Process, p, kNoIndex, y, m.processHeader, 0});
        y += m.processHeader;
        if (p < collapsed.size() && collapsed[p]) continue;
        for (TrackIndex t : op.tracks) {
            const Track& track = trace.tracks[t];
            LayoutRow row{LayoutRow::Kind::Track, p, t, y, 0, 0};
            switch (track.kind) {
            case TrackKind::Counter: row.height = m.counterTrack; break;
            case TrackKind::Markers: row.height = m.markerTrack; break;
            case TrackKind::Thread:
            case TrackKind::Async:
                row.depths = std::max<uint32_t>(1, track.maxDepth);
                // Guard the int arithmetic against absurd nesting (depth is capped at 32767).
                row.slicesTop = m.trackPadding + (track.instants.empty() ? 0 : m.markerStrip);
                row.height = int(std::min<uint32_t>(row.depths, 40000)) * m.sliceRow + row.slicesTop + m.trackPadding;
                break;
            }
            trackRow_[t] = int(rows_.size());
            rows_.push_back(row);
            y += row.height;
        }
    }
    height_ = y;
}

size_t TrackLayout::firstRowBelow(int y) const {
    auto it = std::partition_point(rows_.begin(), rows_.end(), [&](const LayoutRow& r) { return r.y + r.height <= y; });
    return size_t(it - rows_.begin());
}

const LayoutRow* TrackLayout::rowAt(int y) const {
    const size_t i = firstRowBelow(y);
    if (i >= rows_.size() || rows_[i].y > y) return nullptr;
    return &rows_[i];
}

const LayoutRow* TrackLayout::rowOfTrack(TrackIndex t) const {
    if (t >= trackRow_.size() || trackRow_[t] < 0) return nullptr;
    return &rows_[size_t(trackRow_[t])];
}

const LayoutRow* TrackLayout::rowOfProcess(ProcessIndex p) const {
    if (p >= processRow_.size() || processRow_[p] < 0) return nullptr;
    return &rows_[size_t(processRow_[p])];
}

}  // namespace tracescope
