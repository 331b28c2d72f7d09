// What an analysis page's computation will take at its peak, estimated before it starts, so
// that the GUI runs only what the machine holds (the job runner's admission, model/results/job_runner.h).
#pragma once

#include "model/trace/trace.h"

#include <cstdint>
#include <string>

namespace tracescope {

enum class AnalysisKind {
    Overview,
    OpStats,
    TorchOps,
    KernelStats,
    InputPipeline,
    TfData,
    ScopeTree,
    MemoryProfile,
    Pod,
    Diff,
    GpuUtilization,
    CallTree,
    Collectives,
    GpuIdleGaps  // the timeline's GPU idle marks: GPU utilisation alone
};

struct AnalysisCost {
    std::string what;    // "Kernel stats": names the analysis in messages
    uint64_t bytes = 0;  // peak memory above the loaded trace
};

// The estimate for `kind` on `trace` (Pod/Diff: pass the slices of all the traces they read
// in `slices`; 0 means the trace's own). Kernel stats: unbounded, as estimateKernelStatsCost(trace, 0).
AnalysisCost estimateAnalysisCost(AnalysisKind kind, const Trace& trace, uint64_t slices = 0);

// Kernel stats' memory grows with its distinct launch configurations, which the page bounds
// (KernelStatsOptions::maxRows) rather than skipping a trace with many launches: the bound a
// memory budget allows (a quarter of it, at least 100 000 rows; 0, unbounded, when the budget
// is unknown), and the estimate of the page's computation under a bound (0: unbounded).
size_t kernelStatsRowBound(uint64_t budgetBytes);
AnalysisCost estimateKernelStatsCost(const Trace& trace, size_t maxRows);

}  // namespace tracescope
