#include "views/step_set_box.h"

#include "views/step_marker_choice.h"

namespace tracescope {

StepSetBox::StepSetBox(QWidget* parent) : QCheckBox(tr("All steps"), parent) {
    setToolTip(tr("Average over every step. Unchecked, TensorFlow and JAX profiles use TensorBoard's step set "
                  "(steps with compute, then without the first and the last when more than 5 remain: the "
                  "profile window cuts them); PyTorch profiles use every step. Remembered per trace."));
    connect(this, &QCheckBox::toggled, this, [this](bool on) {
        if (choice_) choice_->setAllSteps(on);
    });
}

void StepSetBox::setChoice(StepMarkerChoice* choice) {
    if (choice_) disconnect(choice_, nullptr, this, nullptr);
    choice_ = choice;
    if (!choice_) return;
    const QSignalBlocker block(this);
    setChecked(choice_->allSteps());
    connect(choice_, &StepMarkerChoice::allStepsChanged, this, [this](bool on) {
        const QSignalBlocker b(this);
        setChecked(on);
    });
}

}  // namespace tracescope
