// Where a Profile reply's data is. Three generations of server answer differently
// (reference/capture.md a.4):
//   since 2025-09, with emit_xspace: the XSpace in ProfileResponse.xspace;
//   the TF 2.2 era: serialized into tool_data under the name "xplane.pb";
//   everything in between (and any server that ignores emit_xspace): the server wrote
//   <repository_root>/<session_id>/<host_name, ':' -> '_'>.xplane.pb on its own disk and
//   the reply only says empty_trace = false.
#pragma once

#include "model/proto/profiler_service.pb.h"

#include <string>

namespace tracescope::capture {

struct ReplyData {
    enum class Source { Empty, XSpace, ToolData, ServerFile };
    Source source = Source::Empty;
    std::string bytes;       // the serialized XSpace (XSpace, ToolData)
    std::string serverPath;  // ServerFile: where the server says it wrote the data
};

// Takes the data out of `reply` (moved, not copied). Empty means the server collected
// nothing (empty_trace), which TSL's client retries.
ReplyData takeReplyData(tensorflow::ProfileResponse& reply, const tensorflow::ProfileRequest& request);

// The file a server that saves the data itself writes (TSL SaveXSpace's naming).
std::string serverFilePath(const tensorflow::ProfileRequest& request);

}  // namespace tracescope::capture
