#include "model/trace/args.h"

#include "model/trace/string_table.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace tracescope {

namespace {

void putVarint(std::vector<uint8_t>& out, uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<uint8_t>(v) | 0x80);
        v >>= 7;
    }
    out.push_back(static_cast<uint8_t>(v));
}

bool getVarint(const uint8_t*& p, const uint8_t* end, uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64 && p < end; shift += 7) {
        uint8_t b = *p++;
        v |= uint64_t(b & 0x7f) << shift;
        if (!(b & 0x80)) return true;
    }
    return false;
}

uint64_t zigzag(int64_t v) { return (uint64_t(v) << 1) ^ uint64_t(v >> 63); }
int64_t unzigzag(uint64_t v) { return int64_t(v >> 1) ^ -int64_t(v & 1); }

}  // namespace

double ArgValue::toDouble() const {
    switch (type) {
    case Type::Int: return double(i);
    case Type::UInt: return double(u);
    case Type::Double: return d;
    case Type::True: return 1.0;
    default: return 0.0;
    }
}

bool ArgValue::toInt64(int64_t& out) const {
    switch (type) {
    case Type::Int: out = i; return true;
    case Type::UInt:
        if (u > uint64_t(std::numeric_limits<int64_t>::max())) return false;
        out = int64_t(u);
        return true;
    case Type::Double:
        if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9.0e18) return false;
        out = int64_t(d);
        return true;
    default: return false;
    }
}

std::string ArgValue::toString(const StringTable& strings) const {
    switch (type) {
    case Type::Null: return "null";
    case Type::False: return "false";
    case Type::True: return "true";
    case Type::Int: return std::to_string(i);
    case Type::UInt: return std::to_string(u);
    case Type::Double: {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", d);
        // Prefer the shortest form that round-trips.
        for (int prec = 1; prec <= 17; ++prec) {
            char shortBuf[64];
            std::snprintf(shortBuf, sizeof shortBuf, "%.*g", prec, d);
            if (std::strtod(shortBuf, nullptr) == d) return shortBuf;
        }
        return buf;
    }
    case Type::String:
    case Type::Json: return std::string(strings.get(s));
    }
    return {};
}

void ArgsWriter::add(StringId key, const ArgValue& value) {
    putVarint(bytes_, (uint64_t(key) << 3) | uint64_t(value.type));
    switch (value.type) {
    case ArgValue::Type::Int: putVarint(bytes_, zigzag(value.i)); break;
    case ArgValue::Type::UInt: putVarint(bytes_, value.u); break;
    case ArgValue::Type::Double: {
        uint8_t raw[8];
        std::memcpy(raw, &value.d, 8);
        bytes_.insert(bytes_.end(), raw, raw + 8);
        break;
    }
    case ArgValue::Type::String:
    case ArgValue::Type::Json: putVarint(bytes_, value.s); break;
    default: break;
    }
    ++count_;
}

ArgsOffset ArgsWriter::appendTo(std::vector<uint8_t>& blob) const {
    if (count_ == 0) return kNoArgs;
    auto offset = static_cast<ArgsOffset>(blob.size());
    putVarint(blob, count_);
    blob.insert(blob.end(), bytes_.begin(), bytes_.end());
    return offset;
}

std::vector<uint8_t> ArgsWriter::encoded() const {
    std::vector<uint8_t> out;
    appendTo(out);
    return out;
}

ArgsReader::ArgsReader(std::span<const uint8_t> blob, ArgsOffset offset) {
    if (offset == kNoArgs || offset >= blob.size()) return;
    p_ = blob.data() + offset;
    end_ = blob.data() + blob.size();
    uint64_t n = 0;
    if (getVarint(p_, end_, n)) remaining_ = n;
}

bool ArgsReader::next(Arg& out) {
    if (remaining_ == 0) return false;
    uint64_t tag = 0;
    if (!getVarint(p_, end_, tag)) { remaining_ = 0; return false; }
    out.key = static_cast<StringId>(tag >> 3);
    out.value = ArgValue{};
    out.value.type = static_cast<ArgValue::Type>(tag & 7);
    uint64_t v = 0;
    switch (out.value.type) {
    case ArgValue::Type::Int:
        if (!getVarint(p_, end_, v)) { remaining_ = 0; return false; }
        out.value.i = unzigzag(v);
        break;
    case ArgValue::Type::UInt:
        if (!getVarint(p_, end_, v)) { remaining_ = 0; return false; }
        out.value.u = v;
        break;
    case ArgValue::Type::Double:
        if (end_ - p_ < 8) { remaining_ = 0; return false; }
        std::memcpy(&out.value.d, p_, 8);
        p_ += 8;
        break;
    case ArgValue::Type::String:
    case ArgValue::Type::Json:
        if (!getVarint(p_, end_, v)) { remaining_ = 0; return false; }
        out.value.s = static_cast<StringId>(v);
        break;
    default: break;
    }
    --remaining_;
    return true;
}

std::vector<Arg> decodeArgs(std::span<const uint8_t> blob, ArgsOffset offset) {
    std::vector<Arg> args;
    ArgsReader reader(blob, offset);
    Arg a;
    while (reader.next(a)) args.push_back(a);
    return args;
}

}  // namespace tracescope
