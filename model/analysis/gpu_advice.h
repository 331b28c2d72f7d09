// Expert advice on a GPU trace: the patterns that make a GPU wait, each finding naming the
// slices it found. The rules follow Nsight Systems' expert rules (`nsys analyze`: gpu_gaps,
// cuda_api_sync, cuda_memcpy_sync, cuda_memcpy_async, cuda_memset_sync) and Holistic Trace
// Analysis' launch outliers, applied to the steps of a training loop:
//  * gpu-gap: a device idle (no kernel, memcpy or memset on any of its streams) for at least
//    `gapThresholdNs`, inside its active window; with what the host was doing meanwhile on the
//    thread that launched the work after the gap (the slices there with the most time of their
//    own inside the gap, and the time no traced slice covers). nsys' gpu_gaps defaults to 500 ms
//    for whole-program captures; a profiler trace holds a few steps of milliseconds, so 1 ms here.
//  * sync-in-step: host calls that block until the device is done, inside a step (the whole
//    trace when it has no steps): cudaDeviceSynchronize, cudaStreamSynchronize,
//    cudaEventSynchronize (cu*/hip* alike), and synchronous copies and memsets (cudaMemcpy,
//    cudaMemset, cuMemcpyHtoD... without "Async"), grouped by the framework op that made them
//    (aten::item, aten::nonzero...) and the call.
//  * pageable-copy: copies whose name says a side is pageable host memory (Kineto's
//    "Memcpy HtoD (Pageable -> Device)"): an asynchronous copy from pageable memory is staged
//    and synchronous (nsys cuda_memcpy_async); grouped by direction and launching call.
//  * short-kernel: kernels shorter than their launch call (HTA's short-kernel outlier, within
//    its 50 µs runtime cut-off): the host cannot launch them as fast as the GPU runs them;
//    grouped by kernel name. Worth: the launch calls' time beyond the kernels'.
//  * starved-queue: a step in which the stream with the most launches has at most one launched
//    but not started operation (HTA's queue length) for more than `starvedFraction` of the step:
//    the host issues work barely as fast as the GPU runs it (launch-bound).
// Each finding has a cost (the time it is worth, as defined per rule) by which findings are
// ordered; a rule's totals cover all its findings, while the result keeps each rule's 200
// costliest and each finding's first `maxSlicesPerFinding` slices.
#pragma once

#include "model/analysis/launch_stats.h"
#include "model/analysis/op_classify.h"
#include "model/analysis/queue_length.h"
#include "model/analysis/steps.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tracescope {

enum class AdviceRule : uint8_t { GpuGap, SyncInStep, PageableCopy, ShortKernel, StarvedQueue };
inline constexpr size_t kAdviceRuleCount = 5;
// "gpu-gap", "sync-in-step", "pageable-copy", "short-kernel", "starved-queue".
const char* adviceRuleId(AdviceRule rule);

struct AdviceOptions {
    TimeNs gapThresholdNs = 1'000'000;  // gpu-gap: 1 ms
    double starvedFraction = 0.5;       // starved-queue: queue length <= 1 for more than half the step
    size_t maxSlicesPerFinding = 100;
    std::string key() const;  // for the result store
};

// A host slice inside a GPU gap, with the time of its own (not its children's) inside the gap.
struct GapHostSlice {
    SliceRef slice;
    TimeNs selfNs = 0;
};

struct AdviceFinding {
    AdviceRule rule = AdviceRule::GpuGap;
    TimeNs costNs = 0;            // what it is worth (see the rules above)
    TimeNs start = 0, end = 0;    // the gap, the step, or the first to the last slice found
    int64_t device = -1;          // the device's pid (gpu-gap, starved-queue); -1 otherwise
    int64_t stream = -1;          // starved-queue's stream
    int64_t step = -1;            // the step number (gpu-gap, starved-queue; -1 outside steps)
    uint64_t occurrences = 0;     // slices (calls, copies, kernels) the finding groups; 1 for a gap
    uint64_t steps = 0;           // how many steps they fall in (sync-in-step)
    std::string what;             // the group: "aten::item → cudaStreamSynchronize", a kernel name...
    double fraction = 0;          // starved-queue: the part of the step at queue length <= 1
    std::vector<SliceRef> slices;  // the slices found (calls, copies, kernels, the work after a gap)
    // gpu-gap: what the host was doing on the launching thread (most own time first, up to 3),
    // and the time no traced slice of that thread covered.
    std::vector<GapHostSlice> host;
    TrackIndex hostTrack = kNoIndex;
    TimeNs hostUntracedNs = 0;
};

struct AdviceRuleSummary {
    AdviceRule rule = AdviceRule::GpuGap;
    uint64_t findings = 0;
    uint64_t occurrences = 0;
    TimeNs costNs = 0;
};

struct GpuAdvice {
    AdviceOptions options;
    std::array<AdviceRuleSummary, kAdviceRuleCount> rules{};
    std::vector<AdviceFinding> findings;  // by rule, then by cost (largest first)
    uint64_t steps = 0;                   // the steps the step rules looked at (0: the whole trace)
    std::vector<std::string> notes;       // what the trace lacks, so that a rule could not look
};

// From the analyses it builds on (each a result of the trace's store).
GpuAdvice computeGpuAdvice(const ClassifiedTrace& ct, const StepsResult& steps, const LaunchStats& launches,
                           const QueueLengthResult& queues, const AdviceOptions& options = {});

// Whether a runtime call by this name blocks the host until the device is done (sync-in-step).
bool isBlockingCallName(std::string_view apiName);

// One sentence per rule with findings, most costly first, for the Overview's recommendations.
std::vector<std::string> adviceSentences(const ClassifiedTrace& ct, const GpuAdvice& advice);

}  // namespace tracescope
