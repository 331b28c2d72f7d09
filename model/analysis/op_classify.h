// What a slice is, for the analyses: a host op, a device activity (kernel, memcpy,
// memset), a runtime call, a step marker... and which framework op it belongs to.
//
// One place decides this for every analysis, so the op table, kernel table, overview
// and scope tree agree. Two trace flavours are understood:
//  * XSpace (format "xspace"): device planes (ProcessKind::Device) hold stream lines
//    with kernels (stat kernel_details), memcpy/memset; derived lines ("Steps",
//    "XLA Ops", "XLA Modules", "Framework Ops"/"TensorFlow Ops", "Framework Name Scope",
//    "Launch Stats", "Source code") are skipped for op metrics (§3.2). Device activities
//    are attributed to a framework op by stat tf_op (else hlo_op). Host ops are events
//    named "name:Type" or carrying tf_op, and tf.data "Iterator::..." events (§7.1).
//    XProf's trace JSON (TensorBoard's trace viewer download, jax's perfetto_trace.json) is
//    read the same way: its processes are the planes ("/device:GPU:0", "host /device:GPU:0",
//    "/host:CPU"), its threads the lines, its args the stats; the category the XSpace importer
//    would give an event is worked out from the plane, the line and the args.
//  * TF1 (RunMetadata, and timeline.Timeline's Chrome JSON of it): ops are category "Op"
//    slices with args "name" (the node) and "op" (its type); on "<device> Compute" (or the
//    RunMetadata device) they are framework ops run by the executor (HostOp), on the GPU
//    tracer's "…/stream:all" and "…/memcpy" devices device activity (Kernel/Memcpy/Memset;
//    "…/stream:N" repeat stream:all and are skipped when it exists).
//  * Chrome/Kineto (format "chrome-json"): host ops are cpu_op (old Kineto: Operator);
//    device activities are kernel/gpu_memcpy/gpu_memset (old: Kernel/Memcpy/Memset);
//    a device activity is attributed to the cpu_op that encloses the cuda_runtime
//    launch connected to it by a flow (or by a matching correlation arg).
#pragma once

#include "model/trace/producer.h"
#include "model/trace/trace.h"

#include <string>
#include <unordered_map>
#include <string_view>
#include <vector>

namespace tracescope {

enum class SliceRole : uint8_t {
    None,        // not used by op analyses (python frames, annotations, derived lines...)
    HostOp,      // a framework op on a host thread
    Kernel,      // a device kernel
    Memcpy,      // a device copy (any direction)
    Memset,      // a device memset
    Runtime,     // a CUDA runtime/driver call on the host (launch, sync, memcpy API)
    StepMarker,  // ProfilerStep#N, XSpace "Steps" line event
    UserAnnotation,
};

// Direction of a device copy, from its name ("Memcpy HtoD", "MemcpyH2D") or memcpy_details.
enum class CopyKind : uint8_t { Unknown, HostToDevice, DeviceToHost, DeviceToDevice, PeerToPeer, HostToHost };

// Per-trace classification, computed once and shared by the analyses (cheap: one pass).
struct ClassifiedTrace {
    const Trace* trace = nullptr;
    Producer producer = Producer::Generic;
    // XSpace conventions (stats as args, long_name, tf_op/hlo_op, derived lines): an XSpace
    // file or XProf's trace JSON.
    bool isXSpace = false;
    // TF1 conventions: ops named by args "name" / "op".
    bool isTf1 = false;
    // Per track: skip for op metrics (derived XSpace lines, overflow lanes of skipped tracks...).
    std::vector<uint8_t> trackSkipped;
    // Per track: is it on a device process.
    std::vector<uint8_t> trackOnDevice;
    // Role per slice: roles[track][index].
    std::vector<std::vector<SliceRole>> roles;
    // Enclosing slice per slice on thread tracks (any role): parents[track][index], kNoIndex for roots.
    std::vector<std::vector<uint32_t>> parents;
    // Host runtime calls by correlation id (Kineto arg "correlation", XSpace "correlation_id"),
    // sorted by id: the fallback link launch -> device activity when the file has no flow.
    std::vector<std::pair<int64_t, SliceRef>> runtimeByCorrelation;
    // Interned ids of the arg keys the analyses read (kNoIndex when the trace has none).
    struct Keys {
        StringId longName = kNoIndex, tfOp = kNoIndex, level0 = kNoIndex, annotation = kNoIndex, hloOp = kNoIndex;
        StringId tf1Name = kNoIndex, tf1Op = kNoIndex;
    } keys;

    // XSpace kernels inside XLA command buffers: the HLO instruction each ran (hlo_attribution.h),
    // by activityKey; device ops are named by it instead of the buffer.
    std::unordered_map<uint64_t, std::string> commandBufferOps;

    SliceRole role(SliceRef s) const { return roles[s.track][s.index]; }
};

ClassifiedTrace classifyTrace(const Trace& trace);
// How many classifications this process has made (the viewer makes one per trace, in its
// result store: a test counts them).
uint64_t classifyTraceCount();

// TF1 shows one GPU as several devices: the executor's, the GPU tracer's "…/stream:all",
// "…/memcpy" and "…/stream:N". Their GPU: "/job:w/replica:0/task:0/device:GPU:1 Compute",
// "/device:GPU:1/stream:all", "/gpu:1/memcpy" -> "/device:GPU:1"; other names as they are.
std::string tf1GpuName(std::string_view processOrDeviceName);

// The slice's full name: XSpace arg "long_name" when present, else its name.
std::string fullNameOf(const Trace& trace, SliceRef s);
// fullNameOf as a view into the trace's strings, with the key "long_name" looked up by the caller.
std::string_view fullNameOf(const Trace& trace, SliceRef s, StringId longNameKey);
// The same as a view into the trace's strings (valid while the trace lives); no allocation.
std::string_view fullNameView(const ClassifiedTrace& ct, SliceRef s);
// A string arg as a view into the trace's strings; "" when absent or not a string.
std::string_view sliceArgView(const Trace& trace, SliceRef s, StringId key);
// Text of an arg of a slice ("" when absent); numbers are printed.
std::string sliceArgText(const Trace& trace, SliceRef s, std::string_view key);
// Integer arg of a slice; false when absent or not integral.
bool sliceArgInt(const Trace& trace, SliceRef s, std::string_view key, int64_t& out);

// A framework op name split into (name, type): "model/dense/MatMul:MatMul" -> ("model/dense/MatMul",
// "MatMul"); JAX "jit(f)/dot_general:dot_general" likewise; no ':' -> (whole, whole) for XSpace.
struct OpNameType {
    std::string name;
    std::string type;
};
OpNameType splitTfOpName(std::string_view fullName);

// Whether XProf takes an event or tf_op name for a framework op (TSL's tf_op_utils.cc,
// ParseTfOpFullname, any category but Unknown). It splits at the first ':'. "Iterator::…" is
// tf.data; a TensorFlow op has a name of [A-Za-z0-9.][A-Za-z0-9_./>-]* (IsTfOpName) and a type of
// [A-Z_][A-Za-z0-9_]*; a JAX op has any name and a type of [a-z_][a-z0-9_]* (optionally "[…]");
// an empty type is taken too; without ':' only "MemcpyHToD"-style names are. So TensorFlow's
// internal "_send_y_0:_Send" / "_recv_x_0:_Recv" are no ops (the name begins with '_'), while
// "n/_1:_HostRecv" is one.
bool isXprofOpName(std::string_view fullName);

// XProf's op tables take a host event for an op by its name (or by its tf_op stat), so a host op
// of ours whose name XProf does not take (isXprofOpName) and that carries no tf_op stat is no op
// there: XProf's host op statistics leave it out of the rows, of busy time and of IDLE (a line's
// span runs from its first to its last op), and an op around it keeps that time as self time.
// True for such a HostOp slice of an XSpace or of XProf's trace JSON; the XProf-convention tables
// (op stats and what follows them: overview, scopes, run diff) leave it out too, with a note.
bool xprofLeavesOutHostOp(const ClassifiedTrace& ct, SliceRef hostOp);

// The (name, type) row of a device op annotation in XProf's convention: splitTfOpName, except that
// an annotation with ':' that XProf does not take for an op is named by its whole text, type
// "Unknown", as XProf's device op rows are ("_send_y_0:_Send", "Unknown").
OpNameType splitXprofDeviceOp(std::string_view op);
inline constexpr const char* kXprofUnknownOpType = "Unknown";

// The framework op a device activity belongs to ("" when unknown):
// XSpace: tf_op stat (older files: "level 0" / "annotation"; hlo_op when the op is empty or
// the generic "XlaModule:");
// Kineto: the enclosing cpu_op of the launch.
std::string deviceActivityOp(const ClassifiedTrace& ct, SliceRef deviceSlice);
std::string_view deviceActivityOpView(const ClassifiedTrace& ct, SliceRef deviceSlice);
// The host runtime call (e.g. cudaLaunchKernel) that launched a device activity, if known.
SliceRef launchOf(const ClassifiedTrace& ct, SliceRef deviceSlice);
// The deepest host op (SliceRole::HostOp) enclosing a host slice, if any.
SliceRef enclosingHostOp(const ClassifiedTrace& ct, SliceRef hostSlice);

CopyKind copyKindOf(const Trace& trace, SliceRef copySlice);
// nsys' short names: "HtoD", "DtoH", "DtoD", "PtoP", "HtoH", "unknown".
const char* copyKindName(CopyKind kind);

}  // namespace tracescope
