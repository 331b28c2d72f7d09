// The merged view of a multi-worker run for the timeline and the single-trace pages: one
// Trace whose processes are the workers' processes, named "<worker>: <process>", with every
// time moved onto the run's clock by the worker's offset.
//
// A run is held once: merging lets go of each worker's own trace as soon as its events are in
// the view (WorkerTrace::trace becomes null, WorkerTrace::merged says where the worker lies), so
// an open run costs what its files need, not the files twice. The per-worker analyses (pod.h)
// cut one worker at a time back out of the view (workerTraceOf) and drop it when done. The view
// itself is never changed: offsets set by hand make a new view from the old one (remergeWorkers).
// Functions of the workers' Traces alone (no files): the loaders build the view with them
// (model/import/workers.h loads the files), the analyses cut workers out of it.
#pragma once

#include "model/trace/workers.h"

#include <memory>
#include <vector>

namespace tracescope {

// Merges the run's loaded workers (at their offsetNs) and releases their own traces; fills
// each worker's `merged` span. Workers already merged (no trace of their own) are skipped.
std::shared_ptr<const Trace> mergeWorkers(MultiWorkerRun& run);
// The same view, owned by the caller (an importer's result).
std::unique_ptr<Trace> mergeWorkersToTrace(MultiWorkerRun& run);

// A new view of the same workers at `offsets` (one per worker of the run), made from `view`
// (a view of `run` made by mergeWorkers or remergeWorkers); the run's offsets become these,
// with the clock of every worker whose offset changed set to Manual.
std::shared_ptr<const Trace> remergeWorkers(const Trace& view, MultiWorkerRun& run, const std::vector<TimeNs>& offsets);

// Worker `w`'s own trace cut out of `view`: its processes (names without the worker prefix),
// tracks, events, flows and metadata on its own clock, for the per-worker analyses. Null when
// the worker is not in the view.
std::unique_ptr<Trace> workerTraceOf(const Trace& view, const WorkerTrace& w);

// The process-name prefix of a worker in the merged view ("rank 3: ").
std::string workerProcessPrefix(const WorkerTrace& w);

}  // namespace tracescope
