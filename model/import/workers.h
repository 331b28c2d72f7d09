// Several workers of one distributed job opened as one run: Kineto rank files
// (rank-0….json.gz), several hosts' XSpaces, or a folder of them. The run's data
// (MultiWorkerRun, WorkerTrace, WorkerClock) is model/trace/workers.h; this is its loading.
//
// Offsets come from the files' wall clocks (Kineto baseTimeNanoseconds or absolute Unix
// timestamps, XSpace Task Environment profile_start_time); a worker without one is aligned
// later on its first step start (pod.h). Files load in parallel, one per thread; a file that
// cannot be read becomes a warning for its worker and the others open.
#pragma once

#include "model/import/import.h"
#include "model/trace/job_identity.h"
#include "model/trace/workers.h"

#include <functional>
#include <string>
#include <vector>

namespace tracescope {

struct WorkerImportOptions {
    ImportOptions base;  // cancel, threads (files loaded at once), allowStreams; progress = all bytes
    // Per file: (file index in the input order, bytes done, bytes total); from loading threads.
    std::function<void(size_t file, uint64_t done, uint64_t total)> fileProgress;
    // Per file, from loading threads: the file starts loading, and it is done (`error` empty) or
    // could not be opened (why). Indices are those of expandWorkerPaths(paths).
    std::function<void(size_t file)> fileStarted;
    std::function<void(size_t file, const std::string& error)> fileFinished;
};

struct MultiWorkerResult {
    MultiWorkerRun run;
    std::string error;  // set when no worker could be opened (or cancelled)
    bool cancelled = false;
    // Whether the files are one job (checked before the clocks are aligned). When they are not,
    // the run is still aligned, with a warning saying so in `run.warnings`: the caller refuses,
    // asks, or merges anyway.
    JobCheck job;
    bool ok() const { return error.empty(); }
};

// The trace files of a worker folder: a TensorBoard run's hosts (the newest run), a PyTorch
// profiler folder's workers of its latest cycle (logdir.h), or else the .json / .json.gz /
// .xplane.pb files directly inside `dir`, by name. Other paths pass as is.
std::vector<std::string> expandWorkerPaths(const std::vector<std::string>& paths);

// Opens each path as one worker (folders expanded), in parallel, and aligns the wall clocks.
MultiWorkerResult importWorkers(const std::vector<std::string>& paths, const WorkerImportOptions& options = {});

// The worker's name from the trace (Kineto distributedInfo.rank, XSpace host) or the file name
// ("rank-3…" -> rank 3).
void nameWorker(WorkerTrace& w);

// Offsets from the wall clocks: run time 0 is the earliest worker origin.
void alignWorkersOnWallClock(MultiWorkerRun& run);

}  // namespace tracescope
