// The capture client's handling of what a profiler server sends back: the bytes of a
// ProfileResponse as they come off the wire, parsed by the generated code, then what the
// capture worker does with a successful reply (reply_data.h, handle_reply.h): find the data,
// save it into the run folder, or take over the file an older server wrote itself (here:
// the input bytes, unless the input ends in an even byte), then open the run folder as the
// GUI does after a capture. The server's error text of a failed call goes through the
// failure description the user sees.
#include "model/capture/capture_errors.h"
#include "model/capture/handle_reply.h"
#include "model/capture/profile_request.h"
#include "model/capture/reply_data.h"
#include "model/capture/save_profile.h"
#include "tests/fuzz/fuzz_support.h"

#include <unistd.h>

#include <filesystem>

using namespace tracescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    namespace fs = std::filesystem;
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);

    // A failed call: any status code the server may send, with the input as its message.
    const grpc::Status status(grpc::StatusCode(size ? data[0] % 17 : 2), std::string(bytes.substr(0, 4096)));
    (void)capture::describeProfileFailure(status, "[::1]:6009", std::chrono::milliseconds(1500));
    (void)capture::isRetryable(status);

    tensorflow::ProfileResponse reply;
    if (!reply.ParseFromArray(data, int(size))) return 0;  // gRPC fails such a call as INTERNAL

    // A bracketed IPv6 server: its file name stem differs from the one a server writes
    // itself, so that path's rename runs too.
    capture::CaptureOptions options;
    options.logdir = fuzz::scratchDir() + "/tracescope-fuzz-capture-" + std::to_string(getpid());
    capture::ServerAddress server;
    server.host = "::1";
    server.port = 6009;
    const std::string session = "2026_01_02_03_04_05";
    const tensorflow::ProfileRequest request = capture::buildProfileRequest(options, server, session, 0);
    const std::string runDir = request.repository_root() + "/" + session;

    capture::ReplyData found = capture::takeReplyData(reply, request);
    if (found.source != capture::ReplyData::Source::Empty) {
        std::error_code ec;
        fs::create_directories(runDir, ec);
        if (found.source == capture::ReplyData::Source::ServerFile && size > 0 && data[size - 1] % 2 == 1) {
            std::string error;
            if (!capture::saveProfileFile(found.serverPath, bytes, {}, error)) __builtin_trap();
        }
        const capture::HandledReply handled =
            capture::saveReplyData(found, capture::profileFilePath(runDir, server.fileStem()), 1, {});
        if (handled.outcome == capture::HandledReply::Outcome::Saved) {
            // The saved file holds the bytes exactly.
            std::string back, error;
            if (!capture::readWholeFile(handled.savedPath, back, error) || back != found.bytes) __builtin_trap();
            ImportResult r = importTrace(runDir, fuzz::fuzzImportOptions());
            if (r.ok()) (void)r.trace->counts();
        } else if (handled.message.empty()) {
            __builtin_trap();  // every failure says why
        }
    }
    std::error_code ec;
    fs::remove_all(options.logdir, ec);
    return 0;
}
