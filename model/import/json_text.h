// A fast hash of byte strings shared by the Chrome JSON reader and event parser (their UTF-8
// repair is model/trace/utf8.h).
#pragma once

#include <cstdint>
#include <string_view>

namespace tracescope::json {

// A fast 64-bit hash of a byte string (for interning caches and id keys;
// not for anything adversarial).
uint64_t hashBytes(std::string_view s);

}  // namespace tracescope::json
