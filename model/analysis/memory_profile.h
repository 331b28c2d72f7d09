// Memory profile: per memory id (allocator / device) the summary, the full timeline of
// every allocation and deallocation, the breakdown of the memory in use at the peak, and
// leak hints. The numbers follow XProf's Memory Profile (`xplane_to_memory_profile.cc`):
//  * XSpace: `MemoryAllocation` / `MemoryDeallocation` instants (BFC allocator TraceMes).
//    Memory id = `index_on_host` or `device_ordinal` when present, else `allocator_name`.
//    heap = `bytes_allocated`, stack = `bytes_reserved`, free = `bytes_available`,
//    `fragmentation`, lifetime peak = `peak_bytes_in_use` (largest value seen; XProf shows
//    the last one it reads).
//  * Kineto (`profile_memory=True`): `[memory]` instants. Memory id = "cuda:N" / "cpu" from
//    `Device Type` and `Device Id`; heap = `Total Allocated`, reserved = `Total Reserved`.
//    Older traces carry only `Bytes` (and `Addr`): heap is then the running sum of `Bytes`,
//    raised so that it never drops below zero (memory allocated before the profile).
//  * Counters: RunMetadata allocator tracks (TF1 `AllocatorMemoryUsed`) and memory counters
//    of Chrome JSON: each sample is the memory in use; rises count as allocations and falls
//    as deallocations.
// The window peak is the largest stack + heap (ties: the later event), as in XProf; the
// timeline is never sampled for the numbers (views downsample for drawing only). Our breakdown
// lists every allocation alive at the peak; a note gives XProf's, which lists only those of the
// peak's step (memory_xprof_peak.h).
#pragma once

#include "model/trace/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tracescope {

enum class MemoryEventKind : uint8_t { Allocation, Deallocation, Sample };
const char* memoryEventKindName(MemoryEventKind k);

enum class MemorySource : uint8_t { XSpace, Kineto, KinetoBytesOnly, Counter };
const char* memorySourceName(MemorySource s);

// One event of the timeline: the allocator's state right after it. Unknown values are -1.
struct MemorySnapshot {
    TimeNs time = 0;
    int64_t heapBytes = 0;       // allocated (in use)
    int64_t stackBytes = 0;      // XSpace stack reservation (bytes_reserved)
    int64_t freeBytes = -1;      // XSpace bytes_available
    int64_t reservedBytes = -1;  // Kineto Total Reserved (the caching allocator's segments)
    int64_t requestedBytes = -1;
    int64_t allocationBytes = 0;  // chunk size (>= 0; the kind says whether it came or went)
    uint64_t address = 0;
    int64_t step = -1;         // step number, -1 when outside every step
    float fragmentation = -1;  // 0..1
    MemoryEventKind kind = MemoryEventKind::Sample;
    StringId op = kEmptyString;   // tf_op, or the enclosing op on the allocating thread
    TrackIndex track = kNoIndex;  // the instant (or counter sample) in the trace
    uint32_t index = kNoIndex;
    uint32_t partner = kNoIndex;  // timeline index of the matching deallocation / allocation

    int64_t inUseBytes() const {
        int64_t v = heapBytes;
        addSat(v, stackBytes);
        return v;
    }
};

// Active allocations at the peak, grouped by (op, region type, data type, shape).
struct MemoryBreakdownRow {
    std::string op;
    std::string regionType;
    std::string dataType;
    std::string shape;
    int64_t allocationBytes = 0;  // summed over the occurrences
    int64_t requestedBytes = -1;  // summed; -1 when the trace has no requested sizes
    uint64_t occurrences = 0;
    bool special = false;               // "(stack)" or "(allocated before the profile)"
    uint32_t firstSnapshot = kNoIndex;  // the earliest of the allocations (timeline index)
};

// Leak hints: allocations made inside a step other than the last (of at least two) and
// still alive at the end of the profile, by op; the more steps an op left memory behind
// in, the likelier a leak.
struct MemoryLeakHint {
    std::string op;
    uint64_t allocations = 0;
    int64_t bytes = 0;
    uint64_t steps = 0;  // distinct steps they were made in
    uint32_t firstSnapshot = kNoIndex;
};

struct MemoryIdProfile {
    std::string memoryId;
    MemorySource source = MemorySource::XSpace;
    ProcessIndex process = kNoIndex;  // the device's process when found, else the events'
    uint64_t allocations = 0;
    uint64_t deallocations = 0;
    std::optional<int64_t> capacityBytes;  // stack + heap + free at the peak
    int64_t peakBytes = 0;                 // largest stack + heap within the window
    TimeNs peakTimeNs = 0;
    uint32_t peakSnapshot = kNoIndex;
    std::optional<int64_t> peakStep;
    std::optional<int64_t> peakReservedBytes;  // largest reserved within the window
    std::optional<int64_t> lifetimePeakBytes;  // the allocator's own peak since start
    int64_t stackAtPeak = 0;
    int64_t heapAtPeak = 0;
    std::optional<int64_t> freeAtPeak;
    std::optional<double> fragmentationAtPeak;  // 0..1
    bool hasStack = false, hasFree = false, hasFragmentation = false, hasReserved = false;
    // Events carry addresses, so allocations are matched to deallocations (the breakdown,
    // alive-at-end and leak hints need them).
    bool hasAddresses = false;

    std::vector<MemorySnapshot> timeline;       // every event, sorted by time (stable)
    std::vector<MemoryBreakdownRow> breakdown;  // by allocation bytes, descending
    std::vector<MemoryLeakHint> leaks;          // by bytes, descending
    uint64_t aliveAtEnd = 0;                    // allocations never freed in the profile
    int64_t aliveAtEndBytes = 0;
    std::vector<std::string> notes;
};

struct MemoryProfileResult {
    std::vector<MemoryIdProfile> ids;  // sorted by memory id
    size_t stepCount = 0;              // steps found (leak hints need at least 2)
    // Set when the trace has no memory data: what to record to get some.
    std::string howToRecord;
};

// `findStepsToo`: assign events to steps (for peak_step and the leak hints). Finding steps
// classifies the whole trace; the timeline's memory tracks do without.
MemoryProfileResult computeMemoryProfile(const Trace& trace, bool findStepsToo = true);
// The same with steps found on a classification made already (the result store's).
struct ClassifiedTrace;
MemoryProfileResult computeMemoryProfile(const ClassifiedTrace& classified);

// Index of the last snapshot at or before `time` (0 when all are later); timeline non-empty.
size_t memorySnapshotAt(const MemoryIdProfile& profile, TimeNs time);

// What the trace says about a snapshot's event beyond the timeline's numbers (decoded
// from its args on demand): for hover popups and Details.
struct MemoryEventInfo {
    std::string op;
    std::string regionType;
    std::string dataType;
    std::string shape;
};
MemoryEventInfo memoryEventInfo(const Trace& trace, const MemoryIdProfile& profile, size_t snapshot);

// TensorFlow's DataType enum as TF names it ("float", "int32", ...); "" for 0 / unknown.
std::string tfDataTypeName(int64_t type);

}  // namespace tracescope
