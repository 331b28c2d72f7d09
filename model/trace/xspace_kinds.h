// What an XSpace plane or line is, and the categories the XSpace importer gives its events:
// facts of a trace read from an XSpace (or from XProf's trace JSON, whose processes are named
// after the planes), which the analyses classify events by (model/analysis/op_classify).
// How planes and lines become processes and tracks is the importer's
// (model/import/xspace_tracks.h).
#pragma once

#include <cstdint>
#include <string_view>

namespace tracescope::xspace {

enum class PlaneKind : uint8_t {
    Device,    // /device:GPU:N, /device:TPU:N, /device:CUSTOM:..., /virtualdevice:...
    Host,      // /host:CPU (and un-merged host planes: /host:CUPTI, /host:python-tracer, ...)
    Metadata,  // /host:metadata, Task Environment: trace metadata only, never tracks
    Other,     // anything else with lines (#Chip..., Host CPUs, Syscalls, ...)
};

PlaneKind classifyPlane(std::string_view name);

enum class LineKind : uint8_t {
    XlaModules,
    XlaOps,
    Steps,
    FrameworkOps,  // "Framework Ops" / older "TensorFlow Ops"
    NameScope,     // "Framework Name Scope" / older "TensorFlow Name Scope"
    Source,        // "Source code"
    LaunchStats,
    OtherDerived,  // other lines with an id in XProf's derived range
    Stream,        // a device line that is not derived (GPU streams, TPU lines)
    HostThread,
    Counters,         // "_counters_": one counter track per event name
    SkippedCounters,  // lines starting "counters_" (XProf does not draw them either)
    Other,
};

LineKind classifyLine(PlaneKind plane, std::string_view name, int64_t id);

// Categories given to slices and instants (stable strings analyses can match on).
namespace category {
inline constexpr std::string_view kKernel = "kernel";
inline constexpr std::string_view kMemcpy = "gpu_memcpy";
inline constexpr std::string_view kMemset = "gpu_memset";
inline constexpr std::string_view kGpuMemory = "gpu_memory";  // memalloc/free/residency activity
inline constexpr std::string_view kXlaModule = "xla_module";
inline constexpr std::string_view kXlaOp = "xla_op";
inline constexpr std::string_view kStep = "step";
inline constexpr std::string_view kTfOp = "tf_op";
inline constexpr std::string_view kNameScope = "name_scope";
inline constexpr std::string_view kSource = "source";
inline constexpr std::string_view kLaunchStats = "launch_stats";
inline constexpr std::string_view kDevice = "device";  // other device lines (TPU, custom)
inline constexpr std::string_view kHost = "host";
inline constexpr std::string_view kPython = "python";  // python tracer events ("$file:line fn")
inline constexpr std::string_view kMemory = "memory";  // MemoryAllocation / MemoryDeallocation
inline constexpr std::string_view kCudaRuntime = "cuda_runtime";
inline constexpr std::string_view kCudaDriver = "cuda_driver";
inline constexpr std::string_view kOther = "other";
}  // namespace category

}  // namespace tracescope::xspace
