#include "model/capture/handle_reply.h"

#include "model/capture/save_profile.h"
#include "model/capture/xspace_planes.h"

#include <filesystem>
#include <vector>

namespace tracescope::capture {
namespace {

// reference/capture.md a.8: a GPU tracer that could not start (CUPTI held by another
// profiler, an unknown advanced_configuration key) still gives a "successful" capture,
// only without /device:* planes and without an error in the XSpace.
std::string deviceNote(const std::string& xspace, int deviceTracerLevel) {
    std::vector<std::string> planes;
    std::string error;
    if (!xspacePlaneNames(xspace, planes, error)) return "saved, but the data does not read as an XSpace: " + error;
    if (deviceTracerLevel > 0 && !hasDevicePlane(planes))
        return "no /device:* plane although device tracer level " + std::to_string(deviceTracerLevel) +
               " was asked for: the program has no GPU/TPU, or another profiler (e.g. one started inside the "
               "program) holds the device tracer";
    return {};
}

HandledReply failed(std::string message) {
    HandledReply out;
    out.outcome = HandledReply::Outcome::Failed;
    out.message = std::move(message);
    return out;
}

}  // namespace

HandledReply saveReplyData(ReplyData& data, const std::string& path, int deviceTracerLevel,
                           const std::function<bool()>& keep) {
    if (data.source == ReplyData::Source::Empty) return failed("the reply holds no data");
    if (data.source == ReplyData::Source::ServerFile) {
        std::string error;
        if (!readWholeFile(data.serverPath, data.bytes, error)) {
            HandledReply out = failed("the server saved the capture on its own disk at " + data.serverPath +
                                      ", which is not readable from here (" + error +
                                      "): this server predates emit_xspace; copy that file, or capture into a "
                                      "folder both machines share");
            out.serverPath = data.serverPath;
            return out;
        }
        // It is already in our run folder, under the server's name for the host; use ours
        // (they differ for bracketed IPv6 addresses).
        if (data.serverPath != path) {
            std::error_code ec;
            std::filesystem::rename(data.serverPath, path, ec);
            if (ec) return failed("cannot move " + data.serverPath + " to " + path + ": " + ec.message());
        }
    } else {
        std::string error;
        if (!saveProfileFile(path, data.bytes, keep, error)) {
            if (keep && !keep()) {
                HandledReply out;
                out.outcome = HandledReply::Outcome::Cancelled;
                out.message = "cancelled";
                return out;
            }
            return failed("cannot save the capture: " + error);
        }
    }
    HandledReply out;
    out.outcome = HandledReply::Outcome::Saved;
    out.savedPath = path;
    out.message = deviceNote(data.bytes, deviceTracerLevel);
    return out;
}

}  // namespace tracescope::capture
