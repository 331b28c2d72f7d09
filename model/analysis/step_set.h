// Which steps a figure averaged over steps is taken over (the "step set"), one rule for every
// page that quotes such a figure (Overview, Input Pipeline, tf.data, Pod, Compare).
//
// XSpace and XProf-made trace JSON use XProf's set (step_events_to_steps_db.cc, as TensorBoard
// shows it): steps without compute are left out (device compute on a profile with a device,
// host compute on a CPU-only one: ConvertStepDetailsToStepInfo's "well-formed step"), then the
// first and the last step when more than 5 remain (kDropIncomplteteStepThreshold: the profile
// window cuts them). Other traces (Kineto's ProfilerStep#N, TF1, inferred steps of generic
// traces) keep every step, as PyTorch's tools do. The user can ask for every step anyway
// (StepOptions::allSteps: the pages' "All steps" switch, the CLI's --all-steps).
//
// A percentage of step time over the set is a ratio of sums (XProf's input %: input time over
// step time, both summed over the set), never a mean of per-step ratios.
#pragma once

#include "model/analysis/op_classify.h"
#include "model/analysis/steps.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tracescope {

enum class StepSetRule : uint8_t {
    AllSteps,  // every step (Kineto, TF1, generic traces; or the user's choice)
    XProf,     // XProf's: steps with compute, then without the first and the last when more than 5
};
// "all" / "xprof": the JSON's step_set.rule.
const char* stepSetRuleName(StepSetRule r);

struct StepSet {
    StepSetRule rule = StepSetRule::AllSteps;
    // XProf's rule applies to the trace but the user chose every step.
    bool allStepsChosen = false;
    // XProf's rule left no step (none has compute): every step is used, and the description says so.
    bool noneWithCompute = false;
    // Per step, in the order of the breakdown: 1 when the step is in the set.
    std::vector<uint8_t> included;
    size_t count = 0;
    size_t withoutCompute = 0;  // steps left out for having no compute
    bool endsDropped = false;   // the first and the last step left out
    // What XProf's set would be on this trace (for the user's "all steps" text): its size.
    size_t xprofCount = 0;
    // One sentence: which steps and why ("steps 2–11 of 12, as TensorBoard: ...").
    std::string description;

    bool contains(size_t i) const { return i < included.size() && included[i]; }
};

// The set for these steps (breakdownSteps' order). `allSteps`: the user asked for every step.
StepSet chooseStepSet(const ClassifiedTrace& ct, const std::vector<StepBreakdown>& steps, bool allSteps);

// The categories summed over the steps of the set (percentOfStep: sum over sum).
std::array<CategorySummary, kStepCategoryCount> summarizeBreakdown(const std::vector<StepBreakdown>& steps,
                                                                   const StepSet& set);
// Step time over the steps of the set.
Distribution stepTimeOf(const std::vector<StepBreakdown>& steps, const StepSet& set);

}  // namespace tracescope
