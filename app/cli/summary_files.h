// Rank summaries named on the command line (`collectives` and `pod` read a run from them as from
// its traces): which paths are summaries, and the checks a run of them needs.
#pragma once

#include "model/trace/types.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tracescope::cli {

// The summaries named: *.summary.json files, and those inside named folders (tracescope-pod's
// index.json where there is one). Empty when the paths name traces instead (a folder without
// summaries is a folder of traces).
std::vector<std::string> summaryPaths(const std::vector<std::string>& paths);

// The file's JSON; discarded (is_discarded()) when it cannot be read or parsed.
nlohmann::json readJsonFile(const std::string& path);

// "N of W ranks have no summary: 3, 17, …" where the ranks seen are fewer than the world size;
// "" otherwise.
std::string missingRanksNote(const std::set<int64_t>& seen, std::optional<int64_t> worldSize);

// Each rank's offset on the run's clock from the summaries' wall clocks (the earliest at 0);
// nullopt when a summary has none.
std::optional<std::vector<TimeNs>> wallClockOffsets(const std::vector<std::optional<int64_t>>& originsUnixNs);

}  // namespace tracescope::cli
