// GPU utilisation (model/analysis/gpu_utilization.h: HTA's temporal and idle-time breakdowns per
// GPU, with each stream's idle gaps) as a result of the trace's store, computed once from its
// classification.
#pragma once

#include "model/analysis/gpu_utilization.h"
#include "model/results/result_store.h"

#include <functional>
#include <memory>

namespace tracescope {

inline const ResultKey kGpuUtilizationKey{"gpu-util", ""};

uint64_t resultBytes(const GpuUtilizationResult& result);

// Blocking: computed on this thread when nobody has yet.
std::shared_ptr<const GpuUtilizationResult> gpuUtilizationOf(ResultStore& store);
// The computation itself, for request() (it asks the store for the classification).
std::function<GpuUtilizationResult()> gpuUtilizationWith(ResultStore& store);

}  // namespace tracescope
