#include "model/query/track_order.h"

#include <algorithm>
#include <numeric>

namespace tracescope {

size_t trackEventCount(const Track& track) { return track.slices.size() + track.instants.size() + track.counter.size(); }

bool isKinetoTrace(const Trace& trace) {
    return trace.format == "chrome-json" && trace.metadataValue("schemaVersion") && trace.metadataValue("deviceProperties");
}

std::vector<OrderedProcess> defaultTrackOrder(const Trace& trace) {
    // Processes: those with a sort index first, by it; the rest keep the importer's order
    // (devices first), except that a Kineto trace shows its host first.
    const bool kineto = isKinetoTrace(trace);
    auto implicitRank = [&](const Process& p) {
        if (!kineto) return 0;
        return p.kind == ProcessKind::Host ? 0 : p.kind == ProcessKind::Device ? 1 : 2;
    };
    std::vector<ProcessIndex> processes(trace.processes.size());
    std::iota(processes.begin(), processes.end(), ProcessIndex(0));
    std::stable_sort(processes.begin(), processes.end(), [&](ProcessIndex a, ProcessIndex b) {
        const Process& x = trace.processes[a];
        const Process& y = trace.processes[b];
        if (x.hasSortIndex != y.hasSortIndex) return x.hasSortIndex;
        if (!x.hasSortIndex) return implicitRank(x) < implicitRank(y);
        if (x.sortIndex != y.sortIndex) return x.sortIndex < y.sortIndex;
        return x.pid < y.pid;
    });
    std::vector<OrderedProcess> out;
    for (ProcessIndex p : processes) {
        // Tracks: overflow lanes stay right after their track; the others by sort index when they have one.
        std::vector<TrackIndex> main;
        for (TrackIndex t : trace.processes[p].tracks)
            if (trace.tracks[t].overflowOf == kNoIndex) main.push_back(t);
        std::stable_sort(main.begin(), main.end(), [&](TrackIndex a, TrackIndex b) {
            const Track& x = trace.tracks[a];
            const Track& y = trace.tracks[b];
            if (x.hasSortIndex != y.hasSortIndex) return x.hasSortIndex;
            return x.hasSortIndex && x.sortIndex < y.sortIndex;
        });
        OrderedProcess op{p, {}};
        for (TrackIndex t : main) {
            if (trackEventCount(trace.tracks[t]) > 0) op.tracks.push_back(t);
            for (TrackIndex o : trace.processes[p].tracks)
                if (trace.tracks[o].overflowOf == t && trackEventCount(trace.tracks[o]) > 0) op.tracks.push_back(o);
        }
        if (!op.tracks.empty()) out.push_back(std::move(op));
    }
    return out;
}

}  // namespace tracescope
