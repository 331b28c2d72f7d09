#include "model/trace/arg_number.h"

#include <charconv>
#include <cmath>

namespace tracescope {

ArgValue numericArg(const ArgValue& value, const StringTable& strings) {
    if (value.type != ArgValue::Type::String) return value;
    const std::string_view text = strings.get(value.s);
    if (text.empty() || text.size() > 64) return value;
    const char* b = text.data();
    const char* e = b + text.size();
    int64_t i = 0;
    if (auto [p, ec] = std::from_chars(b, e, i); ec == std::errc() && p == e) return ArgValue::integer(i);
    uint64_t u = 0;
    if (auto [p, ec] = std::from_chars(b, e, u); ec == std::errc() && p == e) return ArgValue::unsignedInteger(u);
    double d = 0;
    if (auto [p, ec] = std::from_chars(b, e, d); ec == std::errc() && p == e && std::isfinite(d)) return ArgValue::real(d);
    return value;
}

}  // namespace tracescope
