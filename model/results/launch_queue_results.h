// Kernel launch statistics (model/analysis/launch_stats.h) and queue length per stream
// (model/analysis/queue_length.h) as results of the trace's store, each computed once per options
// from the store's classification.
#pragma once

#include "model/analysis/launch_stats.h"
#include "model/analysis/queue_length.h"
#include "model/results/result_store.h"

#include <functional>
#include <memory>

namespace tracescope {

inline const char* const kLaunchStatsName = "launch-stats";
inline const char* const kQueueLengthName = "queue-length";

uint64_t resultBytes(const LaunchStats& stats);
uint64_t resultBytes(const QueueLengthResult& queues);

// Blocking: computed on this thread when nobody has yet.
std::shared_ptr<const LaunchStats> launchStatsOf(ResultStore& store, const LaunchStatsOptions& options = {});
std::shared_ptr<const QueueLengthResult> queueLengthOf(ResultStore& store, const QueueLengthOptions& options = {});

// The computations themselves, for request() (they ask the store for the classification).
std::function<LaunchStats()> launchStatsWith(ResultStore& store, const LaunchStatsOptions& options);
std::function<QueueLengthResult()> queueLengthWith(ResultStore& store, const QueueLengthOptions& options);

}  // namespace tracescope
