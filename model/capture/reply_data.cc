#include "model/capture/reply_data.h"

#include <algorithm>
#include <filesystem>

namespace tracescope::capture {

std::string serverFilePath(const tensorflow::ProfileRequest& request) {
    std::string stem = request.host_name();
    std::replace(stem.begin(), stem.end(), ':', '_');
    return (std::filesystem::path(request.repository_root()) / request.session_id() / (stem + ".xplane.pb")).string();
}

ReplyData takeReplyData(tensorflow::ProfileResponse& reply, const tensorflow::ProfileRequest& request) {
    ReplyData data;
    // empty_trace comes first: a server that honours emit_xspace still returns its (empty)
    // planes when nothing was recorded.
    if (reply.empty_trace()) return data;
    if (!reply.xspace().empty()) {
        data.source = ReplyData::Source::XSpace;
        data.bytes = std::move(*reply.mutable_xspace());
        return data;
    }
    for (auto& tool : *reply.mutable_tool_data()) {
        if (tool.name() == "xplane.pb" && !tool.data().empty()) {
            data.source = ReplyData::Source::ToolData;
            data.bytes = std::move(*tool.mutable_data());
            return data;
        }
    }
    data.source = ReplyData::Source::ServerFile;
    data.serverPath = serverFilePath(request);
    return data;
}

}  // namespace tracescope::capture
