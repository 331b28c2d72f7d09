// tracescope-cli launch-stats FILE [--json|--csv] [--rows] [--hta-calls]
// Kernel launch statistics as HTA's get_cuda_kernel_launch_stats defines them
// (model/analysis/launch_stats.h), asked of the trace's result store. Not `launch`, which starts
// a program under the CUPTI agent.
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/results/launch_queue_results.h"

#include <cstdio>
#include <iostream>

namespace tracescope::cli {

namespace {

const char* kUsage =
    "usage: tracescope-cli launch-stats FILE [--json|--csv] [--rows] [--hta-calls]\n"
    "  Kernel launch statistics, as HTA 0.5.0's get_cuda_kernel_launch_stats: one launch per kernel,\n"
    "  memcpy or memset joined to its runtime call (flow, else correlation id), with\n"
    "    runtime  the runtime call's duration (HTA cpu_duration)\n"
    "    kernel   the device activity's duration (HTA gpu_duration)\n"
    "    launch delay = activity start - call end, 0 when negative (HTA clips it too)\n"
    "  Outliers (HTA's cut-offs): short kernels (runtime <= 50 us and kernel < runtime), long runtime\n"
    "  calls (> 50 us), long launch delays (> 100 us).\n"
    "  Launch calls: cudaLaunchKernel, cudaLaunchKernelExC, cudaMemcpyAsync, cudaMemsetAsync (HTA's\n"
    "  set), and by default also cuLaunchKernel[Ex] (Triton) and the HIP launches, which HTA's own\n"
    "  queue length counts; --hta-calls takes HTA's launch statistics set only. In an XSpace every\n"
    "  launch call counts. Activities launched by other calls (cudaGraphLaunch...) or without a call\n"
    "  in the trace are counted in missing, never mixed in.\n"
    "  Per column: mean, median, p95 (linear interpolation), min, max, std (n - 1), integer ns\n"
    "  rounded to the nearest (halves up); histograms with power-of-two bins.\n"
    "  --json   launches, launch_delay_ns, runtime_ns, kernel_ns, outliers, histograms, by_call,\n"
    "           missing, notes, warnings\n"
    "  --csv    the three distributions, a row each\n"
    "  --rows   every launch (correlation, times, outliers): in --json a rows array, in --csv a row each\n";

nlohmann::json distributionJson(const LaunchDistribution& d) {
    return {{"mean", d.stats.mean}, {"median", d.stats.median}, {"p95", d.p95},          {"min", d.stats.min},
            {"max", d.stats.max},   {"std", d.stats.std},       {"total", d.stats.total}};
}

nlohmann::json histogramJson(const LaunchDistribution& d) {
    nlohmann::json bins = nlohmann::json::array();
    for (size_t k = 0; k < d.log2Bins.size(); ++k) {
        const uint64_t from = k == 0 ? 0 : uint64_t(1) << (k - 1);
        const uint64_t to = k == 0 ? 1 : (k < 64 ? uint64_t(1) << k : UINT64_MAX);
        bins.push_back({{"from_ns", from}, {"to_ns", to}, {"count", d.log2Bins[k]}});
    }
    return bins;
}

nlohmann::json outlierNames(uint8_t bits) {
    nlohmann::json a = nlohmann::json::array();
    if (bits & kShortKernel) a.push_back("short_kernel");
    if (bits & kLongRuntime) a.push_back("long_runtime");
    if (bits & kLongLaunchDelay) a.push_back("long_launch_delay");
    return a;
}

nlohmann::json correlationOf(const Trace& t, SliceRef s) {
    int64_t id;
    if (sliceArgInt(t, s, "correlation", id) || sliceArgInt(t, s, "correlation_id", id)) return id;
    return nullptr;
}

nlohmann::json rowJson(const Trace& t, const LaunchRow& r) {
    return {{"correlation", correlationOf(t, r.call)},
            {"call", std::string(t.str(t.tracks[r.call.track].slices.name[r.call.index]))},
            {"call_start_ns", t.tracks[r.call.track].slices.start[r.call.index]},
            {"activity_start_ns", t.tracks[r.activity.track].slices.start[r.activity.index]},
            {"runtime_ns", r.cpuDurationNs},
            {"kernel_ns", r.gpuDurationNs},
            {"launch_delay_ns", r.launchDelayNs},
            {"outliers", outlierNames(r.outliers)}};
}

void printCsv(const Trace& t, const LaunchStats& s, bool rows) {
    if (rows) {
        std::cout << "correlation,call,call_start_ns,activity_start_ns,runtime_ns,kernel_ns,launch_delay_ns,outliers\n";
        for (const LaunchRow& r : s.rows) {
            const nlohmann::json j = rowJson(t, r);
            std::string outliers;
            for (const auto& o : j["outliers"]) outliers += (outliers.empty() ? "" : ";") + o.get<std::string>();
            std::cout << (j["correlation"].is_null() ? std::string() : j["correlation"].dump()) << ','
                      << csvField(j["call"].get<std::string>()) << ',' << j["call_start_ns"] << ','
                      << j["activity_start_ns"] << ',' << r.cpuDurationNs << ',' << r.gpuDurationNs << ','
                      << r.launchDelayNs << ',' << outliers << '\n';
        }
        return;
    }
    std::cout << "column,launches,mean_ns,median_ns,p95_ns,min_ns,max_ns,std_ns,outliers\n";
    auto line = [&](const char* name, const LaunchDistribution& d, uint64_t outliers) {
        std::cout << name << ',' << d.stats.count << ',' << d.stats.mean << ',' << d.stats.median << ',' << d.p95 << ','
                  << d.stats.min << ',' << d.stats.max << ',' << d.stats.std << ',' << outliers << '\n';
    };
    line("launch_delay", s.launchDelay, s.longLaunchDelay);
    line("runtime", s.runtime, s.longRuntime);
    line("kernel", s.kernel, s.shortKernels);
}

void printText(const LaunchStats& s) {
    std::printf("Launches: %zu\n%-14s %12s %12s %12s %12s %12s\n", s.rows.size(), "", "mean(ns)", "median(ns)",
                "p95(ns)", "min(ns)", "max(ns)");
    auto line = [](const char* name, const LaunchDistribution& d) {
        std::printf("%-14s %12lld %12lld %12lld %12lld %12lld\n", name, (long long)d.stats.mean,
                    (long long)d.stats.median, (long long)d.p95, (long long)d.stats.min, (long long)d.stats.max);
    };
    line("launch delay", s.launchDelay);
    line("runtime call", s.runtime);
    line("kernel", s.kernel);
    std::printf(
        "\nOutliers: %llu short kernels (kernel < runtime call <= %lld ns), %llu runtime calls > %lld ns, "
        "%llu launch delays > %lld ns\n",
        (unsigned long long)s.shortKernels, (long long)s.options.runtimeCutoffNs, (unsigned long long)s.longRuntime,
        (long long)s.options.runtimeCutoffNs, (unsigned long long)s.longLaunchDelay,
        (long long)s.options.delayCutoffNs);
    for (const auto& [name, n] : s.byCall) std::printf("  %8llu  %s\n", (unsigned long long)n, name.c_str());
    for (const std::string& n : s.notes) std::printf("Note: %s\n", n.c_str());
}

}  // namespace

int runLaunchStats(const Args& args) {
    if (hasFlag(args, "--help") || hasFlag(args, "-h")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const auto files = positionals(args);
    if (files.size() != 1) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    std::shared_ptr<const Trace> trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    LaunchStatsOptions options;
    options.htaCallsOnly = hasFlag(args, "--hta-calls");
    const std::shared_ptr<const LaunchStats> stats = launchStatsOf(*ResultStore::of(trace), options);
    const LaunchStats& s = *stats;
    const bool rows = hasFlag(args, "--rows");
    if (hasFlag(args, "--json")) {
        nlohmann::json j;
        j["launches"] = s.rows.size();
        j["launch_delay_ns"] = distributionJson(s.launchDelay);
        j["runtime_ns"] = distributionJson(s.runtime);
        j["kernel_ns"] = distributionJson(s.kernel);
        j["outliers"] = {{"short_kernels", s.shortKernels},
                         {"long_runtime", s.longRuntime},
                         {"long_launch_delay", s.longLaunchDelay},
                         {"runtime_cutoff_ns", s.options.runtimeCutoffNs},
                         {"launch_delay_cutoff_ns", s.options.delayCutoffNs}};
        j["histograms"] = {{"launch_delay_ns", histogramJson(s.launchDelay)},
                           {"runtime_ns", histogramJson(s.runtime)},
                           {"kernel_ns", histogramJson(s.kernel)}};
        j["by_call"] = s.byCall;
        j["calls"] = s.options.htaCallsOnly ? "hta" : "all";
        j["missing"] = {{"device_activities", s.activities},
                        {"without_call", s.withoutCall},
                        {"other_calls", s.otherCalls},
                        {"started_before_call_end", s.startedBeforeCallEnd},
                        {"started_before_call", s.startedBeforeCall}};
        j["notes"] = s.notes;
        if (rows) {
            const Trace& t = *trace;
            printJsonWithRows(j, s.rows.size(), [&](size_t i) { return rowJson(t, s.rows[i]); });
        } else {
            printJson(j);
        }
        return 0;
    }
    if (hasFlag(args, "--csv")) {
        printCsv(*trace, s, rows);
        return 0;
    }
    printText(s);
    return 0;
}

}  // namespace tracescope::cli
