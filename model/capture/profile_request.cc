#include "model/capture/profile_request.h"

#include <algorithm>
#include <ctime>
#include <filesystem>

namespace tracescope::capture {

std::string makeSessionId(std::chrono::system_clock::time_point t) {
    const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
    std::tm local{};
    localtime_r(&seconds, &local);
    char text[32];
    std::strftime(text, sizeof text, "%Y_%m_%d_%H_%M_%S", &local);
    return text;
}

std::string repositoryRoot(const std::string& logdir) {
    std::error_code ec;
    std::filesystem::path dir = std::filesystem::absolute(logdir, ec);
    if (ec) dir = logdir;
    return (dir.lexically_normal() / "plugins" / "profile").string();
}

uint64_t startTimestampNs(uint64_t delayMs) {
    using namespace std::chrono;
    const auto now = duration_cast<nanoseconds>(system_clock::now().time_since_epoch());
    return uint64_t(now.count()) + delayMs * 1000000ull;
}

std::chrono::milliseconds attemptTimeout(const CaptureOptions& options) {
    const uint64_t body = std::max<uint64_t>(options.minDeadlineMs, 2 * options.durationMs);
    return std::chrono::milliseconds(options.delayMs + body);
}

tensorflow::ProfileRequest buildProfileRequest(const CaptureOptions& options, const ServerAddress& server,
                                               const std::string& sessionId, uint64_t startTimestampNs) {
    tensorflow::ProfileRequest request;
    request.set_duration_ms(options.durationMs);
    request.add_tools("xplane.pb");
    request.set_repository_root(repositoryRoot(options.logdir));
    request.set_session_id(sessionId);
    request.set_host_name(server.target());
    request.set_emit_xspace(true);

    tensorflow::ProfileOptions& opts = *request.mutable_opts();
    opts.set_version(1);
    opts.set_device_type(tensorflow::ProfileOptions::UNSPECIFIED);
    opts.set_include_dataset_ops(options.includeDatasetOps);
    opts.set_host_tracer_level(options.hostTracerLevel);
    opts.set_device_tracer_level(options.deviceTracerLevel);
    opts.set_python_tracer_level(options.pythonTracerLevel);
    // As in ProfilerSession::DefaultOptions(), which TensorBoard's client starts from: the
    // server adds the HLO modules (/host:metadata) that XProf's graph and memory tools read.
    opts.set_enable_hlo_proto(true);
    opts.set_start_timestamp_ns(startTimestampNs);
    opts.set_duration_ms(options.durationMs);
    opts.set_session_id(sessionId);
    return request;
}

}  // namespace tracescope::capture
