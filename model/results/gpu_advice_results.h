// Expert advice on a GPU trace (model/analysis/gpu_advice.h) as a result of the trace's store,
// computed once per options from the store's classification, launch statistics and queue lengths.
#pragma once

#include "model/analysis/gpu_advice.h"
#include "model/results/result_store.h"

#include <functional>
#include <memory>

namespace tracescope {

inline const char* const kGpuAdviceName = "advice";

uint64_t resultBytes(const GpuAdvice& advice);

// Blocking: computed on this thread when nobody has yet.
std::shared_ptr<const GpuAdvice> gpuAdviceOf(ResultStore& store, const AdviceOptions& options = {});
// The computation itself, for request().
std::function<GpuAdvice()> gpuAdviceWith(ResultStore& store, const AdviceOptions& options = {});

}  // namespace tracescope
