#include "model/import/json_number.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace tracescope::json {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

std::string_view trim(std::string_view t) {
    while (!t.empty() && isSpace(t.front())) t.remove_prefix(1);
    while (!t.empty() && isSpace(t.back())) t.remove_suffix(1);
    return t;
}

bool isPlainInteger(std::string_view t) {
    size_t i = (!t.empty() && t[0] == '-') ? 1 : 0;
    if (i == t.size()) return false;
    for (; i < t.size(); ++i)
        if (!isDigit(t[i])) return false;
    return true;
}

IntegerFit parseInteger(std::string_view t, int64_t& i, uint64_t& u) {
    if (!isPlainInteger(t)) return IntegerFit::None;
    const bool negative = t[0] == '-';
    if (negative) t.remove_prefix(1);
    uint64_t v = 0;
    for (char c : t) {
        const uint64_t d = uint64_t(c - '0');
        if (v > (std::numeric_limits<uint64_t>::max() - d) / 10) return IntegerFit::TooBig;
        v = v * 10 + d;
    }
    if (negative) {
        if (v > uint64_t(std::numeric_limits<int64_t>::max()) + 1) return IntegerFit::TooBig;
        i = v == uint64_t(std::numeric_limits<int64_t>::max()) + 1 ? std::numeric_limits<int64_t>::min()
                                                                    : -int64_t(v);
        return IntegerFit::Int64;
    }
    if (v <= uint64_t(std::numeric_limits<int64_t>::max())) {
        i = int64_t(v);
        return IntegerFit::Int64;
    }
    u = v;
    return IntegerFit::UInt64;
}

bool toDouble(std::string_view t, double& out) {
    t = trim(t);
    if (t.empty() || t.size() > 256) return false;
    char buf[260];
    t.copy(buf, t.size());
    buf[t.size()] = 0;
    char* end = nullptr;
    out = std::strtod(buf, &end);
    return end == buf + t.size() && std::isfinite(out) && (isDigit(t[0]) || t[0] == '-' || t[0] == '.');
}

namespace {

// The JSON grammar of an exponent ("e", an optional sign, digits, nothing after).
bool isExponent(std::string_view t) {
    if (t.empty() || (t[0] != 'e' && t[0] != 'E')) return false;
    t.remove_prefix(1);
    if (!t.empty() && (t[0] == '+' || t[0] == '-')) t.remove_prefix(1);
    if (t.empty()) return false;
    for (char c : t)
        if (!isDigit(c)) return false;
    return true;
}

int64_t saturated(bool negative) {
    return negative ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
}

}  // namespace

bool microsToNs(std::string_view t, int64_t& ns) {
    t = trim(t);
    if (t.empty()) return false;
    size_t i = 0;
    const bool negative = t[0] == '-';
    if (negative) ++i;
    // Integer part.
    const size_t intBegin = i;
    uint64_t whole = 0;
    bool overflow = false;
    for (; i < t.size() && isDigit(t[i]); ++i) {
        if (whole > 100000000000000000ull) overflow = true;  // > 1e17 us cannot be int64 ns anyway
        else whole = whole * 10 + uint64_t(t[i] - '0');
    }
    const bool hasInt = i > intBegin;
    // Fraction: keep 3 digits, round at the 4th.
    uint64_t frac = 0;
    int fracDigits = 0;
    bool roundUp = false;
    bool hasFrac = false;
    if (i < t.size() && t[i] == '.') {
        ++i;
        for (; i < t.size() && isDigit(t[i]); ++i) {
            hasFrac = true;
            if (fracDigits < 3) {
                frac = frac * 10 + uint64_t(t[i] - '0');
                ++fracDigits;
            } else if (fracDigits == 3) {
                roundUp = t[i] >= '5';
                ++fracDigits;
            }
        }
    }
    if (!hasInt && !hasFrac) return false;
    if (i < t.size()) {
        // Exponent notation (or junk): fall back to double, the only lossy path.
        if (!isExponent(t.substr(i)) || t.size() > 256) return false;
        double d = 0;
        if (!toDouble(t, d)) {
            // Valid number text that overflows a double (1e400): beyond any time.
            ns = saturated(negative);
            return true;
        }
        const double scaled = std::round(d * 1000.0);
        ns = std::fabs(scaled) < 9.2e18 ? int64_t(scaled) : saturated(negative);
        return true;
    }
    if (overflow || whole > uint64_t(std::numeric_limits<int64_t>::max()) / 1000) {
        ns = saturated(negative);
        return true;
    }
    while (fracDigits < 3) {
        frac *= 10;
        ++fracDigits;
    }
    const uint64_t total = whole * 1000 + frac + (roundUp ? 1 : 0);
    if (total > uint64_t(std::numeric_limits<int64_t>::max())) {
        ns = saturated(negative);
        return true;
    }
    ns = negative ? -int64_t(total) : int64_t(total);
    return true;
}

}  // namespace tracescope::json
