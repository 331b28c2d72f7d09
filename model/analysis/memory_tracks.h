// Derived timeline tracks of the memory profile: per memory id a counter of the memory
// allocated (in use) and, where the trace records it, one of the memory reserved, placed
// under the memory id's process (the device when known). They belong to the analysis
// result, not to the Trace (which stays as imported); the timeline draws them and
// `tracescope-cli tracks` lists them marked as derived.
#pragma once

#include "model/analysis/memory_profile.h"

#include <string>
#include <vector>

namespace tracescope {

// What a derived counter track was made from: a memory profile (below), the queue length of
// a GPU stream (model/analysis/queue_length.h), or a query the user added as a track
// (model/sql/query_track.h).
enum class DerivedSource : uint8_t { Memory, QueueLength, Query };

// A query's ts/dur rows as boxes (model/sql/query_track.h): in lanes, each lane in start
// order; a row overlapping every lane's last box opens a lane, up to kMaxSpanLanes (past that
// they share the last lane, drawn over each other).
inline constexpr size_t kMaxSpanLanes = 8;
struct DerivedSpans {
    struct Lane {
        std::vector<TimeNs> start, end;
        std::vector<uint32_t> name;  // index into names
        TimeNs longest = 0;          // the longest box: a window search starts this far back
    };
    std::vector<Lane> lanes;
    std::vector<std::string> names;  // distinct
    uint64_t count = 0;
};

struct DerivedCounterTrack {
    DerivedSource source = DerivedSource::Memory;
    ProcessIndex process = kNoIndex;
    std::string name;          // "Memory GPU_0_bfc: allocated"
    size_t memoryId = 0;       // index into MemoryProfileResult::ids
    bool reserved = false;     // the reserved series (else allocated / in use)
    CounterSeries series;      // one sample per timeline snapshot, bytes
    std::string query;         // Query: the SQL that made it
    std::string error;         // Query: why it has no samples (the saved query failed when run again)
    DerivedSpans spans;        // Query of ts and dur: its boxes (series empty)
    bool isSpans() const { return !spans.lanes.empty(); }
};

std::vector<DerivedCounterTrack> memoryCounterTracks(const MemoryProfileResult& result);

}  // namespace tracescope
