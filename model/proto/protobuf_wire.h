// Minimal reader of the protobuf wire format: walks the fields of a message
// without a schema. Used to sniff file formats, to split an XSpace into pieces
// that are parsed separately (and in parallel), to salvage the complete
// records of a truncated RunMetadata file (model/import/), and to list the planes
// of a captured XSpace (model/capture/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tracescope::wire {

enum WireType : uint8_t { Varint = 0, Fixed64 = 1, LengthDelimited = 2, StartGroup = 3, EndGroup = 4, Fixed32 = 5 };

struct Field {
    uint32_t number = 0;
    WireType type = Varint;
    uint64_t value = 0;             // Varint / Fixed64 / Fixed32
    const uint8_t* data = nullptr;  // LengthDelimited payload
    size_t size = 0;                // LengthDelimited payload size
    size_t offset = 0;              // offset of the field's key within the walked buffer
    size_t end = 0;                 // offset just past the field
    bool cut = false;               // LengthDelimited, OnCut::Salvage: the declared length runs past
                                    // the end of the buffer; data/size hold the part that is there

    std::string_view text() const { return {reinterpret_cast<const char*>(data), size}; }
    int64_t asInt64() const { return static_cast<int64_t>(value); }
};

// What next() does with a length-delimited field that runs past the end of the
// buffer: an error (Fail), or return the part that is there with `cut` set (Salvage).
enum class OnCut : uint8_t { Fail, Salvage };

// Iterates the fields of one message. next() returns false at the end or on an
// error; error() tells which (a truncated field is an error, with its offset,
// unless a cut payload is salvaged).
class Reader {
public:
    Reader(const uint8_t* data, size_t size, OnCut onCut = OnCut::Fail)
        : begin_(data), p_(data), end_(data + size), onCut_(onCut) {}

    bool next(Field& f);
    bool atEnd() const { return p_ == end_ && !error_; }
    // Empty when no error; otherwise a short description with the byte offset.
    const char* error() const { return error_; }
    size_t errorOffset() const { return errorOffset_; }
    // True when the error is that a field runs past the end of the buffer.
    bool truncated() const { return truncated_; }
    size_t offset() const { return size_t(p_ - begin_); }

private:
    const uint8_t* begin_;
    const uint8_t* p_;
    const uint8_t* end_;
    OnCut onCut_;
    const char* error_ = nullptr;
    size_t errorOffset_ = 0;
    bool truncated_ = false;

    bool fail(const char* what, const uint8_t* at, bool truncated);
};

// Reads a varint at p (p < end); advances p. False when it does not end in the buffer or is too long.
bool readVarint(const uint8_t*& p, const uint8_t* end, uint64_t& out);

}  // namespace tracescope::wire
