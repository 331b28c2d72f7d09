// The args of one event as rows of the `args` table, Perfetto's shape: a nested value (an
// object or array kept as JSON text) becomes one row per leaf, its key joined with dots and
// array indices ("shape[0]", "config.lr"); `flat_key` is the key without the indices.
#pragma once

#include "model/trace/args.h"
#include "model/trace/trace.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tracescope::sql {

struct ArgRow {
    enum class Type : uint8_t { Null, Bool, Int, UInt, Real, String, Json };
    std::string key;
    std::string flatKey;
    Type type = Type::Null;
    int64_t intValue = 0;       // Bool (0/1), Int, UInt (when it fits)
    double realValue = 0;       // Real
    std::string stringValue;    // String; UInt past int64 as decimal text; Json that does not parse
};

const char* argTypeName(ArgRow::Type t);

// Appends the rows of the arg set at `offset` of `track`.
void appendArgRows(const Trace& trace, const Track& track, ArgsOffset offset, std::vector<ArgRow>& out);

// The arg set ids the SQL tables use: the track in the high 32 bits, the offset in its arg
// blob in the low ones (an event's args are stored once, at one offset of its track).
inline int64_t argSetId(TrackIndex track, ArgsOffset offset) { return (int64_t(track) << 32) | int64_t(offset); }
inline bool argSetOf(const Trace& trace, int64_t id, TrackIndex& track, ArgsOffset& offset) {
    if (id < 0) return false;
    track = TrackIndex(uint64_t(id) >> 32);
    offset = ArgsOffset(uint64_t(id) & 0xFFFFFFFFu);
    return track < trace.tracks.size() && offset != kNoArgs && offset < trace.tracks[track].argBlob.size();
}

}  // namespace tracescope::sql
