#include "views/step_marker_box.h"

#include "views/step_marker_choice.h"

namespace tracescope {

StepMarkerBox::StepMarkerBox(QWidget* parent) : QComboBox(parent) {
    setToolTip(tr("Which slices are the steps, for the Overview, Input Pipeline and Pod pages: automatic "
                  "(ProfilerStep#N, XSpace steps, step annotations, else inferred) or a repeating top-level "
                  "name of your choice"));
    setMinimumContentsLength(22);
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    rebuild();
    connect(this, &QComboBox::activated, this, [this](int i) {
        if (choice_) choice_->setMarker(i <= 0 ? QString() : itemData(i).toString());
    });
}

void StepMarkerBox::setChoice(StepMarkerChoice* choice) {
    if (choice_) disconnect(choice_, nullptr, this, nullptr);
    choice_ = choice;
    if (choice_) connect(choice_, &StepMarkerChoice::markerChanged, this, [this] { rebuild(); });
    rebuild();
}

void StepMarkerBox::setCandidates(const std::vector<StepMarkerCandidate>& candidates) {
    candidates_ = candidates;
    rebuild();
}

void StepMarkerBox::rebuild() {
    const QSignalBlocker block(this);
    clear();
    addItem(tr("Automatic"));
    const QString chosen = choice_ ? choice_->marker() : QString();
    bool listed = chosen.isEmpty();
    for (const StepMarkerCandidate& c : candidates_) {
        const QString name = QString::fromStdString(c.name);
        addItem(tr("%1 (%2×)").arg(name).arg(c.occurrences), name);
        setItemData(count() - 1, name, Qt::ToolTipRole);
        listed = listed || name == chosen;
    }
    if (!listed) addItem(chosen, chosen);
    setCurrentIndex(chosen.isEmpty() ? 0 : std::max(0, findData(chosen)));
}

}  // namespace tracescope
