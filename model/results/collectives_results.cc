#include "model/results/collectives_results.h"

#include "model/results/trace_results.h"

namespace tracescope {

uint64_t resultBytes(const CollectivesResult& r) {
    uint64_t bytes = sizeof r;
    for (const CollectiveCall& c : r.calls)
        bytes += sizeof c + c.kind.capacity() + c.kindSource.capacity() + c.group.capacity() +
                 c.groupRanks.capacity() + c.dtype.capacity() + c.kernels.capacity() * sizeof(SliceRef);
    for (const CollectiveSummaryRow& s : r.summary) bytes += sizeof s + s.kind.capacity() + s.group.capacity();
    bytes += r.steps.capacity() * sizeof(StepOverlap);
    for (const std::string& n : r.notes) bytes += sizeof n + n.capacity();
    return bytes;
}

std::function<CollectivesResult()> collectivesWith(ResultStore& store) {
    std::weak_ptr<ResultStore> weak = store.weak_from_this();
    return [weak]() -> CollectivesResult {
        std::shared_ptr<ResultStore> s = weak.lock();
        if (!s) throw AnalysisCancelled();
        return computeCollectives(*classificationOf(*s));
    };
}

std::shared_ptr<const CollectivesResult> collectivesOf(ResultStore& store) {
    return store.get<CollectivesResult>(kCollectivesKey, collectivesWith(store));
}

}  // namespace tracescope
