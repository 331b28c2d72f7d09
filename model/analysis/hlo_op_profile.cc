#include "model/analysis/hlo_op_profile.h"

#include "model/analysis/analysis_progress.h"
#include "model/analysis/hlo_attribution.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace tracescope {

namespace {

const std::string* property(const Process& p, std::string_view key) {
    for (const auto& [k, v] : p.properties)
        if (k == key) return &v;
    return nullptr;
}

double numberProperty(const Process& p, std::string_view key) {
    const std::string* v = property(p, key);
    if (!v) return 0;
    double out = 0;
    const auto r = std::from_chars(v->data(), v->data() + v->size(), out);
    return r.ec == std::errc() ? out : 0;
}

// Dense FLOPs per SM (NVIDIA) or CU (AMD) per clock cycle, the largest of the vector and
// matrix (fp32, fp16) rates, as XProf's hardware_type_utils lists them. NVIDIA by compute
// capability (an unlisted one takes the closest lower), AMD by gfx version.
double nvidiaFlopsPerSmCycle(int major, int minor) {
    static const std::map<int, double> table = {{200, 64},  {300, 384},  {500, 256},  {600, 256},  {610, 256},
                                                {700, 1024}, {750, 1024}, {800, 2048}, {860, 1024}, {890, 1024},
                                                {900, 4096}, {1000, 8192}};
    auto it = table.upper_bound(major * 100 + minor * 10);
    if (it == table.begin()) return 0;
    return std::prev(it)->second;
}

double amdFlopsPerCuCycle(const std::string& gfx) {
    if (gfx == "gfx908") return 1024;
    if (gfx == "gfx90a" || gfx == "gfx942") return 2048;
    if (gfx == "gfx950") return 4096;
    return 0;
}

// ROCm reports the gfx version as the compute capability: 9.4 -> gfx942, 9.5 -> gfx950.
std::string amdGfx(int major, int minor) {
    if (major == 9 && minor == 4) return "gfx942";
    if (major == 9 && minor == 5) return "gfx950";
    if (major == 9 && minor == 0) return "gfx90a";
    return "gfx" + std::to_string(major) + std::to_string(minor);
}

struct OpKey {
    const HloProgram* program;
    std::string name;
    bool operator<(const OpKey& o) const { return program != o.program ? program < o.program : name < o.name; }
};

}  // namespace

const char* hloBoundName(HloBound b) {
    switch (b) {
    case HloBound::Compute: return "Compute";
    case HloBound::Hbm: return "HBM";
    default: return "Unknown";
    }
}

DevicePeaks devicePeaksOf(const Process& device) {
    DevicePeaks d;
    d.device = device.name;
    const double coreCount = numberProperty(device, "core_count");
    const double clockHz = numberProperty(device, "clock_rate") * 1e3;  // the stat is in kHz
    const int major = int(numberProperty(device, "compute_cap_major"));
    const int minor = int(numberProperty(device, "compute_cap_minor"));
    const std::string* vendor = property(device, "device_vendor");
    if (const double tflops = numberProperty(device, "peak_teraflops_per_second"); tflops > 0) {
        d.peakFlopsPerSecond = tflops * 1e12;
    } else if (vendor && *vendor == "AMD") {
        const std::string gfx = amdGfx(major, minor);
        d.device = "AMD " + gfx;
        d.peakFlopsPerSecond = coreCount * clockHz * amdFlopsPerCuCycle(gfx);
    } else if (major > 0) {
        d.device = "NVIDIA sm_" + std::to_string(major) + std::to_string(minor);
        d.peakFlopsPerSecond = coreCount * clockHz * nvidiaFlopsPerSmCycle(major, minor);
    }
    if (const double gbps = numberProperty(device, "peak_hbm_bw_gigabytes_per_second"); gbps > 0)
        d.peakHbmBytesPerSecond = gbps * 1e9;
    else
        d.peakHbmBytesPerSecond = numberProperty(device, "memory_bandwidth");
    return d;
}

std::string hloCategory(const xla::HloInstructionProto& op) {
    const std::string& code = op.opcode();
    if (code == "transpose" || code == "copy" || code == "reshape" || code == "dynamic-reshape") return "data formatting";
    if (code == "fusion") {
        const std::string& kind = op.fusion_kind();
        if (kind == "kLoop") return "loop fusion";
        if (kind == "kInput") return "input fusion";
        if (kind == "kOutput") return "output fusion";
        if (kind == "kCustom") return "custom fusion";
        return "fusion";
    }
    if (code == "convolution") {
        std::string out = "convolution";
        bool base = false, window = false;
        for (const xla::WindowDimension& w : op.window().dimensions()) {
            base |= w.base_dilation() > 1;
            window |= w.window_dilation() > 1;
        }
        if (base) out += " base-dilated";
        if (window) out += " window-dilated";
        return out;
    }
    if (isHloElementwise(code)) return "non-fusion elementwise";
    return code;
}

HloOpProfile computeHloOpProfile(const ClassifiedTrace& ct, const HloProgramIndex& index) {
    HloOpProfile out;
    const Trace& t = *ct.trace;
    const StringId moduleKey = t.strings.find("hlo_module");

    const auto programOf = [&](SliceRef ref) { return programOfActivity(ct, index, ref); };

    // Per device: first start and last end of its activities.
    std::unordered_map<ProcessIndex, std::pair<TimeNs, TimeNs>> spans;
    struct Occurrences {
        HloOpMetrics metrics;
        std::vector<SliceRef> activities;
        std::string parent;  // the command buffer its activities ran in
    };
    std::map<OpKey, Occurrences> byOp;
    std::map<std::string, uint64_t> missingPrograms;
    TimeNs opTime = 0;
    // A stream's activities in time order, its overflow lanes (partly overlapping activities)
    // merged back in: the order its ops ran in.
    std::unordered_map<TrackIndex, std::vector<TrackIndex>> lanes;
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (ct.trackSkipped[ti] || !ct.trackOnDevice[ti]) continue;
        TrackIndex base = ti;
        for (int hops = 0; t.tracks[base].overflowOf != kNoIndex && hops < 64; ++hops) base = t.tracks[base].overflowOf;
        lanes[base].push_back(ti);
    }
    std::vector<TrackIndex> streams;
    for (const auto& [base, l] : lanes) streams.push_back(base);
    std::sort(streams.begin(), streams.end());
    for (TrackIndex base : streams) {
        std::vector<SliceRef> order;
        for (TrackIndex ti : lanes[base])
            for (uint32_t i = 0; i < t.tracks[ti].slices.size(); ++i) {
                const SliceRole role = ct.roles[ti][i];
                if (role == SliceRole::Kernel || role == SliceRole::Memcpy || role == SliceRole::Memset) order.push_back({ti, i});
            }
        std::stable_sort(order.begin(), order.end(), [&](SliceRef a, SliceRef b) {
            return t.tracks[a.track].slices.start[a.index] < t.tracks[b.track].slices.start[b.index];
        });
        const Track& tr = t.tracks[base];
        const Occurrences* previous = nullptr;  // the op of the stream's previous activity
        for (const SliceRef ref : order) {
            analysisTick();
            const SliceColumns& c = t.tracks[ref.track].slices;
            const uint32_t i = ref.index;
            const TimeNs start = c.start[i], end = start + c.duration[i];
            auto [span, fresh] = spans.try_emplace(tr.process, start, end);
            if (!fresh) {
                span->second.first = std::min(span->second.first, start);
                span->second.second = std::max(span->second.second, end);
            }
            const std::string_view hlo = sliceArgView(t, ref, ct.keys.hloOp);
            if (hlo.empty()) {
                previous = nullptr;
                continue;
            }
            const HloProgram* program = programOf(ref);
            if (!program) {
                ++missingPrograms[std::string(sliceArgView(t, ref, moduleKey))];
                previous = nullptr;
                continue;
            }
            std::string opName(hlo);
            std::string parent;
            // Inside an XLA command buffer: the instruction the kernel ran (the classification's).
            if (const auto it = ct.commandBufferOps.find(activityKey(ref)); it != ct.commandBufferOps.end()) {
                parent = std::move(opName);
                opName = it->second;
            }
            Occurrences& o = byOp[OpKey{program, std::move(opName)}];
            if (o.parent.empty()) o.parent = std::move(parent);
            ++o.metrics.occurrences;
            if (previous != &o) ++o.metrics.executions;
            previous = &o;
            o.metrics.timeNs += c.duration[i];
            o.activities.push_back(ref);
            opTime += c.duration[i];
        }
    }
    for (const auto& [process, span] : spans) out.totalNs += span.second - span.first;
    out.idleNs = std::max<TimeNs>(0, out.totalNs - opTime);
    for (const auto& [process, span] : spans) {
        DevicePeaks peaks = devicePeaksOf(t.processes[process]);
        if (peaks.peakFlopsPerSecond > 0 || out.peaks.device.empty()) out.peaks = peaks;
        if (out.peaks.peakFlopsPerSecond > 0) break;
    }
    if (out.peaks.peakFlopsPerSecond <= 0)
        out.notes.push_back("the device's peak FLOP rate is not known (no peak_teraflops_per_second, or no SM count, "
                            "clock and architecture XProf's table lists): no FLOP utilisation");
    if (out.peaks.peakHbmBytesPerSecond <= 0)
        out.notes.push_back("the device's memory bandwidth is not known: no bandwidth utilisation");

    // XLA's GPU cost model for GPU programs (XProf's); its common one (what JAX reports on the
    // CPU) otherwise.
    out.model = HloCostModel::Xla;
    for (const Process& p : t.processes)
        if (p.kind == ProcessKind::Device && p.name.find("/device:GPU:") != std::string::npos) out.model = HloCostModel::XlaGpu;

    // Costs per program, computed once; every program has a row, with or without device time.
    std::unordered_map<const HloProgram*, HloProgramCost> costs;
    std::unordered_map<const HloProgram*, HloProgramRow> programs;
    for (const auto& program : index.programs) {
        const HloProgramCost& cost = costs.emplace(program.get(), computeHloCost(*program, out.model)).first->second;
        HloProgramRow& row = programs[program.get()];
        row.program = program.get();
        row.name = program->displayName();
        row.costPerExecution = cost.entry;
    }
    for (auto& [key, occurrences] : byOp) {
        const HloOpMetrics& m = occurrences.metrics;
        const auto it = costs.find(key.program);
        HloOpRow row;
        row.program = key.program;
        row.name = key.name;
        row.op = key.program->instruction(key.name);
        row.metrics = m;
        row.activities = std::move(occurrences.activities);
        row.parent = std::move(occurrences.parent);
        if (row.op) {
            row.category = hloCategory(*row.op);
            if (const HloCost* cost = it->second.of(row.op->id())) row.costPerExecution = *cost;
        } else {
            row.category = "unknown";
            row.costPerExecution.unknownOps = 1;
        }
        row.metrics.flops = row.costPerExecution.flops * double(m.occurrences);
        row.metrics.bytesAccessed = row.costPerExecution.bytesAccessed * double(m.occurrences);
        row.metrics.unknownCost = row.costPerExecution.known() ? 0 : uint32_t(std::min<uint64_t>(m.occurrences, UINT32_MAX));
        if (out.peaks.peakFlopsPerSecond > 0) row.flopsUtilization = row.metrics.flopsPerSecond() / out.peaks.peakFlopsPerSecond;
        if (out.peaks.peakHbmBytesPerSecond > 0)
            row.hbmUtilization = row.metrics.bytesPerSecond() / out.peaks.peakHbmBytesPerSecond;
        row.bound = !row.costPerExecution.known() || (row.flopsUtilization <= 0 && row.hbmUtilization <= 0)
                        ? HloBound::Unknown
                    : row.flopsUtilization >= row.hbmUtilization       ? HloBound::Compute
                                                                        : HloBound::Hbm;
        row.timeFraction = out.totalNs > 0 ? double(m.timeNs) / double(out.totalNs) : 0;
        row.wastedTimeFraction =
            row.timeFraction * (1 - std::min(1.0, std::max(row.flopsUtilization, row.hbmUtilization)));

        HloProgramRow& p = programs[key.program];
        p.metrics.occurrences += m.occurrences;
        p.metrics.executions += m.executions;
        p.metrics.timeNs += m.timeNs;
        p.metrics.flops += row.metrics.flops;
        p.metrics.bytesAccessed += row.metrics.bytesAccessed;
        p.metrics.unknownCost += row.metrics.unknownCost;
        out.ops.push_back(std::move(row));
    }
    std::stable_sort(out.ops.begin(), out.ops.end(), [](const HloOpRow& a, const HloOpRow& b) {
        if (a.metrics.timeNs != b.metrics.timeNs) return a.metrics.timeNs > b.metrics.timeNs;
        return a.name < b.name;
    });
    for (auto& [program, row] : programs) {
        row.timeFraction = out.totalNs > 0 ? double(row.metrics.timeNs) / double(out.totalNs) : 0;
        out.programs.push_back(std::move(row));
    }
    std::sort(out.programs.begin(), out.programs.end(), [](const HloProgramRow& a, const HloProgramRow& b) {
        if (a.metrics.timeNs != b.metrics.timeNs) return a.metrics.timeNs > b.metrics.timeNs;
        return a.program->programId() < b.program->programId();
    });
    std::string multiKernel;
    size_t multiKernelOps = 0;
    for (const HloOpRow& r : out.ops)
        if (r.metrics.executions < r.metrics.occurrences && r.op && multiKernelOps++ < 3)
            multiKernel += (multiKernel.empty() ? "" : ", ") + r.name + " (" + std::to_string(r.metrics.occurrences) +
                           " activities in " + std::to_string(r.metrics.executions) + " runs)";
    if (multiKernelOps > 0)
        out.notes.push_back(std::to_string(multiKernelOps) + " ops ran as several kernels back to back, e.g. " +
                            multiKernel + ": as in XProf, each kernel counts as an occurrence with the op's whole "
                            "cost, so their FLOPs, bytes and rates are overstated by about that factor");
    for (const auto& [module, n] : missingPrograms)
        out.notes.push_back(std::to_string(n) + " device activities name an HLO op of program '" + module +
                            "', whose HLO is not in the trace: their time counts as idle");
    // When programs were found but none could be read, the index's problems say why; "no program"
    // would contradict them.
    if (index.programs.empty() && index.problems.empty()) out.notes.push_back("the trace holds no XLA program (HLO)");
    else if (index.programs.empty()) out.notes.push_back("no XLA program (HLO) of the trace could be read");
    else if (out.ops.empty())
        out.notes.push_back("no device activity names an HLO op (a CPU-only capture): the "
                            "programs are listed with their cost per execution only");
    return out;
}

}  // namespace tracescope
