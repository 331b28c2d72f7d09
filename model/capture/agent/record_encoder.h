// Appends frames of the agent record format (agent_records.h) to a byte buffer. Header-only
// and dependency-free (the agent uses it with CUPTI and libc only; tests and fuzz seeds
// build streams with it too).
#pragma once

#include "model/capture/agent/agent_records.h"

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string_view>

namespace tracescope::agent {

// Bytes one frame of `fixed` plus `strings` takes.
template <typename Fixed>
inline size_t frameSize(std::initializer_list<std::string_view> strings = {}) {
    size_t n = sizeof(FrameHeader) + sizeof(Fixed);
    for (std::string_view s : strings) n += sizeof(uint32_t) + s.size();
    return n;
}

// Appends one frame of `type` (a RecordType; any value, for tests of unknown types) to `out`
// (any byte container with size()/resize()/data(), e.g.
// std::string). Strings longer than 64 KiB are cut there so that no frame exceeds
// TS_AGENT_MAX_FRAME.
template <typename Bytes, typename Fixed>
inline void appendFrame(Bytes& out, uint16_t type, const Fixed& fixed,
                        std::initializer_list<std::string_view> strings = {}) {
    constexpr size_t kMaxString = 64 * 1024;
    size_t payload = sizeof(Fixed);
    for (std::string_view s : strings) payload += sizeof(uint32_t) + (s.size() < kMaxString ? s.size() : kMaxString);
    const size_t at = out.size();
    out.resize(at + sizeof(FrameHeader) + payload);
    char* p = reinterpret_cast<char*>(&out[0]) + at;
    FrameHeader h;
    h.length = uint32_t(payload);
    h.type = type;
    h.fixedSize = uint16_t(sizeof(Fixed));
    std::memcpy(p, &h, sizeof h);
    p += sizeof h;
    std::memcpy(p, &fixed, sizeof(Fixed));
    p += sizeof(Fixed);
    for (std::string_view s : strings) {
        const uint32_t n = uint32_t(s.size() < kMaxString ? s.size() : kMaxString);
        std::memcpy(p, &n, sizeof n);
        p += sizeof n;
        if (n) std::memcpy(p, s.data(), n);
        p += n;
    }
}

}  // namespace tracescope::agent
