#include "model/query/track_layout.h"

#include "model/query/track_order.h"
#include "model/trace/text_match.h"

#include <algorithm>

namespace tracescope {


void TrackLayout::build(const Trace& trace, const std::vector<uint8_t>& collapsed, const TrackMetrics& m) {
    TrackLayoutOptions options;
    options.collapsed = collapsed;
    build(trace, options, m);
}

std::vector<OrderedProcess> userTrackOrder(const Trace& trace, const TrackLayoutOptions& options) {
    std::vector<OrderedProcess> order = defaultTrackOrder(trace);
    auto rankOf = [](const std::vector<int32_t>& ranks, uint32_t i) { return i < ranks.size() ? ranks[i] : 0; };
    if (!options.processRank.empty())
        std::stable_sort(order.begin(), order.end(), [&](const OrderedProcess& a, const OrderedProcess& b) {
            return rankOf(options.processRank, a.process) < rankOf(options.processRank, b.process);
        });
    if (!options.trackRank.empty())
        for (OrderedProcess& op : order)
            std::stable_sort(op.tracks.begin(), op.tracks.end(), [&](TrackIndex a, TrackIndex b) {
                return rankOf(options.trackRank, a) < rankOf(options.trackRank, b);
            });
    return order;
}

namespace {

// Moves `moving` next to `target` in `order` and writes the new positions as ranks.
template <typename Index>
bool moveInOrder(std::vector<Index> order, Index moving, Index target, bool after, std::vector<int32_t>& ranks,
                 size_t count) {
    auto from = std::find(order.begin(), order.end(), moving);
    if (from == order.end() || std::find(order.begin(), order.end(), target) == order.end()) return false;
    if (moving == target) return true;
    order.erase(from);
    auto to = std::find(order.begin(), order.end(), target);
    order.insert(after ? to + 1 : to, moving);
    if (ranks.size() < count) ranks.resize(count, 0);
    for (size_t i = 0; i < order.size(); ++i) ranks[order[i]] = int32_t(i);
    return true;
}

}  // namespace

bool moveProcess(const Trace& trace, TrackLayoutOptions& options, ProcessIndex moving, ProcessIndex target, bool after) {
    std::vector<ProcessIndex> order;
    for (const OrderedProcess& op : userTrackOrder(trace, options)) order.push_back(op.process);
    return moveInOrder(order, moving, target, after, options.processRank, trace.processes.size());
}

bool moveTrack(const Trace& trace, TrackLayoutOptions& options, TrackIndex moving, TrackIndex target, bool after) {
    if (moving >= trace.tracks.size() || target >= trace.tracks.size() ||
        trace.tracks[moving].process != trace.tracks[target].process)
        return false;
    for (const OrderedProcess& op : userTrackOrder(trace, options))
        if (op.process == trace.tracks[moving].process)
            return moveInOrder(op.tracks, moving, target, after, options.trackRank, trace.tracks.size());
    return false;
}

void TrackLayout::build(const Trace& trace, const TrackLayoutOptions& options, const TrackMetrics& m) {
    const std::vector<uint8_t>& collapsed = options.collapsed;
    metrics_ = m;
    rows_.clear();
    trackRow_.assign(trace.tracks.size(), -1);
    processRow_.assign(trace.processes.size(), -1);
    auto flag = [](const std::vector<uint8_t>& v, uint32_t i) { return i < v.size() && v[i]; };
    int y = 0;
    auto addTrack = [&](ProcessIndex p, TrackIndex t, bool pinned) {
        const Track& track = trace.tracks[t];
        LayoutRow row{LayoutRow::Kind::Track, p, t, y, 0, 0, 0, pinned};
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
    };
    // Derived tracks by process, kept only where they match the name filter.
    std::vector<std::vector<uint32_t>> derivedOf(trace.processes.size());
    for (uint32_t d = 0; d < options.derived.size(); ++d) {
        const auto& dt = options.derived[d];
        if (dt.process >= trace.processes.size()) continue;
        const std::vector<std::string>& hidden = options.hiddenDerived;
        if (std::find(hidden.begin(), hidden.end(), dt.name) != hidden.end()) continue;
        if (!containsIgnoringCase(trace.processes[dt.process].name, options.nameFilter) &&
            !containsIgnoringCase(dt.name, options.nameFilter))
            continue;
        derivedOf[dt.process].push_back(d);
    }
    std::vector<OrderedProcess> order = userTrackOrder(trace, options);
    // A process with only derived tracks (no events of its own) is shown for them.
    std::vector<uint8_t> listed(trace.processes.size(), 0);
    for (const OrderedProcess& op : order) listed[op.process] = 1;
    for (ProcessIndex p = 0; p < trace.processes.size(); ++p)
        if (!listed[p] && !derivedOf[p].empty()) order.push_back({p, {}});
    // The pinned strip: pinned tracks in display order, whatever the filter or collapse says.
    for (const OrderedProcess& op : order)
        for (TrackIndex t : op.tracks)
            if (flag(options.pinnedTracks, t) && !flag(options.hiddenTracks, t)) addTrack(op.process, t, true);
    pinnedHeight_ = y;
    for (OrderedProcess op : order) {
        const ProcessIndex p = op.process;
        const bool processMatches = containsIgnoringCase(trace.processes[p].name, options.nameFilter);
        std::erase_if(op.tracks, [&](TrackIndex t) {
            if (flag(options.hiddenTracks, t) || flag(options.pinnedTracks, t)) return true;
            return !processMatches && !containsIgnoringCase(trace.tracks[t].name, options.nameFilter);
        });
        if (op.tracks.empty() && derivedOf[p].empty()) continue;
        processRow_[p] = int(rows_.size());
        rows_.push_back({LayoutRow::Kind::Process, p, kNoIndex, y, m.processHeader, 0});
        y += m.processHeader;
        if (flag(collapsed, p)) continue;
        for (TrackIndex t : op.tracks) addTrack(p, t, false);
        for (uint32_t d : derivedOf[p]) {
            // Boxes get a slice row per lane, and never less than a counter's height (the
            // header holds two lines).
            const int height = std::max(m.counterTrack, 2 * m.trackPadding +
                                                            int(std::min<uint32_t>(options.derived[d].lanes, 64)) *
                                                                m.sliceRow);
            rows_.push_back({LayoutRow::Kind::Derived, p, d, y, height, 0});
            y += height;
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
