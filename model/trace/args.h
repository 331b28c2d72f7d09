// Compact encoding of event arguments (Chrome "args", XSpace stats).
//
// A slice's args are a byte string: varint(count), then per arg
// varint(key << 3 | type) and the value (zigzag varint, varint, 8-byte double
// or a StringId varint). This keeps a typical event's args to a few bytes,
// which is what lets a loaded trace stay under 40 bytes per slice.
#pragma once

#include "model/trace/types.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tracescope {

class StringTable;

// Offset into a track's arg blob; kNoArgs when an event has none.
using ArgsOffset = uint32_t;
inline constexpr ArgsOffset kNoArgs = 0xFFFFFFFFu;

struct ArgValue {
    enum class Type : uint8_t { Null = 0, False = 1, True = 2, Int = 3, UInt = 4, Double = 5, String = 6, Json = 7 };
    Type type = Type::Null;
    union {
        int64_t i;
        uint64_t u;
        double d;
        StringId s;  // String: the text; Json: an array/object kept as its JSON text
    };
    ArgValue() : i(0) {}

    static ArgValue null() { return {}; }
    static ArgValue boolean(bool b) { ArgValue v; v.type = b ? Type::True : Type::False; return v; }
    static ArgValue integer(int64_t x) { ArgValue v; v.type = Type::Int; v.i = x; return v; }
    static ArgValue unsignedInteger(uint64_t x) { ArgValue v; v.type = Type::UInt; v.u = x; return v; }
    static ArgValue real(double x) { ArgValue v; v.type = Type::Double; v.d = x; return v; }
    static ArgValue string(StringId x) { ArgValue v; v.type = Type::String; v.s = x; return v; }
    static ArgValue json(StringId x) { ArgValue v; v.type = Type::Json; v.s = x; return v; }

    bool isNumber() const { return type == Type::Int || type == Type::UInt || type == Type::Double; }
    // Numeric value as double (bools as 0/1); 0 for strings and null.
    double toDouble() const;
    // Integer value when the arg is an integer (or an integral double); false otherwise.
    bool toInt64(int64_t& out) const;
    // Text as a user would read it (strings unquoted, JSON as written).
    std::string toString(const StringTable& strings) const;
};

struct Arg {
    StringId key = kEmptyString;
    ArgValue value;
};

// Accumulates one event's args, then appends them to a blob.
class ArgsWriter {
public:
    void clear() { bytes_.clear(); count_ = 0; }
    void add(StringId key, const ArgValue& value);
    size_t count() const { return count_; }
    bool empty() const { return count_ == 0; }
    // Appends the encoded args to blob and returns their offset (kNoArgs if empty).
    ArgsOffset appendTo(std::vector<uint8_t>& blob) const;
    // The encoded form (count prefix included), for storing elsewhere.
    std::vector<uint8_t> encoded() const;

private:
    std::vector<uint8_t> bytes_;
    size_t count_ = 0;
};

// Decodes args written by ArgsWriter.
class ArgsReader {
public:
    ArgsReader() = default;
    ArgsReader(std::span<const uint8_t> blob, ArgsOffset offset);
    bool next(Arg& out);
    size_t remaining() const { return remaining_; }

private:
    const uint8_t* p_ = nullptr;
    const uint8_t* end_ = nullptr;
    size_t remaining_ = 0;
};

// All args of one event, decoded (for details panels and analyses; not for hot loops).
std::vector<Arg> decodeArgs(std::span<const uint8_t> blob, ArgsOffset offset);

}  // namespace tracescope
