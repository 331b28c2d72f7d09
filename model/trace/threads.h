// How many threads parallel work uses: one per core of the machine. The one place that
// decides it (the job runner, the importers' workers, the timeline's pools).
#pragma once

#include <algorithm>
#include <thread>

namespace tracescope {

inline unsigned machineThreads() { return std::max(1u, std::thread::hardware_concurrency()); }

}  // namespace tracescope
