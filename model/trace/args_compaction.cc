#include "model/trace/args_compaction.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace tracescope {

namespace {

// Past this many distinct values a slot is taken to vary without counting further.
constexpr size_t kMaxDistinct = 4096;

bool hasValue(ArgValue::Type t) {
    return t == ArgValue::Type::Int || t == ArgValue::Type::UInt || t == ArgValue::Type::Double ||
           t == ArgValue::Type::String || t == ArgValue::Type::Json;
}

bool isInteger(ArgValue::Type t) { return t == ArgValue::Type::Int || t == ArgValue::Type::UInt; }

// The value's identity within a slot (the slot fixes its type).
uint64_t valueBits(const ArgValue& v) {
    switch (v.type) {
    case ArgValue::Type::Int:
    case ArgValue::Type::UInt: return v.u;
    case ArgValue::Type::Double: {
        uint64_t bits;
        std::memcpy(&bits, &v.d, 8);
        return bits;
    }
    case ArgValue::Type::String:
    case ArgValue::Type::Json: return v.s;
    default: return 0;
    }
}

// Distinct values of one slot, counted up to kMaxDistinct (an open-addressing set: this
// runs for every value of every event).
class DistinctValues {
public:
    void add(uint64_t v) {
        if (many_ || (count_ && v == last_)) return;
        last_ = v;
        if (v == kEmpty) {
            count_ += !sawEmpty_;
            sawEmpty_ = true;
        } else {
            if ((count_ + 1) * 2 > slots_.size()) grow();
            size_t i = mix(v) & (slots_.size() - 1);
            while (slots_[i] != kEmpty && slots_[i] != v) i = (i + 1) & (slots_.size() - 1);
            if (slots_[i] == v) return;
            slots_[i] = v;
            ++count_;
        }
        if (count_ > kMaxDistinct) {
            many_ = true;
            slots_ = {};
        }
    }
    bool many() const { return many_; }
    size_t count() const { return count_; }

private:
    static constexpr uint64_t kEmpty = ~uint64_t(0);
    static size_t mix(uint64_t v) { return size_t((v ^ (v >> 29)) * 0x9E3779B97F4A7C15ull >> 20); }
    void grow() {
        std::vector<uint64_t> old = std::move(slots_);
        slots_.assign(std::max<size_t>(16, old.size() * 2), kEmpty);
        for (uint64_t v : old) {
            if (v == kEmpty) continue;
            size_t i = mix(v) & (slots_.size() - 1);
            while (slots_[i] != kEmpty) i = (i + 1) & (slots_.size() - 1);
            slots_[i] = v;
        }
    }

    std::vector<uint64_t> slots_;
    size_t count_ = 0;
    uint64_t last_ = 0;
    bool sawEmpty_ = false;
    bool many_ = false;
};

// The keys and types of an arg set, in order, and what its events' values are like.
struct Shape {
    std::vector<Arg> first;  // the keys and types
    size_t events = 0;
    std::vector<DistinctValues> distinct;
    std::vector<bool> varies;
    size_t templates = 0;
    size_t maxTemplates = 0;
    uint32_t lastTemplate = 0xFFFFFFFFu;  // tried first: a shape's events come in runs
};

struct Template {
    uint32_t shape = 0;
    uint32_t constants = 0;  // its repeated values start at constants[...] (valueBits)
    uint32_t bases = 0;      // its varying integers' bases start at bases[...]
};

uint64_t mix(uint64_t h, uint64_t v) {
    h = (h ^ v) * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 31);
}

bool sameShape(const Shape& s, const std::vector<Arg>& args) {
    if (s.first.size() != args.size()) return false;
    for (size_t j = 0; j < args.size(); ++j)
        if (s.first[j].key != args[j].key || s.first[j].value.type != args[j].value.type) return false;
    return true;
}

// Whether `args` (of shape `s`) has the repeated values starting at `constants`.
bool sameConstants(const Shape& s, const std::vector<Arg>& args, const uint64_t* constants) {
    for (size_t j = 0; j < args.size(); ++j)
        if (!s.varies[j] && hasValue(args[j].value.type) && valueBits(args[j].value) != *constants++) return false;
    return true;
}

void readArgs(ArgsView view, ArgsOffset offset, std::vector<Arg>& out) {
    out.clear();
    ArgsReader reader(view, offset);
    Arg a;
    while (reader.next(a)) out.push_back(a);
}

}  // namespace

void compactArgs(Track& track) {
    if (track.argBlob.empty() || !track.argTemplates.empty()) return;
    // Every event's entry in event order (slices, then instants). Importers give each event
    // an entry of its own; were two to share one, each would get a copy.
    std::vector<ArgsOffset*> offsets;
    offsets.reserve(track.slices.args.size() + track.instants.args.size());
    for (ArgsOffset& o : track.slices.args)
        if (o != kNoArgs) offsets.push_back(&o);
    for (ArgsOffset& o : track.instants.args)
        if (o != kNoArgs) offsets.push_back(&o);
    const ArgsView plain{track.argBlob};

    // 1. Each entry's shape, and how many values each slot of a shape takes.
    constexpr uint32_t kNone = 0xFFFFFFFFu;
    std::unordered_multimap<uint64_t, uint32_t> shapeIds;  // by a hash of keys and types
    std::vector<Shape> shapes;
    std::vector<uint32_t> shapeOf(offsets.size(), kNone);
    std::vector<Arg> args;
    uint32_t last = kNone;
    for (size_t k = 0; k < offsets.size(); ++k) {
        readArgs(plain, *offsets[k], args);
        if (args.empty()) continue;
        uint32_t id = last != kNone && sameShape(shapes[last], args) ? last : kNone;
        if (id == kNone) {
            uint64_t h = 0;
            for (const Arg& a : args) h = mix(h, (uint64_t(a.key) << 3) | uint64_t(a.value.type));
            for (auto [it, end] = shapeIds.equal_range(h); it != end && id == kNone; ++it)
                if (sameShape(shapes[it->second], args)) id = it->second;
            if (id == kNone) {
                id = uint32_t(shapes.size());
                shapeIds.emplace(h, id);
                shapes.emplace_back();
                shapes.back().first = args;
                shapes.back().distinct.resize(args.size());
            }
        }
        last = id;
        Shape& s = shapes[id];
        shapeOf[k] = id;
        ++s.events;
        for (size_t j = 0; j < args.size(); ++j)
            if (hasValue(args[j].value.type)) s.distinct[j].add(valueBits(args[j].value));
    }
    // A slot varies when it takes more than a few values, or more than one per 64 events.
    // The cap on templates per shape keeps a shape whose repeated values combine too
    // freely from costing more in templates than it saves; past it, entries stay plain.
    for (Shape& s : shapes) {
        s.varies.resize(s.first.size());
        for (size_t j = 0; j < s.first.size(); ++j) {
            const DistinctValues& d = s.distinct[j];
            s.varies[j] =
                hasValue(s.first[j].value.type) && (d.many() || d.count() > std::max<size_t>(4, s.events / 64));
        }
        s.distinct = {};
        s.maxTemplates = std::max<size_t>(16, s.events / 16);
    }

    // 2. Templates and entries.
    std::vector<uint8_t> blob;
    blob.reserve(track.argBlob.size() / 2);
    ArgTemplates templates;
    std::vector<Template> made;
    std::vector<uint64_t> constants, bases;
    std::unordered_multimap<uint64_t, uint32_t> templateIds;  // by a hash of shape and repeated values
    std::vector<ArgsOffset> moved(offsets.size(), kNoArgs);
    for (size_t k = 0; k < offsets.size(); ++k) {
        if (shapeOf[k] == kNone) continue;
        readArgs(plain, *offsets[k], args);
        Shape& s = shapes[shapeOf[k]];
        uint32_t t = s.lastTemplate;
        if (t == kNone || !sameConstants(s, args, constants.data() + made[t].constants)) {
            uint64_t h = mix(0x51ED27, shapeOf[k]);
            for (size_t j = 0; j < args.size(); ++j)
                if (!s.varies[j] && hasValue(args[j].value.type)) h = mix(h, valueBits(args[j].value));
            t = kNone;
            for (auto [it, end] = templateIds.equal_range(h); it != end && t == kNone; ++it)
                if (made[it->second].shape == shapeOf[k] &&
                    sameConstants(s, args, constants.data() + made[it->second].constants))
                    t = it->second;
            if (t == kNone && s.templates == s.maxTemplates) {
                ArgsWriter plainEntry;
                for (const Arg& a : args) plainEntry.add(a.key, a.value);
                moved[k] = plainEntry.appendTo(blob);
                continue;
            }
            if (t == kNone) {
                ++s.templates;
                t = uint32_t(made.size());
                templateIds.emplace(h, t);
                made.push_back({shapeOf[k], uint32_t(constants.size()), uint32_t(bases.size())});
                templates.start.push_back(uint32_t(templates.bytes.size()));
                putArgVarint(templates.bytes, args.size());
                for (size_t j = 0; j < args.size(); ++j) {
                    const ArgValue& v = args[j].value;
                    putArgVarint(templates.bytes,
                                 (uint64_t(args[j].key) << 4) | (uint64_t(v.type) << 1) | uint64_t(s.varies[j]));
                    if (!s.varies[j] || isInteger(v.type)) putArgValue(templates.bytes, v);
                    if (!s.varies[j] && hasValue(v.type)) constants.push_back(valueBits(v));
                    if (s.varies[j] && isInteger(v.type)) bases.push_back(v.u);
                }
            }
            s.lastTemplate = t;
        }
        moved[k] = ArgsOffset(blob.size());
        putArgVarint(blob, (uint64_t(t) << 1) | 1);
        const uint64_t* base = bases.data() + made[t].bases;
        for (size_t j = 0; j < args.size(); ++j) {
            if (!s.varies[j]) continue;
            const ArgValue& v = args[j].value;
            if (isInteger(v.type)) putArgVarint(blob, argZigzag(int64_t(v.u - *base++)));
            else putArgValue(blob, v);
        }
        if (blob.size() >= kNoArgs) return;  // does not fit 32-bit offsets: keep the plain entries
    }

    for (size_t k = 0; k < offsets.size(); ++k) *offsets[k] = moved[k];
    blob.shrink_to_fit();
    templates.bytes.shrink_to_fit();
    templates.start.shrink_to_fit();
    track.argBlob = std::move(blob);
    track.argTemplates = std::move(templates);
}

}  // namespace tracescope
