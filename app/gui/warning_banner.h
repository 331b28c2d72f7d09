// The strip above every page while the open trace lost data at import (its file is
// cut or damaged): what is missing, in words, and a button that lists every import
// warning. Kineto and XSpace write device events last, so without it a cut file
// reads as a healthy CPU-only run.
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace tracescope {

struct Trace;

class WarningBanner : public QFrame {
    Q_OBJECT
public:
    explicit WarningBanner(QWidget* parent = nullptr);
    // Shows the banner for a partial trace; hides it for a complete one or nullptr.
    void setTrace(const Trace* trace);

    QString text() const;
    QPushButton* warningsButton() const { return button_; }

signals:
    void warningsRequested();

private:
    QLabel* text_;
    QPushButton* button_;
    void applyColors();
};

// Lists a trace's import warnings in a window-modal message box (returns at once).
void showImportWarnings(QWidget* parent, const Trace& trace);

}  // namespace tracescope
