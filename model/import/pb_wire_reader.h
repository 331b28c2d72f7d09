// A minimal reader of the protobuf wire format, field by field.
//
// Used where a file must be walked before (or instead of) parsing it with
// generated classes: to recognise a format from a file's first bytes, and to
// salvage the complete records of a truncated file with exact byte offsets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tracescope::pbwire {

enum class WireType : uint8_t { Varint = 0, Fixed64 = 1, Bytes = 2, Fixed32 = 5 };

struct Field {
    uint32_t number = 0;
    WireType type = WireType::Varint;
    uint64_t varint = 0;          // Varint, Fixed64, Fixed32
    const uint8_t* data = nullptr;  // Bytes: the payload
    size_t size = 0;                // Bytes: payload bytes available
    bool cut = false;               // Bytes: the declared length runs past the end of the data
    size_t offset = 0;              // where the field's tag starts, from the reader's base
};

enum class Status { Ok, End, Truncated, Invalid };

class Reader {
public:
    // `baseOffset` is added to reported offsets (the position of `data` in the file).
    Reader(const uint8_t* data, size_t size, size_t baseOffset = 0)
        : p_(data), begin_(data), end_(data + size), base_(baseOffset) {}

    // Reads the next field. Truncated: the data ends inside the tag or a
    // varint/fixed value (nothing usable), or, for Bytes, `cut` is set and the
    // available part is returned with Status::Ok so callers may salvage it.
    Status next(Field& f) {
        if (p_ >= end_) return Status::End;
        f = Field{};
        f.offset = fieldStart_ = offset();
        uint64_t tag = 0;
        Status s = varint(tag);
        if (s != Status::Ok) return s;
        f.number = uint32_t(tag >> 3);
        const unsigned wt = unsigned(tag & 7);
        if (f.number == 0 || (tag >> 3) > 0x1FFFFFFF) return Status::Invalid;
        switch (wt) {
        case 0:
            f.type = WireType::Varint;
            return varint(f.varint);
        case 1:
            f.type = WireType::Fixed64;
            return fixed(8, f.varint);
        case 5:
            f.type = WireType::Fixed32;
            return fixed(4, f.varint);
        case 2: {
            f.type = WireType::Bytes;
            uint64_t len = 0;
            s = varint(len);
            if (s != Status::Ok) return s;
            const auto left = size_t(end_ - p_);
            f.data = p_;
            if (len > left) {
                f.size = left;
                f.cut = true;
                p_ = end_;
            } else {
                f.size = size_t(len);
                p_ += len;
            }
            return Status::Ok;
        }
        default: return Status::Invalid;  // groups (3, 4) and reserved types
        }
    }

    // Position of the next unread byte, from the file start.
    size_t offset() const { return base_ + size_t(p_ - begin_); }
    // Where the field last returned (or rejected) by next() starts.
    size_t fieldStart() const { return fieldStart_; }

private:
    const uint8_t* p_;
    const uint8_t* begin_;
    const uint8_t* end_;
    size_t base_;
    size_t fieldStart_ = 0;

    Status varint(uint64_t& v) {
        v = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (p_ >= end_) return Status::Truncated;
            const uint8_t b = *p_++;
            if (shift == 63 && b > 1) return Status::Invalid;
            v |= uint64_t(b & 0x7F) << shift;
            if (!(b & 0x80)) return Status::Ok;
        }
        return Status::Invalid;
    }
    Status fixed(int bytes, uint64_t& v) {
        if (end_ - p_ < bytes) {
            p_ = end_;
            return Status::Truncated;
        }
        v = 0;
        for (int i = 0; i < bytes; ++i) v |= uint64_t(p_[i]) << (8 * i);
        p_ += bytes;
        return Status::Ok;
    }
};

inline std::string_view text(const Field& f) {
    return {reinterpret_cast<const char*>(f.data), f.size};
}

}  // namespace tracescope::pbwire
