#include "model/analysis/analysis_cost.h"

#include <algorithm>

namespace tracescope {

namespace {

// Kernel stats as the page runs it (computeKernelStats keeping the table's top rows, then the
// slice index of those rows), measured with bench_analysis_memory on a 2 M-slice trace of
// gen_chrome_trace.py (1.19 M kernels, nearly all of a distinct configuration), plus a quarter:
// - per slice, 31 B: the classification and the slice index, measured on the same trace with
//   every kernel given one grid and register count (600 configurations);
// - per distinct configuration, 124 B: the 172 MB peak on the distinct trace less its 26 MB
//   classification, over 1.19 M configurations (112 B of sums each, kernel_config_table.h,
//   and its share of the hash index).
// Unbounded, every slice may be a configuration: 195 B a slice at worst. (Rows with copied
// strings under a node-based index, as summed before, measured 275 B a slice: 340 with the
// margin.)
constexpr double kKernelStatsBytesPerSlice = 40;
constexpr double kKernelStatsBytesPerRow = 155;
constexpr uint64_t kKernelStatsMinRows = 100'000;

// Peak growth per slice (thread and async slices), measured with bench_analysis_memory (its
// "growth / estimate" column) on three traces, the largest of the three plus a quarter for margin:
// 2 M slices of gen_chrome_trace.py (nested CPU ops launching kernels, a third of the slices GPU
// kernels), and two real PyTorch traces tiled with tests/tools/tile_chrome_trace.py: the torch 2.11
// H100 trace × 12 000 (2.2 M slices) and HTA's df_index_resolver × 6 (0.7 M). The real traces
// cost the most for most pages (more args, names and nesting per slice). Kernel stats are counted
// apart (below): their memory follows distinct configurations.
struct Factor {
    const char* what;
    double bytesPerSlice;
};

Factor factorOf(AnalysisKind kind) {
    // The largest measured, each on the torch 2.11 trace: overview 82, op stats 37, PyTorch ops 69
    // (synthetic: 25), input pipeline 86, tf.data 85, scopes 74, memory profile 96.
    switch (kind) {
    case AnalysisKind::Overview: return {"Overview", 103};
    case AnalysisKind::OpStats: return {"Op stats", 46};
    case AnalysisKind::TorchOps: return {"PyTorch ops", 86};
    case AnalysisKind::KernelStats: return {"Kernel stats", kKernelStatsBytesPerSlice};
    case AnalysisKind::InputPipeline: return {"Input pipeline", 108};
    case AnalysisKind::TfData: return {"tf.data", 106};
    case AnalysisKind::ScopeTree: return {"Scopes", 93};
    case AnalysisKind::MemoryProfile: return {"Memory profile", 120};
    // A pod or a diff classifies and sums each trace it reads, like an overview with steps.
    case AnalysisKind::Pod: return {"Pod", 105};
    case AnalysisKind::Diff: return {"Compare", 105};
    // The GPU Utilization page holds its idle gaps, a row per launch, the queue series, the CUDA
    // API summaries, the advice and the critical paths at once, beside the classification
    // (torch 2.11: 126; the critical path alone 109).
    case AnalysisKind::GpuUtilization: return {"GPU utilization", 158};
    // GPU utilisation alone, for the timeline's idle marks (synthetic: 48; torch 2.11: 37).
    case AnalysisKind::GpuIdleGaps: return {"GPU idle time", 60};
    // The classification, one thread's slices in order at a time, launches by their call (torch 2.11: 36).
    case AnalysisKind::CallTree: return {"Flame graph", 48};
    // The classification; the kernels' intervals (16 B each) for the overlap (synthetic: 60).
    case AnalysisKind::Collectives: return {"Collectives", 75};
    }
    return {"Analysis", 100};
}

// Fixed part: tables, string copies of names, the result models.
constexpr uint64_t kBaseBytes = 16ull << 20;

uint64_t slicesOf(const Trace& trace) {
    const TraceCounts c = trace.counts();
    return c.slices + c.asyncSlices;
}

}  // namespace

AnalysisCost estimateAnalysisCost(AnalysisKind kind, const Trace& trace, uint64_t slices) {
    if (kind == AnalysisKind::KernelStats) return estimateKernelStatsCost(trace, 0);
    if (slices == 0) slices = slicesOf(trace);
    const Factor f = factorOf(kind);
    return {f.what, kBaseBytes + uint64_t(f.bytesPerSlice * double(slices))};
}

size_t kernelStatsRowBound(uint64_t budgetBytes) {
    if (budgetBytes == 0) return 0;
    return size_t(std::max<uint64_t>(kKernelStatsMinRows, uint64_t(double(budgetBytes / 4) / kKernelStatsBytesPerRow)));
}

AnalysisCost estimateKernelStatsCost(const Trace& trace, size_t maxRows) {
    const uint64_t slices = slicesOf(trace);
    // There are never more configurations than slices.
    const uint64_t rows = maxRows == 0 ? slices : std::min<uint64_t>(maxRows, slices);
    return {factorOf(AnalysisKind::KernelStats).what,
            kBaseBytes + uint64_t(kKernelStatsBytesPerSlice * double(slices) + kKernelStatsBytesPerRow * double(rows))};
}

}  // namespace tracescope
