// A run read from its ranks' summaries (rank_summary.h) instead of its traces: what `collectives`,
// `pod`, the Pod page and the Collectives page show for a job of thousands of ranks, each summary
// kilobytes. Summaries are found as tracescope-pod writes them (a folder with index.json, which
// also names each rank's trace, to open on demand) or as *.summary.json files.
#pragma once

#include "model/analysis/collective_stragglers.h"
#include "model/analysis/pod.h"
#include "model/results/run_collectives.h"

#include <optional>
#include <string>
#include <vector>

namespace tracescope {

// The summaries named: *.summary.json files, and those inside named folders (the ranks of
// tracescope-pod's index.json where there is one). Empty when the paths name traces instead (a
// folder without summaries is a folder of traces).
std::vector<std::string> summaryPaths(const std::vector<std::string>& paths);

struct SummaryRank {
    std::string summaryPath;
    std::string tracePath;        // the rank's trace as tracescope-pod's index names it; "" unknown
    PodWorkerFacts pod;           // its steps, clock and offset on the run's clock
    RankCollectives collectives;  // its collectives, offset likewise
};

struct SummaryRun {
    std::vector<SummaryRank> ranks;       // in the order named
    std::optional<int64_t> originUnixNs;  // the wall clock of run time 0, when every summary has one
    std::vector<std::string> warnings;    // per summary left out: "FILE: why"
    std::vector<std::string> notes;       // missing ranks, clocks
};

// Reads the summaries: a file that is not a summary, of another schema version or malformed, and a
// rank found again (its first summary kept), are named in warnings and left out; the ranks' clocks
// are aligned on their wall clocks as the traces' are; ranks of the job without a summary are
// named in the notes.
SummaryRun loadSummaryRun(const std::vector<std::string>& summaryPaths);

// The Pod page's figures and the stragglers by collective of the run, as from its traces.
PodResult podOfSummaries(const SummaryRun& run);
RunCollectives collectivesOfSummaries(const SummaryRun& run);

}  // namespace tracescope
