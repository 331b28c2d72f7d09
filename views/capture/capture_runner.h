// Runs one CaptureSession on its own thread and reports to the UI thread by signals.
// A capture blocks for its whole duration (seconds to minutes), so it gets a thread of its
// own instead of a slot in the app's background pools, which stay free for analyses.
#pragma once

#include "views/capture/capture_metatypes.h"

#include <QObject>

#include <memory>
#include <thread>

namespace tracescope {

class CaptureRunner : public QObject {
    Q_OBJECT
public:
    explicit CaptureRunner(QObject* parent = nullptr);
    // Cancels a running capture and waits for its thread (no file is left behind).
    ~CaptureRunner() override;

    // False if a capture is already running.
    bool start(capture::CaptureOptions options);
    bool running() const { return session_ != nullptr; }
    // Ends the capture early; the data so far is saved.
    void stop();
    // Aborts at once; nothing is saved.
    void cancel();

signals:
    void workerChanged(int index, const tracescope::capture::WorkerStatus& status);
    void finished(const tracescope::capture::CaptureResult& result);

private:
    std::unique_ptr<capture::CaptureSession> session_;
    std::thread thread_;
    void join();
};

}  // namespace tracescope
