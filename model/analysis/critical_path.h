// The critical path of a step, as Holistic Trace Analysis' lightweight critical path analysis
// (HTA 0.5.0, hta/analyzers/critical_path_analysis.py) defines it.
//
// Every host op and runtime call (Kineto cpu_op, cuda_runtime, cuda_driver) and every device
// activity (kernel, memcpy, memset) becomes two nodes, its begin and its end. Edges:
//  * nesting on a host thread: parent begin -> child begin -> child end -> next child begin ->
//    ... -> parent end, weighted by the time between them (the time of the event they lie in);
//    a blocking call's own span (cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventQuery,
//    cudaEventSynchronize, cudaMemcpy, cudaMemcpyAsync) weighs 0: its wait is the device's time;
//  * CPU-serial order: the end of a top-level op -> the begin of the next one on the thread
//    (weight 0, "dependency");
//  * device activity: begin -> end (its duration);
//  * launch -> device activity: the launch call's begin -> the activity's begin ("launch delay",
//    the time between) when, with HTA's queue length of the stream (+1 at each launch call HTA
//    counts, -1 when its activity begins), the queue was 1 right after the launch and 0 right
//    after the activity began, and the stream's previous activity ended before the launch;
//    otherwise the end of the stream's previous activity -> its begin ("kernel-kernel delay");
//  * synchronisation -> the work it waited for (weight 0): Kineto's cuda_sync records (Context
//    Sync: the last activity of every stream of the device; Stream Sync: of its stream; Event
//    Sync and Stream Wait Event: the last activity launched onto the recorded stream before the
//    cudaEventRecord the record names) -> the sync call's end, or -> the waiting activity's begin.
// The path is the longest path of this graph (a DAG: one topological pass, linear in events),
// the longest-path rule of networkx's dag_longest_path that HTA calls: ties go to the first
// predecessor edge, the path ends at the first node of greatest distance.
//
// Where we go beyond HTA (each counted in the result):
//  * kernels launched through cudaGraphLaunch (every kernel of the graph names the launch's
//    correlation, so launchOf() links each to the one call): HTA's launch table knows only
//    cudaLaunchKernel-like calls, so a graph's first kernel on an idle stream gets no edge and
//    the path cannot reach it (HolisticTraceAnalysis#290); here any runtime call that launched
//    the activity gives the launch edge, by the previous-activity condition alone (so does a
//    kernel that begins before its launch, clock skew, whose edge weighs 0 and is counted);
//  * without cuda_sync records (PyTorch records them only with enable_cuda_sync_events), a
//    cudaDeviceSynchronize / cudaStreamSynchronize / cudaEventSynchronize call waits for the
//    device activity that ended last inside the call, on the streams this process launched onto
//    (the stream is not in the call's args, so any of them); a synchronous cudaMemcpy waits for
//    its own copy. HTA adds no edge there, so its path cannot follow the wait.
// Steps come from the project's step detection (steps.h); a step's window takes, as HTA clips
// its annotation window, the host events that begin inside it (duration > 0) and the device
// activities whose launch begins inside it.
#pragma once

#include "model/analysis/op_classify.h"
#include "model/analysis/steps.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tracescope {

enum class CpEdgeType : uint8_t {
    Operator,           // within an op or device activity: "critical_path_operator"
    Dependency,         // CPU-serial order: "critical_path_dependency"
    LaunchDelay,        // "critical_path_kernel_launch_delay"
    KernelKernelDelay,  // "critical_path_kernel_kernel_delay"
    SyncDependency,     // "critical_path_sync_dependency"
};
// HTA's names of the edge types (CPEdgeType values).
const char* cpEdgeTypeName(CpEdgeType t);

// Where time on the path goes.
enum class CpCategory : uint8_t { CpuOp, Runtime, Kernel, Memcpy, Memset, LaunchDelay, KernelGap, Count };
inline constexpr size_t kCpCategoryCount = static_cast<size_t>(CpCategory::Count);
const char* cpCategoryName(CpCategory c);  // "cpu_op", "runtime", "kernel", ... (JSON keys, + "_ns")

struct CpPathNode {
    SliceRef slice;
    bool isBegin = false;
    TimeNs ts = 0;
};

// The edge from path node i to node i + 1 (24 bytes: the small fields last).
struct CpPathEdge {
    TimeNs weightNs = 0;
    SliceRef attributed;  // the event the edge's time belongs to (operator and kernel-gap edges)
    CpEdgeType type = CpEdgeType::Operator;
    CpCategory category = CpCategory::CpuOp;  // meaningful when weightNs > 0
};

struct CpContributor {
    std::string name;
    CpCategory category = CpCategory::CpuOp;
    TimeNs ns = 0;
    uint64_t events = 0;  // distinct events of that name whose time lies on the path
};

struct CriticalPath {
    bool wholeTrace = false;  // no steps: the whole trace as one window
    int64_t stepNumber = 0;
    std::string stepName;
    TimeNs windowStartNs = 0, windowEndNs = 0;

    TimeNs lengthNs = 0;            // sum of the path's edge weights
    std::vector<CpPathNode> nodes;  // in path order
    std::vector<CpPathEdge> edges;  // edges[i] joins nodes[i] and nodes[i + 1]
    std::vector<SliceRef> events;   // distinct events on the path, in path order
    std::array<TimeNs, kCpCategoryCount> byCategory{};
    // HTA's get_critical_path_breakdown "bound_by" totals.
    TimeNs cpuBoundNs = 0, gpuComputeBoundNs = 0, gpuCommunicationBoundNs = 0;
    TimeNs kernelKernelOverheadNs = 0, kernelLaunchOverheadNs = 0;
    std::vector<CpContributor> topContributors;  // most time first (at most 10)

    // Counts of the graph.
    uint64_t graphNodes = 0, graphEdges = 0;
    uint64_t hostEvents = 0, deviceActivities = 0;
    uint64_t graphLaunchedActivities = 0;  // device activities launched by cudaGraphLaunch
    uint64_t syncEdgesFromRecords = 0;     // from Kineto cuda_sync records
    uint64_t syncEdgesInferred = 0;        // blocking calls without records (see above)
    uint64_t negativeEdgesClamped = 0;     // clock skew: an edge going back in time weighs 0
    uint64_t cycleNodesLeftOut = 0;        // nodes on a cycle (inconsistent input), left out
};

struct CriticalPathResult {
    StepSource stepSource = StepSource::None;
    std::string stepRule;
    std::vector<CriticalPath> paths;  // one per step, or one for the whole trace
    // Whole trace: device activities with no launch (left out, as HTA leaves them), kernels
    // of the trace, and whether the file has cuda_sync records.
    uint64_t deviceWithoutLaunch = 0;
    uint64_t deviceActivities = 0;
    uint64_t syncRecords = 0;
    bool htaRules = false;
    std::vector<std::string> notes;
};

struct CriticalPathOptions {
    // HTA's rules alone: no sync edges inferred without records, and a launch edge only for the
    // launch calls HTA counts (so no cudaGraphLaunch edge), for comparing with HTA itself.
    bool htaRules = false;
};

// One path per step of `steps` (the whole trace when it has none). Linear in events overall:
// each step visits only the events of its window.
CriticalPathResult computeCriticalPaths(const ClassifiedTrace& ct, const StepsResult& steps,
                                        const CriticalPathOptions& options = {});

}  // namespace tracescope
