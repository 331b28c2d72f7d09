#include "model/capture/worker.h"

#include "model/capture/capture_errors.h"
#include "model/capture/connection.h"
#include "model/capture/profile_request.h"
#include "model/capture/handle_reply.h"
#include "model/capture/reply_data.h"
#include "model/capture/save_profile.h"
#include "model/proto/profiler_service.grpc.pb.h"

#include <grpcpp/client_context.h>

#include <filesystem>

namespace tracescope::capture {
namespace {

int64_t steadyNowMs() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

class Worker {
public:
    explicit Worker(const WorkerJob& job) : job_(job), options_(*job.options) { status_.server = job.server; }

    WorkerStatus run() {
        const int attempts = std::max(1, options_.retries + 1);
        for (int attempt = 1; attempt <= attempts; ++attempt) {
            status_.attempt = attempt;
            if (job_.control->cancelRequested()) return finish(WorkerState::Cancelled, "cancelled");
            if (job_.control->stopRequested())
                return attempt == 1 ? finish(WorkerState::Cancelled, "stopped before the capture started")
                                    : finish(WorkerState::Failed, lastFailure_);
            const Step step = attemptOnce();
            if (step == Step::Done) return status_;
            // Step::Retry: lastFailure_ says why.
            if (attempt == attempts || job_.control->stopRequested()) break;
            status_.message = "attempt " + std::to_string(attempt) + ": " + lastFailure_ + "; retrying";
            set(WorkerState::Connecting);
            job_.control->pause(std::chrono::milliseconds(options_.retryPauseMs));
        }
        if (job_.control->cancelRequested()) return finish(WorkerState::Cancelled, "cancelled");
        if (attempts > 1 && !job_.control->stopRequested())
            lastFailure_ += " (after " + std::to_string(attempts) + " attempts)";
        return finish(WorkerState::Failed, lastFailure_);
    }

private:
    enum class Step { Done, Retry };

    const WorkerJob& job_;
    const CaptureOptions& options_;
    WorkerStatus status_;
    std::string lastFailure_;

    void set(WorkerState state) {
        status_.state = state;
        if (job_.report) job_.report(status_);
    }

    WorkerStatus finish(WorkerState state, std::string message) {
        status_.message = std::move(message);
        status_.profilingSinceMs = 0;
        set(state);
        return status_;
    }

    Step attemptOnce() {
        set(WorkerState::Connecting);
        std::string message;
        switch (waitForConnection(job_.channel, job_.server, std::chrono::milliseconds(options_.connectTimeoutMs),
                                  *job_.control, message)) {
            case ConnectOutcome::Ready: break;
            case ConnectOutcome::Cancelled: finish(WorkerState::Cancelled, "cancelled"); return Step::Done;
            case ConnectOutcome::Failed: finish(WorkerState::Failed, message); return Step::Done;
        }

        // The start time and the deadline are taken per attempt, so a retry gets the full
        // delay and the full time (TSL anchors both once, before the first attempt).
        const tensorflow::ProfileRequest request =
            buildProfileRequest(options_, job_.server, job_.sessionId, startTimestampNs(options_.delayMs));
        const std::chrono::milliseconds timeout = attemptTimeout(options_);
        grpc::ClientContext call;
        call.set_deadline(std::chrono::system_clock::now() + timeout);
        tensorflow::ProfileResponse reply;
        grpc::Status status;
        {
            TrackedCall tracked(*job_.control, call);
            if (!tracked.ok()) {
                finish(WorkerState::Cancelled, "cancelled");
                return Step::Done;
            }
            status_.profilingSinceMs = steadyNowMs();
            set(WorkerState::Profiling);
            status = tensorflow::ProfilerService::NewStub(job_.channel)->Profile(&call, request, &reply);
        }
        status_.profilingSinceMs = 0;
        if (job_.control->cancelRequested()) {
            removeServerFile(request);
            finish(WorkerState::Cancelled, "cancelled");
            return Step::Done;
        }
        if (!status.ok()) {
            lastFailure_ = describeProfileFailure(status, job_.server.target(), timeout);
            if (isRetryable(status)) return Step::Retry;
            finish(WorkerState::Failed, lastFailure_);
            return Step::Done;
        }

        ReplyData data = takeReplyData(reply, request);
        if (data.source == ReplyData::Source::Empty) {
            lastFailure_ = "empty trace: " + job_.server.target() +
                           " recorded no events (is the program running work while it is profiled? host level " +
                           std::to_string(options_.hostTracerLevel) + ", device level " +
                           std::to_string(options_.deviceTracerLevel) + ")";
            return Step::Retry;
        }
        set(WorkerState::Receiving);
        const HandledReply handled =
            saveReplyData(data, profileFilePath(job_.runDir, job_.server.fileStem()), int(options_.deviceTracerLevel),
                          [this] { return !job_.control->cancelRequested(); });
        switch (handled.outcome) {
            case HandledReply::Outcome::Saved: status_.savedPath = handled.savedPath; break;
            case HandledReply::Outcome::Failed: status_.serverPath = handled.serverPath; break;
            case HandledReply::Outcome::Cancelled: break;
        }
        finish(handled.outcome == HandledReply::Outcome::Saved    ? WorkerState::Saved
               : handled.outcome == HandledReply::Outcome::Failed ? WorkerState::Failed
                                                                  : WorkerState::Cancelled,
               handled.message);
        return Step::Done;
    }

    // A server of the generation that writes the file itself has put it in our run folder
    // when it runs on this machine (or shares the logdir); a cancelled capture leaves nothing.
    void removeServerFile(const tensorflow::ProfileRequest& request) {
        std::error_code ec;
        std::filesystem::remove(serverFilePath(request), ec);
    }
};

}  // namespace

WorkerStatus runWorker(const WorkerJob& job) { return Worker(job).run(); }

}  // namespace tracescope::capture
