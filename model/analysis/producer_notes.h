// What a producer's file does not carry, named for the page that would otherwise show a zero:
// e.g. XProf's trace JSON without kernel_details (no launch parameters), without
// MemoryAllocation events (no memory numbers), a TF1 step without the GPU tracer (no kernels).
// Plain sentences; the views and the CLI (`notes`) show them as they are.
#pragma once

#include "model/analysis/op_classify.h"

#include <string>
#include <vector>

namespace tracescope {

struct KernelStatsResult;
struct StepsResult;

std::vector<std::string> kernelStatsNotes(const ClassifiedTrace& ct, const KernelStatsResult& r);
// Without steps: why none was found. With steps: how the breakdown counts host events where that
// is not plain time-window classification or differs from XProf's definition.
std::vector<std::string> stepsNotes(const ClassifiedTrace& ct, const StepsResult& steps);
// Notes that hold for the whole file (e.g. memory events the producer leaves out).
std::vector<std::string> fileNotes(const ClassifiedTrace& ct);

}  // namespace tracescope
