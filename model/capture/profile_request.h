// The Profile request one worker sends, and the names derived from the session.
#pragma once

#include "model/capture/capture_options.h"
#include "model/proto/profiler_service.pb.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace tracescope::capture {

// The run folder name TensorBoard uses: local time as YYYY_MM_DD_HH_MM_SS
// (TSL capture_profile.cc formats "%E4Y_%m_%d_%H_%M_%S").
std::string makeSessionId(std::chrono::system_clock::time_point t);

// <logdir>/plugins/profile, absolute: servers that save the data themselves resolve it on
// their side, where a relative path would land in the server process's working folder.
std::string repositoryRoot(const std::string& logdir);

// The request of one attempt (TSL capture_profile.cc and remote_profiler_session_manager.cc
// build the same, with the fixes recommended in reference/capture.md a.10):
//   emit_xspace, so servers since 2025-09 return the XSpace instead of writing it;
//   opts.version 1, else the server replaces the levels with its defaults;
//   the duration in opts (which servers loop on) and at the top (older servers);
//   start_timestamp_ns = `startTimestampNs` (now + delay, recomputed per attempt);
//   session_id at the top (the run folder, the key Terminate matches) and in opts (2025-10);
//   host_name = the address (the file name stem of servers that write the file);
//   repository_root = <logdir>/plugins/profile; tools = ["xplane.pb"] (servers that answer
//   in tool_data). No advanced_configuration: an unknown key there disables the GPU tracer.
tensorflow::ProfileRequest buildProfileRequest(const CaptureOptions& options, const ServerAddress& server,
                                               const std::string& sessionId, uint64_t startTimestampNs);

// Unix time in ns, `delayMs` from now: when the server should start tracing.
uint64_t startTimestampNs(uint64_t delayMs);

// How long one attempt may take: delay + max(minDeadlineMs, 2 x duration). TSL anchors this
// once at session creation, so its retries get less time and a long delay overruns it; we
// count it from each attempt's start.
std::chrono::milliseconds attemptTimeout(const CaptureOptions& options);

}  // namespace tracescope::capture
