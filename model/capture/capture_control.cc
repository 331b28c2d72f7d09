#include "model/capture/capture_control.h"

#include <grpcpp/client_context.h>

#include <algorithm>

namespace tracescope::capture {

void CaptureControl::requestStop() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
}

void CaptureControl::requestCancel() {
    {
        std::lock_guard lock(mutex_);
        cancel_ = true;
        for (grpc::ClientContext* call : calls_) call->TryCancel();
    }
    wake_.notify_all();
}

bool CaptureControl::track(grpc::ClientContext* call) {
    std::lock_guard lock(mutex_);
    if (cancel_) return false;
    calls_.push_back(call);
    return true;
}

void CaptureControl::untrack(grpc::ClientContext* call) {
    std::lock_guard lock(mutex_);
    calls_.erase(std::remove(calls_.begin(), calls_.end(), call), calls_.end());
}

bool CaptureControl::pause(std::chrono::milliseconds d) {
    std::unique_lock lock(mutex_);
    return !wake_.wait_for(lock, d, [this] { return stop_.load() || cancel_.load(); });
}

}  // namespace tracescope::capture
