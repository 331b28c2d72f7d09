#include "model/capture/capture_session.h"

#include "model/capture/capture_control.h"
#include "model/capture/connection.h"
#include "model/capture/profile_request.h"
#include "model/capture/save_profile.h"
#include "model/capture/worker.h"
#include "model/proto/profiler_service.grpc.pb.h"

#include <grpcpp/client_context.h>

#include <condition_variable>
#include <filesystem>
#include <thread>

namespace tracescope::capture {

const char* workerStateName(WorkerState s) {
    switch (s) {
        case WorkerState::Waiting: return "waiting";
        case WorkerState::Connecting: return "connecting";
        case WorkerState::Profiling: return "profiling";
        case WorkerState::Receiving: return "receiving";
        case WorkerState::Saved: return "saved";
        case WorkerState::Failed: return "failed";
        case WorkerState::Cancelled: return "cancelled";
    }
    return "?";
}

bool CaptureResult::anySaved() const {
    for (const WorkerStatus& w : workers)
        if (w.state == WorkerState::Saved) return true;
    return false;
}

std::vector<std::string> CaptureResult::savedFiles() const {
    std::vector<std::string> files;
    for (const WorkerStatus& w : workers)
        if (w.state == WorkerState::Saved && !w.savedPath.empty()) files.push_back(w.savedPath);
    return files;
}

struct CaptureSession::Impl {
    CaptureOptions options;
    ProgressCallback progress;
    CaptureControl control;
    std::string sessionId;

    std::mutex mutex;  // guards statuses, finished
    std::condition_variable changed;
    std::vector<WorkerStatus> statuses;
    bool finished = false;

    void report(size_t index, const WorkerStatus& status) {
        {
            std::lock_guard lock(mutex);
            statuses[index] = status;
        }
        if (progress) progress(index, status);
    }

    bool profiling(size_t index) {
        std::lock_guard lock(mutex);
        return statuses[index].state == WorkerState::Profiling;
    }

    // Stop: Terminate(session_id) to every worker whose Profile is in flight, again every
    // half second until it returns. One Terminate can arrive before the server has
    // registered the session (or during the delay) and be lost; repeating is harmless.
    void terminateWhileProfiling(const std::vector<std::shared_ptr<grpc::Channel>>& channels) {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return finished || control.stopRequested() || control.cancelRequested(); });
        while (!finished && !control.cancelRequested()) {
            lock.unlock();
            for (size_t i = 0; i < channels.size(); ++i)
                if (profiling(i)) sendTerminate(channels[i]);
            lock.lock();
            changed.wait_for(lock, std::chrono::milliseconds(500), [&] { return finished; });
        }
    }

    void sendTerminate(const std::shared_ptr<grpc::Channel>& channel) {
        auto stub = tensorflow::ProfilerService::NewStub(channel);
        grpc::ClientContext call;
        call.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
        TrackedCall tracked(control, call);
        if (!tracked.ok()) return;
        tensorflow::TerminateRequest request;
        request.set_session_id(sessionId);
        tensorflow::TerminateResponse response;
        stub->Terminate(&call, request, &response);  // failures only mean the capture runs its full length
    }

    void wake() {
        { std::lock_guard lock(mutex); }
        changed.notify_all();
    }
};

CaptureSession::CaptureSession(CaptureOptions options, ProgressCallback progress) : impl_(std::make_unique<Impl>()) {
    impl_->options = std::move(options);
    impl_->progress = std::move(progress);
}

CaptureSession::~CaptureSession() = default;

void CaptureSession::stop() {
    impl_->control.requestStop();
    impl_->wake();
}

void CaptureSession::cancel() {
    impl_->control.requestCancel();
    impl_->wake();
}

CaptureResult CaptureSession::run() {
    Impl& d = *impl_;
    const CaptureOptions& options = d.options;
    CaptureResult result;
    // One session id for every worker: the run folder name, and the key of Terminate.
    d.sessionId = result.sessionId = makeSessionId(std::chrono::system_clock::now());
    result.runDir = (std::filesystem::path(repositoryRoot(options.logdir)) / result.sessionId).string();

    d.statuses.assign(options.servers.size(), {});
    for (size_t i = 0; i < options.servers.size(); ++i) d.statuses[i].server = options.servers[i];

    std::string invalid;
    if (options.logdir.empty()) invalid = "no log directory given";
    else if (options.durationMs == 0) invalid = "the duration must be at least 1 ms";
    if (!invalid.empty()) {
        for (size_t i = 0; i < d.statuses.size(); ++i) {
            d.statuses[i].state = WorkerState::Failed;
            d.statuses[i].message = invalid;
            if (d.progress) d.progress(i, d.statuses[i]);
        }
        result.workers = d.statuses;
        return result;
    }

    std::vector<std::shared_ptr<grpc::Channel>> channels;
    for (const ServerAddress& server : options.servers) channels.push_back(openProfilerChannel(server));

    // All workers in parallel, as TSL's RemoteProfilerSessionManager issues its
    // AsyncProfile calls: they share the start time, and one slow server holds no one up.
    std::vector<std::thread> workers;
    for (size_t i = 0; i < options.servers.size(); ++i) {
        WorkerJob job;
        job.options = &options;
        job.server = options.servers[i];
        job.sessionId = result.sessionId;
        job.runDir = result.runDir;
        job.channel = channels[i];
        job.control = &d.control;
        job.report = [&d, i](const WorkerStatus& status) { d.report(i, status); };
        workers.emplace_back([job = std::move(job)] { runWorker(job); });
    }
    std::thread terminator([&] { d.terminateWhileProfiling(channels); });
    for (std::thread& t : workers) t.join();
    {
        std::lock_guard lock(d.mutex);
        d.finished = true;
    }
    d.changed.notify_all();
    terminator.join();

    result.workers = d.statuses;
    // Cancel means nothing is kept, including what a worker saved just before.
    if (d.control.cancelRequested()) {
        for (size_t i = 0; i < result.workers.size(); ++i) {
            WorkerStatus& w = result.workers[i];
            if (!w.savedPath.empty()) {
                std::error_code ec;
                std::filesystem::remove(w.savedPath, ec);
                w.savedPath.clear();
            }
            if (w.state == WorkerState::Saved) {
                w.state = WorkerState::Cancelled;
                w.message = "cancelled";
                if (d.progress) d.progress(i, w);
            }
        }
    }
    removeDirIfEmpty(result.runDir);
    return result;
}

}  // namespace tracescope::capture
