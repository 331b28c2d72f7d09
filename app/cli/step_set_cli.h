// The step options every step-based command reads (--step-marker NAME, --all-steps) and the
// step set as its JSON (the "step_set" object), one shape for overview, input-pipeline, tfdata,
// pod and diff.
#pragma once

#include "app/cli/commands.h"

#include "model/analysis/step_set.h"
#include "model/analysis/steps.h"

#include <nlohmann/json.hpp>

namespace tracescope::cli {

StepOptions stepOptionsOf(const Args& args);

// {"rule": "xprof"|"all", "description": ..., "count": N, "step_count": M, "numbers": [...],
//  "all_steps_chosen": bool}: which steps the averages and percentages are taken over.
nlohmann::json stepSetJson(const StepSet& set, const std::vector<StepBreakdown>& steps);

}  // namespace tracescope::cli
