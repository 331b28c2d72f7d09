#include "model/import/xspace_tracks.h"

#include <iterator>

namespace tracescope::xspace {

namespace {
bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
}  // namespace

int64_t xprofPid(std::string_view planeName, int64_t planeId, int hostPlaneOrdinal) {
    if (startsWith(planeName, "/device:GPU:") || startsWith(planeName, "/device:TPU:"))
        return planeId >= 0 && planeId < 500 ? 1 + planeId : 1;
    if (startsWith(planeName, "/device:CUSTOM:")) return 501 + (planeId >= 0 && planeId < 200 ? planeId : 0);
    if (startsWith(planeName, "/host:")) return 701 + hostPlaneOrdinal;
    return 1000 + hostPlaneOrdinal;
}

int64_t deviceLineSortIndex(LineKind kind) {
    switch (kind) {
    case LineKind::XlaModules: return 0;
    case LineKind::XlaOps: return 1;
    case LineKind::Steps: return 2;
    case LineKind::FrameworkOps: return 3;
    case LineKind::NameScope: return 4;
    case LineKind::Source: return 5;
    case LineKind::LaunchStats: return 6;
    case LineKind::OtherDerived: return 7;
    case LineKind::Stream: return 100;  // streams then order by stream id (the track tid)
    default: return 200;
    }
}

std::string_view hostEventCategory(std::string_view fullName, bool hasCorrelationId) {
    if (fullName == "MemoryAllocation" || fullName == "MemoryDeallocation") return category::kMemory;
    if (hasCorrelationId) {
        // CUPTI / ROCm API callbacks. Runtime APIs are named cuda*/hip*; the driver API
        // callbacks (cuLaunchKernel, cuGraphLaunch, ...) are often renamed after the kernel
        // they launch, so everything else counts as driver.
        if (startsWith(fullName, "cuda") || startsWith(fullName, "hip")) return category::kCudaRuntime;
        return category::kCudaDriver;
    }
    if (startsWith(fullName, "$")) return category::kPython;  // python tracer: "$file.py:12 fn"
    return category::kHost;
}

std::string_view contextTypeName(uint64_t type) {
    static constexpr std::string_view kNames[] = {"generic",
                                                  "legacy",
                                                  "tf_executor",
                                                  "tfrt_executor",
                                                  "shared_batch_scheduler",
                                                  "pjrt",
                                                  "adaptive_shared_batch_scheduler",
                                                  "tfrt_tpu_runtime",
                                                  "tpu_embedding_engine",
                                                  "gpu_launch",
                                                  "batcher",
                                                  "tpu_stream",
                                                  "tpu_launch",
                                                  "pathways_executor",
                                                  "pjrt_library_call",
                                                  "threadpool_event",
                                                  "jax_serving_executor",
                                                  "sc_offload"};
    return type < std::size(kNames) ? kNames[type] : "context";
}

}  // namespace tracescope::xspace
