// Compact encoding of event arguments (Chrome "args", XSpace stats).
//
// An event's args are one entry of its track's arg blob, in one of two forms:
// - plain: varint(count << 1), then per arg varint(key << 3 | type) and the value
//   (zigzag varint, varint, 8-byte double or a StringId varint). Importers write this.
// - templated: varint(template << 1 | 1), then only the values that vary. A template
//   (see ArgTemplates) holds the keys, types and the values its events share; an
//   integer that varies is stored as its difference from the template's base value.
//   compactArgs (args_compaction.h) rewrites a finished track into this form: events
//   of one producer repeat the same keys and most values (a kernel's grid, registers
//   and stream), so an event costs a few bytes.
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

// The templates of a track's templated entries: template t is bytes[start[t]...):
// varint(slot count), then per slot varint(key << 4 | type << 1 | varies) and, for a
// slot that does not vary, its value in the plain encoding; for an integer slot that
// varies, its base (zigzag varint for Int, varint for UInt).
struct ArgTemplates {
    std::vector<uint8_t> bytes;
    std::vector<uint32_t> start;

    bool empty() const { return start.empty(); }
    size_t memoryBytes() const { return bytes.capacity() + start.capacity() * sizeof(uint32_t); }
};

// A track's args as the reader needs them: the entries and the templates they refer to.
// An import-time blob (plain entries only) converts implicitly.
struct ArgsView {
    std::span<const uint8_t> blob;
    const ArgTemplates* templates = nullptr;

    ArgsView() = default;
    ArgsView(std::span<const uint8_t> b, const ArgTemplates* t = nullptr) : blob(b), templates(t) {}
    ArgsView(const std::vector<uint8_t>& b) : blob(b) {}
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
    ArgsReader(ArgsView args, ArgsOffset offset);
    bool next(Arg& out);
    size_t remaining() const { return remaining_; }

private:
    bool stop() { remaining_ = 0; return false; }

    const uint8_t* p_ = nullptr;  // the entry's values
    const uint8_t* end_ = nullptr;
    const uint8_t* slot_ = nullptr;  // templated: the template's next slot
    const uint8_t* slotEnd_ = nullptr;
    size_t remaining_ = 0;
};

// All args of one event, decoded (for details panels and analyses; not for hot loops).
std::vector<Arg> decodeArgs(ArgsView args, ArgsOffset offset);

// Varint and zigzag helpers of this encoding (args_compaction writes templates with them).
void putArgVarint(std::vector<uint8_t>& out, uint64_t v);
bool getArgVarint(const uint8_t*& p, const uint8_t* end, uint64_t& v);
inline uint64_t argZigzag(int64_t v) { return (uint64_t(v) << 1) ^ uint64_t(v >> 63); }
inline int64_t argUnzigzag(uint64_t v) { return int64_t(v >> 1) ^ -int64_t(v & 1); }
// A value in the plain encoding (its type is known from elsewhere); get returns false past `end`.
void putArgValue(std::vector<uint8_t>& out, const ArgValue& value);
bool getArgValue(const uint8_t*& p, const uint8_t* end, ArgValue& value);

}  // namespace tracescope
