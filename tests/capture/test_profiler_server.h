// An in-process tensorflow.ProfilerService for the capture tests. It behaves like the TSL
// server (profiler_service_impl.cc as described in reference/capture.md a.6-a.8): it
// sleeps until opts.start_timestamp_ns, traces for opts.duration_ms in 1 ms ticks, ends
// early on Terminate(session_id) or when the client cancels, runs one session at a time
// ("Another profiling session active."), and answers as one of the server generations.
#pragma once

#include "model/proto/profiler_service.grpc.pb.h"

#include <grpcpp/server.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tracescope::capture::testing {

class TestProfilerServer {
public:
    enum class Reply {
        EmitXSpace,        // XSpace in ProfileResponse.xspace (servers since 2025-09)
        ToolData,          // tool_data "xplane.pb" (the TF 2.2 era)
        WriteFile,         // writes <repository_root>/<session_id>/<host_name ':'->'_'>.xplane.pb itself
        WriteFileRemote,   // says it wrote the file, but on "another machine" (nothing appears here)
        Empty,             // empty_trace = true
        AnotherSession,    // INTERNAL "Another profiling session active."
    };

    struct Config {
        Reply reply = Reply::EmitXSpace;
        std::string xspace;  // the serialized XSpace served
        // The first `failFirst` Profile calls answer `failCode` / `failMessage` at once.
        int failFirst = 0;
        grpc::StatusCode failCode = grpc::StatusCode::UNAVAILABLE;
        std::string failMessage = "server busy";
        // The first `emptyFirst` Profile calls answer empty_trace.
        int emptyFirst = 0;
        // Time spent "collecting" after tracing, before answering (deadline tests).
        std::chrono::milliseconds collectTime{0};
    };

    // Listens on `host` ("127.0.0.1", "::1") with a port gRPC picks.
    explicit TestProfilerServer(Config config, const std::string& host = "127.0.0.1");
    ~TestProfilerServer();

    bool ok() const { return port_ > 0; }
    int port() const { return port_; }
    std::string address() const;  // "127.0.0.1:PORT" / "[::1]:PORT"

    struct Seen {
        std::vector<tensorflow::ProfileRequest> profiles;
        std::vector<std::string> terminates;  // session ids
        int cancelled = 0;                    // Profile calls the client cancelled
        std::vector<std::chrono::milliseconds> traced;  // time spent tracing per finished Profile
    };
    Seen seen() const;

    // Stops listening (the port is closed afterwards).
    void shutdown();

private:
    class Service;
    std::unique_ptr<Service> service_;
    std::unique_ptr<grpc::Server> server_;
    int port_ = 0;
    std::string host_;
};

// Reads a whole file (empty when missing).
std::string readFileBytes(const std::string& path);
// The shared test data's real JAX replies (the xspace field of real ProfileResponses).
std::string steadyCapturePath();
std::string warmupCapturePath();
// A small XSpace with only a /host:CPU plane (one thread, two events) and no device plane.
std::string hostOnlyXSpace();

}  // namespace tracescope::capture::testing
