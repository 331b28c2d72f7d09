// What went wrong while importing a trace, as facts (kind, byte offset, counts)
// rather than free text: the GUI banner, the CLI's stderr and JSON, and the tests
// all read the same fields, and warningText() renders them in one place.
#pragma once

#include "model/trace/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tracescope {

enum class WarningKind : uint8_t {
    Truncated,        // the file ends before its data does: what followed the cut is missing
    Corrupted,        // bytes that could not be decoded: the data there (or after it) is missing
    TrailingData,     // bytes after the end of the trace data, ignored (nothing is missing)
    DroppedEvents,    // `count` events could not be placed (no time, unmatched end, ...) and were left out
    AdjustedEvents,   // `count` events are shown differently than written (cut at the trace end, 0 long, ...)
    SkippedData,      // parts of the file this importer does not read (unsupported keys, planes)
    ProfilerWarning,  // a warning or error the profiler itself recorded in the file
};

// Stable lower-case name ("truncated", "dropped_events", ...), used in the CLI's JSON.
const char* warningKindName(WarningKind kind);

struct ImportWarning {
    WarningKind kind = WarningKind::SkippedData;
    // What happened, in a few words, for the parts the fields below do not say
    // (e.g. "E event(s) without an open B on their thread dropped").
    std::string detail;
    // Truncated: where the last complete record ends (everything before was read).
    // Corrupted / TrailingData: where the bad or extra bytes start.
    std::optional<uint64_t> byteOffset;
    // Truncated: the bytes the file holds (where the cut is).
    std::optional<uint64_t> totalBytes;
    // Offsets count the decompressed bytes of a gzip file, not the file's own bytes.
    bool uncompressedOffsets = false;
    // How many events or records the warning is about.
    std::optional<uint64_t> count;
    // Truncated: the end of the last event read, relative to the trace's start; set
    // when the trace is built (events written after the cut are missing).
    std::optional<TimeNs> lastEventNs;

    static ImportWarning truncated(uint64_t completeUpTo, uint64_t totalBytes, std::string detail = {});
    static ImportWarning corrupted(std::optional<uint64_t> byteOffset, std::string detail,
                                   std::optional<uint64_t> count = {});
    static ImportWarning trailingData(uint64_t byteOffset);
    // DroppedEvents or AdjustedEvents: "<count> <what>".
    static ImportWarning events(WarningKind kind, uint64_t count, std::string what);
    static ImportWarning skipped(std::string what);
    static ImportWarning profiler(std::string text);
};

// The one-line text of a warning, as the CLI prints it and the GUI lists it.
std::string warningText(const ImportWarning& w);

// True when data of the file is missing (cut or damaged), so totals and verdicts
// computed from the trace may be wrong, not just incomplete in detail.
bool losesData(const ImportWarning& w);
bool anyDataLost(const std::vector<ImportWarning>& warnings);

// "12.5 ms": a duration for warning texts (the model has no Qt formatter).
std::string formatWarningDuration(TimeNs ns);
// "1,234,567": a count for warning and note texts, grouped as the pages show counts.
std::string formatWarningCount(uint64_t n);

}  // namespace tracescope
