#include "model/trace/workers.h"

#include <algorithm>

namespace tracescope {

const char* workerClockName(WorkerClock c) {
    switch (c) {
    case WorkerClock::Unknown: return "unaligned";
    case WorkerClock::WallClock: return "wall clock";
    case WorkerClock::FirstStep: return "first step";
    case WorkerClock::Manual: return "manual";
    }
    return "unaligned";
}

size_t MultiWorkerRun::loadedCount() const {
    size_t n = 0;
    for (const auto& w : workers) n += w.loaded();
    return n;
}

ImportWarning workerWarning(ImportWarning w, const std::string& worker) {
    w.detail += " (" + worker + ")";
    return w;
}

std::optional<size_t> findWorker(const MultiWorkerRun& run, std::string_view nameOrRank) {
    for (size_t i = 0; i < run.workers.size(); ++i)
        if (run.workers[i].name == nameOrRank) return i;
    if (nameOrRank.empty() || nameOrRank.size() > 18 ||
        !std::all_of(nameOrRank.begin(), nameOrRank.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    const int64_t rank = std::stoll(std::string(nameOrRank));
    std::optional<size_t> found;
    for (size_t i = 0; i < run.workers.size(); ++i)
        if (run.workers[i].rank == rank) {
            if (found) return std::nullopt;  // two files of one rank: only their names tell them apart
            found = i;
        }
    return found;
}

void setWorkerOffset(WorkerTrace& w, TimeNs offsetNs) {
    w.offsetNs = offsetNs;
    w.clock = WorkerClock::Manual;
}

}  // namespace tracescope
