#include "app/cli/step_set_cli.h"

namespace tracescope::cli {

StepOptions stepOptionsOf(const Args& args) {
    StepOptions o;
    o.marker = flagValue(args, "--step-marker");
    o.allSteps = hasFlag(args, "--all-steps");
    return o;
}

nlohmann::json stepSetJson(const StepSet& set, const std::vector<StepBreakdown>& steps) {
    nlohmann::json numbers = nlohmann::json::array();
    for (size_t i = 0; i < steps.size(); ++i)
        if (set.contains(i)) numbers.push_back(steps[i].step.number);
    return {{"rule", stepSetRuleName(set.rule)},
            {"description", set.description},
            {"count", set.count},
            {"step_count", steps.size()},
            {"numbers", std::move(numbers)},
            {"all_steps_chosen", set.allStepsChosen}};
}

}  // namespace tracescope::cli
