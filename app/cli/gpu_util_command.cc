// tracescope-cli gpu-util FILE [--json|--csv] [--gaps]
// HTA's temporal and idle-time breakdowns per GPU and stream (model/analysis/gpu_utilization.h),
// asked of the trace's result store.
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/results/gpu_util_results.h"

#include <cstdio>
#include <iostream>

namespace tracescope::cli {

namespace {

const char* kUsage =
    "usage: tracescope-cli gpu-util FILE [--json|--csv] [--gaps]\n"
    "  GPU utilisation as Holistic Trace Analysis (HTA 0.5.0) defines it, per GPU:\n"
    "  temporal breakdown (get_temporal_breakdown): over the active window (first kernel, memcpy or\n"
    "  memset start to last end), idle = no activity on any stream, compute = a compute kernel runs\n"
    "  (not NCCL, not a Memcpy/Memset/dma/Sync name), non_compute = the rest (copies, memsets,\n"
    "  communication); times and percent of the window.\n"
    "  idle-time breakdown (get_idle_time_breakdown), per stream and summed per GPU: each gap between\n"
    "  a stream's activities is host_wait when the next activity's launch call began after the\n"
    "  stream's work ended, else kernel_wait when shorter than 30 us (HTA's threshold), else other.\n"
    "  Times in integer ns; streams as the trace numbers them.\n"
    "  --json   one object: gpus (each with its streams), kernel_wait_threshold_ns, notes, warnings\n"
    "  --csv    a row per GPU (stream empty) and per stream\n"
    "  --gaps   also list every gap (start_ns, end_ns, cause): in each stream's JSON, or as the CSV\n";

const std::array<IdleCause, kIdleCauseCount> kCauses = {IdleCause::HostWait, IdleCause::KernelWait, IdleCause::Other};

void addIdle(nlohmann::json& j, const IdleBreakdown& idle) {
    for (IdleCause c : kCauses) j[std::string(idleCauseName(c)) + "_ns"] = idle.of(c);
    for (IdleCause c : kCauses) j[std::string(idleCauseName(c)) + "_gaps"] = idle.gaps[size_t(c)];
}

nlohmann::json streamJson(const StreamIdle& s, bool gaps) {
    nlohmann::json j = {{"stream", s.stream}};
    addIdle(j, s.idle);
    j["idle_ns"] = s.idle.total();
    j["first_start_ns"] = s.firstStart;
    j["last_end_ns"] = s.lastEnd;
    j["activities"] = s.activities;
    j["without_launch"] = s.withoutLaunch;
    j["overlapping"] = s.overlapping;
    if (gaps) {
        nlohmann::json a = nlohmann::json::array();
        for (const IdleGap& g : s.gaps)
            a.push_back({{"start_ns", g.start}, {"end_ns", g.end}, {"cause", idleCauseName(g.cause)}});
        j["gaps"] = std::move(a);
    }
    return j;
}

nlohmann::json gpuJson(const GpuUtilization& g, bool gaps) {
    nlohmann::json j = {{"device", g.device},
                        {"name", g.name},
                        {"window_start_ns", g.windowStart},
                        {"window_end_ns", g.windowEnd},
                        {"active_ns", g.activeNs()},
                        {"idle_ns", g.idleNs},
                        {"compute_ns", g.computeNs},
                        {"non_compute_ns", g.nonComputeNs},
                        {"idle_percent", g.percentOfWindow(g.idleNs)},
                        {"compute_percent", g.percentOfWindow(g.computeNs)},
                        {"non_compute_percent", g.percentOfWindow(g.nonComputeNs)}};
    addIdle(j, g.idle);
    j["kernels"] = g.kernels;
    j["compute_kernels"] = g.computeKernels;
    j["memcpys"] = g.memcpys;
    j["memsets"] = g.memsets;
    j["without_launch"] = g.withoutLaunch;
    j["launched_after_start"] = g.launchedAfterStart;
    nlohmann::json streams = nlohmann::json::array();
    for (const StreamIdle& s : g.streams) streams.push_back(streamJson(s, gaps));
    j["streams"] = std::move(streams);
    return j;
}

std::string percent(double p) {
    char b[32];
    std::snprintf(b, sizeof b, "%.4f", p);
    return b;
}

void printCsv(const GpuUtilizationResult& r, bool gaps) {
    if (gaps) {
        std::cout << "device,stream,start_ns,end_ns,duration_ns,cause\n";
        for (const GpuUtilization& g : r.gpus)
            for (const StreamIdle& s : g.streams)
                for (const IdleGap& gap : s.gaps)
                    std::cout << g.device << ',' << s.stream << ',' << gap.start << ',' << gap.end << ','
                              << gap.end - gap.start << ',' << idleCauseName(gap.cause) << '\n';
        return;
    }
    std::cout << "device,stream,active_ns,idle_ns,compute_ns,non_compute_ns,idle_percent,compute_percent,"
                 "non_compute_percent,host_wait_ns,kernel_wait_ns,other_ns,host_wait_gaps,kernel_wait_gaps,"
                 "other_gaps,activities,without_launch\n";
    auto idle = [](const IdleBreakdown& b) {
        std::string s;
        for (IdleCause c : kCauses) s += std::to_string(b.of(c)) + ',';
        for (IdleCause c : kCauses) s += std::to_string(b.gaps[size_t(c)]) + ',';
        return s;
    };
    for (const GpuUtilization& g : r.gpus) {
        std::cout << g.device << ",," << g.activeNs() << ',' << g.idleNs << ',' << g.computeNs << ',' << g.nonComputeNs
                  << ',' << percent(g.percentOfWindow(g.idleNs)) << ',' << percent(g.percentOfWindow(g.computeNs))
                  << ',' << percent(g.percentOfWindow(g.nonComputeNs)) << ',' << idle(g.idle)
                  << g.kernels + g.memcpys + g.memsets << ',' << g.withoutLaunch << '\n';
        for (const StreamIdle& s : g.streams)
            std::cout << g.device << ',' << s.stream << ",,,,,,,," << idle(s.idle) << s.activities << ','
                      << s.withoutLaunch << '\n';
    }
}

void printText(const GpuUtilizationResult& r) {
    for (const GpuUtilization& g : r.gpus) {
        std::printf("GPU %lld (%s): active window %.3f ms\n", (long long)g.device, g.name.c_str(),
                    double(g.activeNs()) / 1e6);
        std::printf("  %-12s %14s %8s\n", "", "time(ns)", "%");
        std::printf("  %-12s %14lld %8.2f\n", "idle", (long long)g.idleNs, g.percentOfWindow(g.idleNs));
        std::printf("  %-12s %14lld %8.2f\n", "compute", (long long)g.computeNs, g.percentOfWindow(g.computeNs));
        std::printf("  %-12s %14lld %8.2f\n", "non-compute", (long long)g.nonComputeNs,
                    g.percentOfWindow(g.nonComputeNs));
        std::printf("  idle by cause (sum over streams)\n  %8s %14s %14s %14s %8s\n", "stream", "host_wait(ns)",
                    "kernel_wait(ns)", "other(ns)", "gaps");
        auto row = [](const std::string& label, const IdleBreakdown& b) {
            std::printf("  %8s %14lld %14lld %14lld %8llu\n", label.c_str(), (long long)b.of(IdleCause::HostWait),
                        (long long)b.of(IdleCause::KernelWait), (long long)b.of(IdleCause::Other),
                        (unsigned long long)(b.gaps[0] + b.gaps[1] + b.gaps[2]));
        };
        for (const StreamIdle& s : g.streams) row(std::to_string(s.stream), s.idle);
        row("all", g.idle);
        std::printf("\n");
    }
    std::printf("kernel_wait: gaps under %lld ns whose launch came before the stream emptied\n",
                (long long)r.kernelWaitThresholdNs);
    for (const std::string& n : r.notes) std::printf("Note: %s\n", n.c_str());
}

}  // namespace

int runGpuUtil(const Args& args) {
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
    const std::shared_ptr<const GpuUtilizationResult> result = gpuUtilizationOf(*ResultStore::of(trace));
    const GpuUtilizationResult& r = *result;
    const bool gaps = hasFlag(args, "--gaps");
    if (hasFlag(args, "--json")) {
        nlohmann::json j;
        nlohmann::json gpus = nlohmann::json::array();
        for (const GpuUtilization& g : r.gpus) gpus.push_back(gpuJson(g, gaps));
        j["gpus"] = std::move(gpus);
        j["kernel_wait_threshold_ns"] = r.kernelWaitThresholdNs;
        j["definitions"] = {
            {"window", "first kernel/memcpy/memset start to last end on the GPU (HTA's kernel_time)"},
            {"idle", "window minus the union of all activity"},
            {"compute", "union of compute kernels (HTA's name rule: not NCCL, Memcpy, Memset, dma or Sync)"},
            {"non_compute", "window minus idle minus compute"},
            {"host_wait", "gap whose next activity's launch call began after the stream's work ended"},
            {"kernel_wait", "other gaps shorter than kernel_wait_threshold_ns"},
            {"other", "the remaining gaps"}};
        j["notes"] = r.notes;
        printJson(j);
        return exitStatus(args, 0);
    }
    if (hasFlag(args, "--csv")) {
        printCsv(r, gaps);
        return exitStatus(args, 0);
    }
    printText(r);
    return exitStatus(args, 0);
}

}  // namespace tracescope::cli
