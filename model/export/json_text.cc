#include "model/export/json_text.h"

#include <charconv>
#include <cmath>

namespace tracescope::jsontext {

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is invalid
// (overlong forms, surrogates and code points above U+10FFFF included).
size_t utf8Length(std::string_view s, size_t i) {
    const auto b0 = uint8_t(s[i]);
    size_t n;
    uint32_t cp;
    if (b0 < 0x80) return 1;
    if (b0 >= 0xC2 && b0 <= 0xDF) { n = 2; cp = b0 & 0x1F; }
    else if (b0 >= 0xE0 && b0 <= 0xEF) { n = 3; cp = b0 & 0x0F; }
    else if (b0 >= 0xF0 && b0 <= 0xF4) { n = 4; cp = b0 & 0x07; }
    else return 0;
    if (i + n > s.size()) return 0;
    for (size_t k = 1; k < n; ++k) {
        const auto b = uint8_t(s[i + k]);
        if ((b & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b & 0x3F);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

}  // namespace

void appendString(std::string& out, std::string_view s) {
    static const char* const hex = "0123456789abcdef";
    out.push_back('"');
    size_t i = 0;
    while (i < s.size()) {
        // Copy the longest run that needs no escaping in one go.
        size_t j = i;
        while (j < s.size()) {
            const auto c = uint8_t(s[j]);
            if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80) break;
            ++j;
        }
        out.append(s.data() + i, j - i);
        i = j;
        if (i >= s.size()) break;
        const auto c = uint8_t(s[i]);
        if (c >= 0x80) {
            const size_t n = utf8Length(s, i);
            if (n == 0) {
                out.append("\xEF\xBF\xBD");  // U+FFFD
                ++i;
            } else {
                out.append(s.data() + i, n);
                i += n;
            }
            continue;
        }
        switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\n': out.append("\\n"); break;
        case '\t': out.append("\\t"); break;
        case '\r': out.append("\\r"); break;
        default:
            out.append("\\u00");
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 0xF]);
        }
        ++i;
    }
    out.push_back('"');
}

void appendMicros(std::string& out, int64_t ns) {
    uint64_t magnitude = ns < 0 ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
    if (ns < 0) out.push_back('-');
    appendUInt(out, magnitude / 1000);
    const auto frac = unsigned(magnitude % 1000);
    out.push_back('.');
    out.push_back(char('0' + frac / 100));
    out.push_back(char('0' + frac / 10 % 10));
    out.push_back(char('0' + frac % 10));
}

bool appendDouble(std::string& out, double d) {
    if (!std::isfinite(d)) return false;
    char buf[32];
    auto res = std::to_chars(buf, buf + sizeof buf, d);  // shortest round-trip form
    out.append(buf, res.ptr);
    return true;
}

void appendInt(std::string& out, int64_t v) {
    char buf[24];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, res.ptr);
}

void appendUInt(std::string& out, uint64_t v) {
    char buf[24];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, res.ptr);
}

}  // namespace tracescope::jsontext
