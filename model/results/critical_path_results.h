// The critical paths of a trace's steps (model/analysis/critical_path.h) as results of its store:
// one result for every step at once, computed from the classification and the steps.
#pragma once

#include "model/analysis/critical_path.h"
#include "model/results/result_store.h"

#include <functional>
#include <memory>

namespace tracescope {

inline const ResultKey kCriticalPathKey{"critical-path", ""};
inline const ResultKey kCriticalPathHtaRulesKey{"critical-path", "hta-rules"};

uint64_t resultBytes(const CriticalPathResult& result);

// Blocking: computed on this thread when nobody has yet.
std::shared_ptr<const CriticalPathResult> criticalPathsOf(ResultStore& store, const CriticalPathOptions& options = {});
// The computation itself, for request() (it asks the store for the classification).
std::function<CriticalPathResult()> criticalPathsWith(ResultStore& store, const CriticalPathOptions& options = {});

}  // namespace tracescope
