// tracescope-cli tracks FILE [--json]: the tracks in the order the timeline
// shows them by default (model/query/track_order.h; saved layouts ignored), then the
// derived tracks the timeline adds (memory counters, model/analysis/memory_tracks.h; the GPU
// streams' queue lengths, model/analysis/queue_length.h), marked "derived".
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/analysis/memory_tracks.h"
#include "model/results/launch_queue_results.h"
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
    std::shared_ptr<const Trace> trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    const std::vector<OrderedProcess> order = defaultTrackOrder(*trace);
    struct Row {
        const Process* process;
        std::string track;
        int64_t tid;
        const char* kind;
        bool overflow;
        size_t events;
        bool derived;
    };
    std::vector<Row> rows;
    for (const OrderedProcess& op : order)
        for (TrackIndex t : op.tracks) {
            const Track& tr = trace->tracks[t];
            rows.push_back({&trace->processes[op.process], tr.name, tr.tid, kindName(tr.kind), tr.overflowOf != kNoIndex,
                            trackEventCount(tr), false});
        }
    static const Process none{};
    std::vector<DerivedCounterTrack> derived = memoryCounterTracks(computeMemoryProfile(*trace, /*findStepsToo=*/false));
    for (DerivedCounterTrack& d : queueLengthCounterTracks(*trace, *queueLengthOf(*ResultStore::of(trace))))
        derived.push_back(std::move(d));
    for (const DerivedCounterTrack& d : derived)
        rows.push_back({d.process < trace->processes.size() ? &trace->processes[d.process] : &none, d.name, 0,
                        "counter", false, d.series.size(), true});
    if (hasFlag(args, "--json")) {
        printJsonWithRows(nlohmann::json::object(), rows.size(), [&](size_t i) {
            const Row& r = rows[i];
            return nlohmann::json{{"process", r.process->name},
                                  {"pid", r.process->pid},
                                  {"track", r.track},
                                  {"tid", r.tid},
                                  {"kind", r.kind},
                                  {"overflow", r.overflow},
                                  {"events", r.events},
                                  {"derived", r.derived}};
        });
        return 0;
    }
    std::printf("%-40s %-40s %-8s %10s\n", "process", "track", "kind", "events");
    for (const Row& r : rows)
        std::printf("%-40s %-40s %-8s %10zu%s\n", r.process->name.c_str(), r.track.c_str(), r.kind, r.events,
                    r.derived ? "  (derived)" : "");
    return 0;
}

}  // namespace tracescope::cli
