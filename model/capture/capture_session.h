// Live capture from TensorFlow / JAX profiler servers (gRPC tensorflow.ProfilerService), as
// TensorBoard's "Capture Profile" and jax.collect_profile do, but with the data brought back
// whatever the server's generation, and a specific message for every failure. No Qt here:
// the GUI dialog and `tracescope-cli capture` both drive a CaptureSession.
#pragma once

#include "model/capture/capture_options.h"
#include "model/capture/server_address.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace tracescope::capture {

enum class WorkerState : uint8_t {
    Waiting,     // not started yet
    Connecting,  // dialing / waiting for the channel
    Profiling,   // Profile RPC in flight (the server is tracing, then collecting)
    Receiving,   // reply in, writing the file
    Saved,       // file written (savedPath)
    Failed,      // message says why
    Cancelled,
};
const char* workerStateName(WorkerState s);

struct WorkerStatus {
    ServerAddress server;
    WorkerState state = WorkerState::Waiting;
    int attempt = 0;           // 1-based attempt number in progress or last made
    std::string message;       // failure reason or a note (e.g. "no /device:* plane")
    std::string savedPath;     // local .xplane.pb when Saved
    std::string serverPath;    // where the server wrote the file itself, when not readable here
    int64_t profilingSinceMs = 0;  // steady-clock ms when the current Profile RPC started
};

struct CaptureResult {
    std::string sessionId;  // "YYYY_MM_DD_HH_MM_SS", local time
    std::string runDir;     // <logdir>/plugins/profile/<sessionId>
    std::vector<WorkerStatus> workers;
    bool anySaved() const;
    // Local files written, in server order.
    std::vector<std::string> savedFiles() const;
};

// One capture of all servers in parallel, with one session id. One worker failing never
// fails the others. run() blocks; stop() and cancel() may be called from any thread.
class CaptureSession {
public:
    // Called from worker threads whenever a worker's status changes.
    using ProgressCallback = std::function<void(size_t workerIndex, const WorkerStatus&)>;

    explicit CaptureSession(CaptureOptions options, ProgressCallback progress = {});
    ~CaptureSession();
    CaptureSession(const CaptureSession&) = delete;
    CaptureSession& operator=(const CaptureSession&) = delete;

    CaptureResult run();
    // Ends the capture early: Terminate(session_id) to every worker; the data so far is kept.
    void stop();
    // Aborts at once: calls are cancelled and no file is left behind.
    void cancel();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tracescope::capture
