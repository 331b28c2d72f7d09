// tracescope-cli info FILE [--json], info --list-runs DIR [--json]
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"
#include "app/cli/run_choice.h"

#include "model/import/import.h"
#include "model/trace/producer.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>

namespace tracescope::cli {

int runInfo(const Args& args) {
    const auto files = positionals(args);
    if (files.size() != 1) {
        std::fprintf(stderr, "usage: tracescope-cli info FILE [--json] [--run N], info --list-runs DIR [--json]\n");
        return 2;
    }
    if (hasFlag(args, "--list-runs")) return listRunsCommand(files[0], hasFlag(args, "--json"));
    const auto t0 = std::chrono::steady_clock::now();
    RunInfo run;  // the run opened, when FILE is a folder of runs
    ImportResult result = openCliPath(files[0], cliImportOptions(), &run);
    const double loadMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!result.ok()) {
        std::fprintf(stderr, "tracescope-cli: %s\n", result.error.c_str());
        return 1;
    }
    const Trace& trace = *result.trace;
    reportImportWarnings(trace.warnings);
    const TraceCounts c = trace.counts();
    nlohmann::json j;
    j["file"] = files[0];
    j["format"] = trace.format;
    j["producer"] = std::string(producerName(detectProducer(trace), trace.format));
    j["hosts"] = trace.hosts;
    j["processes"] = c.processes;
    j["tracks"] = c.tracks;
    j["counter_tracks"] = c.counterTracks;
    j["slices"] = c.slices;
    j["async_slices"] = c.asyncSlices;
    j["instants"] = c.instants;
    j["counter_samples"] = c.counterSamples;
    j["flows"] = c.flows;
    j["span_ns"] = trace.spanNs();
    j["warnings"] = warningsJson(trace.warnings);
    j["load_ms"] = static_cast<long long>(loadMs + 0.5);
    j["peak_rss_bytes"] = peakRssBytes();
    j["event_bytes"] = trace.eventMemoryBytes();
    j["string_table_bytes"] = trace.strings.memoryBytes();
    // Every *_ns time the commands print is relative to this point of the file's own clock.
    j["origin_ns"] = trace.originNs;
    if (trace.originUnixNs) j["origin_unix_ns"] = *trace.originUnixNs;
    if (!run.files.empty()) j["run"] = {{"name", run.name}, {"workers", run.hosts}, {"files", run.files}};

    if (hasFlag(args, "--json")) {
        std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        return 0;
    }
    std::printf("%s  (%s, %s)\n", files[0].c_str(), trace.format.c_str(),
                std::string(producerName(detectProducer(trace), trace.format)).c_str());
    if (!run.files.empty()) {
        std::string workers;
        for (const std::string& h : run.hosts) workers += (workers.empty() ? "" : ", ") + h;
        std::printf("  run           %s, workers: %s (info --list-runs lists the folder's runs)\n", run.name.c_str(),
                    workers.c_str());
    }
    std::printf("  span          %.3f ms\n", double(trace.spanNs()) / 1e6);
    std::printf("  processes     %zu\n  tracks        %zu (+%zu counter tracks)\n", c.processes, c.tracks,
                c.counterTracks);
    std::printf("  slices        %zu\n  async slices  %zu\n  instants      %zu\n", c.slices, c.asyncSlices, c.instants);
    std::printf("  counter samp. %zu\n  flows         %zu\n", c.counterSamples, c.flows);
    std::printf("  loaded in     %.0f ms, peak RSS %.1f MB\n", loadMs, double(peakRssBytes()) / 1e6);
    for (const Process& p : trace.processes) {
        size_t events = 0;
        for (TrackIndex t : p.tracks) {
            const Track& tr = trace.tracks[t];
            events += tr.slices.size() + tr.instants.size() + tr.counter.size();
        }
        std::printf("  process %-40s %zu tracks, %zu events\n", p.name.c_str(), p.tracks.size(), events);
    }
    if (!trace.warnings.empty()) std::printf("  warnings      %zu (on stderr)\n", trace.warnings.size());
    return 0;
}

}  // namespace tracescope::cli
