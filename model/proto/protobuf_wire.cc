#include "model/proto/protobuf_wire.h"

#include <cstring>

namespace tracescope::wire {

bool readVarint(const uint8_t*& p, const uint8_t* end, uint64_t& out) {
    uint64_t v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (p >= end) return false;
        const uint8_t b = *p++;
        if (shift == 63 && b > 1) return false;  // more than 64 bits
        v |= uint64_t(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            out = v;
            return true;
        }
    }
    return false;
}

bool Reader::fail(const char* what, const uint8_t* at, bool truncated) {
    error_ = what;
    errorOffset_ = size_t(at - begin_);
    truncated_ = truncated;
    p_ = end_;
    return false;
}

bool Reader::next(Field& f) {
    if (error_ || p_ >= end_) return false;
    const uint8_t* start = p_;
    uint64_t key;
    if (!readVarint(p_, end_, key)) return fail("bad field key", start, p_ >= end_);
    const uint64_t number = key >> 3;
    if (number == 0 || number > 536870911u) return fail("bad field number", start, false);
    f.number = uint32_t(number);
    f.type = WireType(key & 7);
    f.offset = size_t(start - begin_);
    f.data = nullptr;
    f.size = 0;
    f.value = 0;
    f.cut = false;
    switch (f.type) {
    case Varint:
        if (!readVarint(p_, end_, f.value)) return fail("bad varint", start, p_ >= end_);
        break;
    case Fixed64:
        if (end_ - p_ < 8) return fail("truncated fixed64", start, true);
        std::memcpy(&f.value, p_, 8);
        p_ += 8;
        break;
    case Fixed32: {
        if (end_ - p_ < 4) return fail("truncated fixed32", start, true);
        uint32_t v;
        std::memcpy(&v, p_, 4);
        f.value = v;
        p_ += 4;
        break;
    }
    case LengthDelimited: {
        uint64_t len;
        if (!readVarint(p_, end_, len)) return fail("bad length", start, p_ >= end_);
        f.data = p_;
        if (len > uint64_t(end_ - p_)) {
            if (onCut_ == OnCut::Fail) return fail("field runs past the end of the data", start, true);
            f.size = size_t(end_ - p_);
            f.cut = true;
            p_ = end_;
            break;
        }
        f.size = size_t(len);
        p_ += len;
        break;
    }
    default: return fail("unsupported wire type", start, false);  // groups are not used by our formats
    }
    f.end = size_t(p_ - begin_);
    return true;
}

}  // namespace tracescope::wire
