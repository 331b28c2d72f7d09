#include "model/analysis/analysis_cost.h"

namespace tracescope {

namespace {

// Peak growth per slice (thread and async slices), measured with bench_analysis_memory on
// traces of the synthetic ML training shape (nested CPU ops launching kernels, 1/3 of the
// slices GPU kernels with many distinct launch configurations), plus a quarter for margin.
// Kernel stats dominate: one row per distinct (kernel, op, grid, block, registers, shared
// memory) with its strings, and the hash index over them, before the page keeps its top rows.
struct Factor {
    const char* what;
    double bytesPerSlice;
};

Factor factorOf(AnalysisKind kind) {
    switch (kind) {
    case AnalysisKind::Overview: return {"Overview", 72};
    case AnalysisKind::OpStats: return {"Op stats", 40};
    case AnalysisKind::TorchOps: return {"PyTorch ops", 32};
    case AnalysisKind::KernelStats: return {"Kernel stats", 340};
    case AnalysisKind::InputPipeline: return {"Input pipeline", 85};
    case AnalysisKind::TfData: return {"tf.data", 75};
    case AnalysisKind::ScopeTree: return {"Scopes", 55};
    case AnalysisKind::MemoryProfile: return {"Memory profile", 75};
    // A pod or a diff classifies and sums each trace it reads, like an overview with steps.
    case AnalysisKind::Pod: return {"Pod", 90};
    case AnalysisKind::Diff: return {"Compare", 90};
    }
    return {"Analysis", 100};
}

// Fixed part: tables, string copies of names, the result models.
constexpr uint64_t kBaseBytes = 16ull << 20;

}  // namespace

AnalysisCost estimateAnalysisCost(AnalysisKind kind, const Trace& trace, uint64_t slices) {
    if (slices == 0) {
        const TraceCounts c = trace.counts();
        slices = c.slices + c.asyncSlices;
    }
    const Factor f = factorOf(kind);
    return {f.what, kBaseBytes + uint64_t(f.bytesPerSlice * double(slices))};
}

}  // namespace tracescope
