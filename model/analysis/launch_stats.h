// Kernel launch statistics, as Holistic Trace Analysis (HTA 0.5.0) defines them in
// `get_cuda_kernel_launch_stats` (hta/analyzers/cuda_kernel_analysis.py): one row per device
// activity (kernel, memcpy, memset) joined to the runtime call that launched it, with
//  * cpu_duration: the runtime call's duration;
//  * gpu_duration: the device activity's duration;
//  * launch_delay: the activity's start minus the call's end, clipped at 0 (HTA clips too; a
//    kernel that starts before its call returns has no delay). "Counted only when the stream has
//    no outstanding work" is a rule of HTA's critical path (critical_path_analysis.py draws a
//    launch-delay edge only when the stream had no outstanding kernels); its launch statistics
//    take the plain difference for every launch, and so do we.
// HTA's three outlier kinds, with its default cut-offs (runtime_cutoff 50 µs, launch_delay_cutoff
// 100 µs; HTA's visualize_cuda_launch_kernel_info):
//  * short kernel: cpu_duration <= runtime cutoff and gpu_duration < cpu_duration;
//  * long runtime call: cpu_duration > runtime cutoff;
//  * long launch delay: launch_delay > delay cutoff.
// Which calls launch: HTA's launch statistics take cudaLaunchKernel, cudaLaunchKernelExC,
// cudaMemcpyAsync, cudaMemsetAsync and MTIA's "runFunction - job_prep_and_submit_for_execution";
// its own queue length also takes cuLaunchKernel (Triton's launches) and the HIP launches
// (hipLaunchKernel, hipExtModuleLaunchKernel, hipMemcpyAsync, hipMemsetAsync,
// hipMemcpyWithStream). We take that wider set (and cuLaunchKernelEx) by default, so torch.compile
// and ROCm traces are not left out; `htaCallsOnly` restricts to HTA's launch-statistics set. In an
// XSpace every runtime call joined to a device activity is a launch (XLA's CUPTI tracer names a
// launch after its kernel) except a CUDA graph launch. Activities launched by other calls
// (cudaGraphLaunch, which starts many kernels...) are counted by the call's name, never mixed in.
#pragma once

#include "model/analysis/cuda_api_summary.h"
#include "model/analysis/op_classify.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tracescope {

struct LaunchStatsOptions {
    int64_t runtimeCutoffNs = 50000;  // HTA runtime_cutoff = 50 µs
    int64_t delayCutoffNs = 100000;   // HTA launch_delay_cutoff = 100 µs
    bool htaCallsOnly = false;        // only the calls HTA's launch statistics take (see above)
    std::string key() const;          // for the result store
};

enum LaunchOutlier : uint8_t {
    kShortKernel = 1,      // gpu_duration < cpu_duration (and the call is within the runtime cutoff)
    kLongRuntime = 2,      // cpu_duration > runtime cutoff
    kLongLaunchDelay = 4,  // launch_delay > delay cutoff
};

struct LaunchRow {
    SliceRef call;      // the runtime call
    SliceRef activity;  // the kernel, memcpy or memset
    int64_t cpuDurationNs = 0;
    int64_t gpuDurationNs = 0;
    int64_t launchDelayNs = 0;  // clipped at 0
    uint8_t outliers = 0;       // LaunchOutlier bits
};

// Distribution of one column: count, mean, median, p95 (linear interpolation between the
// closest ranks, numpy's default), min, max; integer ns, rounded to the nearest, halves up.
struct LaunchDistribution {
    ValueStats stats;
    int64_t p95 = 0;
    // Histogram for a page: bin 0 holds 0 ns, bin k >= 1 holds [2^(k-1), 2^k) ns.
    std::vector<uint64_t> log2Bins;
};

struct LaunchStats {
    LaunchStatsOptions options;
    std::vector<LaunchRow> rows;  // in the activities' track order, then by start
    LaunchDistribution launchDelay, runtime, kernel;
    uint64_t shortKernels = 0, longRuntime = 0, longLaunchDelay = 0;
    std::map<std::string, uint64_t> byCall;  // launches per runtime call name
    // What is missing or adjusted, counted.
    uint64_t activities = 0;                     // device activities (kernels, memcpy, memset)
    uint64_t withoutCall = 0;                    // no runtime call joined (no flow, no correlation match)
    std::map<std::string, uint64_t> otherCalls;  // joined to a call that is not a launch counted here
    uint64_t startedBeforeCallEnd = 0;           // launch delay clipped to 0
    uint64_t startedBeforeCall = 0;              // the activity starts before its call begins (clock skew)
    std::vector<std::string> notes;
};

// The launch calls counted (see above): HTA's launch statistics set, or the wider default.
bool isCountedLaunchCall(std::string_view name, bool htaCallsOnly);

// One device activity with its launching call, as both analyses here use them: every device
// activity joined to a counted launch call, in track order.
struct LaunchPair {
    SliceRef call, activity;
};
struct LaunchPairs {
    std::vector<LaunchPair> pairs;
    uint64_t activities = 0, withoutCall = 0;
    std::map<std::string, uint64_t> otherCalls;
};
LaunchPairs launchPairsOf(const ClassifiedTrace& ct, bool htaCallsOnly);

LaunchStats computeLaunchStats(const ClassifiedTrace& ct, const LaunchStatsOptions& options = {});

}  // namespace tracescope
