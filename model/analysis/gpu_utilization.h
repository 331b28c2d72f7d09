// GPU utilisation as Holistic Trace Analysis (HTA, PyPI holistictraceanalysis 0.5.0,
// hta/analyzers/breakdown_analysis.py) defines it, per GPU (HTA reports per rank file):
//
// Temporal breakdown (HTA get_temporal_breakdown). The device's active window runs from the start
// of its first kernel, memcpy or memset to the end of its last. Idle is the window minus the union
// of all its activity (every stream); compute is the union of its compute kernels; non-compute is
// the rest of the window (copies, memsets, communication kernels). A kernel computes unless HTA's
// name rules say otherwise (hta/utils/utils.py): NCCL kernels ("nccl…Kernel…"), names beginning
// "Memcpy", "Memset" or "dma", and names containing "Memcpy" or "Sync" are not compute.
//
// Idle-time breakdown (HTA get_idle_time_breakdown). On each stream, its kernels, memcpys and
// memsets in start order; a gap is the time from the end of the stream's work to the start of the
// next activity. Each gap gets one cause, decided by that next activity:
//  * host_wait: its launch call (the runtime call launchOf() finds) began after the stream's
//    work had ended: the host had not yet asked for it, the GPU waited on the CPU;
//  * kernel_wait: otherwise, a gap shorter than the threshold: the back-to-back launch overhead
//    of consecutive kernels. HTA's consecutive_kernel_delay is 30 and compared with its
//    timestamps, which are microseconds (its docstring says nanoseconds): 30 µs is the rule in
//    effect, and ours;
//  * other: the rest (e.g. a kernel waiting on an event, or an activity whose launch is not in
//    the trace and so cannot show a host wait).
// Time before a stream's first and after its last activity is no gap. A GPU's host/kernel/other
// times are its streams' sums (streams idle concurrently, so they can exceed its idle time).
// Where HTA takes the previous activity's end even when an earlier one on the stream ends later,
// we take the stream's work so far: overlapping activities on one stream make no negative gap
// (they are counted).
#pragma once

#include "model/analysis/op_classify.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tracescope {

enum class IdleCause : uint8_t { HostWait, KernelWait, Other };
inline constexpr size_t kIdleCauseCount = 3;
// HTA's category names: "host_wait", "kernel_wait", "other".
const char* idleCauseName(IdleCause cause);

// One idle gap on a stream, with its cause: what a timeline overlay shades.
struct IdleGap {
    TimeNs start = 0;
    TimeNs end = 0;
    IdleCause cause = IdleCause::Other;
};

// Idle time of each cause, and how many gaps had it.
struct IdleBreakdown {
    std::array<TimeNs, kIdleCauseCount> ns{};
    std::array<uint64_t, kIdleCauseCount> gaps{};
    TimeNs of(IdleCause c) const { return ns[size_t(c)]; }
    TimeNs total() const { return plusSat(plusSat(ns[0], ns[1]), ns[2]); }  // GPU sums of hostile files saturate
};

struct StreamIdle {
    int64_t stream = -1;             // as in the trace (Kineto arg "stream", else the track's id)
    std::vector<TrackIndex> tracks;  // the tracks holding its activities (overflow lanes too)
    TimeNs firstStart = 0, lastEnd = 0;
    uint64_t activities = 0;
    uint64_t withoutLaunch = 0;  // activities whose launch call is not in the trace
    uint64_t overlapping = 0;    // activities starting before the stream's earlier work ended
    IdleBreakdown idle;
    std::vector<IdleGap> gaps;  // in time order
};

struct GpuUtilization {
    int64_t device = -1;                    // the GPU's index (-1 when the trace does not say)
    std::string name;                       // its process's name
    TimeNs windowStart = 0, windowEnd = 0;  // first activity start, last activity end
    TimeNs idleNs = 0, computeNs = 0, nonComputeNs = 0;
    uint64_t kernels = 0, computeKernels = 0, memcpys = 0, memsets = 0;
    uint64_t withoutLaunch = 0;       // activities whose launch call is not in the trace
    uint64_t launchedAfterStart = 0;  // activities starting before their launch call began (clock skew)
    IdleBreakdown idle;               // the streams' sums
    std::vector<StreamIdle> streams;  // by stream id

    TimeNs activeNs() const { return windowEnd - windowStart; }  // HTA's kernel_time
    // Percent of the active window (0 when it is empty).
    double percentOfWindow(TimeNs part) const;
};

struct GpuUtilizationOptions {
    TimeNs kernelWaitThresholdNs = 30'000;
};

struct GpuUtilizationResult {
    std::vector<GpuUtilization> gpus;  // by device index
    TimeNs kernelWaitThresholdNs = 30'000;
    std::vector<std::string> notes;  // what the trace lacks, counted
};

GpuUtilizationResult computeGpuUtilization(const ClassifiedTrace& ct, const GpuUtilizationOptions& options = {});

// HTA's rule for a compute kernel, by name (see above).
bool isComputeKernelName(std::string_view name);

}  // namespace tracescope
