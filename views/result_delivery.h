// Delivers what a job computed on a runner thread (model/results/job_runner.h) to a QObject on
// its own thread: post() queues the call on the target's thread, and once the target detached
// (its destructor) nothing reaches it any more, even from a job finishing at that moment. The
// object is shared by the target and its jobs' callbacks.
#pragma once

#include <QObject>

#include <functional>
#include <memory>
#include <mutex>

namespace tracescope {

class ResultDelivery {
public:
    static std::shared_ptr<ResultDelivery> to(QObject* target) {
        return std::shared_ptr<ResultDelivery>(new ResultDelivery(target));
    }
    // The target goes: later posts are dropped (calls already queued go with the target's events).
    void detach() {
        std::lock_guard lock(mutex_);
        target_ = nullptr;
    }
    // Calls `call` on the target's thread (queued), unless the target detached.
    void post(std::function<void()> call) {
        std::lock_guard lock(mutex_);  // the target cannot go while the call is queued
        if (target_) QMetaObject::invokeMethod(target_, std::move(call), Qt::QueuedConnection);
    }

private:
    explicit ResultDelivery(QObject* target) : target_(target) {}
    std::mutex mutex_;
    QObject* target_;
};

}  // namespace tracescope
