// Runs one LaunchSession (Launch & Capture) on its own thread and reports to the UI thread
// by signals: the capture saved while the program still runs (its window was stopped), and
// the program's end, and its output. The dialog polls progress() for the live counts.
#pragma once

#include "views/capture/capture_metatypes.h"

#include <QByteArray>
#include <QObject>

#include <memory>
#include <thread>

namespace tracescope {

class LaunchRunner : public QObject {
    Q_OBJECT
public:
    explicit LaunchRunner(QObject* parent = nullptr);
    // Terminates a running program and waits for the capture thread.
    ~LaunchRunner() override;

    // False if a launch is already running.
    bool start(capture::LaunchOptions options);
    bool running() const { return session_ != nullptr; }
    capture::LaunchProgress progress() const;
    // Ends the capture window now and saves what was recorded; the program runs on.
    void stopCapture();
    // After a saved capture window, while the program runs: collect again (a new run folder).
    void restartCapture();
    // Ends the program (SIGTERM, then SIGKILL); an open window is saved at its exit.
    void terminate();

signals:
    // The capture window was stopped and saved; the program is still running.
    void captureSaved(const tracescope::capture::LaunchResult& result);
    // The program ended (the capture, if not saved before, is saved with it).
    void finished(const tracescope::capture::LaunchResult& result);
    // Bytes the program wrote to its stdout or stderr (pieces may split a UTF-8 character).
    void output(const QByteArray& bytes);

private:
    std::unique_ptr<capture::LaunchSession> session_;
    std::thread thread_;
    void join();
};

}  // namespace tracescope
