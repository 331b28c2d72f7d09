// A one-line note an analysis page shows beside its headline figures while the
// trace is partial (its file is cut or damaged): totals, verdicts and "0 kernels"
// then describe only what was read. Hidden for a complete trace.
#pragma once

#include "views/wrapping_label.h"

#include <QLabel>

namespace tracescope {

struct Trace;

// Gives a label the note's look (soft amber box, word wrap, selectable): for other notes a
// page shows above its figures, e.g. what the producer's file does not carry.
void styleAsPageNote(QLabel* label);

class PartialTraceNote : public WrappingLabel {
    Q_OBJECT
public:
    explicit PartialTraceNote(QWidget* parent = nullptr);
    // Shows the note for a partial trace, hides it otherwise (and for nullptr).
    void setTrace(const Trace* trace);
};

}  // namespace tracescope
