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

// Peak growth per slice (thread and async slices), measured with bench_analysis_memory on
// traces of the synthetic ML training shape (nested CPU ops launching kernels, 1/3 of the
// slices GPU kernels with many distinct launch configurations), plus a quarter for margin.
// Kernel stats are counted apart (below): their memory follows distinct configurations.
struct Factor {
    const char* what;
    double bytesPerSlice;
};

Factor factorOf(AnalysisKind kind) {
    switch (kind) {
    case AnalysisKind::Overview: return {"Overview", 72};
    case AnalysisKind::OpStats: return {"Op stats", 40};
    case AnalysisKind::TorchOps: return {"PyTorch ops", 32};
    case AnalysisKind::KernelStats: return {"Kernel stats", kKernelStatsBytesPerSlice};
    case AnalysisKind::InputPipeline: return {"Input pipeline", 85};
    case AnalysisKind::TfData: return {"tf.data", 75};
    case AnalysisKind::ScopeTree: return {"Scopes", 55};
    case AnalysisKind::MemoryProfile: return {"Memory profile", 75};
    // A pod or a diff classifies and sums each trace it reads, like an overview with steps.
    case AnalysisKind::Pod: return {"Pod", 90};
    case AnalysisKind::Diff: return {"Compare", 90};
    // Idle gaps per device activity, a row per launch and the queue series beside the
    // classification (bench_analysis_memory: the CUDA API summary alone grew 18 B per slice).
    case AnalysisKind::GpuUtilization: return {"GPU utilization", 80};
    // The classification, one thread's slices in order at a time, launches by their call.
    case AnalysisKind::CallTree: return {"Flame graph", 48};
    // The classification; the kernels' intervals (16 B each) for the overlap.
    case AnalysisKind::Collectives: return {"Collectives", 56};
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
