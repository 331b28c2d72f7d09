// Several workers of one distributed job opened as one run: Kineto rank files
// (rank-0….json.gz), several hosts' XSpaces, or a folder of them. The plain data of a run,
// which the analyses (pod.h) and the views read; loading the files is the importer's
// (model/import/workers.h).
//
// Each worker keeps its own immutable Trace; the run's common clock lives beside them as a
// per-worker offset (add it to a worker's times). Offsets come from the files' wall clocks
// (Kineto baseTimeNanoseconds or absolute Unix timestamps, XSpace Task Environment
// profile_start_time); a worker without one is aligned later on its first step start
// (pod.h).
#pragma once

#include "model/trace/import_warning.h"
#include "model/trace/trace.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tracescope {

enum class WorkerClock : uint8_t {
    Unknown,    // no wall clock in the file: aligned on steps (alignWorkersOnFirstStep) or not at all
    WallClock,  // the file's Unix time (baseTimeNanoseconds, Unix timestamps, profile_start_time)
    FirstStep,  // the first step starts at the same time as the reference worker's
    Manual,     // set by hand
};
const char* workerClockName(WorkerClock c);

// Where a worker lies in the run's merged view (merge_workers.h): its processes and tracks,
// and its own trace's span on its own clock.
struct WorkerSpan {
    ProcessIndex firstProcess = 0;
    uint32_t processCount = 0;
    TrackIndex firstTrack = 0;
    uint32_t trackCount = 0;
    TimeNs startNs = 0, endNs = 0;
};

struct WorkerTrace {
    std::string name;  // "rank 3", a host name, or the file's name
    std::string path;
    std::optional<int64_t> rank;
    // The worker's own trace; null when the file could not be opened, or once the run was merged
    // (its events then live only in the merged view, at `merged`).
    std::shared_ptr<const Trace> trace;
    std::optional<WorkerSpan> merged;
    std::string error;    // why the file could not be opened
    TimeNs offsetNs = 0;  // worker time + offsetNs = run time
    WorkerClock clock = WorkerClock::Unknown;

    bool loaded() const { return trace != nullptr || merged.has_value(); }
};

struct MultiWorkerRun {
    std::vector<WorkerTrace> workers;     // by rank, then name; failed workers included
    std::optional<int64_t> originUnixNs;  // Unix time of run time 0, when the clocks are known
    std::vector<ImportWarning> warnings;  // per-worker failures and alignment notes
    double loadSeconds = 0;

    size_t loadedCount() const;
};

// A worker's import warning, saying which worker ("… (rank 3)").
ImportWarning workerWarning(ImportWarning w, const std::string& worker);

// The worker a user names: its name as shown ("rank 3", a host name) or its rank ("3").
std::optional<size_t> findWorker(const MultiWorkerRun& run, std::string_view nameOrRank);

// Sets a worker's clock offset by hand (its clock becomes Manual).
void setWorkerOffset(WorkerTrace& w, TimeNs offsetNs);

}  // namespace tracescope
