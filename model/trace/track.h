// Tracks: one timeline row group (a thread, a GPU stream, an XLine, an async
// group or a counter). Events are stored column-wise, sorted by start time.
#pragma once

#include "model/trace/args.h"
#include "model/trace/dictionary_column.h"
#include "model/trace/duration_column.h"
#include "model/trace/time_column.h"
#include "model/trace/types.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tracescope {

enum class TrackKind : uint8_t {
    Thread,   // a thread, stream or XLine: properly nested slices + instants
    Async,    // async spans packed into lanes (depth = lane)
    Counter,  // (time, value) samples
    Markers,  // process- or trace-wide instants
};

// Slice flags (stored with the depth).
inline constexpr uint16_t kSliceUnfinished = 0x8000;  // B without E: ends at the trace end
inline constexpr uint16_t kSliceDepthMask = 0x7FFF;

// Slices of one track, column-wise and sorted by (start, longer first).
struct SliceColumns {
    TimeColumn start;         // int32 offsets from a base per 256 slices + side table
    DurationColumn duration;  // uint32 ns + side table for the rare long ones
    NameColumn name;          // 2 bytes: a dictionary per track
    CategoryColumn category;  // 1 byte
    std::vector<ArgsOffset> args;
    std::vector<uint16_t> depthAndFlags;

    size_t size() const { return start.size(); }
    bool empty() const { return start.empty(); }
    TimeNs end(size_t i) const { return plusSat(start[i], duration[i]); }
    uint16_t depth(size_t i) const { return depthAndFlags[i] & kSliceDepthMask; }
    bool unfinished(size_t i) const { return depthAndFlags[i] & kSliceUnfinished; }
    size_t memoryBytes() const;
};

// The bytes one slice costs in SliceColumns (a test pins this).
inline constexpr size_t kSliceRecordBytes = TimeColumn::kBytesPerEvent + DurationColumn::kBytesPerSlice +
                                            NameColumn::kBytesPerEvent + CategoryColumn::kBytesPerEvent + sizeof(ArgsOffset) + sizeof(uint16_t);

// Zero-duration events, column-wise and sorted by time.
struct InstantColumns {
    TimeColumn time;
    NameColumn name;
    CategoryColumn category;
    std::vector<ArgsOffset> args;

    size_t size() const { return time.size(); }
    bool empty() const { return time.empty(); }
    size_t memoryBytes() const;
};

// One counter series, sorted by time.
struct CounterSeries {
    std::vector<TimeNs> time;
    std::vector<double> value;

    size_t size() const { return time.size(); }
    bool empty() const { return time.empty(); }
    size_t memoryBytes() const;
};

struct Track {
    TrackKind kind = TrackKind::Thread;
    ProcessIndex process = kNoIndex;
    std::string name;
    // The producer's id: a tid, a stream or XLine id, an async group or counter key.
    int64_t tid = 0;
    int64_t sortIndex = 0;
    bool hasSortIndex = false;  // the file gave sortIndex (thread_sort_index)
    // For an overflow lane: the track whose partially overlapping slices it holds.
    TrackIndex overflowOf = kNoIndex;
    // Highest depth (lane) used + 1.
    uint32_t maxDepth = 0;

    SliceColumns slices;
    InstantColumns instants;
    CounterSeries counter;
    // Encoded args referenced by slices.args and instants.args, and the templates of its
    // templated entries (filled when the finished track is compacted; see args.h).
    std::vector<uint8_t> argBlob;
    ArgTemplates argTemplates;

    ArgsView argsView() const { return {argBlob, &argTemplates}; }
    size_t memoryBytes() const;
};

}  // namespace tracescope
