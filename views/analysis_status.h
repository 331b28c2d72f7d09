// What an analysis page shows instead of its content: a message ("No trace loaded.",
// "No GPU kernels in this trace."), the progress of the running analysis with a Cancel
// button, or a message with one action ("Run again", "Run anyway").
#pragma once

#include <QWidget>

#include <functional>

class QLabel;
class QProgressBar;
class QPushButton;

namespace tracescope {

class AnalysisStatus : public QWidget {
    Q_OBJECT
public:
    explicit AnalysisStatus(QWidget* parent = nullptr);

    // Only the text.
    void showMessage(const QString& text);
    // The text, a bar at `fraction` (0..1) and a Cancel button calling `cancel`.
    void showProgress(const QString& text, double fraction, std::function<void()> cancel);
    // The text and a button `action` calling `onClick`.
    void showAction(const QString& text, const QString& action, std::function<void()> onClick);

    QString text() const;
    // The button shown (Cancel, Run again, Run anyway), nullptr when none: for tests.
    QPushButton* button() const;

private:
    void setButton(const QString& label, std::function<void()> onClick);
    QLabel* text_ = nullptr;
    QProgressBar* bar_ = nullptr;
    QPushButton* button_ = nullptr;
    std::function<void()> onClick_;
};

}  // namespace tracescope
