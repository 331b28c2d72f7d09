// Small text helpers shared by the Chrome JSON reader and event parser.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tracescope::json {

// A fast 64-bit hash of a byte string (for interning caches and id keys;
// not for anything adversarial).
uint64_t hashBytes(std::string_view s);

// Replaces every byte that is not part of a valid UTF-8 sequence by '?', in place
// (same length, so byte offsets stay meaningful). Returns the number replaced.
size_t sanitizeUtf8(char* data, size_t size);

// True when the bytes are valid UTF-8.
bool isValidUtf8(std::string_view s);

}  // namespace tracescope::json
