// "Steps from: [Automatic ▾]": picks the step marker by name among the trace's candidate
// top-level names (stepMarkerCandidates), bound to the shared StepMarkerChoice both ways.
#pragma once

#include "model/analysis/steps.h"

#include <QComboBox>

#include <vector>

namespace tracescope {

class StepMarkerChoice;

class StepMarkerBox : public QComboBox {
    Q_OBJECT
public:
    explicit StepMarkerBox(QWidget* parent = nullptr);

    void setChoice(StepMarkerChoice* choice);
    // The names offered besides "Automatic" (the chosen one stays listed even if it is not among them).
    void setCandidates(const std::vector<StepMarkerCandidate>& candidates);

private:
    StepMarkerChoice* choice_ = nullptr;
    std::vector<StepMarkerCandidate> candidates_;
    void rebuild();
};

}  // namespace tracescope
