// tracescope-cli queue FILE [--json|--csv] [--timeline-csv OUT] [--limit N]
// Queue length per stream as HTA's get_queue_length_summary / get_queue_length_time_series /
// get_time_spent_blocked_on_full_queue define it (model/analysis/queue_length.h).
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/results/launch_queue_results.h"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <iostream>

namespace tracescope::cli {

namespace {

const char* kUsage =
    "usage: tracescope-cli queue FILE [--json|--csv] [--timeline-csv OUT] [--limit N]\n"
    "  Queue length per stream, as HTA 0.5.0 defines it: the operations launched on a stream that\n"
    "  have not started yet (+1 when a launch call begins, -1 when its kernel, memcpy or memset\n"
    "  begins; launch calls as launch-stats takes them).\n"
    "  Per device and stream: HTA's summary (pandas describe() over the samples, one per change,\n"
    "  not weighted by time: samples, mean, std, min, p25, median, p75, max), the time-weighted mean,\n"
    "  and time_at_limit_ns, the time at or above the limit (CUDA's launch queue: 1024 entries).\n"
    "  --limit N              the queue limit (default 1024)\n"
    "  --timeline-csv OUT     write the series: device,stream,time_ns,queue_length (a row per change)\n"
    "  --json   streams, limit, counts, notes, warnings\n"
    "  --csv    a row per stream\n";

nlohmann::json streamJson(const QueueLengthStream& s) {
    return {{"device", s.device},
            {"stream", s.stream},
            {"launches", s.launches},
            {"samples", s.samples},
            {"mean", s.mean},
            {"std", s.std},
            {"min", s.min},
            {"p25", s.p25},
            {"median", s.median},
            {"p75", s.p75},
            {"max", s.max},
            {"time_weighted_mean", s.timeWeightedMean},
            {"time_at_limit_ns", s.timeAtLimitNs}};
}

bool writeTimeline(const QueueLengthResult& q, const std::string& path) {
    std::ofstream out(path, std::ios::binary);
    if (!out) return false;
    out << "device,stream,time_ns,queue_length\n";
    for (const QueueLengthStream& s : q.streams)
        for (size_t i = 0; i < s.time.size(); ++i)
            out << s.device << ',' << s.stream << ',' << s.time[i] << ',' << s.value[i] << '\n';
    return bool(out);
}

}  // namespace

int runQueue(const Args& args) {
    if (hasFlag(args, "--help") || hasFlag(args, "-h")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const auto files = positionals(args, {"--timeline-csv", "--limit"});
    if (files.size() != 1) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    QueueLengthOptions options;
    if (hasFlag(args, "--limit")) {
        const std::string v = flagValue(args, "--limit");
        int64_t limit = 0;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), limit);
        if (ec != std::errc() || end != v.data() + v.size() || limit < 1) {
            std::fprintf(stderr, "tracescope-cli queue: --limit needs a positive integer, got '%s'\n", v.c_str());
            return 2;
        }
        options.limit = limit;
    }
    const std::string timeline = flagValue(args, "--timeline-csv");
    if (hasFlag(args, "--timeline-csv") && timeline.empty()) {
        std::fputs("tracescope-cli queue: --timeline-csv needs a file name\n", stderr);
        return 2;
    }
    std::shared_ptr<const Trace> trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    const std::shared_ptr<const QueueLengthResult> result = queueLengthOf(*ResultStore::of(trace), options);
    const QueueLengthResult& q = *result;
    if (!timeline.empty() && !writeTimeline(q, timeline)) {
        std::fprintf(stderr, "tracescope-cli queue: cannot write %s\n", timeline.c_str());
        return 1;
    }
    if (hasFlag(args, "--json")) {
        nlohmann::json j;
        j["streams"] = nlohmann::json::array();
        for (const QueueLengthStream& s : q.streams) j["streams"].push_back(streamJson(s));
        j["limit"] = q.options.limit;
        j["counts"] = {{"launches", q.launches},
                       {"device_activities", q.activities},
                       {"without_call", q.withoutCall},
                       {"other_calls", q.otherCalls}};
        j["notes"] = q.notes;
        printJson(j);
        return 0;
    }
    if (hasFlag(args, "--csv")) {
        std::cout << "device,stream,launches,samples,mean,std,min,p25,median,p75,max,time_weighted_mean,"
                     "time_at_limit_ns\n";
        for (const QueueLengthStream& s : q.streams) {
            char b[256];
            std::snprintf(b, sizeof b, "%lld,%lld,%llu,%llu,%.17g,%.17g,%g,%.17g,%.17g,%.17g,%g,%.17g,%lld\n",
                          (long long)s.device, (long long)s.stream, (unsigned long long)s.launches,
                          (unsigned long long)s.samples, s.mean, s.std, s.min, s.p25, s.median, s.p75, s.max,
                          s.timeWeightedMean, (long long)s.timeAtLimitNs);
            std::cout << b;
        }
        return 0;
    }
    std::printf("%8s %8s %9s %9s %7s %7s %9s %16s  (limit %lld)\n", "device", "stream", "launches", "mean", "median",
                "max", "tw-mean", "at limit (ns)", (long long)q.options.limit);
    for (const QueueLengthStream& s : q.streams)
        std::printf("%8lld %8lld %9llu %9.3f %7g %7g %9.3f %16lld\n", (long long)s.device, (long long)s.stream,
                    (unsigned long long)s.launches, s.mean, s.median, s.max, s.timeWeightedMean,
                    (long long)s.timeAtLimitNs);
    for (const std::string& n : q.notes) std::printf("Note: %s\n", n.c_str());
    return 0;
}

}  // namespace tracescope::cli
