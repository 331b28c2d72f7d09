// What an analysis page's computation will take at its peak, estimated before it starts, so
// that the GUI runs only what the machine holds (views/analysis_queue.h).
#pragma once

#include "model/trace/trace.h"

#include <cstdint>
#include <string>

namespace tracescope {

enum class AnalysisKind { Overview, OpStats, TorchOps, KernelStats, InputPipeline, TfData, ScopeTree, MemoryProfile, Pod, Diff };

struct AnalysisCost {
    std::string what;    // "Kernel stats": names the analysis in messages
    uint64_t bytes = 0;  // peak memory above the loaded trace
};

// The estimate for `kind` on `trace` (Pod/Diff: pass the slices of all the traces they read
// in `slices`; 0 means the trace's own).
AnalysisCost estimateAnalysisCost(AnalysisKind kind, const Trace& trace, uint64_t slices = 0);

}  // namespace tracescope
