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

}  // namespace tracescope::json
