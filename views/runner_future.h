// Work a view starts in the background, run on the model's job runner (model/results/job_runner.h)
// and handed back as a QFuture, so a QFutureWatcher delivers the answer on the UI thread.
#pragma once

#include "model/results/job_runner.h"

#include <QFuture>
#include <QPromise>

#include <exception>
#include <memory>
#include <type_traits>

namespace tracescope {

// Queues `work` (a callable; its value, if any, is the future's) on JobRunner::shared() at
// `priority`. A job the runner drops before it starts (when the runner ends) leaves the future
// cancelled.
template <typename Work>
auto runOnJobRunner(JobPriority priority, Work work) -> QFuture<std::invoke_result_t<Work&>> {
    using Result = std::invoke_result_t<Work&>;
    auto promise = std::make_shared<QPromise<Result>>();
    QFuture<Result> future = promise->future();
    promise->start();
    JobRunner::shared().submit(priority, 0, [promise, work = std::move(work)]() mutable {
        try {
            if constexpr (std::is_void_v<Result>)
                work();
            else
                promise->addResult(work());
        } catch (...) {
            promise->setException(std::current_exception());
        }
        promise->finish();
    });
    return future;
}

}  // namespace tracescope
