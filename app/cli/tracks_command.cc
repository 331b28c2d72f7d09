// tracescope-cli tracks FILE [--json]: the tracks in the order the timeline
// shows them by default (model/query/track_order.h; saved layouts ignored).
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/query/track_order.h"

#include <cstdio>

namespace tracescope::cli {

namespace {

const char* kindName(TrackKind k) {
    switch (k) {
    case TrackKind::Thread: return "thread";
    case TrackKind::Async: return "async";
    case TrackKind::Counter: return "counter";
    case TrackKind::Markers: return "markers";
    }
    return "other";
}

}  // namespace

int runTracks(const Args& args) {
    const auto files = positionals(args);
    if (files.size() != 1) {
        std::fprintf(stderr, "usage: tracescope-cli tracks FILE [--json]\n");
        return 2;
    }
    auto trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    const std::vector<OrderedProcess> order = defaultTrackOrder(*trace);
    struct Row {
        const Process* process;
        const Track* track;
    };
    std::vector<Row> rows;
    for (const OrderedProcess& op : order)
        for (TrackIndex t : op.tracks) rows.push_back({&trace->processes[op.process], &trace->tracks[t]});
    if (hasFlag(args, "--json")) {
        printJsonWithRows(nlohmann::json::object(), rows.size(), [&](size_t i) {
            const Row& r = rows[i];
            return nlohmann::json{{"process", r.process->name},
                                  {"pid", r.process->pid},
                                  {"track", r.track->name},
                                  {"tid", r.track->tid},
                                  {"kind", kindName(r.track->kind)},
                                  {"overflow", r.track->overflowOf != kNoIndex},
                                  {"events", trackEventCount(*r.track)}};
        });
        return 0;
    }
    std::printf("%-40s %-40s %-8s %10s\n", "process", "track", "kind", "events");
    for (const Row& r : rows)
        std::printf("%-40s %-40s %-8s %10zu\n", r.process->name.c_str(),
                    r.track->name.c_str(),
                    kindName(r.track->kind), trackEventCount(*r.track));
    return 0;
}

}  // namespace tracescope::cli
