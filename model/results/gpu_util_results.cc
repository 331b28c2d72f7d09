#include "model/results/gpu_util_results.h"

#include "model/results/trace_results.h"

namespace tracescope {

uint64_t resultBytes(const GpuUtilizationResult& r) {
    uint64_t bytes = sizeof r;
    for (const GpuUtilization& g : r.gpus) {
        bytes += sizeof g + g.name.capacity();
        for (const StreamIdle& s : g.streams)
            bytes += sizeof s + s.tracks.capacity() * sizeof(TrackIndex) + s.gaps.capacity() * sizeof(IdleGap);
    }
    for (const std::string& n : r.notes) bytes += sizeof n + n.capacity();
    return bytes;
}

std::function<GpuUtilizationResult()> gpuUtilizationWith(ResultStore& store) {
    std::weak_ptr<ResultStore> weak = store.weak_from_this();
    return [weak]() -> GpuUtilizationResult {
        std::shared_ptr<ResultStore> s = weak.lock();
        if (!s) throw AnalysisCancelled();
        return computeGpuUtilization(*classificationOf(*s));
    };
}

std::shared_ptr<const GpuUtilizationResult> gpuUtilizationOf(ResultStore& store) {
    return store.get<GpuUtilizationResult>(kGpuUtilizationKey, gpuUtilizationWith(store));
}

}  // namespace tracescope
