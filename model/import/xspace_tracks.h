// How XSpace planes and lines become processes and tracks (after XProf's trace
// viewer): which planes are devices, hosts or metadata, the order of a device's
// lines, and the category given to each event so analyses can classify them.
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

// XProf's process ids: GPU/TPU 1 + plane id, custom devices 501 + id, host planes 701, 702, ...
int64_t xprofPid(std::string_view planeName, int64_t planeId, int hostPlaneOrdinal);

enum class LineKind : uint8_t {
    XlaModules,
    XlaOps,
    Steps,
    FrameworkOps,    // "Framework Ops" / older "TensorFlow Ops"
    NameScope,       // "Framework Name Scope" / older "TensorFlow Name Scope"
    Source,          // "Source code"
    LaunchStats,
    OtherDerived,    // other lines with an id in XProf's derived range
    Stream,          // a device line that is not derived (GPU streams, TPU lines)
    HostThread,
    Counters,        // "_counters_": one counter track per event name
    SkippedCounters, // lines starting "counters_" (XProf does not draw them either)
    Other,
};

LineKind classifyLine(PlaneKind plane, std::string_view name, int64_t id);

// Order of a line inside its device process: derived summary lines first (XLA Modules,
// XLA Ops, Steps, Framework Ops, Framework Name Scope, Source code, Launch Stats, other
// derived), then streams (by stream id), then anything else.
int64_t deviceLineSortIndex(LineKind kind);

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
inline constexpr std::string_view kDevice = "device";         // other device lines (TPU, custom)
inline constexpr std::string_view kHost = "host";
inline constexpr std::string_view kPython = "python";         // python tracer events ("$file:line fn")
inline constexpr std::string_view kMemory = "memory";         // MemoryAllocation / MemoryDeallocation
inline constexpr std::string_view kCudaRuntime = "cuda_runtime";
inline constexpr std::string_view kCudaDriver = "cuda_driver";
inline constexpr std::string_view kOther = "other";
}  // namespace category

// Category of a host event from its name and whether it carries a correlation_id.
std::string_view hostEventCategory(std::string_view fullName, bool hasCorrelationId);

// Human name of a TraceMe 2.0 context type (the `_pt` / `_ct` value), for flow names.
std::string_view contextTypeName(uint64_t type);

}  // namespace tracescope::xspace
