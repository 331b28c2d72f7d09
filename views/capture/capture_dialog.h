// File > Capture Profile…: the TensorBoard "Capture Profile" dialog, with per-worker progress,
// Stop (keep what was traced so far) and Cancel (abort, nothing saved). Fields persist in
// QSettings; the address field keeps a history of the servers used.
#pragma once

#include "views/capture/capture_metatypes.h"

#include <QDialog>
#include <QString>
#include <QStringList>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace tracescope {

class CaptureRunner;

class CaptureDialog : public QDialog {
    Q_OBJECT
public:
    explicit CaptureDialog(QWidget* parent = nullptr);
    ~CaptureDialog() override;

    // The form as capture options; false with a message when it is not valid.
    bool readOptions(capture::CaptureOptions& out, QString& error) const;
    bool running() const;

    // For tests and --screenshot: fill the address field.
    void setAddresses(const QString& text);

public slots:
    // Starts a capture from the form (as the Capture button does).
    void startCapture();
    void stopCapture();
    void cancelCapture();

signals:
    // A capture saved at least one file and "Open when done" is checked: open the run folder
    // `runDir` (under `logdir`, whose other runs File > Runs lists).
    void openRequested(const QString& logdir, const QString& runDir);
    // Every capture's end, whatever its outcome (for tests).
    void captureFinished(const tracescope::capture::CaptureResult& result);

private:
    QComboBox* addresses_;
    QSpinBox* durationMs_;
    QSpinBox* retries_;
    QComboBox* hostLevel_;
    QComboBox* deviceLevel_;
    QComboBox* pythonLevel_;
    QSpinBox* delayMs_;
    QLineEdit* logdir_;
    QCheckBox* openWhenDone_;
    QLabel* formError_;
    QTableWidget* workers_;
    QLabel* summary_;
    QPushButton* captureButton_;
    QPushButton* stopButton_;
    QPushButton* cancelButton_;
    QPushButton* closeButton_;
    QTimer* clock_;
    CaptureRunner* runner_;
    std::vector<capture::WorkerStatus> status_;
    uint64_t runningDurationMs_ = 0;
    uint64_t runningDelayMs_ = 0;
    QString runningLogdir_;

    void loadSettings();
    void saveSettings() const;
    void setRunning(bool running);
    void showWorker(int index, const capture::WorkerStatus& status);
    void refreshTimes();
    void finish(const capture::CaptureResult& result);
    void reject() override;  // Esc / close while running cancels first
    void changeEvent(QEvent* event) override;  // a theme switch recolours the states
};

}  // namespace tracescope
