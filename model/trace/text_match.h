// The project's one case-insensitive text matching (ASCII letters only: names in traces are
// mostly ASCII, and folding UTF-8 byte by byte would corrupt multi-byte characters).
#pragma once

#include <string>
#include <string_view>

namespace tracescope {

inline char asciiLower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

inline std::string asciiLower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = asciiLower(c);
    return out;
}

// True when `text` contains `needle`, ignoring ASCII case; an empty needle is in every text.
inline bool containsIgnoringCase(std::string_view text, std::string_view needle) {
    if (needle.empty()) return true;
    for (size_t i = 0; i + needle.size() <= text.size(); ++i) {
        size_t k = 0;
        while (k < needle.size() && asciiLower(text[i + k]) == asciiLower(needle[k])) ++k;
        if (k == needle.size()) return true;
    }
    return false;
}

}  // namespace tracescope
