#include "app/gui/whats_this.h"

#include <QHelpEvent>
#include <QWhatsThis>
#include <QWidget>

namespace tracescope {

bool WhatsThisFromToolTip::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() != QEvent::WhatsThis) return false;
    auto* widget = qobject_cast<QWidget*>(watched);
    if (!widget || !widget->whatsThis().isEmpty() || widget->toolTip().isEmpty()) return false;
    QWhatsThis::showText(static_cast<QHelpEvent*>(event)->globalPos(), widget->toolTip(), widget);
    return true;
}

}  // namespace tracescope
