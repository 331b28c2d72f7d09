// The immutable result of an import: processes -> tracks -> events.
#pragma once

#include "model/trace/string_table.h"
#include "model/trace/track.h"
#include "model/trace/types.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tracescope {

enum class ProcessKind : uint8_t {
    Device,  // GPUs, TPUs, accelerators: shown first
    Host,
    Other,
};

struct Process {
    ProcessKind kind = ProcessKind::Other;
    int64_t pid = 0;
    std::string name;    // display name ("/device:GPU:0", "python3 (1234)")
    std::string labels;  // extra labels (process_labels)
    std::string host;    // host the process ran on, when known (multi-host runs)
    int64_t sortIndex = 0;
    // Tracks in display order.
    std::vector<TrackIndex> tracks;
    // Device or process properties (e.g. compute capability), as text.
    std::vector<std::pair<std::string, std::string>> properties;
};

// An arrow between two slices (a launch and its kernel, a producer and its consumer).
struct Flow {
    SliceRef from;
    SliceRef to;
    StringId name = kEmptyString;
    StringId category = kEmptyString;
    uint64_t id = 0;
};

// Event counts as `tracescope-cli info` reports them.
struct TraceCounts {
    size_t processes = 0;
    size_t tracks = 0;          // thread tracks (overflow lanes excluded)
    size_t counterTracks = 0;
    size_t slices = 0;          // on thread tracks, overflow lanes included
    size_t asyncSlices = 0;
    size_t instants = 0;
    size_t counterSamples = 0;
    size_t flows = 0;
};

struct Trace {
    std::string format;  // "chrome-json", "xspace", "runmetadata"
    StringTable strings;
    // Processes in display order (devices first).
    std::vector<Process> processes;
    std::vector<Track> tracks;
    std::vector<Flow> flows;
    // Flow indices ordered by `from` and by `to` (for "flows of this slice").
    std::vector<uint32_t> flowsByFrom;
    std::vector<uint32_t> flowsByTo;

    // All event times are relative to originNs, in the file's own clock.
    TimeNs originNs = 0;
    // The origin as Unix time in ns, when the file tells it.
    std::optional<int64_t> originUnixNs;
    // Relative times of the first event start and the last event end.
    TimeNs startNs = 0;
    TimeNs endNs = 0;

    // Trace-level metadata: key -> value as text (JSON text for structured values).
    std::vector<std::pair<std::string, std::string>> metadata;
    std::vector<std::string> hosts;
    std::vector<std::string> warnings;

    TimeNs spanNs() const { return endNs - startNs; }
    TraceCounts counts() const;
    // Bytes held by event data (columns, args, flows) excluding the string table.
    size_t eventMemoryBytes() const;
    const std::string* metadataValue(std::string_view key) const;

    std::string_view str(StringId id) const { return strings.get(id); }
    // Flows that start or end at a slice.
    std::vector<uint32_t> flowsFrom(SliceRef s) const;
    std::vector<uint32_t> flowsTo(SliceRef s) const;
};

}  // namespace tracescope
