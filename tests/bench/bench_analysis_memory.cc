// What each analysis page's computation costs on one trace: wall time and the growth of
// the process's peak resident memory over the loaded trace, per slice.
//
//   bench_analysis_memory FILE
//
// Imports FILE, then runs each page's computation (as the page runs it, the result kept
// until the next one starts) with the kernel's peak counter reset before each (writing 5 to
// /proc/self/clear_refs resets VmHWM), so each line is that analysis alone. These figures
// are what the GUI's admission estimates (model/analysis/analysis_cost.cc) are based on: each
// page's line also prints the page's estimate for this trace and the peak growth over it (above 1:
// the page would be admitted with less memory than it takes). The GPU
// analyses (each with its classification, as kernel stats has its own) end with their wall time
// as a ratio to kernel stats' (all rows), measured in this run.
#include "model/analysis/analysis_cost.h"
#include "model/analysis/call_tree.h"
#include "model/analysis/collectives.h"
#include "model/analysis/critical_path.h"
#include "model/analysis/cuda_api_summary.h"
#include "model/analysis/gpu_advice.h"
#include "model/analysis/gpu_utilization.h"
#include "model/analysis/input_pipeline.h"
#include "model/analysis/kernel_stats.h"
#include "model/analysis/memory_profile.h"
#include "model/analysis/op_classify.h"
#include "model/analysis/op_stats.h"
#include "model/analysis/overview.h"
#include "model/analysis/scope_tree.h"
#include "model/analysis/steps.h"
#include "model/analysis/tf_data.h"
#include "model/analysis/torch_ops.h"
#include "model/import/import.h"
#include "model/import/memory_budget.h"
#include "model/query/flame_layout.h"

#include <malloc.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using namespace tracescope;

namespace {

uint64_t peakResidentBytes() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
    return 0;
}

// Returns the heap the previous analysis freed to the system first: otherwise the next one
// reuses it without growing the resident set, and its cost would not show.
void resetPeak() {
    malloc_trim(0);
    std::ofstream("/proc/self/clear_refs") << "5";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: bench_analysis_memory FILE\n");
        return 2;
    }
    ImportResult r = importTrace(argv[1]);
    if (!r.ok()) {
        std::fprintf(stderr, "cannot load %s: %s\n", argv[1], r.error.c_str());
        return 1;
    }
    const Trace& t = *r.trace;
    const TraceCounts counts = t.counts();
    const double slices = double(counts.slices + counts.asyncSlices);
    std::printf("%s: %.0f slices, %s resident after import\n\n", argv[1], slices, formatBytes(residentBytes()).c_str());
    std::printf(
        "| analysis | wall (s) | peak growth | bytes/slice | the page's estimate | growth / estimate |\n"
        "|---|---|---|---|---|---|\n");
    uint64_t lastGrowth = 0;
    double lastSeconds = 0;
    // `page`: the page this is the computation of, as it runs it (its estimate is printed beside).
    auto measure = [&](const char* name, const std::function<void()>& run,
                       std::optional<AnalysisKind> page = std::nullopt) {
        resetPeak();
        const uint64_t before = residentBytes();
        const auto t0 = std::chrono::steady_clock::now();
        run();
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const uint64_t peak = peakResidentBytes();
        const uint64_t grown = peak > before ? peak - before : 0;
        lastGrowth = grown;
        lastSeconds = s;
        std::string estimate = "", ratio = "";
        if (page) {
            const uint64_t bytes = estimateAnalysisCost(*page, t).bytes;
            estimate = formatBytes(bytes);
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.2f", double(grown) / double(bytes));
            ratio = buf;
        }
        std::printf("| %s | %.1f | %s | %.0f | %s | %s |\n", name, s, formatBytes(grown).c_str(),
                    double(grown) / slices, estimate.c_str(), ratio.c_str());
        std::fflush(stdout);
    };
    measure("classify", [&] { (void)classifyTrace(t); });
    measure(
        "overview",
        [&] {
            const ClassifiedTrace ct = classifyTrace(t);
            auto o = computeOverview(ct, {});
            auto c = stepMarkerCandidates(ct, 40);
        },
        AnalysisKind::Overview);
    measure(
        "op stats",
        [&] {
            auto o = computeOpStats(t, {});
            auto i = sliceRowIndexOf(t, o);
        },
        AnalysisKind::OpStats);
    const double opStatsSeconds = lastSeconds;
    // The flame graph page: classification, the call tree and its inversion; then the layout a
    // redraw makes (1280 px), timed alone, and a quarter of the trace as a range selection.
    CallTree flame;
    measure(
        "flame graph (call tree + bottom-up)",
        [&] {
            flame = computeCallTree(classifyTrace(t));
            (void)invertCallTree(flame);
        },
        AnalysisKind::CallTree);
    const double flameSeconds = lastSeconds;
    const auto l0 = std::chrono::steady_clock::now();
    size_t rects = 0;
    for (int i = 0; i < 10; ++i) rects = layoutFlame(flame, {.width = 1280}).rects.size();
    const double layoutMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - l0).count() / 10;
    // Kernel stats as the CLI runs it (every row), then as the page does (the table's top
    // 20 000 rows, views/tables/table_page.h, and their slice index). Per distinct
    // configuration below: the per-row cost analysis_cost.cc bounds the page by.
    size_t configurations = 0;
    measure("kernel stats (all rows)", [&] { configurations = computeKernelStats(t).configurations; });
    const uint64_t allRowsGrowth = lastGrowth;
    const double kernelStatsSeconds = lastSeconds;
    measure(
        "kernel stats",
        [&] {
            auto k = computeKernelStats(t, {.maxRows = 0, .keepRows = 20'000});
            auto i = sliceRowIndexOf(t, k);
        },
        AnalysisKind::KernelStats);
    const uint64_t pageGrowth = lastGrowth;
    // The page on a small budget: configurations past 100 000 rows counted in the totals only.
    measure("kernel stats (bounded at 100 000 rows)", [&] {
        auto k = computeKernelStats(t, {.maxRows = 100'000, .keepRows = 20'000});
        auto i = sliceRowIndexOf(t, k);
    });
    // nsys stats-style summaries (cuda-api): classification included, as kernel stats' figure.
    measure("cuda api summary", [&] { (void)computeCudaApiSummary(classifyTrace(t)); });
    measure(
        "input pipeline",
        [&] {
            const ClassifiedTrace ct = classifyTrace(t);
            auto p = computeInputPipeline(ct, {});
            auto i = sliceRowIndexOf(t, p);
            auto b = breakdownSteps(ct, findSteps(ct, {}));
        },
        AnalysisKind::InputPipeline);
    measure(
        "tf.data", [&] { (void)computeTfData(t); }, AnalysisKind::TfData);
    measure(
        "scopes", [&] { auto s = computeScopeTreeWithIndexes(classifyTrace(t)); }, AnalysisKind::ScopeTree);
    measure(
        "torch ops",
        [&] {
            auto o = computeTorchOps(t, {});
            auto i = sliceRowIndexOf(t, o);
        },
        AnalysisKind::TorchOps);
    measure(
        "memory profile", [&] { (void)computeMemoryProfile(t); }, AnalysisKind::MemoryProfile);
    measure(
        "collectives", [&] { (void)computeCollectives(classifyTrace(t)); }, AnalysisKind::Collectives);
    // Why the GPU waits: HTA's breakdowns, launches, queues, the critical path, the advice.
    std::vector<std::pair<const char*, double>> gpu;
    auto measureGpu = [&](const char* name, const std::function<void()>& run,
                          std::optional<AnalysisKind> page = std::nullopt) {
        measure(name, run, page);
        gpu.push_back({name, lastSeconds});
    };
    measureGpu(
        "gpu utilization (the timeline's idle marks)", [&] { (void)computeGpuUtilization(classifyTrace(t)); },
        AnalysisKind::GpuIdleGaps);
    measureGpu("launch stats", [&] { (void)computeLaunchStats(classifyTrace(t)); });
    measureGpu("queue length", [&] { (void)computeQueueLength(classifyTrace(t)); });
    measureGpu("critical path", [&] {
        const ClassifiedTrace ct = classifyTrace(t);
        (void)computeCriticalPaths(ct, findSteps(ct));
    });
    measureGpu("advice (launches and queues included)", [&] {
        const ClassifiedTrace ct = classifyTrace(t);
        (void)computeGpuAdvice(ct, findSteps(ct), computeLaunchStats(ct), computeQueueLength(ct));
    });
    // The GPU Utilization page holds all of these at once (views/gpu/gpu_util_view.cc).
    measure(
        "GPU page (all of the above, held together)",
        [&] {
            const ClassifiedTrace ct = classifyTrace(t);
            const StepsResult steps = findSteps(ct);
            auto g = computeGpuUtilization(ct);
            auto l = computeLaunchStats(ct);
            auto q = computeQueueLength(ct);
            auto a = computeCudaApiSummary(ct);
            auto advice = computeGpuAdvice(ct, steps, l, q);
            auto paths = computeCriticalPaths(ct, steps);
        },
        AnalysisKind::GpuUtilization);
    std::printf(
        "\nflame graph / op stats (wall): %.2fx (%.2f s / %.2f s); %zu stacks; a redraw's layout at 1280 px: "
        "%.2f ms (%zu rectangles)\n",
        opStatsSeconds > 0 ? flameSeconds / opStatsSeconds : 0.0, flameSeconds, opStatsSeconds, flame.nodes.size() - 1,
        layoutMs, rects);
    std::printf("\nGPU analyses, wall time / kernel stats (all rows) %.2f s:\n", kernelStatsSeconds);
    for (const auto& [name, s] : gpu)
        std::printf("  %-40s %.2fx\n", name, kernelStatsSeconds > 0 ? s / kernelStatsSeconds : 0.0);
    if (configurations > 0)
        std::printf(
            "\nkernel stats: %zu distinct configurations; peak growth per configuration, classification "
            "included: %.0f B with all rows, %.0f B as the page runs it\n",
            configurations, double(allRowsGrowth) / double(configurations),
            double(pageGrowth) / double(configurations));
    return 0;
}
