// "All steps": averages over every step instead of the trace's step set (TensorBoard's on
// XSpace: steps with compute, without the first and the last), bound to the shared
// StepMarkerChoice both ways.
#pragma once

#include <QCheckBox>

namespace tracescope {

class StepMarkerChoice;

class StepSetBox : public QCheckBox {
    Q_OBJECT
public:
    explicit StepSetBox(QWidget* parent = nullptr);

    void setChoice(StepMarkerChoice* choice);

private:
    StepMarkerChoice* choice_ = nullptr;
};

}  // namespace tracescope
