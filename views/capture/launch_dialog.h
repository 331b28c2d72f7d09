// File > Launch & Capture…: runs any CUDA program under our CUPTI agent (command, working
// folder, environment, which activity to record, early NVTX, an optional capture window),
// shows live record counts and the program's output, and opens the saved run. Stop ends the capture window (the
// program runs on) and Start opens a new one; Terminate ends the program. Fields persist in
// QSettings.
#pragma once

#include "views/capture/capture_metatypes.h"

#include <QDialog>
#include <QStringDecoder>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTimer;

namespace tracescope {

class LaunchRunner;

class LaunchDialog : public QDialog {
    Q_OBJECT
public:
    explicit LaunchDialog(QWidget* parent = nullptr);
    ~LaunchDialog() override;

    // The form as launch options; false with a message when it is not valid.
    bool readOptions(capture::LaunchOptions& out, QString& error) const;
    bool running() const;
    // For tests and --screenshot.
    void setCommand(const QString& command);
    void setLogdir(const QString& logdir);
    QString statusText() const;
    QString outputText() const;

public slots:
    // Launches the program; while it runs after a stopped window, starts a new window.
    void startLaunch();
    // Ends the capture window: what was recorded is saved, the program keeps running.
    void stopLaunch();
    // Ends the program (an open capture window is saved with it).
    void terminateProgram();

signals:
    // The capture saved at least one file and "Open when done" is checked.
    void openRequested(const QString& logdir, const QString& runDir);
    void launchFinished(const tracescope::capture::LaunchResult& result);

private:
    QLineEdit* command_;
    QLineEdit* workingDir_;
    QPlainTextEdit* environment_;
    QCheckBox* sync_;
    QCheckBox* nvtx_;
    QCheckBox* memory_;
    QCheckBox* driver_;
    QCheckBox* earlyNvtx_;
    QSpinBox* durationMs_;
    QLineEdit* logdir_;
    QCheckBox* openWhenDone_;
    QLabel* formError_;
    QLabel* status_;
    QPlainTextEdit* output_;  // the program's stdout and stderr
    QStringDecoder outputDecoder_{QStringDecoder::Utf8};
    QPushButton* startButton_;
    QPushButton* stopButton_;
    QPushButton* terminateButton_;
    QPushButton* closeButton_;
    QTimer* poll_;
    LaunchRunner* runner_;
    QString runningLogdir_;
    QString savedSummary_;  // the capture's summary once its window was stopped and saved

    void loadSettings();
    void saveSettings() const;
    void setRunning(bool running);
    void refresh();
    void captureSaved(const capture::LaunchResult& result);
    void finish(const capture::LaunchResult& result);
    void appendOutput(const QByteArray& bytes);
    QStringList summary(const capture::LaunchResult& result) const;
    void reject() override;  // closing while running stops the program first
};

}  // namespace tracescope
