#include "model/results/cuda_api_results.h"

#include "model/results/trace_results.h"

namespace tracescope {

uint64_t resultBytes(const CudaApiSummary& s) {
    uint64_t bytes = sizeof s;
    for (const DurationRow& r : s.api) bytes += sizeof r + r.name.capacity();
    for (const DurationRow& r : s.kernels) bytes += sizeof r + r.name.capacity();
    bytes += (s.memcpy.size() + s.memset.size()) * sizeof(CopyRow);
    for (const SyncRow& r : s.sync) bytes += sizeof r + r.api.capacity() + r.kind.capacity();
    for (const std::string& n : s.notes) bytes += sizeof n + n.capacity();
    return bytes;
}

std::function<CudaApiSummary()> cudaApiSummaryWith(ResultStore& store) {
    std::weak_ptr<ResultStore> weak = store.weak_from_this();
    return [weak]() -> CudaApiSummary {
        std::shared_ptr<ResultStore> s = weak.lock();
        if (!s) throw AnalysisCancelled();
        return computeCudaApiSummary(*classificationOf(*s));
    };
}

std::shared_ptr<const CudaApiSummary> cudaApiSummaryOf(ResultStore& store) {
    return store.get<CudaApiSummary>(kCudaApiSummaryKey, cudaApiSummaryWith(store));
}

}  // namespace tracescope
