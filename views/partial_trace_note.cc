#include "views/partial_trace_note.h"

#include "model/trace/partial_trace.h"
#include "views/theme_colors.h"

#include <QApplication>
#include <QPalette>

namespace tracescope {

namespace {

// The amber of the main window's banner, a shade softer: a reminder, not an alarm; a dark
// amber on dark palettes.
void applyPageNoteColors(QLabel* label) {
    const QString sel = QStringLiteral("QLabel#") + label->objectName();
    const bool dark = isDarkPalette(QApplication::palette());
    label->setStyleSheet(sel + (dark ? QStringLiteral(" { background: #3d3000; color: #ffe9a8; "
                                                      "border: 1px solid #7a6000; border-radius: 3px; padding: 3px 6px; }")
                                     : QStringLiteral(" { background: #fff8e1; color: #5c4400; "
                                                      "border: 1px solid #f0d68a; border-radius: 3px; padding: 3px 6px; }")));
}

}  // namespace

void styleAsPageNote(QLabel* label) {
    if (label->objectName().isEmpty()) label->setObjectName(QStringLiteral("PageNote"));
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    applyPageNoteColors(label);
    restyleOnPaletteChange(label, [label] { applyPageNoteColors(label); });  // View > Theme switches live
}

PartialTraceNote::PartialTraceNote(QWidget* parent) : WrappingLabel(parent) {
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
