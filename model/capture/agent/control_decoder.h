// Decodes the viewer's control frames (agent_records.h: a FrameHeader of type kRecControl
// and a ControlRecord) as the agent reads them from its socket. Header-only and
// dependency-free, for the agent (CUPTI + libc only) and its fuzz target. Bytes may arrive
// in any pieces; only one frame (at most kMaxControlFrame bytes) is ever buffered, in a
// fixed array. Anything that is not a well-formed control frame stops the decoder for good
// (the agent then ignores the socket's input): a confused viewer must not steer the target.
#pragma once

#include "model/capture/agent/agent_records.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace tracescope::agent {

class ControlDecoder {
public:
    // A control frame is small; a longer one is an error, not a reason to buffer.
    static constexpr size_t kMaxControlFrame = sizeof(FrameHeader) + 64;

    // Decodes what `bytes` completes and calls onCommand(const ControlRecord&) per frame.
    // False once the stream is malformed.
    template <typename OnCommand>
    bool feed(const char* bytes, size_t size, OnCommand&& onCommand) {
        while (ok_ && size) {
            size_t need = sizeof(FrameHeader);
            if (have_ >= sizeof(FrameHeader)) need += header().length;
            const size_t take = need - have_ < size ? need - have_ : size;
            std::memcpy(buf_ + have_, bytes, take);
            have_ += take;
            bytes += take;
            size -= take;
            if (have_ < need) continue;
            if (need == sizeof(FrameHeader)) {
                const FrameHeader h = header();
                if (h.type != kRecControl || h.length > kMaxControlFrame - sizeof(FrameHeader) ||
                    h.fixedSize > h.length || h.fixedSize < sizeof(uint32_t)) {
                    ok_ = false;
                    break;
                }
                if (h.length) continue;
            }
            const FrameHeader h = header();
            ControlRecord r;
            std::memset(&r, 0, sizeof r);
            std::memcpy(&r, buf_ + sizeof h, h.fixedSize < sizeof r ? h.fixedSize : sizeof r);
            have_ = 0;
            ++frames_;
            onCommand(r);
        }
        return ok_;
    }
    bool ok() const { return ok_; }
    uint64_t frames() const { return frames_; }

private:
    FrameHeader header() const {
        FrameHeader h;
        std::memcpy(&h, buf_, sizeof h);
        return h;
    }
    char buf_[kMaxControlFrame] = {};
    size_t have_ = 0;
    uint64_t frames_ = 0;
    bool ok_ = true;
};

}  // namespace tracescope::agent
