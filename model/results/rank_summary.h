// A rank summary: the facts of one rank's trace that the collectives matching, the Pod page's
// figures and a comparison need, in kilobytes, so that a job of thousands of ranks is summarised
// file by file (on a Dask cluster by tracescope-pod, app/pod/) and read back without the traces.
// Version 2 holds: the file (name, size, SHA-256), producer, rank and world size, the wall clock
// of time 0, the steps (their source, the step set, and per step its time by category, whether it
// is in the set and its communication/compute overlap), the top host and device ops, a kernel summary,
// every collective call with its Seq, the collectives summary and overlap, memory peaks and the
// import warnings. A summary is a function of the file and the tool's version only (no clock, no
// path but the file's name): the same file summarised twice gives the same bytes.
#pragma once

#include "model/analysis/collective_stragglers.h"
#include "model/analysis/pod.h"
#include "model/results/result_store.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace tracescope {

inline constexpr int kRankSummarySchemaVersion = 2;  // 2: steps with their source, set and overlap
inline constexpr const char* kRankSummarySchema = "tracescope-rank-summary";

struct RankSummaryFile {
    std::string name;    // the file's name (no folder)
    std::string sha256;  // of its bytes as stored
    uint64_t sizeBytes = 0;
    std::optional<int64_t> rank;  // as the workers' naming finds it (distributedInfo, else the name)
};

nlohmann::json rankSummaryJson(ResultStore& store, const RankSummaryFile& file, const std::string& toolVersion);

// Reads a summary's collectives back as one rank of a matching (offsetNs left 0: the caller aligns
// the ranks' wall clocks, rankSummaryOriginUnixNs). False, with `error`, for a file that is not a
// summary, of another schema version, or malformed.
bool rankCollectivesFromSummary(const nlohmann::json& summary, RankCollectives& out, std::string& error);
std::optional<int64_t> rankSummaryOriginUnixNs(const nlohmann::json& summary);
// Reads a summary's steps back as one worker of the Pod page (its clock and offset left for the
// caller to set from rankSummaryOriginUnixNs). False, with `error`, as above.
bool podWorkerFromSummary(const nlohmann::json& summary, PodWorkerFacts& out, std::string& error);

}  // namespace tracescope
