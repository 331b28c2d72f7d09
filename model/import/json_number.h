// Exact parsing of JSON number text as it appears in Chrome traces.
//
// Chrome timestamps are microseconds with up to 3 (sometimes more) decimals.
// Epoch microseconds (~1.7e15) do not fit a double's 53-bit mantissa with their
// nanosecond digits, so we never go through double for plain decimals: the
// integer part and the fraction digits are converted separately.
#pragma once

#include <cstdint>
#include <string_view>

namespace tracescope::json {

// Microseconds as JSON number text (or the content of a numeric string) to
// nanoseconds: integer part * 1000 + the first 3 fraction digits, rounded half
// away from zero at the 4th. Exponent notation falls back to double. Leading and
// trailing whitespace is ignored. False for non-numbers. A number beyond the int64 ns
// range (|µs| > ~9.2e15, 1e400) saturates at INT64_MIN / INT64_MAX: the event is kept
// and the trace builder clamps its time, with a warning, like any other far time.
bool microsToNs(std::string_view text, int64_t& ns);

// A plain decimal integer ("-12", "25738"; no sign '+', no fraction, no exponent).
bool isPlainInteger(std::string_view text);

enum class IntegerFit { None, Int64, UInt64, TooBig };
// Classifies a plain integer text; fills i (Int64) or u (UInt64).
IntegerFit parseInteger(std::string_view text, int64_t& i, uint64_t& u);

// Any JSON-like number text ("1", "-2.5", "3e4") as a double; false if not a number.
bool toDouble(std::string_view text, double& out);

// Removes leading and trailing JSON whitespace.
std::string_view trim(std::string_view text);

}  // namespace tracescope::json
