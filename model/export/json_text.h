// Writing JSON text fast and exactly: escaped strings (always valid UTF-8),
// nanoseconds as exact decimal microseconds, shortest round-trip doubles.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tracescope::jsontext {

// Appends `s` as a quoted JSON string. Control characters are escaped and
// invalid UTF-8 bytes become U+FFFD, so the output always parses.
void appendString(std::string& out, std::string_view s);

// Appends ns as microseconds with exactly three decimals ("123.456", "-0.001"),
// computed with integers so no digit is lost at any magnitude.
void appendMicros(std::string& out, int64_t ns);

// Appends the shortest decimal that reads back as `d`; false (nothing written)
// when d is NaN or infinite, which JSON cannot hold.
bool appendDouble(std::string& out, double d);

void appendInt(std::string& out, int64_t v);
void appendUInt(std::string& out, uint64_t v);

}  // namespace tracescope::jsontext
