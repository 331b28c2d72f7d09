#include "views/capture/launch_runner.h"

#include <QMetaObject>

namespace tracescope {

LaunchRunner::LaunchRunner(QObject* parent) : QObject(parent) { qRegisterMetaType<capture::LaunchResult>(); }

LaunchRunner::~LaunchRunner() {
    if (session_) session_->terminate();
    join();
}

bool LaunchRunner::start(capture::LaunchOptions options) {
    if (session_) return false;
    join();
    options.onCaptureSaved = [this](const capture::LaunchResult& saved) {
        QMetaObject::invokeMethod(this, [this, saved] { emit captureSaved(saved); }, Qt::QueuedConnection);
    };
    options.captureOutput = true;
    options.onOutput = [this](std::string_view piece) {
        QByteArray bytes(piece.data(), qsizetype(piece.size()));
        QMetaObject::invokeMethod(this, [this, bytes] { emit output(bytes); }, Qt::QueuedConnection);
    };
    session_ = std::make_unique<capture::LaunchSession>(std::move(options));
    thread_ = std::thread([this, session = session_.get()] {
        capture::LaunchResult result = session->run();
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

capture::LaunchProgress LaunchRunner::progress() const {
    return session_ ? session_->progress() : capture::LaunchProgress{};
}

void LaunchRunner::stopCapture() {
    if (session_) session_->stop();
}

void LaunchRunner::restartCapture() {
    if (session_) session_->restart();
}

void LaunchRunner::terminate() {
    if (session_) session_->terminate();
}

void LaunchRunner::join() {
    if (thread_.joinable()) thread_.join();
}

}  // namespace tracescope
