// What a failed Profile call means for the user, and whether another attempt may help.
#pragma once

#include <grpcpp/support/status.h>

#include <chrono>
#include <string>

namespace tracescope::capture {

// TSL's capture client retries UNAVAILABLE, ALREADY_EXISTS and UNKNOWN "Stream removed"
// (capture_profile.cc, ShouldRetryTracing). A refused connection never reaches this: the
// worker fails it before the call (CLARIFICATIONS: not retried).
bool isRetryable(const grpc::Status& status);

// True for the server's answer while another capture (or jax.profiler.trace inside the
// program) holds its only profiler session: INTERNAL "Another profiling session active."
// (ALREADY_EXISTS inside the server, surfaced as INTERNAL, so TSL does not retry it.)
bool isAnotherSessionActive(const grpc::Status& status);

// One line for the user about a failed Profile call to `address`. `timeout` is the
// deadline the attempt had.
std::string describeProfileFailure(const grpc::Status& status, const std::string& address,
                                   std::chrono::milliseconds timeout);

// The name of a status code ("UNAVAILABLE").
const char* statusCodeName(grpc::StatusCode code);

}  // namespace tracescope::capture
