// TensorBoard profile folders: <logdir>/plugins/profile/<run>/<host>.xplane.pb.
// A logdir, its plugins/profile folder or one run folder can be opened; a run
// with several hosts' XSpaces opens as one trace.
#pragma once

#include "model/import/import.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tracescope {

struct RunInfo {
    std::string name;                 // the run folder's name (a path for nested TensorBoard runs)
    std::string path;                 // the run folder
    std::vector<std::string> hosts;   // one per profile file, from "<host>.xplane.pb"
    std::vector<std::string> files;   // the profile files, same order as hosts
    int64_t timeSeconds = 0;          // the time the name encodes (YYYY_MM_DD_HH_MM_SS, as UTC), else mtime
    bool timeFromName = false;
};

// Runs found under `dir` (a logdir, a plugins/profile folder or a run folder), newest first.
std::vector<RunInfo> listRuns(const std::string& dir);

// Opens one run: all its hosts as one trace.
ImportResult importRun(const std::string& runDir, const ImportOptions& options = {});

// Opens the newest run under `dir`.
ImportResult importLogdir(const std::string& dir, const ImportOptions& options = {});

// Parses a run name "YYYY_MM_DD_HH_MM_SS" as seconds since the epoch (UTC); false otherwise.
bool parseRunTimestamp(const std::string& name, int64_t& seconds);

}  // namespace tracescope
