// One Chrome trace event as the parser hands it to the assembler: fixed-size,
// strings already interned, args already encoded. A chunk's events form a batch.
#pragma once

#include "model/trace/types.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tracescope {

// An event id (id, id2, bind_id) as an exact key. Kinds keep numbers and strings
// apart, so 5 and "5" (and "0x5") are different ids, as in the trace format.
struct EventId {
    enum Kind : uint8_t { None = 0, NonNegative = 1, Negative = 2, OtherNumber = 3, String = 4 };
    uint64_t value = 0;  // the integer, or a 64-bit hash of the raw text (OtherNumber, String)
    uint64_t shown = 0;  // the id as written: the integer, or a string's hex/decimal value (flows do not keep it)
    uint8_t kind = None;

    bool present() const { return kind != None; }
    bool sameId(const EventId& o) const { return kind == o.kind && value == o.value; }
};

// A pid or tid: an integer, or (isString) the StringId of a non-numeric string.
struct ProcessThreadId {
    int64_t value = 0;
    bool isString = false;
    friend bool operator==(const ProcessThreadId&, const ProcessThreadId&) = default;
};

struct ChromeEvent {
    enum Flags : uint16_t {
        kDurIsNumeric = 1 << 0,  // X: dur was a number
        kBindEnclosing = 1 << 1, // flow f with bp:"e"
        kFlowIn = 1 << 2,
        kFlowOut = 1 << 3,
        kIdLocal = 1 << 4,       // id2.local: scoped to the process
        kHasSortIndex = 1 << 5,  // M *_sort_index
        kHasText = 1 << 6,       // M name / labels
        kHasTid = 1 << 7,
        // X whose dur is exactly 1 ps: what the TSL/XProf exporter writes for a zero-length
        // XSpace event (it gives every complete event at least 1 ps), an instant in the XSpace.
        kOnePicosecond = 1 << 8,
    };
    int64_t ts = 0;
    int64_t dur = 0;  // X: duration (ns); M: sort index
    ProcessThreadId pid;
    ProcessThreadId tid;
    EventId id;
    EventId bindId;
    StringId name = kEmptyString;
    StringId cat = kEmptyString;
    StringId scope = kEmptyString;
    StringId text = kEmptyString;  // M: args.name or args.labels
    uint32_t argsBegin = 0;        // encoded args in EventBatch::args
    uint32_t argsSize = 0;         // 0: no args
    uint32_t countersBegin = 0;    // C: numeric args in EventBatch::counters
    uint32_t countersSize = 0;
    char ph = 0;
    char instantScope = 't';
    uint16_t flags = 0;

    bool has(uint16_t f) const { return (flags & f) != 0; }
};

struct EventBatch {
    uint64_t sequence = 0;
    std::vector<ChromeEvent> events;
    std::vector<uint8_t> args;                          // ArgsWriter encodings
    std::vector<std::pair<StringId, double>> counters;  // (arg key, value) of C events

    // Events not imported, for warnings.
    std::array<uint32_t, 256> unsupportedPhases{};  // by ph character
    uint32_t withoutPhase = 0;                      // no ph, {} or not an object
    uint32_t withoutTs = 0;                         // phases that need ts but have none usable
    uint32_t missingDur = 0;                        // X without a numeric dur (0 long)
    uint32_t invalid = 0;                           // not parseable JSON
    uint64_t firstInvalidOffset = 0;
    std::string firstInvalidError;
    uint64_t utf8Replaced = 0;

    void clear() {
        events.clear();
        args.clear();
        counters.clear();
        unsupportedPhases.fill(0);
        withoutPhase = withoutTs = missingDur = invalid = 0;
        firstInvalidOffset = 0;
        firstInvalidError.clear();
        utf8Replaced = 0;
    }
};

}  // namespace tracescope
