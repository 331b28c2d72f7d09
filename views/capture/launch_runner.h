// Runs one LaunchSession (Launch & Capture) on its own thread and reports its end to the UI
// thread by a signal; the dialog polls progress() for the live counts.
#pragma once

#include "views/capture/capture_metatypes.h"

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
    // Ends the capture window now, saves what was recorded and terminates the program.
    void stop();

signals:
    void finished(const tracescope::capture::LaunchResult& result);

private:
    std::unique_ptr<capture::LaunchSession> session_;
    std::thread thread_;
    void join();
};

}  // namespace tracescope
