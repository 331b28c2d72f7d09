#include "views/partial_trace_note.h"

#include "model/trace/partial_trace.h"

#include <QApplication>
#include <QPalette>

namespace tracescope {

void styleAsPageNote(QLabel* label) {
    if (label->objectName().isEmpty()) label->setObjectName(QStringLiteral("PageNote"));
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The amber of the main window's banner, a shade softer: a reminder, not an alarm.
    // Dark palettes (--dark) get a dark amber.
    const bool dark = QApplication::palette().color(QPalette::Window).lightness() < 128;
    const QString sel = QStringLiteral("QLabel#") + label->objectName();
    label->setStyleSheet(sel + (dark ? QStringLiteral(" { background: #3d3000; color: #ffe9a8; "
                                                      "border: 1px solid #7a6000; border-radius: 3px; padding: 3px 6px; }")
                                     : QStringLiteral(" { background: #fff8e1; color: #5c4400; "
                                                      "border: 1px solid #f0d68a; border-radius: 3px; padding: 3px 6px; }")));
}

PartialTraceNote::PartialTraceNote(QWidget* parent) : QLabel(parent) {
    setObjectName(QStringLiteral("PartialTraceNote"));
    styleAsPageNote(this);
    hide();
}

void PartialTraceNote::setTrace(const Trace* trace) {
    const std::string note = trace ? partialTraceNote(*trace) : std::string();
    setText(QStringLiteral("⚠ ") + QString::fromStdString(note));
    setVisible(!note.empty());
}

}  // namespace tracescope
