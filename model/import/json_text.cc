#include "model/import/json_text.h"

#include <cstring>

namespace tracescope::json {

namespace {

inline uint64_t fmix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

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

uint64_t hashBytes(std::string_view s) {
    // One multiply per 8 bytes and a full mix at the end: names and keys are short.
    const size_t n = s.size();
    const char* p = s.data();
    uint64_t h = 0x243F6A8885A308D3ULL ^ (uint64_t(n) * 0x9E3779B97F4A7C15ULL);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        std::memcpy(&w, p + i, 8);
        h = rotl((h ^ w) * 0xbf58476d1ce4e5b9ULL, 31);
    }
    uint64_t w = 0;
    std::memcpy(&w, p + i, n - i);
    h = rotl((h ^ w ^ 0x94d049bb133111ebULL) * 0x9E3779B97F4A7C15ULL, 29);
    return fmix(h);
}

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

}  // namespace tracescope::json
