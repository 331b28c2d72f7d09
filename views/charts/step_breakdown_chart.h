// The per-step stacked column chart of the step-time breakdown (§7.5 categories),
// shared by the overview and the input-pipeline pages.
#pragma once

#include "model/analysis/step_set.h"
#include "model/analysis/steps.h"

#include <QColor>
#include <QStringList>

#include <vector>

namespace tracescope {

class StackedColumnChart;

QColor categoryColour(StepCategory c);
// Fills `chart` with one column per step and one series per category, in milliseconds. With a
// step set, the steps outside it are labelled in parentheses ("(0)"): listed, not averaged.
void showStepBreakdown(StackedColumnChart* chart, const std::vector<StepBreakdown>& steps, const StepSet* set = nullptr);

}  // namespace tracescope
