#include "model/results/gpu_advice_results.h"

#include "model/results/launch_queue_results.h"
#include "model/results/trace_results.h"

namespace tracescope {

uint64_t resultBytes(const GpuAdvice& a) {
    uint64_t bytes = sizeof a + a.findings.capacity() * sizeof(AdviceFinding);
    for (const AdviceFinding& f : a.findings)
        bytes += f.what.capacity() + f.slices.capacity() * sizeof(SliceRef) + f.host.capacity() * sizeof(GapHostSlice);
    for (const std::string& n : a.notes) bytes += sizeof n + n.capacity();
    return bytes;
}

std::function<GpuAdvice()> gpuAdviceWith(ResultStore& store, const AdviceOptions& options) {
    std::weak_ptr<ResultStore> weak = store.weak_from_this();
    return [weak, options]() -> GpuAdvice {
        std::shared_ptr<ResultStore> s = weak.lock();
        if (!s) throw AnalysisCancelled();
        const std::shared_ptr<const ClassifiedTrace> ct = classificationOf(*s);
        const std::shared_ptr<const LaunchStats> launches = launchStatsOf(*s);
        const std::shared_ptr<const QueueLengthResult> queues = queueLengthOf(*s);
        return computeGpuAdvice(*ct, findSteps(*ct), *launches, *queues, options);
    };
}

std::shared_ptr<const GpuAdvice> gpuAdviceOf(ResultStore& store, const AdviceOptions& options) {
    return store.get<GpuAdvice>({kGpuAdviceName, options.key()}, gpuAdviceWith(store, options));
}

}  // namespace tracescope
