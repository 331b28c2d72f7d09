// tracescope-cli pod FILE|DIR|SUMMARY... [--json|--csv] [--step-marker NAME] [--all-steps]
//                   [--offset WORKER=NS]... [--force-merge]
// Per worker and step: the step-time breakdown, stragglers, communication overlap. From the
// traces, or from rank summaries (`summarize`, tracescope-pod) for runs of thousands of ranks.
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"
#include "app/cli/step_set_cli.h"

#include "model/analysis/pod.h"
#include "model/results/summary_run.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

namespace tracescope::cli {

namespace {

nlohmann::json overlapJson(const CommOverlap& o) {
    return {{"communication_ns", o.communicationNs},
            {"compute_ns", o.computeNs},
            {"overlapped_ns", o.overlappedNs},
            {"exposed_communication_ns", o.exposedNs}};
}

double ms(TimeNs ns) { return double(ns) / 1e6; }

// --offset WORKER=NS (repeatable): the worker's clock offset set by hand. False (and a message) on
// a malformed value or a worker the run does not have.
bool applyOffsets(const Args& args, MultiWorkerRun& run) {
    for (size_t i = 0; i + 1 < args.size(); ++i) {
        if (args[i] != "--offset") continue;
        const std::string& v = args[i + 1];
        const size_t eq = v.rfind('=');
        TimeNs ns = 0;
        if (eq == std::string::npos || eq == 0 || !parseTimeNs(std::string_view(v).substr(eq + 1), ns)) {
            std::fprintf(stderr, "tracescope-cli: --offset expects WORKER=NS (e.g. \"rank 3=-2500000\" or 3=-2500us), "
                                 "not \"%s\"\n", v.c_str());
            return false;
        }
        const std::string worker = v.substr(0, eq);
        const std::optional<size_t> w = findWorker(run, worker);
        if (!w) {
            std::string names;
            for (const WorkerTrace& x : run.workers) names += (names.empty() ? "" : ", ") + x.name;
            std::fprintf(stderr, "tracescope-cli: --offset: no worker \"%s\" (workers: %s)\n", worker.c_str(),
                         names.c_str());
            return false;
        }
        setWorkerOffset(run.workers[*w], ns);
    }
    return true;
}

}  // namespace

int runPod(const Args& args) {
    const auto files = positionals(args, {"--step-marker", "--offset"});
    if (files.empty()) {
        std::fprintf(stderr, "usage: tracescope-cli pod FILE|DIR|SUMMARY... [--json|--csv] [--step-marker NAME] [--all-steps] "
                             "[--offset WORKER=NS]... [--force-merge]\n");
        return 2;
    }
    MultiWorkerRun run;
    PodResult pod;
    size_t loaded = 0;
    double loadSeconds = 0;
    std::optional<int64_t> originUnixNs;
    const std::vector<std::string> summaries = summaryPaths(files);
    if (!summaries.empty()) {
        for (const std::string& f : files)
            if (summaryPaths({f}).empty()) {
                std::fprintf(stderr, "tracescope-cli: %s is not a rank summary: give summaries or traces, not both\n",
                             f.c_str());
                return 2;
            }
        // The steps as they were summarised: the step options and --offset apply to traces only.
        const auto begin = std::chrono::steady_clock::now();
        const SummaryRun sr = loadSummaryRun(summaries);
        for (const std::string& w : sr.warnings) std::fprintf(stderr, "tracescope-cli: warning: %s\n", w.c_str());
        if (sr.ranks.empty()) {
            std::fprintf(stderr, "tracescope-cli: no rank summary could be read\n");
            return 1;
        }
        pod = podOfSummaries(sr);
        loaded = sr.ranks.size();
        originUnixNs = sr.originUnixNs;
        loadSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    } else {
        if (const int status = loadWorkersOrReport(files, run, hasFlag(args, "--force-merge"))) return status;
        if (!applyOffsets(args, run)) return 2;
        pod = computePod(run, stepOptionsOf(args));
        loaded = run.loadedCount();
        loadSeconds = run.loadSeconds;
        originUnixNs = run.originUnixNs;
    }

    if (hasFlag(args, "--json")) {
        nlohmann::json j;
        j["load_ms"] = static_cast<long long>(loadSeconds * 1000 + 0.5);
        j["origin_unix_ns"] = originUnixNs ? nlohmann::json(*originUnixNs) : nlohmann::json(nullptr);
        j["categories"] = nlohmann::json::array();
        for (size_t c = 0; c < kStepCategoryCount; ++c) j["categories"].push_back(stepCategoryName(StepCategory(c)));
        j["workers"] = nlohmann::json::array();
        for (const PodWorker& w : pod.workers) {
            nlohmann::json o = {{"name", w.name},
                                {"rank", w.rank ? nlohmann::json(*w.rank) : nlohmann::json(nullptr)},
                                {"path", w.path},
                                {"loaded", w.loaded},
                                {"offset_ns", w.offsetNs},
                                {"clock", workerClockName(w.clock)},
                                {"step_source", stepSourceName(w.stepSource)},
                                {"step_rule", w.stepRule},
                                {"average_step_ns", static_cast<long long>(w.stepTimeNs.mean + 0.5)},
                                {"step_set", w.stepSet.description},
                                {"overlap", overlapJson(w.overlap)}};
            if (!w.loaded) o["error"] = w.error;
            j["workers"].push_back(std::move(o));
        }
        j["steps"] = nlohmann::json::array();
        for (size_t s = 0; s < pod.steps.size(); ++s) {
            const PodStep& ps = pod.steps[s];
            nlohmann::json o = {{"number", ps.number},
                                {"worker_count", ps.workerCount},
                                {"slowest_worker", ps.workerCount ? nlohmann::json(pod.workers[ps.slowestWorker].name)
                                                                  : nlohmann::json(nullptr)},
                                {"slowest_ns", ps.slowestNs},
                                {"fastest_ns", ps.fastestNs},
                                {"median_ns", ps.medianNs},
                                {"lag_ns", ps.lagNs},
                                {"lag_percent", ps.lagPercent},
                                {"start_spread_ns", ps.startSpreadNs}};
            o["workers"] = nlohmann::json::array();
            for (const PodWorker& w : pod.workers) {
                const WorkerStep& ws = w.steps.empty() ? WorkerStep{} : w.steps[s];
                if (!ws.present) continue;
                nlohmann::json x = {{"worker", w.name},
                                    {"run_start_ns", ws.runStartNs},
                                    {"duration_ns", ws.breakdown.step.durationNs},
                                    {"in_step_set", ws.inStepSet},
                                    {"overlap", overlapJson(ws.overlap)}};
                for (size_t c = 0; c < kStepCategoryCount; ++c)
                    x["breakdown_ns"][stepCategoryName(StepCategory(c))] = ws.breakdown.ns[c];
                o["workers"].push_back(std::move(x));
            }
            j["steps"].push_back(std::move(o));
        }
        j["notes"] = pod.notes;
        printJson(j);
        return 0;
    }
    if (hasFlag(args, "--csv")) {
        std::cout << "step,worker,run_start_ns,duration_ns";
        for (size_t c = 0; c < kStepCategoryCount; ++c) std::cout << ',' << csvField(stepCategoryName(StepCategory(c)));
        std::cout << ",communication_ns,overlapped_ns,exposed_communication_ns,is_slowest,lag_ns\n";
        for (size_t s = 0; s < pod.steps.size(); ++s) {
            const PodStep& ps = pod.steps[s];
            for (size_t w = 0; w < pod.workers.size(); ++w) {
                if (pod.workers[w].steps.empty() || !pod.workers[w].steps[s].present) continue;
                const WorkerStep& ws = pod.workers[w].steps[s];
                const bool slowest = w == ps.slowestWorker;
                std::cout << ps.number << ',' << csvField(pod.workers[w].name) << ',' << ws.runStartNs << ','
                          << ws.breakdown.step.durationNs;
                for (size_t c = 0; c < kStepCategoryCount; ++c) std::cout << ',' << ws.breakdown.ns[c];
                std::cout << ',' << ws.overlap.communicationNs << ',' << ws.overlap.overlappedNs << ','
                          << ws.overlap.exposedNs << ',' << (slowest ? 1 : 0) << ','
                          << (slowest ? ps.lagNs : TimeNs(0)) << '\n';
            }
        }
        return 0;
    }
    std::printf("%zu worker(s), %zu loaded in %.2f s\n", pod.workers.size(), loaded, loadSeconds);
    std::printf("%-14s %10s %-10s %12s %12s %12s  %s\n", "worker", "offset ms", "clock", "avg step ms",
                "comm ms", "exposed ms", "steps from");
    for (const PodWorker& w : pod.workers) {
        if (!w.loaded) {
            std::printf("%-14s not loaded: %s\n", w.name.c_str(), w.error.c_str());
            continue;
        }
        std::printf("%-14s %10.3f %-10s %12.3f %12.3f %12.3f  %s\n", w.name.c_str(), ms(w.offsetNs),
                    workerClockName(w.clock), w.stepTimeNs.mean / 1e6, ms(w.overlap.communicationNs),
                    ms(w.overlap.exposedNs), stepSourceName(w.stepSource));
    }
    std::printf("Stragglers (per step: the slowest worker, how much longer than the median worker, and how far\n"
                "apart the workers started it on the run's clock):\n");
    for (const PodStep& ps : pod.steps) {
        if (!ps.workerCount) continue;
        std::printf("  step %-8lld %zu worker(s)  slowest %-12s %10.3f ms  median %10.3f ms  +%.3f ms (+%.1f%%)"
                    "  starts spread %.3f ms\n",
                    static_cast<long long>(ps.number), ps.workerCount, pod.workers[ps.slowestWorker].name.c_str(),
                    ms(ps.slowestNs), ms(ps.medianNs), ms(ps.lagNs), ps.lagPercent, ms(ps.startSpreadNs));
    }
    for (const auto& n : pod.notes) std::printf("Note: %s\n", n.c_str());
    return 0;
}

}  // namespace tracescope::cli
