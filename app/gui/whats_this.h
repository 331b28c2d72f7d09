// Help › What's This (Shift+F1) on the pages' figures: a widget that has no What's This text of
// its own shows its tooltip (the figure's definition) instead, so the two never differ. Table
// columns answer with their definition (AnalysisTableModel's WhatsThisRole).
#pragma once

#include <QObject>

namespace tracescope {

class WhatsThisFromToolTip : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace tracescope
