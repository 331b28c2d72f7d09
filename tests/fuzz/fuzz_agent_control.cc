// The viewer -> agent control frames (Stop / Start) through the agent's ControlDecoder, as
// the agent reads them from its socket: whole, and in pieces of a size the first byte picks.
// However the bytes arrive, the same commands come out and the decoder agrees on whether
// the stream was well formed.
#include "model/capture/agent/control_decoder.h"

#include <cstddef>
#include <cstdint>
#include <vector>

using tracescope::agent::ControlDecoder;
using tracescope::agent::ControlRecord;

namespace {

struct Outcome {
    bool ok;
    std::vector<uint32_t> commands;
    std::vector<int64_t> times;
};

Outcome decode(const uint8_t* data, size_t size, size_t piece) {
    ControlDecoder d;
    Outcome o{true, {}, {}};
    for (size_t at = 0; at < size && o.ok; at += piece) {
        const size_t n = size - at < piece ? size - at : piece;
        o.ok = d.feed(reinterpret_cast<const char*>(data) + at, n, [&](const ControlRecord& r) {
            o.commands.push_back(r.command);
            o.times.push_back(r.timestampNs);
        });
    }
    return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const Outcome whole = decode(data, size, size ? size : 1);
    if (size > 1) {
        const Outcome pieces = decode(data, size, 1 + data[0] % 31);
        if (pieces.ok != whole.ok || pieces.commands != whole.commands || pieces.times != whole.times)
            __builtin_trap();
    }
    return 0;
}
