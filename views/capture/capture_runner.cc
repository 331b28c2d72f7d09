#include "views/capture/capture_runner.h"

#include <QMetaObject>

namespace tracescope {

CaptureRunner::CaptureRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<capture::WorkerStatus>();
    qRegisterMetaType<capture::CaptureResult>();
}

CaptureRunner::~CaptureRunner() {
    if (session_) session_->cancel();
    join();
}

bool CaptureRunner::start(capture::CaptureOptions options) {
    if (session_) return false;
    join();  // a finished capture's thread may not have been joined yet
    // The callback runs on the session's worker threads: hand the status to the UI thread.
    auto progress = [this](size_t index, const capture::WorkerStatus& status) {
        QMetaObject::invokeMethod(
            this, [this, index, status] { emit workerChanged(int(index), status); }, Qt::QueuedConnection);
    };
    session_ = std::make_unique<capture::CaptureSession>(std::move(options), progress);
    thread_ = std::thread([this, session = session_.get()] {
        capture::CaptureResult result = session->run();
        QMetaObject::invokeMethod(
            this,
            [this, result] {
                join();
                session_.reset();
                emit finished(result);
            },
            Qt::QueuedConnection);
    });
    return true;
}

void CaptureRunner::stop() {
    if (session_) session_->stop();
}

void CaptureRunner::cancel() {
    if (session_) session_->cancel();
}

void CaptureRunner::join() {
    if (thread_.joinable()) thread_.join();
}

}  // namespace tracescope
