#include "app/gui/trace_loader.h"

#include "views/runner_future.h"

#include <QCoreApplication>
#include <QPointer>

namespace tracescope {

TraceLoader::TraceLoader(QObject* parent) : QObject(parent) {
    connect(&watcher_, &QFutureWatcher<std::shared_ptr<ImportResult>>::finished, this, [this] {
        auto result = watcher_.result();
        if (result->ok()) {
            emit loaded(std::shared_ptr<const Trace>(std::move(result->trace)), path_);
        } else if (result->cancelled) {
            emit cancelled(path_);
        } else {
            emit failed(QString::fromStdString(result->error), path_);
        }
    });
}

TraceLoader::~TraceLoader() {
    cancel();
    watcher_.waitForFinished();
    previewJob_.waitForFinished();  // cancelled previews stop promptly
}

void TraceLoader::start(const QString& path) {
    cancel();
    watcher_.waitForFinished();  // cancelled imports return promptly
    path_ = path;
    state_ = std::make_shared<State>();
    watcher_.setFuture(runOnJobRunner(JobPriority::Interactive, [state = state_, file = path.toStdString()] {
        ImportOptions options;
        options.cancel = &state->cancel;
        options.progress = [state](uint64_t done, uint64_t total) {
            state->done.store(done, std::memory_order_relaxed);
            state->total.store(total, std::memory_order_relaxed);
        };
        auto result = std::make_shared<ImportResult>(importTrace(file, options));
        state->finished = true;
        state->stopPreviews = true;  // a preview still reading stops
        return result;
    }));
    if (previews_) startPreviews();
}

void TraceLoader::startPreviews() {
    // One job reads the parts in turn; a part still reading stops when the whole import ends or
    // is cancelled (stopPreviews), and a part that arrives after the end, or for an earlier
    // start(), is dropped on this thread.
    std::shared_ptr<State> state = state_;
    QPointer<TraceLoader> self(this);
    previewJob_ = runOnJobRunner(JobPriority::Interactive, [state, self, path = path_, first = previewStart_] {
        const std::string file = path.toStdString();
        for (uint64_t limit : previewLimits(file, first)) {
            if (state->finished || state->cancel) return;
            ImportResult part = importPreview(file, limit, &state->stopPreviews);
            if (!part.ok() || state->finished || state->cancel) return;
            std::shared_ptr<const Trace> trace(std::move(part.trace));
            QMetaObject::invokeMethod(
                QCoreApplication::instance(),
                [state, self, trace, path, limit] {
                    if (self && self->state_ == state && !state->finished && !state->cancel)
                        emit self->previewReady(trace, path, quint64(limit));
                },
                Qt::QueuedConnection);
        }
    });
}

void TraceLoader::cancel() {
    if (!state_) return;
    state_->cancel = true;
    state_->stopPreviews = true;
}

double TraceLoader::fraction() const {
    if (!state_) return 0;
    const uint64_t total = state_->total.load(std::memory_order_relaxed);
    return total ? double(state_->done.load(std::memory_order_relaxed)) / double(total) : 0;
}

}  // namespace tracescope
