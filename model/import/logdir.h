// TensorBoard profile folders: <logdir>/plugins/profile/<run>/<host>.xplane.pb.
// A logdir, its plugins/profile folder or one run folder can be opened; a run
// with several hosts' XSpaces opens as one trace. PyTorch profiler folders
// (<worker>.<time>.pt.trace.json[.gz], torch_profile_folder.h) list their profiling
// cycles as runs, also in the sub-folders of a TensorBoard logdir.
#pragma once

#include "model/import/import.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tracescope {

enum class RunKind {
    XSpaceRun,   // plugins/profile/<run>/: its hosts' .xplane.pb files
    TorchCycle,  // cycle `cycle` of a PyTorch profiler folder: one file per worker
};

struct RunInfo {
    RunKind kind = RunKind::XSpaceRun;
    std::string name;                // the run folder's name (a path for nested TensorBoard runs),
                                     // "cycle N" for a PyTorch cycle ("<sub-folder>/cycle N" nested)
    std::string path;                // the run folder (a PyTorch cycle: the folder of its files)
    std::vector<std::string> hosts;  // one per profile file: "<host>.xplane.pb", a PyTorch worker
    std::vector<std::string> files;  // the profile files, same order as hosts
    int cycle = 0;                   // PyTorch: the cycle's number (1 = each worker's first file)
    int64_t timeSeconds = 0;         // the time the name encodes (YYYY_MM_DD_HH_MM_SS, as UTC), else mtime
    bool timeFromName = false;
};

// Runs found under `dir` (a logdir, a plugins/profile folder or a run folder), newest first.
std::vector<RunInfo> listRuns(const std::string& dir);

// Opens one run: all its hosts as one trace.
ImportResult importRun(const std::string& runDir, const ImportOptions& options = {});

// Opens one listed run: an XSpace run as above; a PyTorch cycle's one worker as its file, or
// its several workers as one trace (their processes named "<worker>: <process>", on the
// workers' wall clocks, as the multi-worker view of workers.h).
ImportResult importRun(const RunInfo& run, const ImportOptions& options = {});

// The run a user names among `runs` (listRuns' order, newest first): its number, 1 being the
// oldest (in a PyTorch folder, its cycle number), or its name. Null with `error` set when none is.
const RunInfo* findRun(const std::vector<RunInfo>& runs, const std::string& nameOrNumber, std::string* error = nullptr);

// A run's number as findRun reads it: 1 for the oldest of `runs`.
inline int runNumber(const std::vector<RunInfo>& runs, size_t index) { return int(runs.size() - index); }

// Opens the newest run under `dir`.
ImportResult importLogdir(const std::string& dir, const ImportOptions& options = {});

// Parses a run name "YYYY_MM_DD_HH_MM_SS" as seconds since the epoch (UTC); false otherwise.
bool parseRunTimestamp(const std::string& name, int64_t& seconds);

}  // namespace tracescope
