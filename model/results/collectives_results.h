// The collective calls, their bandwidths and the communication/compute overlap of one rank's
// trace (model/analysis/collectives.h) as a result of the trace's store, computed once from its
// classification.
#pragma once

#include "model/analysis/collectives.h"
#include "model/results/result_store.h"

#include <functional>
#include <memory>

namespace tracescope {

inline const ResultKey kCollectivesKey{"collectives", ""};

uint64_t resultBytes(const CollectivesResult& result);

// Blocking: computed on this thread when nobody has yet.
std::shared_ptr<const CollectivesResult> collectivesOf(ResultStore& store);
// The computation itself, for request() (it asks the store for the classification).
std::function<CollectivesResult()> collectivesWith(ResultStore& store);

}  // namespace tracescope
