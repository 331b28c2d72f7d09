// One process's agent records (record_decoder.h) as an XSpace, with the names and stats
// XLA's CUPTI tracer writes (after XLA's cupti_collector.cc and xplane_schema.cc), so that
// our importer and XProf treat the capture like TensorFlow / JAX GPU profiles:
//   /device:GPU:<id>  plane stats from the device record; one line per CUPTI stream named
//                     "Stream #<id>(<types>)"; kernels (demangled names, kernel_details,
//                     correlation_id, context_id, cuda_graph_id / cuda_graph_node_id),
//                     MemcpyH2D/D2H/D2D/P2P/Other with memcpy_details, Memset with
//                     Memset_details, cudaEventRecord points (cuda_event_id) where CUPTI
//                     timed them.
//   /host:CPU         one line per OS thread (its display name the thread's name when the
//                     agent sent one) with the CUDA runtime/driver API calls
//                     (correlation_id: the importer's launch -> kernel flows; a stream's
//                     creation as stream_id / stream_priority / stream_flags of its
//                     cudaStreamCreate* call), the synchronization records and NVTX ranges (START/END paired by id) and
//                     marks; a "CUDA memory" line with MemoryAllocation / MemoryDeallocation
//                     events carrying XProf's memory-profile stats (running totals); a
//                     "CUPTI overhead" line (COMPILER, BUFFER_FLUSH, ... as XLA names them).
//   /host:metadata    cupti_version, cuda_driver_version, process and command line.
//   Task Environment  profile_start_time / profile_stop_time.
// Dropped records become XSpace warnings, agent errors XSpace errors.
#pragma once

#include "model/capture/agent/record_decoder.h"
#include "model/export/xspace_writer.h"

#include <cstdint>
#include <limits>
#include <string>

namespace tracescope::agent {

struct ConvertOptions {
    // Only events overlapping [windowStartNs, windowEndNs] are kept (the capture window).
    int64_t windowStartNs = std::numeric_limits<int64_t>::min();
    int64_t windowEndNs = std::numeric_limits<int64_t>::max();
    std::string hostname;  // overrides the agent's hostname when set
};

// What the conversion did, for the caller's summary and the tests.
struct ConvertStats {
    uint64_t kernels = 0, memcpys = 0, memsets = 0, apis = 0, syncs = 0, nvtxRanges = 0, nvtxMarks = 0,
             memoryEvents = 0, overheads = 0;
    uint64_t cudaEvents = 0;  // cudaEventRecord points on their streams
    uint64_t streams = 0;     // stream creations attached to their API calls
    uint64_t untimed = 0;          // records without timing (start = end = 0), dropped as XLA does
    uint64_t outsideWindow = 0;    // events outside the capture window
    uint64_t implausible = 0;      // times days away from the agent's start (damaged records)
    uint64_t unmatchedNvtxEnds = 0, unterminatedNvtx = 0;
    uint64_t staticAllocations = 0;  // DEVICE_STATIC / MANAGED_STATIC memory records (not allocations)
    uint64_t droppedRecords = 0;   // reported by the agent
    uint64_t devicePlanes = 0;
};

ConvertStats recordsToXSpace(const AgentRecords& records, const ConvertOptions& options, xspace::SpaceWriter& out);

// Convenience: the serialized XSpace.
std::string recordsToXSpaceBytes(const AgentRecords& records, const ConvertOptions& options = {},
                                 ConvertStats* stats = nullptr);

// XLA's memcpy event names from CUPTI's CUpti_ActivityMemcpyKind.
const char* memcpyEventName(uint8_t copyKind, bool peer);
// CUPTI's CUpti_ActivityMemoryKind as XLA's lowercase names ("pageable", "device", ...).
const char* memoryKindName(uint32_t kind);
// A CUDA API callback name without its version suffix: "cudaMalloc_v3020" -> "cudaMalloc".
std::string apiDisplayName(const std::string& cuptiName);
// The demangled C++ name, or the name itself when it is not a mangled name.
std::string demangleKernelName(const std::string& name);

}  // namespace tracescope::agent
