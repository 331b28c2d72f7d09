// The immutable result of an import: processes -> tracks -> events.
#pragma once

#include "model/trace/import_warning.h"
#include "model/trace/string_table.h"
#include "model/trace/track.h"
#include "model/trace/types.h"

#include <memory>
#include <mutex>
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
    bool hasSortIndex = false;  // the file gave sortIndex (process_sort_index); else it is the producer's order
    // Tracks in display order.
    std::vector<TrackIndex> tracks;
    // Device or process properties (e.g. compute capability), as text.
    std::vector<std::pair<std::string, std::string>> properties;
};

// What kind of arrow a flow is: its name and category. Few distinct pairs exist
// (e.g. "ac2g"/"async"), so flows store an index into Trace::flowKinds.
struct FlowKind {
    StringId name = kEmptyString;
    StringId category = kEmptyString;
    friend bool operator==(const FlowKind&, const FlowKind&) = default;
};

// An arrow between two slices (a launch and its kernel, a producer and its consumer).
// 20 bytes: big traces have ~0.3 flows per slice. The producer's flow id is not kept
// (correlation ids stay in the slices' args); name/category via Trace::flowName/Category.
struct Flow {
    SliceRef from;
    SliceRef to;
    uint32_t kind = 0;  // index into Trace::flowKinds
};

// Flow indices ordered by `to`, built on first use: few sessions ask "what points at
// this slice" for many slices, so import does not pay for it. Copying or moving a
// Trace starts the copy without an index (it is rebuilt on demand).
class LazyFlowIndex {
public:
    LazyFlowIndex() = default;
    LazyFlowIndex(const LazyFlowIndex&) {}
    LazyFlowIndex& operator=(const LazyFlowIndex&) { reset(); return *this; }
    // Builds the index once (thread-safe), then returns it.
    template <typename Build>
    const std::vector<uint32_t>& get(Build build) const {
        std::call_once(state_->once, [&] { state_->index = build(); });
        return state_->index;
    }
    size_t memoryBytes() const { return state_->index.capacity() * sizeof(uint32_t); }

private:
    struct State {
        std::once_flag once;
        std::vector<uint32_t> index;
    };
    void reset() { state_ = std::make_unique<State>(); }
    std::unique_ptr<State> state_ = std::make_unique<State>();
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

// One XLA program as the profiler recorded it: an event metadata of XSpace's /host:metadata
// plane whose stat hlo_proto holds the serialized xla.HloProto (model/xla reads it).
struct XlaProgramBlob {
    std::string host;  // the XSpace's host, as its processes' (merged runs: "worker/host")
    int64_t programId = 0;
    std::string name;      // the event metadata's name: the module name as the profiler wrote it
    std::string hloProto;  // serialized xla.HloProto
    std::string problem;   // why hloProto was not read ("" when it was)
};

struct Trace {
    std::string format;  // "chrome-json", "xspace", "runmetadata"
    StringTable strings;
    // Processes in display order (devices first).
    std::vector<Process> processes;
    std::vector<Track> tracks;
    // Sorted by `from` (ties in the order the importer added them), so the flows
    // leaving a slice are one contiguous range.
    std::vector<Flow> flows;
    // Distinct (name, category) pairs of the flows.
    std::vector<FlowKind> flowKinds;

    // All event times are relative to originNs, in the file's own clock.
    TimeNs originNs = 0;
    // The origin as Unix time in ns, when the file tells it.
    std::optional<int64_t> originUnixNs;
    // Relative times of the first event start and the last event end.
    TimeNs startNs = 0;
    TimeNs endNs = 0;

    // Trace-level metadata: key -> value as text (JSON text for structured values).
    std::vector<std::pair<std::string, std::string>> metadata;
    // XLA programs with their HLO (XSpace from JAX, TensorFlow/XLA, PyTorch/XLA); else empty.
    std::vector<XlaProgramBlob> xlaPrograms;
    std::vector<std::string> hosts;
    // What the importer could not read or had to change (a cut file, dropped events).
    std::vector<ImportWarning> warnings;

    TimeNs spanNs() const { return durationBetween(startNs, endNs); }  // >= 0, saturated
    TraceCounts counts() const;
    // Bytes held by event data (columns, args, flows and the flow index once built)
    // excluding the string table.
    size_t eventMemoryBytes() const;
    const std::string* metadataValue(std::string_view key) const;

    std::string_view str(StringId id) const { return strings.get(id); }
    // Indices (into `flows`) of the flows that start or end at a slice.
    // Safe to call from several threads at once.
    std::vector<uint32_t> flowsFrom(SliceRef s) const;
    std::vector<uint32_t> flowsTo(SliceRef s) const;
    StringId flowName(const Flow& f) const { return flowKinds[f.kind].name; }
    StringId flowCategory(const Flow& f) const { return flowKinds[f.kind].category; }

private:
    LazyFlowIndex flowsByTo_;
};

}  // namespace tracescope
