// The collectives of every rank of a multi-worker run, matched across ranks (stragglers by
// collective): what the Collectives page shows for a run opened as several rank files.
#pragma once

#include "model/analysis/collective_stragglers.h"
#include "model/trace/workers.h"

#include <vector>

namespace tracescope {

struct RunCollectives {
    std::vector<RankCollectives> ranks;  // the loaded workers, in the run's order
    std::vector<size_t> workers;         // per rank: its index in the run's workers
    StragglerResult stragglers;
};

// Each loaded worker's collectives from its own trace's result store; a worker let go after
// merging is cut out of `mergedView` for as long as that takes. Then matchCollectives.
RunCollectives runCollectivesOf(const MultiWorkerRun& run, const Trace* mergedView);

// A rank's arrival at a matched collective after the first rank's (ns); nullopt where it made no
// such call. The heat map's cells.
std::optional<TimeNs> lateness(const MatchedCollective& m, size_t rank);

}  // namespace tracescope
