// The merged view of a multi-worker run for the timeline and the single-trace pages: one
// Trace whose processes are the workers' processes, named "<worker>: <process>", with every
// time moved onto the run's clock by the worker's offset. The workers' own traces are not
// changed; a new offset (set by hand) means a new merged view.
#pragma once

#include "model/import/workers.h"

#include <memory>
#include <vector>

namespace tracescope {

// `offsets`: one per worker (the run's offsets when empty).
std::unique_ptr<Trace> mergeWorkers(const MultiWorkerRun& run, const std::vector<TimeNs>& offsets = {});

// The process-name prefix of a worker in the merged view ("rank 3: ").
std::string workerProcessPrefix(const WorkerTrace& w);

}  // namespace tracescope
