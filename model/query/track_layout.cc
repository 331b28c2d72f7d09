#include "model/query/track_layout.h"

#include "model/query/track_order.h"

#include <algorithm>

namespace tracescope {

namespace {

bool containsNoCase(std::string_view text, std::string_view needle) {
    if (needle.empty()) return true;
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    for (size_t i = 0; i + needle.size() <= text.size(); ++i) {
        size_t k = 0;
        while (k < needle.size() && lower(text[i + k]) == lower(needle[k])) ++k;
        if (k == needle.size()) return true;
    }
    return false;
}

}  // namespace

void TrackLayout::build(const Trace& trace, const std::vector<uint8_t>& collapsed, const TrackMetrics& m) {
    TrackLayoutOptions options;
    options.collapsed = collapsed;
    build(trace, options, m);
}

void TrackLayout::build(const Trace& trace, const TrackLayoutOptions& options, const TrackMetrics& m) {
    const std::vector<uint8_t>& collapsed = options.collapsed;
    metrics_ = m;
    rows_.clear();
    trackRow_.assign(trace.tracks.size(), -1);
    processRow_.assign(trace.processes.size(), -1);
    int y = 0;
    // Derived tracks by process, kept only where they match the name filter.
    std::vector<std::vector<uint32_t>> derivedOf(trace.processes.size());
    for (uint32_t d = 0; d < options.derived.size(); ++d) {
        const auto& dt = options.derived[d];
        if (dt.process >= trace.processes.size()) continue;
        if (!containsNoCase(trace.processes[dt.process].name, options.nameFilter) &&
            !containsNoCase(dt.name, options.nameFilter))
            continue;
        derivedOf[dt.process].push_back(d);
    }
    std::vector<OrderedProcess> order = defaultTrackOrder(trace);
    // A process with only derived tracks (no events of its own) is shown for them.
    std::vector<uint8_t> listed(trace.processes.size(), 0);
    for (const OrderedProcess& op : order) listed[op.process] = 1;
    for (ProcessIndex p = 0; p < trace.processes.size(); ++p)
        if (!listed[p] && !derivedOf[p].empty()) order.push_back({p, {}});
    for (OrderedProcess op : order) {
        const ProcessIndex p = op.process;
        const bool processMatches = containsNoCase(trace.processes[p].name, options.nameFilter);
        std::erase_if(op.tracks, [&](TrackIndex t) {
            if (t < options.hiddenTracks.size() && options.hiddenTracks[t]) return true;
            return !processMatches && !containsNoCase(trace.tracks[t].name, options.nameFilter);
        });
        if (op.tracks.empty() && derivedOf[p].empty()) continue;
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
        for (uint32_t d : derivedOf[p]) {
            rows_.push_back({LayoutRow::Kind::Derived, p, d, y, m.counterTrack, 0});
            y += m.counterTrack;
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
