// Queue length per stream, as Holistic Trace Analysis (HTA 0.5.0) defines it in
// `get_queue_length_time_series`, `get_queue_length_summary` and
// `get_time_spent_blocked_on_full_queue` (hta/analyzers/trace_counters.py): the number of
// operations launched on a stream that have not started yet.
//  * +1 when a launch call begins (its start, not its end), on the stream of the activity it
//    launched; -1 when the device activity (kernel, memcpy, memset) begins. The launches are
//    those of launch_stats.h's default set, which is HTA's runtime launch events (cudaLaunchKernel,
//    cuLaunchKernel, cudaMemcpyAsync, HIP's...) plus cuLaunchKernelEx; activities with no launch
//    call in the trace are left out on both sides, as HTA's join leaves them.
//  * The summary is HTA's: pandas' describe() over the series' samples, one sample per event
//    (not weighted by time): count, mean, std (n - 1), min, 25/50/75 % (linear interpolation),
//    max. Events at the same time count launches before starts (HTA's sort leaves ties in no set
//    order; only the samples' statistics can depend on it, never the series' values over time).
//    We add the time-weighted mean over the series' span.
//  * Time at the limit: the time the series spends at or above `limit` (CUDA's launch queue holds
//    1024 entries), from each change to the next, as HTA sums it.
// Streams are per device (HTA groups by stream id alone, merging equal ids of two GPUs).
#pragma once

#include "model/analysis/memory_tracks.h"
#include "model/analysis/op_classify.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tracescope {

struct QueueLengthOptions {
    int64_t limit = 1024;  // CUDA's launch queue depth
    std::string key() const { return "limit=" + std::to_string(limit); }
};

struct QueueLengthStream {
    TrackIndex track = kNoIndex;  // the stream's track (for the derived counter track)
    int64_t device = 0;           // the device's pid in the trace
    int64_t stream = 0;           // the stream id as in the trace
    // The step function: value[i] holds from time[i] to time[i + 1] (the last one at the end).
    std::vector<TimeNs> time;
    std::vector<int32_t> value;
    // HTA's describe() over the samples (one per launch and one per start).
    uint64_t samples = 0;
    double mean = 0, std = 0, min = 0, p25 = 0, median = 0, p75 = 0, max = 0;
    double timeWeightedMean = 0;  // over [first change, last change]
    int64_t timeAtLimitNs = 0;
    uint64_t launches = 0;
};

struct QueueLengthResult {
    QueueLengthOptions options;
    std::vector<QueueLengthStream> streams;  // by device, then stream
    uint64_t launches = 0, activities = 0, withoutCall = 0, otherCalls = 0;
    std::vector<std::string> notes;
};

QueueLengthResult computeQueueLength(const ClassifiedTrace& ct, const QueueLengthOptions& options = {});

// The series as derived counter tracks for the timeline, one per stream with launches, under the
// stream's device: "Queue length · stream 7".
std::vector<DerivedCounterTrack> queueLengthCounterTracks(const Trace& trace, const QueueLengthResult& queues);

}  // namespace tracescope
