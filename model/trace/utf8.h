// The project's one UTF-8 check and repair. Names and string args go into a Trace, and into
// XSpaces as protobuf strings, as valid UTF-8: the Chrome JSON reader and the agent-record
// decoder repair the bytes they are given with sanitizeUtf8.
#pragma once

#include <cstddef>
#include <string_view>

namespace tracescope {

// Replaces every byte that is not part of a valid UTF-8 sequence by '?', in place
// (same length, so byte offsets stay meaningful). Returns the number replaced.
size_t sanitizeUtf8(char* data, size_t size);

// True when the bytes are valid UTF-8.
bool isValidUtf8(std::string_view s);

}  // namespace tracescope
