#include "model/capture/capture_errors.h"

#include <cstdio>

namespace tracescope::capture {

const char* statusCodeName(grpc::StatusCode code) {
    switch (code) {
        case grpc::StatusCode::OK: return "OK";
        case grpc::StatusCode::CANCELLED: return "CANCELLED";
        case grpc::StatusCode::UNKNOWN: return "UNKNOWN";
        case grpc::StatusCode::INVALID_ARGUMENT: return "INVALID_ARGUMENT";
        case grpc::StatusCode::DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
        case grpc::StatusCode::NOT_FOUND: return "NOT_FOUND";
        case grpc::StatusCode::ALREADY_EXISTS: return "ALREADY_EXISTS";
        case grpc::StatusCode::PERMISSION_DENIED: return "PERMISSION_DENIED";
        case grpc::StatusCode::RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
        case grpc::StatusCode::FAILED_PRECONDITION: return "FAILED_PRECONDITION";
        case grpc::StatusCode::ABORTED: return "ABORTED";
        case grpc::StatusCode::OUT_OF_RANGE: return "OUT_OF_RANGE";
        case grpc::StatusCode::UNIMPLEMENTED: return "UNIMPLEMENTED";
        case grpc::StatusCode::INTERNAL: return "INTERNAL";
        case grpc::StatusCode::UNAVAILABLE: return "UNAVAILABLE";
        case grpc::StatusCode::DATA_LOSS: return "DATA_LOSS";
        case grpc::StatusCode::UNAUTHENTICATED: return "UNAUTHENTICATED";
        default: return "error";
    }
}

bool isRetryable(const grpc::Status& status) {
    switch (status.error_code()) {
        case grpc::StatusCode::UNAVAILABLE:
        case grpc::StatusCode::ALREADY_EXISTS: return true;
        case grpc::StatusCode::UNKNOWN: return status.error_message() == "Stream removed";
        default: return false;
    }
}

bool isAnotherSessionActive(const grpc::Status& status) {
    return (status.error_code() == grpc::StatusCode::INTERNAL ||
            status.error_code() == grpc::StatusCode::ALREADY_EXISTS) &&
           status.error_message().find("Another profiling session active") != std::string::npos;
}

std::string describeProfileFailure(const grpc::Status& status, const std::string& address,
                                   std::chrono::milliseconds timeout) {
    const std::string detail = status.error_message().empty()
                                   ? std::string(statusCodeName(status.error_code()))
                                   : std::string(statusCodeName(status.error_code())) + ": " + status.error_message();
    if (isAnotherSessionActive(status))
        return "the program at " + address +
               " is already being profiled by another session (another capture, or a profiler started "
               "inside the program); try again when it has finished";
    switch (status.error_code()) {
        case grpc::StatusCode::DEADLINE_EXCEEDED: {
            char seconds[32];
            std::snprintf(seconds, sizeof seconds, "%.1f", double(timeout.count()) / 1000.0);
            return std::string("timed out: ") + address + " did not answer within " + seconds +
                   " s (the program may be stuck, or the capture too large to collect in time)";
        }
        case grpc::StatusCode::UNIMPLEMENTED:
            return address + " does not serve tensorflow.ProfilerService/Profile (is it a profiler server port?): " +
                   detail;
        case grpc::StatusCode::RESOURCE_EXHAUSTED:
            return "the reply from " + address + " was refused (too large for one message?): " + detail;
        case grpc::StatusCode::UNAVAILABLE: return address + " is unavailable: " + detail;
        // Our own cancel never gets here (the worker checks it first): the other end did it.
        case grpc::StatusCode::CANCELLED:
            return address + " cancelled the capture (did the program or its profiler server stop?): " + detail;
        default: return "the capture on " + address + " failed: " + detail;
    }
}

}  // namespace tracescope::capture
