// Stop and cancel, shared by a session's workers. cancel() must abort calls that are
// blocked inside gRPC, so in-flight calls register their ClientContext here.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <vector>

namespace grpc {
class ClientContext;
}

namespace tracescope::capture {

class CaptureControl {
public:
    void requestStop();
    // Cancels every registered call at once (ClientContext::TryCancel) and wakes pauses.
    void requestCancel();
    bool stopRequested() const { return stop_.load(); }
    bool cancelRequested() const { return cancel_.load(); }

    // Registers a call before it starts; false (and nothing registered) once cancelled.
    bool track(grpc::ClientContext* call);
    void untrack(grpc::ClientContext* call);

    // Sleeps up to `d`; false when woken early by stop or cancel.
    bool pause(std::chrono::milliseconds d);

private:
    std::mutex mutex_;
    std::condition_variable wake_;
    std::vector<grpc::ClientContext*> calls_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> cancel_{false};
};

// Registers a call with the control for as long as it lives.
class TrackedCall {
public:
    TrackedCall(CaptureControl& control, grpc::ClientContext& call)
        : control_(control), call_(call), ok_(control.track(&call)) {}
    ~TrackedCall() {
        if (ok_) control_.untrack(&call_);
    }
    TrackedCall(const TrackedCall&) = delete;
    TrackedCall& operator=(const TrackedCall&) = delete;
    // False when the capture was cancelled before the call could start.
    bool ok() const { return ok_; }

private:
    CaptureControl& control_;
    grpc::ClientContext& call_;
    bool ok_;
};

}  // namespace tracescope::capture
