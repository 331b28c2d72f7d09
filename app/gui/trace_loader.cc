#include "app/gui/trace_loader.h"

#include "views/background_pools.h"

#include <QtConcurrent>

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
}

void TraceLoader::start(const QString& path) {
    cancel();
    watcher_.waitForFinished();  // cancelled imports return promptly
    path_ = path;
    state_ = std::make_shared<State>();
    watcher_.setFuture(QtConcurrent::run(interactivePool(), [state = state_, file = path.toStdString()] {
        ImportOptions options;
        options.cancel = &state->cancel;
        options.progress = [state](uint64_t done, uint64_t total) {
            state->done.store(done, std::memory_order_relaxed);
            state->total.store(total, std::memory_order_relaxed);
        };
        return std::make_shared<ImportResult>(importTrace(file, options));
    }));
}

void TraceLoader::cancel() {
    if (state_) state_->cancel = true;
}

double TraceLoader::fraction() const {
    if (!state_) return 0;
    const uint64_t total = state_->total.load(std::memory_order_relaxed);
    return total ? double(state_->done.load(std::memory_order_relaxed)) / double(total) : 0;
}

}  // namespace tracescope
