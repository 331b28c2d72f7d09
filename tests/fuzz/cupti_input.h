// The input format of fuzz_cupti_records: bytes that become a CUPTI activity buffer of real
// CUPTI 13 structs (cupti_activity.h), laid out as CUPTI lays them (each record 8-byte
// aligned), with the string fields pointing at NUL-terminated strings carved from the input.
// Decoding is for the fuzz target, encoding for make_cupti_seeds.
//
//   input   := cut-mode:u8 cut:u8 record*
//   record  := selector:u8 [kind:u32 or kind-byte:u8] [units:u8] struct-bytes string*
//   selector: bits 0-4 pick the kind: 0..N-1 the kinds of kKinds, N another real CUPTI kind
//             (kind-byte modulo CUPTI_ACTIVITY_KIND_COUNT), N+1 any 32-bit kind (kind:u32,
//             unknown and out-of-range values included); bit 7: the record takes `units` * 8
//             bytes (at least 8) in the buffer instead of its struct's size, as a record of a
//             size we mis-assume would.
//   struct-bytes: the struct's bytes (zeros once the input ends; for a kind not in kKinds, its
//             footprint: 8 bytes or `units` * 8); the kind field is then
//             set to the kind, and each string field (kKinds[...].strings, in order) is set
//             from one `string`.
//   string  := 0 (null pointer) | 255 len:u16 bytes | n (1..254) bytes[n-1]
//   cut-mode bit 0: the buffer's validSize is cut `cut` bytes short of the records laid out
//             (a truncated buffer); the buffer itself is then exactly validSize bytes long.
#pragma once

#include <cupti_activity.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <initializer_list>
#include <string>
#include <vector>

namespace cuptifuzz {

struct KindSpec {
    CUpti_ActivityKind kind;
    size_t size;          // sizeof the CUPTI 13 struct of this kind
    size_t strings[2];    // offsets of its `const char*` fields
    size_t stringCount;
};

// Every kind the agent translates (cupti_translate.h), with its struct.
inline constexpr KindSpec kKinds[] = {
    {CUPTI_ACTIVITY_KIND_KERNEL, sizeof(CUpti_ActivityKernel10), {offsetof(CUpti_ActivityKernel10, name)}, 1},
    {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, sizeof(CUpti_ActivityKernel10), {offsetof(CUpti_ActivityKernel10, name)}, 1},
    {CUPTI_ACTIVITY_KIND_MEMCPY, sizeof(CUpti_ActivityMemcpy6), {}, 0},
    {CUPTI_ACTIVITY_KIND_MEMCPY2, sizeof(CUpti_ActivityMemcpyPtoP4), {}, 0},
    {CUPTI_ACTIVITY_KIND_MEMSET, sizeof(CUpti_ActivityMemset4), {}, 0},
    {CUPTI_ACTIVITY_KIND_RUNTIME, sizeof(CUpti_ActivityAPI), {}, 0},
    {CUPTI_ACTIVITY_KIND_DRIVER, sizeof(CUpti_ActivityAPI), {}, 0},
    {CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, sizeof(CUpti_ActivitySynchronization2), {}, 0},
    {CUPTI_ACTIVITY_KIND_MARKER, sizeof(CUpti_ActivityMarker2),
     {offsetof(CUpti_ActivityMarker2, name), offsetof(CUpti_ActivityMarker2, domain)}, 2},
    {CUPTI_ACTIVITY_KIND_MARKER_DATA, sizeof(CUpti_ActivityMarkerData2), {}, 0},
    {CUPTI_ACTIVITY_KIND_MEMORY2, sizeof(CUpti_ActivityMemory4), {offsetof(CUpti_ActivityMemory4, name)}, 1},
    {CUPTI_ACTIVITY_KIND_DEVICE, sizeof(CUpti_ActivityDevice5), {offsetof(CUpti_ActivityDevice5, name)}, 1},
    {CUPTI_ACTIVITY_KIND_OVERHEAD, sizeof(CUpti_ActivityOverhead3), {}, 0},
    {CUPTI_ACTIVITY_KIND_CUDA_EVENT, sizeof(CUpti_ActivityCudaEvent2), {}, 0},
    {CUPTI_ACTIVITY_KIND_STREAM, sizeof(CUpti_ActivityStream), {}, 0},
};
inline constexpr size_t kKindCount = sizeof kKinds / sizeof kKinds[0];
inline constexpr uint8_t kOtherKind = kKindCount;       // another real CUPTI kind
inline constexpr uint8_t kAnyKind = kKindCount + 1;     // any 32-bit value
inline constexpr uint8_t kSelectorKinds = kKindCount + 2;
inline constexpr uint8_t kSizeGiven = 0x80;
inline constexpr uint8_t kCutMode = 1;

inline const KindSpec* specOf(uint32_t kind) {
    for (const KindSpec& s : kKinds)
        if (uint32_t(s.kind) == kind) return &s;
    return nullptr;
}

inline size_t align8(size_t n) { return (n + 7) & ~size_t(7); }

// A decoded input: the records laid out, where each starts, and the strings they point at.
struct Buffer {
    std::vector<uint8_t> bytes;   // all records, each 8-byte aligned
    std::vector<size_t> offsets;  // where each record starts
    size_t validSize = 0;         // what CUPTI would report as valid
    std::deque<std::string> strings;  // stable addresses for the records' pointers
    // Per kKinds index: records of that kind whose struct lies wholly inside validSize.
    size_t wholeRecords[kKindCount] = {};
};

class Reader {
public:
    Reader(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
    bool done() const { return p_ == end_; }
    uint8_t byte() { return p_ < end_ ? *p_++ : 0; }
    // Copies up to n bytes (zeros after the end of the input).
    void copy(void* out, size_t n) {
        const size_t have = size_t(end_ - p_) < n ? size_t(end_ - p_) : n;
        if (have) std::memcpy(out, p_, have);
        std::memset(static_cast<char*>(out) + have, 0, n - have);
        p_ += have;
    }

private:
    const uint8_t* p_;
    const uint8_t* end_;
};

// Caps the records per input so that one input stays quick.
inline constexpr size_t kMaxRecords = 4096;

inline Buffer decode(const uint8_t* data, size_t size) {
    Buffer b;
    Reader in(data, size);
    const uint8_t mode = in.byte();
    const uint8_t cut = in.byte();
    while (!in.done() && b.offsets.size() < kMaxRecords) {
        const uint8_t selector = in.byte();
        const uint8_t pick = uint8_t((selector & 0x1f) % kSelectorKinds);
        uint32_t kind = 0;
        const KindSpec* spec = nullptr;
        if (pick < kKindCount) {
            spec = &kKinds[pick];
            kind = uint32_t(spec->kind);
        } else if (pick == kOtherKind) {
            kind = in.byte() % uint32_t(CUPTI_ACTIVITY_KIND_COUNT);
            spec = specOf(kind);
        } else {
            in.copy(&kind, sizeof kind);
            spec = specOf(kind);
        }
        const size_t structSize = spec ? spec->size : sizeof(CUpti_Activity);
        size_t footprint = align8(structSize);
        if (selector & kSizeGiven) {
            const uint8_t units = in.byte();
            footprint = size_t(units ? units : 1) * 8;
        }
        // A kind we know is filled as its struct, any other over its whole footprint.
        const size_t fill = spec ? structSize : footprint;
        const size_t at = b.bytes.size();
        b.bytes.resize(at + (footprint > fill ? footprint : align8(fill)), 0);
        uint8_t* record = b.bytes.data() + at;
        in.copy(record, fill);
        std::memcpy(record, &kind, sizeof kind);  // CUpti_Activity::kind
        for (size_t i = 0; spec && i < spec->stringCount; ++i) {
            const char* text = nullptr;
            const uint8_t tag = in.byte();
            if (tag != 0) {
                size_t n = tag - 1u;
                if (tag == 255) {
                    uint16_t len = 0;
                    in.copy(&len, sizeof len);
                    n = len;
                }
                std::string& s = b.strings.emplace_back(n, '\0');
                in.copy(s.data(), n);
                text = s.c_str();
            }
            std::memcpy(record + spec->strings[i], &text, sizeof text);
        }
        // A record given a footprint shorter than its struct overlaps the next one, as in a
        // buffer whose layout we mis-assume.
        b.bytes.resize(at + footprint);
        b.offsets.push_back(at);
    }
    b.validSize = b.bytes.size();
    if (mode & kCutMode) b.validSize -= cut < b.validSize ? cut : b.validSize;
    for (size_t at : b.offsets) {
        uint32_t kind = 0;
        std::memcpy(&kind, b.bytes.data() + at, sizeof kind);
        for (size_t i = 0; i < kKindCount; ++i)
            if (uint32_t(kKinds[i].kind) == kind && at + kKinds[i].size <= b.validSize) ++b.wholeRecords[i];
    }
    return b;
}

// Encoding, for the seeds: the header, then records built from structs.
inline std::string header(bool cutBuffer = false, uint8_t cut = 0) {
    return std::string{char(cutBuffer ? kCutMode : 0), char(cut)};
}

// A string field: null, or its bytes (at most 65535 of them).
inline void appendString(std::string& out, const char* s) {
    if (!s) {
        out += '\0';
        return;
    }
    size_t n = std::strlen(s);
    if (n < 254) {
        out += char(n + 1);
    } else {
        n = n < 65535 ? n : 65535;
        const uint16_t len = uint16_t(n);
        out += char(255);
        out.append(reinterpret_cast<const char*>(&len), sizeof len);
    }
    out.append(s, n);
}

// One record of a kind in kKinds, from its struct: the struct's bytes and the strings its
// `const char*` fields point at. `units` (1..255): the record's footprint in 8-byte units,
// when it is not its struct's size.
inline void appendRecord(std::string& out, const void* record, uint8_t units = 0) {
    uint32_t kind = 0;
    std::memcpy(&kind, record, sizeof kind);
    size_t pick = 0;
    while (pick < kKindCount && uint32_t(kKinds[pick].kind) != kind) ++pick;
    if (pick == kKindCount) return;
    out += char(pick | (units ? kSizeGiven : 0));
    if (units) out += char(units);
    // The pointers are replaced when the input is decoded: zeros keep the seeds reproducible.
    std::string bytes(static_cast<const char*>(record), kKinds[pick].size);
    for (size_t i = 0; i < kKinds[pick].stringCount; ++i)
        bytes.replace(kKinds[pick].strings[i], sizeof(const char*), sizeof(const char*), '\0');
    out += bytes;
    for (size_t i = 0; i < kKinds[pick].stringCount; ++i) {
        const char* s = nullptr;
        std::memcpy(&s, static_cast<const char*>(record) + kKinds[pick].strings[i], sizeof s);
        appendString(out, s);
    }
}

// A record of a kind the agent does not translate (any 32-bit value) with `bytes` of body.
inline void appendOtherRecord(std::string& out, uint32_t kind, const std::string& body) {
    out += char(kAnyKind | kSizeGiven);
    out.append(reinterpret_cast<const char*>(&kind), sizeof kind);
    const size_t footprint = align8(sizeof(CUpti_Activity) + body.size());
    out += char(footprint / 8);
    std::string bytes(sizeof(CUpti_Activity), '\0');
    bytes += body;
    bytes.resize(footprint, '\0');
    out += bytes;
}

}  // namespace cuptifuzz
