#include "model/trace/utf8.h"

namespace tracescope {

namespace {

// Length of the valid UTF-8 sequence starting at p (0 if invalid).
size_t validSequence(const unsigned char* p, size_t avail) {
    const unsigned char c = p[0];
    if (c < 0x80) return 1;
    auto cont = [&](size_t k, unsigned char lo = 0x80, unsigned char hi = 0xBF) {
        return k < avail && p[k] >= lo && p[k] <= hi;
    };
    if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
    if (c == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;
    if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) return cont(1) && cont(2) ? 3 : 0;
    if (c == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;
    if (c == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
    if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
    if (c == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;
    return 0;
}

}  // namespace

size_t sanitizeUtf8(char* data, size_t size) {
    auto* p = reinterpret_cast<unsigned char*>(data);
    size_t replaced = 0;
    for (size_t i = 0; i < size;) {
        if (p[i] < 0x80) {
            ++i;
            continue;
        }
        const size_t len = validSequence(p + i, size - i);
        if (len == 0) {
            p[i] = '?';
            ++replaced;
            ++i;
        } else {
            i += len;
        }
    }
    return replaced;
}

bool isValidUtf8(std::string_view s) {
    auto* p = reinterpret_cast<const unsigned char*>(s.data());
    for (size_t i = 0; i < s.size();) {
        const size_t len = p[i] < 0x80 ? 1 : validSequence(p + i, s.size() - i);
        if (len == 0) return false;
        i += len;
    }
    return true;
}

}  // namespace tracescope
