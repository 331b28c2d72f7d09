// The CUDA API, copy, memset, kernel and sync summaries (model/analysis/cuda_api_summary.h) as a
// result of the trace's store, computed once from its classification.
#pragma once

#include "model/analysis/cuda_api_summary.h"
#include "model/results/result_store.h"

#include <functional>
#include <memory>

namespace tracescope {

inline const ResultKey kCudaApiSummaryKey{"cuda-api-summary", ""};

uint64_t resultBytes(const CudaApiSummary& summary);

// Blocking: computed on this thread when nobody has yet.
std::shared_ptr<const CudaApiSummary> cudaApiSummaryOf(ResultStore& store);
// The computation itself, for request() (it asks the store for the classification).
std::function<CudaApiSummary()> cudaApiSummaryWith(ResultStore& store);

}  // namespace tracescope
