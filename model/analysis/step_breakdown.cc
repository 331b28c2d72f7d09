// Per-step time breakdown (§7.5): every host/device event inside a step gets an event type;
// where events overlap the higher-priority type wins; step time no event covers is "other".
#include "model/analysis/steps.h"

#include "model/analysis/analysis_progress.h"

#include "model/analysis/compile_activity.h"
#include "model/analysis/precision.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace tracescope {

namespace {

// XProf's EventType, with its priority order (a higher value wins an overlap).
enum EventType : uint8_t {
    kUnknown = 0,
    kHostCompute,
    kHostPreprocess,
    kHostPostprocess,
    kHostBatchFormation,
    kHostRuntime,
    kHostCompile,
    kHostToHost,
    kHostToDevice,
    kHostPrepare,
    kDeviceCollectives,
    kHostWaitInput,
    kDeviceToDevice,
    kDeviceToHost,
    kDeviceCompute32,
    kDeviceCompute16,
    kDeviceWaitDevice,
    kDeviceWaitHost,
    kEventTypeCount
};

StepCategory categoryOf(EventType e) {
    switch (e) {
        case kUnknown: return StepCategory::Other;
        case kHostCompute:
        case kHostPreprocess:
        case kHostPostprocess:
        case kHostBatchFormation:
        case kHostRuntime:
        case kHostToHost: return StepCategory::HostCompute;
        case kHostCompile: return StepCategory::Compilation;
        case kHostToDevice:
        case kHostWaitInput:
        case kDeviceWaitHost: return StepCategory::Input;
        case kHostPrepare: return StepCategory::KernelLaunch;
        case kDeviceCollectives: return StepCategory::DeviceCollectives;
        case kDeviceToDevice:
        case kDeviceWaitDevice: return StepCategory::DeviceToDevice;
        case kDeviceToHost: return StepCategory::Output;
        case kDeviceCompute32:
        case kDeviceCompute16: return StepCategory::DeviceCompute;
        case kEventTypeCount: break;
    }
    return StepCategory::Other;
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

bool isInputWaitName(std::string_view n) {
    return startsWith(n, "IteratorGetNext") || startsWith(n, "enumerate(DataLoader)") ||
           startsWith(n, "Iterator::") || contains(n, "DataLoader.__next__") ||
           startsWith(n, "InfeedEnqueue") || startsWith(n, "infeed");
}

// The §7.5 type of one slice, or kEventTypeCount when the slice does not take part.
EventType typeOf(const ClassifiedTrace& ct, SliceRef s) {
    const Trace& t = *ct.trace;
    const SliceColumns& c = t.tracks[s.track].slices;
    const std::string_view name = t.str(c.name[s.index]);
    switch (ct.role(s)) {
        case SliceRole::Kernel: {
            const std::string full = fullNameOf(t, s);
            if (isCollectiveKernelName(full)) return kDeviceCollectives;
            return isSixteenBitKernel(full) ? kDeviceCompute16 : kDeviceCompute32;
        }
        case SliceRole::Memcpy:
            switch (copyKindOf(t, s)) {
                case CopyKind::HostToDevice: return kHostToDevice;
                case CopyKind::DeviceToHost: return kDeviceToHost;
                case CopyKind::DeviceToDevice:
                case CopyKind::PeerToPeer: return kDeviceToDevice;
                case CopyKind::HostToHost: return kHostToHost;
                case CopyKind::Unknown: return kDeviceCompute32;
            }
            return kDeviceCompute32;
        case SliceRole::Memset: return kDeviceCompute32;
        case SliceRole::Runtime:
            // Launch calls are "kernel launch" (HOST_PREPARE); other runtime calls (synchronize,
            // memcpy API, allocation) are host time spent in the runtime.
            return contains(name, "Launch") ? kHostPrepare : kHostCompute;
        case SliceRole::HostOp: {
            const std::string full = ct.isXSpace ? fullNameOf(t, s) : std::string(name);
            if (isInputWaitName(full)) {
                // Only the outermost input stage counts as waiting (nested ones are inside it).
                return kHostWaitInput;
            }
            if (isCompileActivity(full)) return kHostCompile;
            if (startsWith(full, "EagerExecute") || startsWith(full, "FunctionRun")) return kEventTypeCount;
            return kHostCompute;
        }
        case SliceRole::UserAnnotation:
        case SliceRole::None: {
            if (ct.trackOnDevice[s.track]) return kEventTypeCount;
            if (isInputWaitName(name)) return kHostWaitInput;
            if (isCompileActivity(ct.isXSpace ? fullNameView(ct, s) : name)) return kHostCompile;
            return kEventTypeCount;
        }
        case SliceRole::StepMarker: return kEventTypeCount;
    }
    return kEventTypeCount;
}

struct TypedInterval {
    TimeNs start, end;
    EventType type;
};

// XProf's type of a host event of a CPU-only step group (xplane_to_step_events.cc
// ClassifyCpuEvent without a device), or kEventTypeCount when it takes no part: markers and
// the wrappers XProf does not count as compute (IsRealCpuCompute). Compile passes are
// Compilation here, as on every other trace (XProf has the type but its CPU rule never gives it).
EventType groupedCpuType(const ClassifiedTrace& ct, const StepGroups& groups, SliceRef s, int32_t g) {
    const std::string_view full = fullNameView(ct, s);
    if (s == groups.groups[size_t(g)].root || isExplicitStepMarkerName(full)) return kEventTypeCount;
    for (std::string_view wrapper : {"EagerExecute", "EagerLocalExecute", "EagerKernelExecute", "FunctionRun"})
        if (startsWith(full, wrapper)) return kEventTypeCount;
    const std::string type = splitTfOpName(full).type;  // a copy: a view of the temporary would dangle
    if (startsWith(type, "InfeedEnqueue") || type == "MemcpyHToD") return kHostToDevice;
    if (type == "MemcpyHToH") return kHostToHost;
    if (full.size() >= 15 && std::equal(full.begin(), full.begin() + 15, "IteratorGetNext",
                                        [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b)); }))
        return kHostWaitInput;
    if (isCompileActivity(full)) return kHostCompile;
    return kHostCompute;
}

}  // namespace

bool isCollectiveKernelName(std::string_view full) {
    return startsWith(full, "nccl") || startsWith(full, "void nccl") || contains(full, "ncclDevKernel") ||
           contains(full, "ncclKernel");
}

std::vector<StepBreakdown> breakdownSteps(const ClassifiedTrace& ct, const StepsResult& steps) {
    std::vector<StepBreakdown> out;
    if (steps.steps.empty()) return out;
    const Trace& t = *ct.trace;
    // CPU-only XSpace with host step groups: each step's events are its group's (XProf).
    const bool hasDevice = std::any_of(t.processes.begin(), t.processes.end(),
                                       [](const Process& p) { return p.kind == ProcessKind::Device; });
    std::vector<std::vector<TypedInterval>> byGroup;
    if (steps.hostGroups && !hasDevice) {
        const StepGroups& groups = *steps.hostGroups;
        byGroup.resize(groups.groups.size());
        for (TrackIndex ti = 0; ti < t.tracks.size() && ti < groups.groupOf.size(); ++ti) {
            const SliceColumns& c = t.tracks[ti].slices;
            for (uint32_t i = 0; i < groups.groupOf[ti].size(); ++i) {
                const int32_t g = groups.groupOf[ti][i];
                if (g == kNoStepGroup || c.duration[i] <= 0) continue;
                const EventType e = groupedCpuType(ct, groups, {ti, i}, g);
                if (e != kEventTypeCount) byGroup[size_t(g)].push_back({c.start[i], c.end(i), e});
            }
        }
    }
    std::vector<TypedInterval> all;
    TimeNs maxDur = 0;
    for (TrackIndex ti = 0; byGroup.empty() && ti < t.tracks.size(); ++ti) {
        if (ct.trackSkipped[ti] || t.tracks[ti].kind != TrackKind::Thread) continue;
        const SliceColumns& c = t.tracks[ti].slices;
        for (uint32_t i = 0; i < c.size(); ++i) {
            analysisTick();
            const EventType e = typeOf(ct, {ti, i});
            if (e == kEventTypeCount || c.duration[i] <= 0) continue;
            all.push_back({c.start[i], c.end(i), e});
            maxDur = std::max(maxDur, c.duration[i]);
        }
    }
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.start < b.start; });

    std::vector<std::pair<TimeNs, int>> points;  // (time, +/-(type+1))
    for (const Step& step : steps.steps) {
        StepBreakdown b;
        b.step = step;
        const TimeNs s0 = step.startNs, s1 = step.endNs();
        points.clear();
        auto addClipped = [&](const TypedInterval& in) {
            const TimeNs a = std::max(in.start, s0), e = std::min(in.end, s1);
            if (e <= a) return;
            points.push_back({a, int(in.type) + 1});
            points.push_back({e, -(int(in.type) + 1)});
        };
        if (!byGroup.empty()) {
            if (step.hostGroup != kNoStepGroup && size_t(step.hostGroup) < byGroup.size())
                for (const TypedInterval& in : byGroup[size_t(step.hostGroup)]) addClipped(in);
        } else {
            auto it = std::lower_bound(all.begin(), all.end(), s0 - maxDur,
                                       [](const TypedInterval& a, TimeNs v) { return a.start < v; });
            for (; it != all.end() && it->start < s1; ++it) addClipped(*it);
        }
        std::sort(points.begin(), points.end());
        std::array<TimeNs, kEventTypeCount> perType{};
        std::array<int, kEventTypeCount> active{};
        auto top = [&] {
            for (int k = kEventTypeCount - 1; k > kUnknown; --k)
                if (active[k] > 0) return k;
            return int(kUnknown);
        };
        // Points are clipped to the step, so the last segment runs to the step end.
        TimeNs cursor = s0;
        size_t p = 0;
        while (true) {
            const TimeNs next = p < points.size() ? points[p].first : s1;
            if (next > cursor) {
                addSat(perType[top()], next - cursor);
                cursor = next;
            }
            if (p >= points.size()) break;
            while (p < points.size() && points[p].first == cursor) {
                const int v = points[p].second;
                active[std::abs(v) - 1] += v > 0 ? 1 : -1;
                ++p;
            }
        }
        for (int k = 0; k < kEventTypeCount; ++k) addSat(b.ns[size_t(categoryOf(EventType(k)))], perType[k]);
        b.deviceCompute16Ns = perType[kDeviceCompute16];
        b.deviceCompute32Ns = perType[kDeviceCompute32];
        b.hostWaitInputNs = perType[kHostWaitInput];
        b.hostToDeviceNs = perType[kHostToDevice];
        b.deviceWaitHostNs = perType[kDeviceWaitHost];
        b.hasCompute = hasDevice ? perType[kDeviceCompute16] + perType[kDeviceCompute32] > 0 : perType[kHostCompute] > 0;
        out.push_back(std::move(b));
    }
    return out;
}

}  // namespace tracescope
