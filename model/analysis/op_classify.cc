#include "model/analysis/op_classify.h"

#include "model/analysis/hlo_attribution.h"

#include "model/analysis/analysis_progress.h"

#include "model/analysis/self_time.h"
#include "model/trace/text_match.h"
#include "model/trace/xspace_kinds.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>

namespace tracescope {

namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

// XSpace lines derived by XProf post-processing (§3.2): they duplicate stream activity.
bool isDerivedLineName(std::string_view n) {
    static constexpr std::array<std::string_view, 12> kDerived = {"Steps",
                                                                  "XLA Ops",
                                                                  "XLA Modules",
                                                                  "Framework Ops",
                                                                  "TensorFlow Ops",
                                                                  "Framework Name Scope",
                                                                  "TensorFlow Name Scope",
                                                                  "Launch Stats",
                                                                  "Source code",
                                                                  "Async XLA Ops",
                                                                  "Host Offload Ops",
                                                                  "Command Buffers"};
    // XProf 2.24's trace viewer names the lines it derives for a stream "XLA Ops - from #14"
    // (the stream's id): the derived line of stream 14, not a stream of its own.
    if (const size_t at = n.rfind(" - from #"); at != std::string_view::npos) {
        const std::string_view id = n.substr(at + 9);
        if (!id.empty() && std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; }))
            n = n.substr(0, at);
    }
    for (auto d : kDerived)
        if (n == d) return true;
    return false;
}

// Derived-line ids stored as int32: [0xDEADBEEF, 0xDEADBEEF + 289]; XProf's trace JSON
// writes them as tids truncated to uint32, so unsigned there.
bool isDerivedLineId(int64_t tid) {
    const int64_t base = static_cast<int32_t>(0xDEADBEEFu);
    const int64_t ubase = int64_t(0xDEADBEEFu);
    return (tid >= base && tid <= base + 289) || (tid >= ubase && tid <= ubase + 289);
}

// "<op_name>:<OpType>" (TF) or "<name>:<type>" (JAX), not a C++ "a::b" name.
bool looksLikeTfOp(std::string_view n) {
    if (startsWith(n, "Iterator::")) return true;
    const size_t pos = n.rfind(':');
    if (pos == std::string_view::npos || pos == 0 || pos + 1 >= n.size()) return false;
    if (n[pos - 1] == ':') return false;
    const std::string_view type = n.substr(pos + 1);
    if (!(std::isalpha(static_cast<unsigned char>(type[0])) || type[0] == '_')) return false;
    for (char ch : type)
        if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_')) return false;
    for (char ch : n.substr(0, pos))
        if (ch == ' ' || ch == '\t') return false;
    return true;
}

bool isProfilerStepName(std::string_view n) { return startsWith(n, "ProfilerStep#"); }

// The character classes of XProf's op-name patterns (TSL's tf_op_utils.cc), in ASCII.
bool asciiAlnum(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool lowerDigitOrUnderscore(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }

// [A-Za-z0-9.][A-Za-z0-9_./>-]*
bool isXprofTfOpName(std::string_view n) {
    if (n.empty() || !(asciiAlnum(n[0]) || n[0] == '.')) return false;
    for (char c : n.substr(1))
        if (!(asciiAlnum(c) || c == '_' || c == '.' || c == '/' || c == '>' || c == '-')) return false;
    return true;
}

// [A-Z_][a-zA-Z0-9_]*
bool isXprofTfOpType(std::string_view t) {
    if (t.empty() || !((t[0] >= 'A' && t[0] <= 'Z') || t[0] == '_')) return false;
    for (char c : t)
        if (!(asciiAlnum(c) || c == '_')) return false;
    return true;
}

// [a-z_][a-z0-9_]*(\[.*\])?  (RE2's '.' does not match a newline)
bool isXprofJaxOpType(std::string_view t) {
    if (t.empty() || !((t[0] >= 'a' && t[0] <= 'z') || t[0] == '_')) return false;
    size_t i = 1;
    while (i < t.size() && lowerDigitOrUnderscore(t[i])) ++i;
    if (i == t.size()) return true;
    return t[i] == '[' && t.size() - i >= 2 && t.back() == ']' && !contains(t.substr(i), "\n");
}

bool startsWithIgnoringCase(std::string_view s, std::string_view p) {
    if (s.size() < p.size()) return false;
    for (size_t i = 0; i < p.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[i])) != std::tolower(static_cast<unsigned char>(p[i])))
            return false;
    return true;
}

struct KeyIds {
    StringId longName, tfOp, kernelDetails, correlation, correlationId, stepName, memcpyDetails, stepNum;
    std::array<StringId, 2> memsetDetails;
    std::array<StringId, 3> memallocDetails;
};

KeyIds keyIdsOf(const Trace& t) {
    return {t.strings.find("long_name"),
            t.strings.find("tf_op"),
            t.strings.find("kernel_details"),
            t.strings.find("correlation"),
            t.strings.find("correlation_id"),
            t.strings.find("step_name"),
            t.strings.find("memcpy_details"),
            t.strings.find("step_num"),
            {t.strings.find("Memset_details"), t.strings.find("memset_details")},
            {t.strings.find("memalloc_details"), t.strings.find("MemFree_details"),
             t.strings.find("MemoryResidency_details")}};
}

// Looks up one arg by key id; false when absent.
bool findArg(const Track& track, ArgsOffset off, StringId key, ArgValue& out) {
    if (off == kNoArgs || key == kNoIndex) return false;
    ArgsReader r(track.argsView(), off);
    Arg a;
    while (r.next(a))
        if (a.key == key) {
            out = a.value;
            return true;
        }
    return false;
}

bool nonEmptyStringArg(const Trace& t, const Track& track, ArgsOffset off, StringId key) {
    ArgValue v;
    if (!findArg(track, off, key, v)) return false;
    if (v.type == ArgValue::Type::String || v.type == ArgValue::Type::Json) return !t.str(v.s).empty();
    return v.type != ArgValue::Type::Null;
}

// The category the XSpace importer gives an event of a device stream line (it reads the
// stats); XProf's trace JSON has no categories, only the same stats as args.
std::string_view xprofStreamCategory(const Trace& t, const Track& tr, ArgsOffset off, std::string_view name,
                                     bool gpuPlane, const KeyIds& k) {
    namespace cat = xspace::category;
    if (!gpuPlane) return cat::kDevice;
    if (nonEmptyStringArg(t, tr, off, k.kernelDetails)) return cat::kKernel;
    if (nonEmptyStringArg(t, tr, off, k.memcpyDetails) || startsWith(name, "Memcpy")) return cat::kMemcpy;
    for (StringId key : k.memsetDetails)
        if (nonEmptyStringArg(t, tr, off, key)) return cat::kMemset;
    if (startsWith(name, "Memset")) return cat::kMemset;
    for (StringId key : k.memallocDetails)
        if (nonEmptyStringArg(t, tr, off, key)) return cat::kGpuMemory;
    return cat::kKernel;
}

// TF1 device names: the GPU tracer's "…/stream:all", "…/stream:7", "…/memcpy" devices hold
// device activity; a timeline JSON process is the device name plus " Compute".
std::string_view tf1DeviceOf(std::string_view processName) {
    for (std::string_view suffix : {std::string_view(" Compute"), std::string_view(" Tensors")})
        if (processName.size() > suffix.size() && processName.substr(processName.size() - suffix.size()) == suffix)
            return processName.substr(0, processName.size() - suffix.size());
    return processName;
}
bool isTf1StreamAll(std::string_view device) { return contains(device, "/stream:all"); }
bool isTf1StreamDevice(std::string_view device) { return contains(device, "/stream:") || contains(device, "/memcpy"); }

SliceRole kinetoRole(std::string_view cat, std::string_view name) {
    // Old Kineto writes ProfilerStep#N as an "Operator"; a step is never an op.
    if (isProfilerStepName(name) && cat != "gpu_user_annotation") return SliceRole::StepMarker;
    if (cat == "cpu_op" || cat == "Operator") return SliceRole::HostOp;
    if (cat == "kernel" || cat == "Kernel") return SliceRole::Kernel;
    if (cat == "gpu_memcpy" || cat == "Memcpy") return SliceRole::Memcpy;
    if (cat == "gpu_memset" || cat == "Memset") return SliceRole::Memset;
    if (cat == "cuda_runtime" || cat == "cuda_driver" || cat == "Runtime" || cat == "Driver") return SliceRole::Runtime;
    // MTIA (Kineto on Meta's accelerator): device work is mtia_ccp_events, its DMA transfers named
    // dma_request (HTA's memory kernels, "^dma"); runFunction calls are mtia_runtime.
    if (cat == "mtia_ccp_events") return startsWith(name, "dma") ? SliceRole::Memcpy : SliceRole::Kernel;
    if (cat == "mtia_runtime") return SliceRole::Runtime;
    if (cat == "user_annotation" || cat == "Annotation" || cat == "user_annotations")
        return isProfilerStepName(name) ? SliceRole::StepMarker : SliceRole::UserAnnotation;
    return SliceRole::None;
}

}  // namespace

namespace {
std::atomic<uint64_t> classifications{0};
}  // namespace

uint64_t classifyTraceCount() { return classifications.load(); }

ClassifiedTrace classifyTrace(const Trace& trace) {
    ++classifications;
    ClassifiedTrace ct;
    ct.trace = &trace;
    ct.producer = detectProducer(trace);
    ct.isXSpace = ct.producer == Producer::XProf;
    ct.isTf1 = ct.producer == Producer::Tf1;
    const bool xprofJson = ct.isXSpace && trace.format != "xspace";
    const size_t nt = trace.tracks.size();
    ct.trackSkipped.assign(nt, 0);
    ct.trackOnDevice.assign(nt, 0);
    ct.roles.resize(nt);
    ct.parents.resize(nt);
    const KeyIds k = keyIdsOf(trace);
    ct.keys.longName = k.longName;
    ct.keys.tfOp = k.tfOp;
    ct.keys.level0 = trace.strings.find("level 0");
    ct.keys.annotation = trace.strings.find("annotation");
    ct.keys.hloOp = trace.strings.find("hlo_op");
    ct.keys.tf1Name = trace.strings.find("name");
    ct.keys.tf1Op = trace.strings.find("op");
    // TF1's GPU tracer saves each kernel to "…/stream:all" and "…/stream:N", each copy to
    // "…/memcpy" and "…/stream:N": the per-stream devices repeat the others.
    bool tf1HasStreamAll = false;
    if (ct.isTf1)
        for (const Process& p : trace.processes) {
            const std::string_view d = tf1DeviceOf(p.name);
            tf1HasStreamAll = tf1HasStreamAll || isTf1StreamAll(d) || contains(d, "/memcpy");
        }

    for (size_t ti = 0; ti < nt; ++ti) {
        const Track& tr = trace.tracks[ti];
        const Track& main = tr.overflowOf != kNoIndex && tr.overflowOf < nt ? trace.tracks[tr.overflowOf] : tr;
        const std::string_view processName = tr.process < trace.processes.size()
                                                 ? std::string_view(trace.processes[tr.process].name)
                                                 : std::string_view();
        if (tr.process < trace.processes.size())
            ct.trackOnDevice[ti] = trace.processes[tr.process].kind == ProcessKind::Device;
        // XProf's trace JSON: the plane says it (a host named "gpu-node-3" is no device).
        if (xprofJson)
            ct.trackOnDevice[ti] = xspace::classifyPlane(xprofPlaneName(processName)) == xspace::PlaneKind::Device;
        // TF1: only the GPU tracer's devices are device activity; ops on "<device> Compute"
        // are the executor's, on a host thread.
        std::string_view tf1Device;
        bool tf1Stream = false, tf1Duplicate = false;
        if (ct.isTf1) {
            tf1Device = tf1DeviceOf(processName);
            tf1Stream = isTf1StreamDevice(tf1Device);
            tf1Duplicate =
                tf1Stream && tf1HasStreamAll && !isTf1StreamAll(tf1Device) && !contains(tf1Device, "/memcpy");
            ct.trackOnDevice[ti] = tf1Stream;
        }
        const bool derived =
            ct.isXSpace && ct.trackOnDevice[ti] && (isDerivedLineName(main.name) || isDerivedLineId(main.tid));
        const bool gpuPlane = xprofJson && startsWith(xprofPlaneName(processName), "/device:GPU:");
        ct.trackSkipped[ti] = derived || tf1Duplicate || tr.kind == TrackKind::Counter;
        const SliceColumns& c = tr.slices;
        auto& roles = ct.roles[ti];
        roles.assign(c.size(), SliceRole::None);
        if (tr.kind == TrackKind::Thread) ct.parents[ti] = computeCountedParents(c);
        else ct.parents[ti].assign(c.size(), kNoIndex);
        if (tr.kind == TrackKind::Counter) continue;

        for (size_t i = 0; i < c.size(); ++i) {
            analysisTick();
            std::string_view cat = trace.str(c.category[i]);
            const std::string_view name = trace.str(c.name[i]);
            SliceRole role = SliceRole::None;
            if (xprofJson && ct.trackOnDevice[ti] && !derived)
                cat = xprofStreamCategory(trace, tr, c.args[i], name, gpuPlane, k);
            if (ct.isTf1) {
                if (tf1Duplicate || cat != "Op") role = SliceRole::None;
                else if (!tf1Stream) role = SliceRole::HostOp;
                else if (contains(tf1Device, "/memcpy") || contains(name, "MEMCPY") || contains(name, "Memcpy"))
                    role = SliceRole::Memcpy;
                else if (contains(name, "Memset") || contains(name, "MEMSET")) role = SliceRole::Memset;
                else role = SliceRole::Kernel;
            } else if (!ct.isXSpace) {
                role = kinetoRole(cat, name);
                // A device annotation (gpu_user_annotation) mirrors host ones: never an op.
            } else if (derived) {
                if (main.name == "Steps") role = SliceRole::StepMarker;
            } else if (ct.trackOnDevice[ti]) {
                if (cat == "kernel" || nonEmptyStringArg(trace, tr, c.args[i], k.kernelDetails))
                    role = SliceRole::Kernel;
                else if (cat == "gpu_memcpy" || contains(name, "Memcpy") ||
                         nonEmptyStringArg(trace, tr, c.args[i], k.memcpyDetails))
                    role = SliceRole::Memcpy;
                else if (cat == "gpu_memset" || contains(name, "Memset")) role = SliceRole::Memset;
                else if (cat == "xla_op" || cat == "tf_op")
                    role = SliceRole::None;  // op annotations on device: attributed through kernels
            } else if (xprofJson && c.duration[i] == 0) {
                // XProf's JSON writes the XSpace's instants (allocator events, markers) 1 ps
                // long: they are no ops, as in the XSpace.
                role = SliceRole::None;
            } else {
                ArgValue ln;
                std::string_view full = name;
                if (findArg(tr, c.args[i], k.longName, ln) && ln.type == ArgValue::Type::String) full = trace.str(ln.s);
                if (cat == "cuda_runtime" || cat == "cuda_driver" ||
                    nonEmptyStringArg(trace, tr, c.args[i], k.correlationId))
                    role = SliceRole::Runtime;
                else if (nonEmptyStringArg(trace, tr, c.args[i], k.stepName) ||
                         // StepTraceAnnotation's step_num (XProf's JSON names the event after
                         // the step and drops step_name).
                         nonEmptyStringArg(trace, tr, c.args[i], k.stepNum) ||
                         ((startsWith(full, "train") || startsWith(full, "test") || startsWith(full, "TraceContext")) &&
                          !contains(full, "/")))
                    role = SliceRole::StepMarker;
                else if (looksLikeTfOp(full) || nonEmptyStringArg(trace, tr, c.args[i], k.tfOp))
                    role = SliceRole::HostOp;
            }
            roles[i] = role;
            if (role == SliceRole::Runtime) {
                ArgValue v;
                int64_t id;
                if ((findArg(tr, c.args[i], k.correlation, v) || findArg(tr, c.args[i], k.correlationId, v)) &&
                    v.toInt64(id))
                    ct.runtimeByCorrelation.push_back(
                        {id, SliceRef{static_cast<TrackIndex>(ti), static_cast<uint32_t>(i)}});
            }
        }
    }
    std::sort(ct.runtimeByCorrelation.begin(), ct.runtimeByCorrelation.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    if (hasCommandBufferActivity(ct)) ct.commandBufferOps = attributeCommandBuffers(ct, indexHloPrograms(trace));
    return ct;
}

std::string fullNameOf(const Trace& trace, SliceRef s) {
    return std::string(fullNameOf(trace, s, trace.strings.find("long_name")));
}

std::string_view fullNameOf(const Trace& trace, SliceRef s, StringId longNameKey) {
    const Track& tr = trace.tracks[s.track];
    ArgValue v;
    if (findArg(tr, tr.slices.args[s.index], longNameKey, v) && v.type == ArgValue::Type::String) return trace.str(v.s);
    return trace.str(tr.slices.name[s.index]);
}

std::string_view sliceArgView(const Trace& trace, SliceRef s, StringId key) {
    const Track& tr = trace.tracks[s.track];
    ArgValue v;
    if (!findArg(tr, tr.slices.args[s.index], key, v) || v.type != ArgValue::Type::String) return {};
    return trace.str(v.s);
}

std::string_view fullNameView(const ClassifiedTrace& ct, SliceRef s) {
    const Trace& t = *ct.trace;
    if (ct.isXSpace) {
        const std::string_view ln = sliceArgView(t, s, ct.keys.longName);
        if (!ln.empty()) return ln;
    }
    return t.str(t.tracks[s.track].slices.name[s.index]);
}

std::string sliceArgText(const Trace& trace, SliceRef s, std::string_view key) {
    const Track& tr = trace.tracks[s.track];
    ArgValue v;
    if (!findArg(tr, tr.slices.args[s.index], trace.strings.find(key), v)) return {};
    return v.toString(trace.strings);
}

bool sliceArgInt(const Trace& trace, SliceRef s, std::string_view key, int64_t& out) {
    const Track& tr = trace.tracks[s.track];
    ArgValue v;
    if (!findArg(tr, tr.slices.args[s.index], trace.strings.find(key), v)) return false;
    if (v.toInt64(out)) return true;
    if (v.type == ArgValue::Type::String) {
        const std::string_view t = trace.str(v.s);
        if (t.empty() || t.size() > 19) return false;
        int64_t x = 0;
        for (char ch : t) {
            if (ch < '0' || ch > '9') return false;
            x = x * 10 + (ch - '0');
        }
        out = x;
        return true;
    }
    return false;
}

OpNameType splitTfOpName(std::string_view full) {
    if (startsWith(full, "Iterator::")) return {std::string(full), "Dataset"};
    const size_t pos = full.rfind(':');
    if (pos != std::string_view::npos && pos > 0 && full[pos - 1] != ':' && pos + 1 < full.size() &&
        looksLikeTfOp(full))
        return {std::string(full.substr(0, pos)), std::string(full.substr(pos + 1))};
    // No ":Type": JAX-style "jit(f)/dot_general" -> type = last path component; an HLO
    // instruction name "fusion_34" / "dot.3" -> its kind without the numeric suffix.
    const size_t slash = full.rfind('/');
    std::string_view type = slash == std::string_view::npos ? full : full.substr(slash + 1);
    size_t end = type.size();
    while (end > 0 && std::isdigit(static_cast<unsigned char>(type[end - 1]))) --end;
    if (end > 0 && end < type.size() && (type[end - 1] == '_' || type[end - 1] == '.')) type = type.substr(0, end - 1);
    if (type.empty()) type = full;
    return {std::string(full), std::string(type)};
}

bool isXprofOpName(std::string_view full) {
    const size_t colon = full.find(':');
    if (colon == std::string_view::npos) {
        for (std::string_view copy : {"MEMCPYHToD", "MEMCPYDToH", "MEMCPYDToD", "MEMCPYHToH"})
            if (startsWithIgnoringCase(full, copy)) return true;
        return false;
    }
    const std::string_view name = full.substr(0, colon), type = full.substr(colon + 1);
    if (name == "Iterator") return true;
    if (isXprofTfOpName(name) && isXprofTfOpType(type)) return true;
    // An empty type is taken whatever the name (XProf derives one from the name).
    return type.empty() || isXprofJaxOpType(type);
}

bool xprofLeavesOutHostOp(const ClassifiedTrace& ct, SliceRef s) {
    if (!ct.isXSpace || ct.role(s) != SliceRole::HostOp) return false;
    if (isXprofOpName(fullNameView(ct, s))) return false;
    // XProf also counts every host event by its tf_op stat, whatever its name.
    return sliceArgView(*ct.trace, s, ct.keys.tfOp).empty();
}

OpNameType splitXprofDeviceOp(std::string_view op) {
    if (op.find(':') != std::string_view::npos && !isXprofOpName(op)) return {std::string(op), kXprofUnknownOpType};
    return splitTfOpName(op);
}

SliceRef launchOf(const ClassifiedTrace& ct, SliceRef s) {
    const Trace& t = *ct.trace;
    for (uint32_t fi : t.flowsTo(s)) {
        const SliceRef from = t.flows[fi].from;
        if (from.valid() && from.track < ct.roles.size() && from.index < ct.roles[from.track].size() &&
            ct.role(from) == SliceRole::Runtime)
            return from;
    }
    int64_t id;
    if ((sliceArgInt(t, s, "correlation", id) || sliceArgInt(t, s, "correlation_id", id))) {
        auto it = std::lower_bound(ct.runtimeByCorrelation.begin(), ct.runtimeByCorrelation.end(), id,
                                   [](const auto& a, int64_t v) { return a.first < v; });
        if (it != ct.runtimeByCorrelation.end() && it->first == id) return it->second;
    }
    return {};
}

SliceRef enclosingHostOp(const ClassifiedTrace& ct, SliceRef s) {
    if (!s.valid()) return {};
    const auto& parents = ct.parents[s.track];
    uint32_t p = parents[s.index];
    while (p != kNoIndex) {
        if (ct.roles[s.track][p] == SliceRole::HostOp) return {s.track, p};
        p = parents[p];
    }
    return {};
}

std::string_view deviceActivityOpView(const ClassifiedTrace& ct, SliceRef s) {
    const Trace& t = *ct.trace;
    // TF1's GPU tracer names the node the kernel or copy ran for in arg "name".
    if (ct.isTf1) return sliceArgView(t, s, ct.keys.tf1Name);
    if (ct.isXSpace) {
        // The four stats read in one pass over the args (each the first of its key, when a
        // string, as sliceArgView reads it): this runs for every device activity of every page.
        const StringId keys[4] = {ct.keys.tfOp, ct.keys.level0, ct.keys.annotation, ct.keys.hloOp};
        std::string_view values[4];
        bool seen[4] = {false, false, false, false};
        const Track& tr = t.tracks[s.track];
        if (tr.slices.args[s.index] != kNoArgs) {
            ArgsReader r(tr.argsView(), tr.slices.args[s.index]);
            Arg a;
            while (r.next(a))
                for (int k = 0; k < 4; ++k)
                    if (!seen[k] && a.key == keys[k] && keys[k] != kNoIndex) {
                        seen[k] = true;
                        if (a.value.type == ArgValue::Type::String) values[k] = t.str(a.value.s);
                    }
        }
        // tf_op is the outermost annotation; JAX/XLA GPU kernels carry the generic
        // "XlaModule:" there, and the real op in hlo_op (§3.6).
        std::string_view op = values[0];
        // TF 2.4-era files carry no tf_op, only the annotation stack: "level 0" is the
        // outermost annotation, "annotation" the same with "#key=value#" arguments appended.
        if (op.empty()) op = values[1];
        if (op.empty()) op = values[2].substr(0, values[2].find('#'));
        if (op.empty() || op.substr(0, 10) == "XlaModule:") {
            const std::string_view hlo = values[3];
            if (!hlo.empty()) op = hlo;
            // Inside an XLA command buffer: the instruction the kernel ran, not the buffer.
            if (!ct.commandBufferOps.empty())
                if (const auto it = ct.commandBufferOps.find(activityKey(s)); it != ct.commandBufferOps.end()) op = it->second;
        }
        return op;
    }
    const SliceRef op = enclosingHostOp(ct, launchOf(ct, s));
    return op.valid() ? t.str(t.tracks[op.track].slices.name[op.index]) : std::string_view();
}

std::string deviceActivityOp(const ClassifiedTrace& ct, SliceRef s) { return std::string(deviceActivityOpView(ct, s)); }

const char* copyKindName(CopyKind k) {
    switch (k) {
    case CopyKind::HostToDevice: return "HtoD";
    case CopyKind::DeviceToHost: return "DtoH";
    case CopyKind::DeviceToDevice: return "DtoD";
    case CopyKind::PeerToPeer: return "PtoP";
    case CopyKind::HostToHost: return "HtoH";
    case CopyKind::Unknown: break;
    }
    return "unknown";
}

CopyKind copyKindOf(const Trace& trace, SliceRef s) {
    std::string text = std::string(trace.str(trace.tracks[s.track].slices.name[s.index]));
    const std::string details = sliceArgText(trace, s, "memcpy_details");
    // memcpy_details "kind_src:host kind_dst:device ..." (§3.6) wins over the name.
    if (!details.empty()) {
        auto val = [&](std::string_view key) -> std::string {
            const size_t p = details.find(key);
            if (p == std::string::npos) return {};
            const size_t b = p + key.size();
            const size_t e = details.find(' ', b);
            return asciiLower(std::string_view(details).substr(b, e == std::string::npos ? std::string::npos : e - b));
        };
        const std::string src = val("kind_src:"), dst = val("kind_dst:");
        auto isHost = [](const std::string& k) { return k == "host" || k == "pageable" || k == "pinned"; };
        auto isDev = [](const std::string& k) { return k == "device" || k == "array"; };
        if (!src.empty() && !dst.empty()) {
            if (isHost(src) && isDev(dst)) return CopyKind::HostToDevice;
            if (isDev(src) && isHost(dst)) return CopyKind::DeviceToHost;
            if (isDev(src) && isDev(dst)) return CopyKind::DeviceToDevice;
            if (isHost(src) && isHost(dst)) return CopyKind::HostToHost;
        }
    }
    // Names: Kineto "Memcpy HtoD (Pageable -> Device)", XSpace "MemcpyH2D", CUPTI "MemcpyHtoD".
    if (contains(text, "HtoD") || contains(text, "H2D")) return CopyKind::HostToDevice;
    if (contains(text, "DtoH") || contains(text, "D2H")) return CopyKind::DeviceToHost;
    if (contains(text, "DtoD") || contains(text, "D2D")) return CopyKind::DeviceToDevice;
    if (contains(text, "PtoP") || contains(text, "P2P")) return CopyKind::PeerToPeer;
    if (contains(text, "HtoH") || contains(text, "H2H")) return CopyKind::HostToHost;
    // MTIA's dma_request: arg "direction" HOST_TO_DEVICE, DEVICE_TO_HOST, DEVICE_TO_DEVICE.
    const std::string direction = sliceArgText(trace, s, "direction");
    if (direction == "HOST_TO_DEVICE") return CopyKind::HostToDevice;
    if (direction == "DEVICE_TO_HOST") return CopyKind::DeviceToHost;
    if (direction == "DEVICE_TO_DEVICE") return CopyKind::DeviceToDevice;
    return CopyKind::Unknown;
}

std::string tf1GpuName(std::string_view name) {
    for (std::string_view key : {std::string_view("/device:GPU:"), std::string_view("/gpu:")}) {
        const size_t at = name.find(key);
        if (at == std::string_view::npos) continue;
        size_t end = at + key.size();
        while (end < name.size() && name[end] >= '0' && name[end] <= '9') ++end;
        return "/device:GPU:" + std::string(name.substr(at + key.size(), end - at - key.size()));
    }
    return std::string(name);
}

}  // namespace tracescope
