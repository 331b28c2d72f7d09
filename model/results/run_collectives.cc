#include "model/results/run_collectives.h"

#include "model/analysis/analysis_progress.h"
#include "model/results/collectives_results.h"
#include "model/results/result_store.h"
#include "model/trace/merge_workers.h"

#include <string>

namespace tracescope {

RunCollectives runCollectivesOf(const MultiWorkerRun& run, const Trace* mergedView) {
    RunCollectives out;
    const size_t n = run.workers.size();
    for (size_t w = 0; w < n; ++w) {
        const WorkerTrace& wt = run.workers[w];
        analysisStep("Finding " + wt.name + "'s collectives", 0.9 * double(w) / double(n),
                     0.9 * double(w + 1) / double(n));
        std::shared_ptr<const Trace> own = wt.trace;
        if (!own && wt.merged && mergedView) own = std::shared_ptr<const Trace>(workerTraceOf(*mergedView, wt));
        if (!own) continue;
        RankCollectives r;
        r.name = wt.name;
        r.rank = wt.rank;
        r.offsetNs = wt.offsetNs;
        r.result = collectivesOf(*ResultStore::of(own));
        out.ranks.push_back(std::move(r));
        out.workers.push_back(w);
    }
    analysisStep("Matching collectives across ranks", 0.9, 1);
    out.stragglers = matchCollectives(out.ranks);
    return out;
}

std::optional<TimeNs> lateness(const MatchedCollective& m, size_t rank) {
    if (rank >= m.calls.size() || !m.calls[rank]) return std::nullopt;
    TimeNs earliest = 0;
    bool first = true;
    for (size_t r = 0; r < m.calls.size(); ++r)
        if (m.calls[r] && (first || m.arrivalNs[r] < earliest)) earliest = m.arrivalNs[r], first = false;
    return m.arrivalNs[rank] - earliest;
}

}  // namespace tracescope
