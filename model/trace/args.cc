#include "model/trace/args.h"

#include "model/trace/string_table.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace tracescope {

void putArgVarint(std::vector<uint8_t>& out, uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<uint8_t>(v) | 0x80);
        v >>= 7;
    }
    out.push_back(static_cast<uint8_t>(v));
}

bool getArgVarint(const uint8_t*& p, const uint8_t* end, uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64 && p < end; shift += 7) {
        uint8_t b = *p++;
        v |= uint64_t(b & 0x7f) << shift;
        if (!(b & 0x80)) return true;
    }
    return false;
}

void putArgValue(std::vector<uint8_t>& out, const ArgValue& value) {
    switch (value.type) {
    case ArgValue::Type::Int: putArgVarint(out, argZigzag(value.i)); break;
    case ArgValue::Type::UInt: putArgVarint(out, value.u); break;
    case ArgValue::Type::Double: {
        uint8_t raw[8];
        std::memcpy(raw, &value.d, 8);
        out.insert(out.end(), raw, raw + 8);
        break;
    }
    case ArgValue::Type::String:
    case ArgValue::Type::Json: putArgVarint(out, value.s); break;
    default: break;
    }
}

bool getArgValue(const uint8_t*& p, const uint8_t* end, ArgValue& value) {
    uint64_t v = 0;
    switch (value.type) {
    case ArgValue::Type::Int:
        if (!getArgVarint(p, end, v)) return false;
        value.i = argUnzigzag(v);
        return true;
    case ArgValue::Type::UInt:
        if (!getArgVarint(p, end, v)) return false;
        value.u = v;
        return true;
    case ArgValue::Type::Double:
        if (end - p < 8) return false;
        std::memcpy(&value.d, p, 8);
        p += 8;
        return true;
    case ArgValue::Type::String:
    case ArgValue::Type::Json:
        if (!getArgVarint(p, end, v) || v > 0xFFFFFFFFu) return false;
        value.s = static_cast<StringId>(v);
        return true;
    default: return true;
    }
}

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
    putArgVarint(bytes_, (uint64_t(key) << 3) | uint64_t(value.type));
    putArgValue(bytes_, value);
    ++count_;
}

ArgsOffset ArgsWriter::appendTo(std::vector<uint8_t>& blob) const {
    if (count_ == 0) return kNoArgs;
    auto offset = static_cast<ArgsOffset>(blob.size());
    putArgVarint(blob, uint64_t(count_) << 1);
    blob.insert(blob.end(), bytes_.begin(), bytes_.end());
    return offset;
}

std::vector<uint8_t> ArgsWriter::encoded() const {
    std::vector<uint8_t> out;
    appendTo(out);
    return out;
}

ArgsReader::ArgsReader(ArgsView args, ArgsOffset offset) {
    if (offset == kNoArgs || offset >= args.blob.size()) return;
    p_ = args.blob.data() + offset;
    end_ = args.blob.data() + args.blob.size();
    uint64_t head = 0;
    if (!getArgVarint(p_, end_, head)) return;
    if (!(head & 1)) {
        remaining_ = head >> 1;
        return;
    }
    // Templated: the keys and shared values come from the template.
    const uint64_t t = head >> 1;
    if (!args.templates || t >= args.templates->start.size()) return;
    const ArgTemplates& tt = *args.templates;
    const size_t from = tt.start[t];
    const size_t to = t + 1 < tt.start.size() ? tt.start[t + 1] : tt.bytes.size();
    if (from >= to || to > tt.bytes.size()) return;
    slot_ = tt.bytes.data() + from;
    slotEnd_ = tt.bytes.data() + to;
    uint64_t n = 0;
    if (getArgVarint(slot_, slotEnd_, n)) remaining_ = n;
}

bool ArgsReader::next(Arg& out) {
    if (remaining_ == 0) return false;
    out.value = ArgValue{};
    uint64_t tag = 0;
    if (!slot_) {
        if (!getArgVarint(p_, end_, tag)) return stop();
        out.key = static_cast<StringId>(tag >> 3);
        out.value.type = static_cast<ArgValue::Type>(tag & 7);
        if (!getArgValue(p_, end_, out.value)) return stop();
        --remaining_;
        return true;
    }
    if (!getArgVarint(slot_, slotEnd_, tag)) return stop();
    out.key = static_cast<StringId>(tag >> 4);
    out.value.type = static_cast<ArgValue::Type>((tag >> 1) & 7);
    const bool varies = tag & 1;
    if (!varies) {
        if (!getArgValue(slot_, slotEnd_, out.value)) return stop();
    } else if (out.value.type == ArgValue::Type::Int || out.value.type == ArgValue::Type::UInt) {
        // base in the template, difference in the entry (both wrap as uint64)
        ArgValue base = out.value;
        uint64_t delta = 0;
        if (!getArgValue(slot_, slotEnd_, base) || !getArgVarint(p_, end_, delta)) return stop();
        out.value.u = base.u + uint64_t(argUnzigzag(delta));
    } else if (!getArgValue(p_, end_, out.value)) {
        return stop();
    }
    --remaining_;
    return true;
}

std::vector<Arg> decodeArgs(ArgsView view, ArgsOffset offset) {
    std::vector<Arg> args;
    ArgsReader reader(view, offset);
    Arg a;
    while (reader.next(a)) args.push_back(a);
    return args;
}

}  // namespace tracescope
