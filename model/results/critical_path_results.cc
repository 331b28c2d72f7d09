#include "model/results/critical_path_results.h"

#include "model/results/trace_results.h"

namespace tracescope {

uint64_t resultBytes(const CriticalPathResult& r) {
    uint64_t bytes = sizeof r + r.stepRule.capacity();
    for (const CriticalPath& p : r.paths) {
        bytes += sizeof p + p.stepName.capacity() + p.nodes.capacity() * sizeof(CpPathNode) +
                 p.edges.capacity() * sizeof(CpPathEdge) + p.events.capacity() * sizeof(SliceRef);
        for (const CpContributor& c : p.topContributors) bytes += sizeof c + c.name.capacity();
    }
    for (const std::string& n : r.notes) bytes += sizeof n + n.capacity();
    return bytes;
}

std::function<CriticalPathResult()> criticalPathsWith(ResultStore& store, const CriticalPathOptions& options) {
    std::weak_ptr<ResultStore> weak = store.weak_from_this();
    return [weak, options]() -> CriticalPathResult {
        std::shared_ptr<ResultStore> s = weak.lock();
        if (!s) throw AnalysisCancelled();
        const std::shared_ptr<const ClassifiedTrace> ct = classificationOf(*s);
        return computeCriticalPaths(*ct, findSteps(*ct), options);
    };
}

std::shared_ptr<const CriticalPathResult> criticalPathsOf(ResultStore& store, const CriticalPathOptions& options) {
    return store.get<CriticalPathResult>(options.htaRules ? kCriticalPathHtaRulesKey : kCriticalPathKey,
                                         criticalPathsWith(store, options));
}

}  // namespace tracescope
