// Collective communication calls of one rank's trace: what each call was (kind, process group,
// size), how long it took, and the bandwidth it reached, as NVIDIA's nccl-tests define it
// (doc/PERFORMANCE.md): algbw = S / t, busbw = algbw × factor, for n ranks in the group
//  * all-reduce: S = In msg nelems × sizeof(dtype), factor 2(n−1)/n;
//  * all-gather: S = Out msg nelems × sizeof (the gathered total), factor (n−1)/n;
//  * reduce-scatter: S = In msg nelems × sizeof (the total before scattering), factor (n−1)/n;
//  * all-to-all: S = In msg nelems × sizeof, factor (n−1)/n;
//  * broadcast, reduce: S = In msg nelems × sizeof, factor 1;
//  * send, recv: S = the message (In, else Out, msg nelems × sizeof), factor 1 (nccl-tests' sendrecv).
// Other kinds (barrier, gather, scatter, …) have no size nccl-tests defines: time only.
//
// Where the facts come from (PyTorch's Kineto traces):
//  * `record_param_comms` host ops (and, in newer traces, the NCCL kernels themselves) carry the
//    call's metadata as args: `Collective name`, `dtype`, `In msg nelems`, `Out msg nelems`,
//    `Group size`, `Process Group Name` (older: `Process Group ID`), `Process Group Ranks`, `Seq`
//    (pytorch/kineto MetadataFieldCatalog.h). `Collective name` "wait" is a wait, not a call.
//  * The c10d dispatcher op around it (`c10d::allreduce_`, `c10d::_allgather_base_`, …) and the
//    `nccl:<kind>` / `gloo:<kind>` annotations name the kind when there is no metadata.
//  * The time t is the communication kernel's (an NCCL/RCCL kernel launched from inside the call,
//    joined through its launch). gloo runs a call's work on its own worker threads, each under a
//    `gloo:<kind>` annotation that no c10d op encloses: a call takes the earliest unpaired run
//    that started after it, of its collective (a tensor's reduce-scatter runs as gloo's all-reduce
//    of the whole input), of its process group and element count where both are known (gloo's
//    queue of a group is first in, first out), and the run times it. A call with neither (a
//    one-rank NCCL group, a backend that records nothing) is timed by its host op. `timeSource`
//    says which.
//  * Without metadata, the size comes from the recorded shapes of the c10d op and of its gloo run,
//    and a gloo run's group from its worker thread (collective_shapes.h).
// Calls are the outermost of these host ops on a thread; a communication kernel launched outside
// any of them (an XSpace's NCCL kernels) is a call of its own, its kind read from the kernel's name.
//
// Communication/compute overlap follows Holistic Trace Analysis' get_comm_comp_overlap
// (comm_overlap.h, shared with the Pod page). Cross-rank matching and stragglers are in
// collective_stragglers.h.
#pragma once

#include "model/analysis/comm_overlap.h"
#include "model/analysis/op_classify.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tracescope {

enum class CollectiveTimeSource : uint8_t { Kernel, Worker, Host };
const char* collectiveTimeSourceName(CollectiveTimeSource s);

struct CollectiveCall {
    std::string kind;         // Kineto's collective name ("allreduce", "_allgather_base", …)
    std::string kindSource;   // where the kind was read: "metadata", "op", "annotation", "kernel name"
    std::string group;        // process group name (or id); "" when the trace does not say
    std::string groupRanks;   // "[0, 1]" as written; "" when absent
    int64_t groupSize = 0;    // n; 0 when unknown
    std::string dtype;        // "Float", "BFloat16", …; "" when absent
    int64_t inNelems = -1, outNelems = -1;  // -1 when absent
    std::optional<int64_t> seq;             // the collective's sequence number in its group
    int64_t sizeBytes = -1;                 // S as nccl-tests counts it; -1 unknown
    double busFactor = 0;                   // 0 when unknown (or n = 1)
    bool busFactorKnown = false;
    SliceRef hostOp;                        // the call's outermost host op (invalid: kernel only)
    SliceRef metadataSlice;                 // the slice whose args gave the metadata (invalid: none)
    SliceRef workerSlice;                   // gloo's worker annotation that ran it (invalid: none)
    std::vector<SliceRef> kernels;          // its communication kernels, in start order
    CollectiveTimeSource timeSource = CollectiveTimeSource::Host;
    TimeNs startNs = 0;     // the first kernel's start (the worker's, or the host op's, as timed)
    TimeNs durationNs = 0;  // Σ kernel durations (or the worker annotation's, or the host op's)
    TimeNs hostStartNs = 0; // the host op's start (the first kernel's or the worker's when alone)
    // Bytes per second; negative when unknown (no size, zero time, no factor, or timed by the host
    // op, whose time is the time to issue the call, not to move the data).
    double algbwBytesPerS = -1;
    double busbwBytesPerS = -1;
};

// Per (kind, size, group): the nccl-tests view of repeated calls.
struct CollectiveSummaryRow {
    std::string kind;
    int64_t sizeBytes = -1;
    std::string group;
    int64_t groupSize = 0;
    CollectiveTimeSource timeSource = CollectiveTimeSource::Host;
    uint64_t count = 0;
    TimeNs totalNs = 0;
    TimeNs medianNs = 0;  // even counts: the mean of the two middle values, rounded halves up
    TimeNs p90Ns = 0;     // linear interpolation between closest ranks (numpy's default), rounded
    double algbwBytesPerS = -1;  // S / median time; negative when unknown
    double busbwBytesPerS = -1;
};

struct StepOverlap {
    int64_t step = 0;
    TimeNs startNs = 0, durationNs = 0;
    CommOverlap overlap;
};

struct CollectivesResult {
    std::optional<int64_t> rank;       // Kineto distributedInfo.rank
    std::optional<int64_t> worldSize;  // distributedInfo.world_size
    std::vector<CollectiveCall> calls; // in host start order
    std::vector<CollectiveSummaryRow> summary;  // by total time, longest first
    CommOverlap overlap;                        // the whole trace
    std::vector<StepOverlap> steps;             // per step (the Overview's steps), when there are any
    uint64_t commKernels = 0;                   // communication kernels seen
    uint64_t kernelsWithoutCall = 0;            // of them, launched outside any collective op
    uint64_t workerRuns = 0;                    // gloo worker annotations seen
    uint64_t workerRunsWithoutCall = 0;         // of them, paired with no call (calls of their own)
    uint64_t withMetadata = 0;                  // calls whose size and group the trace records
    uint64_t withShapes = 0;                    // calls sized from their recorded shapes instead
    bool glooGroupsFromThreads = false;         // gloo runs' groups told by their worker threads
    std::vector<std::string> notes;             // what is missing, said once
};

// sizeof of a c10 ScalarType as Kineto names it ("Float" 4, "BFloat16" 2, …); 0 when unknown.
int dtypeBytes(std::string_view dtype);
// The nccl-tests size and bus factor of one call (fills sizeBytes, busFactor, busFactorKnown).
void sizeCollective(CollectiveCall& call);

// Per (kind, size, group, time source), by total time, longest first (CollectivesResult::summary).
std::vector<CollectiveSummaryRow> summarizeCollectiveCalls(const std::vector<CollectiveCall>& calls);

CollectivesResult computeCollectives(const ClassifiedTrace& ct);

}  // namespace tracescope
