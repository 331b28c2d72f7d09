#include "app/gui/load_progress_list.h"

#include <QStyle>

namespace tracescope {

LoadProgressList::LoadProgressList(QWidget* parent) : QListWidget(parent) {
    setSelectionMode(QAbstractItemView::NoSelection);
    setFocusPolicy(Qt::NoFocus);
    setMinimumWidth(460);
    setTextElideMode(Qt::ElideMiddle);  // a long reason stays readable at both ends; the tooltip has it whole
}

QString LoadProgressList::lineOf(const FileLoadState& s) {
    QString state;
    switch (s.stage) {
        case FileLoadState::Stage::Waiting: state = tr("waiting"); break;
        case FileLoadState::Stage::Loading: state = tr("%1%").arg(int(s.fraction * 100)); break;
        case FileLoadState::Stage::Done: state = tr("done"); break;
        case FileLoadState::Stage::Failed: state = tr("failed: %1").arg(s.error); break;
    }
    return tr("%1 — %2").arg(s.name, state);
}

void LoadProgressList::setStates(const std::vector<FileLoadState>& states) {
    while (count() > int(states.size())) delete takeItem(count() - 1);
    while (count() < int(states.size())) addItem(QString());
    for (size_t i = 0; i < states.size(); ++i) {
        QListWidgetItem* it = item(int(i));
        it->setText(lineOf(states[i]));
        const bool failed = states[i].stage == FileLoadState::Stage::Failed;
        it->setIcon(failed ? style()->standardIcon(QStyle::SP_MessageBoxWarning) : QIcon());
        it->setToolTip(failed ? states[i].error : QString());
        it->setData(Qt::UserRole, int(states[i].stage));
    }
    // As tall as its first 12 rows (an icon makes a row taller), scrolling beyond.
    int height = 2 * frameWidth() + 2;
    for (int r = 0; r < std::min(count(), 12); ++r) height += std::max(sizeHintForRow(r), fontMetrics().height() + 4);
    setFixedHeight(height);
}

}  // namespace tracescope
