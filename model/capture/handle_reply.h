// What the capture client does with the data of a successful Profile reply (found by
// reply_data.h): save it as <runDir>/<stem>.xplane.pb, or take over the file the server
// wrote itself, and note when the data lacks what was asked for. Everything here works on
// bytes that came from the server, so it is also a fuzz target's entry point.
#pragma once

#include "model/capture/reply_data.h"

#include <functional>
#include <string>

namespace tracescope::capture {

struct HandledReply {
    enum class Outcome {
        Saved,      // savedPath written
        Failed,     // message says why
        Cancelled,  // `keep` said no before the file was in place
    };
    Outcome outcome = Outcome::Failed;
    std::string message;     // failure reason, or a note about a saved capture
    std::string savedPath;   // Saved: the local .xplane.pb
    std::string serverPath;  // where the server wrote the data itself, when not readable here
};

// Saves `data` (not Empty; a ServerFile's bytes are read into it). `path` is where the
// capture goes; `deviceTracerLevel` is what was asked for (a note is made when no device
// plane came back); `keep` is asked just before the file is written into place (false:
// the capture was cancelled, nothing is left behind).
HandledReply saveReplyData(ReplyData& data, const std::string& path, int deviceTracerLevel,
                           const std::function<bool()>& keep);

}  // namespace tracescope::capture
