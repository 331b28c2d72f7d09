// The per-step stacked column chart of the step-time breakdown (§7.5 categories),
// shared by the overview and the input-pipeline pages.
#pragma once

#include "model/analysis/steps.h"

#include <QStringList>

#include <vector>

namespace tracescope {

class StackedColumnChart;

// Fills `chart` with one column per step and one series per category, in milliseconds.
void showStepBreakdown(StackedColumnChart* chart, const std::vector<StepBreakdown>& steps);

}  // namespace tracescope
