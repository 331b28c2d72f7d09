// Stragglers by collective: the same collective call found on every rank's trace, and which rank
// arrived last. A call is matched across ranks by (process group, Seq) where the traces record
// Kineto's `Seq`; without it (gloo/CPU traces, older Kineto) by its order: the n-th call of the
// same kind in the same group on each rank. A rank arrives when its call starts (its
// communication kernel's start, or its host op's when the call has no kernel), on the run's
// clock (each rank's time plus its offset, as the Pod page aligns ranks).
// For each collective found on two or more ranks:
//  * skew = latest arrival − earliest arrival;
//  * late rank = the rank that arrived last (the lowest such rank on a tie);
//  * induced wait = Σ over the other ranks of (latest arrival − their arrival): the time the
//    others spent waiting for the late rank.
// Ranks are then ranked by the wait they induced in total.
#pragma once

#include "model/analysis/collectives.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tracescope {

struct RankCollectives {
    std::string name;            // "rank 3", or the file's name
    std::optional<int64_t> rank;
    TimeNs offsetNs = 0;         // rank time + offsetNs = run time
    std::shared_ptr<const CollectivesResult> result;
};

struct MatchedCollective {
    std::string group, kind;
    std::optional<int64_t> seq;  // matched by Seq; else by order
    uint64_t ordinal = 0;        // the n-th call (from 0) of this kind in this group, per rank
    // Per rank of the input: the call's index in that rank's calls; nullopt where missing.
    std::vector<std::optional<size_t>> calls;
    std::vector<TimeNs> arrivalNs;  // per rank, on the run's clock (0 where missing)
    size_t ranksPresent = 0;
    TimeNs skewNs = 0;
    size_t lateRank = 0;  // index into the input ranks
    TimeNs inducedWaitNs = 0;
};

struct RankWait {
    size_t rank = 0;             // index into the input ranks
    TimeNs inducedWaitNs = 0;    // total over the collectives it was late to
    uint64_t lateCount = 0;      // collectives it was late to
    TimeNs waitedNs = 0;         // total time it waited for others
};

struct StragglerResult {
    bool bySeq = false;                     // matched by Seq (else by order)
    std::vector<MatchedCollective> collectives;  // in order of their earliest arrival
    std::vector<RankWait> ranks;                 // by induced wait, largest first
    uint64_t unmatchedCalls = 0;                 // calls found on one rank only
    std::vector<std::string> notes;
};

StragglerResult matchCollectives(const std::vector<RankCollectives>& ranks);

}  // namespace tracescope
