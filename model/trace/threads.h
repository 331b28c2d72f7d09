// How many threads parallel work uses: one per core of the machine. The one place that
// decides it (the job runner, the importers' workers, the timeline's pools). And the CPU time a
// thread has used, for what the result store and the benchmarks measure per thread.
#pragma once

#include <algorithm>
#include <thread>

#include <time.h>

namespace tracescope {

inline unsigned machineThreads() { return std::max(1u, std::thread::hardware_concurrency()); }

// CPU seconds the calling thread has used so far (user and system).
inline double threadCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

}  // namespace tracescope
