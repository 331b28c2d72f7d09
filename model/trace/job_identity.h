// Whether trace files opened together are one job, before they are merged as its workers:
// the same producer; where the files record it (Kineto's `distributedInfo`), the same world
// size, backend and process groups, and each rank once; and wall-clock windows that overlap.
// A partial set of ranks is one job (two rank files of a 128-rank job). Files that are not
// one job are not merged silently: the CLI refuses them, the GUI asks (see README).
#pragma once

#include "model/trace/import_warning.h"
#include "model/trace/workers.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tracescope {

// One process group as Kineto records it in `distributedInfo.pg_config`.
struct ProcessGroup {
    std::optional<int64_t> size;  // pg_size
    std::string ranks;            // the "ranks" list as text ("0,1,2,3"), empty if absent
};

// What Kineto's `distributedInfo` says ({"backend": "nccl", "rank": 0, "world_size": 128,
// "pg_config": [{"pg_name": "0", "pg_size": 128, "ranks": [...]}, ...]}); absent keys stay empty.
struct DistributedInfo {
    std::optional<int64_t> rank, worldSize;
    std::string backend;
    std::map<std::string, ProcessGroup> groups;  // by pg_name
};

// Kineto's `distributedInfo` of a trace (empty when the file has none or it does not parse).
DistributedInfo distributedInfo(const Trace& t);

struct JobCheck {
    // Empty when the files are one job; otherwise one line naming what differs, e.g.
    // "different jobs: world size 8 (rank-0.json) vs 16 (rank-1.json)".
    std::string reason;
    bool oneJob() const { return reason.empty(); }
};

// Checks the loaded workers (their own traces, before merging; workers that failed to load
// are left out). Two wall-clock windows may be apart by less than the shorter trace's span,
// up to 1 s (hosts' clocks disagree a little); further apart, they are not one job.
JobCheck checkOneJob(const std::vector<WorkerTrace>& workers);

// After the offsets are set from the wall clocks (before merging): one warning per worker whose
// window the offsets place further from the earliest worker's than the longest trace lasts,
// stating its clock offset, so that such an offset is never applied silently.
std::vector<ImportWarning> farOffsetWarnings(const MultiWorkerRun& run);

// "29,469,598 s", "12.500 ms": a gap or offset as the reasons and warnings above state it.
std::string jobGapText(TimeNs ns);

}  // namespace tracescope
