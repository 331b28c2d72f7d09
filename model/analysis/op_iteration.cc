#include "model/analysis/op_iteration.h"

#include "model/analysis/analysis_progress.h"

#include "model/analysis/kernel_stats.h"
#include "model/analysis/self_time.h"

namespace tracescope {

const char* deviceKindName(SliceRole role) {
    switch (role) {
        case SliceRole::Kernel: return "kernel";
        case SliceRole::Memcpy: return "memcpy";
        case SliceRole::Memset: return "memset";
        default: return "device";
    }
}

OpNameType hostOpNameType(const ClassifiedTrace& ct, SliceRef s) {
    const Trace& t = *ct.trace;
    if (ct.isXSpace) {
        std::string full = fullNameOf(t, s);
        const std::string tfOp = sliceArgText(t, s, "tf_op");
        // An event that is not itself "name:Type" but carries the op it runs for.
        if (!tfOp.empty() && full.find(':') == std::string::npos && full.rfind("Iterator::", 0) != 0) full = tfOp;
        return splitTfOpName(full);
    }
    if (ct.isTf1) {
        // TF1: the node name and its op type in args "name" / "op" (the slice is named by type).
        std::string name(sliceArgView(t, s, ct.keys.tf1Name)), type(sliceArgView(t, s, ct.keys.tf1Op));
        if (type.empty()) type = std::string(t.str(t.tracks[s.track].slices.name[s.index]));
        if (name.empty()) name = type;
        return {std::move(name), std::move(type)};
    }
    // PyTorch op names ("aten::addmm") are already op types; the row's type is the name itself.
    std::string name(t.str(t.tracks[s.track].slices.name[s.index]));
    return {name, name};
}

OpNameType deviceOpNameType(const ClassifiedTrace& ct, SliceRef s) {
    const std::string op = deviceActivityOp(ct, s);
    const char* kind = deviceKindName(ct.role(s));
    if (op.empty()) return {fullNameOf(*ct.trace, s), kind};
    if (ct.isXSpace) return splitTfOpName(op);
    if (ct.isTf1) {
        std::string type(sliceArgView(*ct.trace, s, ct.keys.tf1Op));
        return {op, type.empty() ? std::string(kind) : std::move(type)};
    }
    // Kineto: the launching cpu_op; the type says what the device did for it.
    return {op, kind};
}

void forEachOpOccurrence(const ClassifiedTrace& ct, OpGrouping grouping,
                         const std::function<void(const OpOccurrence&)>& visit) {
    const Trace& t = *ct.trace;
    OpOccurrence occ;
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (ct.trackSkipped[ti]) continue;
        const Track& tr = t.tracks[ti];
        const SliceColumns& c = tr.slices;
        const auto& roles = ct.roles[ti];
        bool hasHostOps = false;
        for (SliceRole r : roles)
            if (r == SliceRole::HostOp) { hasHostOps = true; break; }
        std::vector<TimeNs> self;
        if (hasHostOps)
            self = tr.kind == TrackKind::Thread
                       ? computeSelfTimes(c, [&](size_t i) { return roles[i] == SliceRole::HostOp; })
                       : std::vector<TimeNs>(c.duration.begin(), c.duration.end());
        for (uint32_t i = 0; i < c.size(); ++i) {
            analysisTick();
            const SliceRole role = roles[i];
            const SliceRef ref{ti, i};
            OpNameType nt;
            if (role == SliceRole::HostOp) {
                nt = hostOpNameType(ct, ref);
                occ.side = OpSide::Host;
                occ.selfNs = self[i];
                occ.usesTensorCore = false;
            } else if (role == SliceRole::Kernel || role == SliceRole::Memcpy || role == SliceRole::Memset) {
                nt = deviceOpNameType(ct, ref);
                if (grouping == OpGrouping::ByHloOp && ct.isXSpace) {
                    std::string hlo = sliceArgText(t, ref, "hlo_op");
                    if (!hlo.empty()) {
                        std::string module = sliceArgText(t, ref, "hlo_module");
                        nt = {std::move(hlo), module.empty() ? std::string(deviceKindName(role)) : std::move(module)};
                    }
                }
                occ.side = OpSide::Device;
                // Device activities do not nest: all their time is self time.
                occ.selfNs = c.duration[i];
                occ.usesTensorCore = role == SliceRole::Kernel && kernelUsesTensorCore(fullNameOf(t, ref));
            } else {
                continue;
            }
            if (grouping == OpGrouping::ByType) nt.name = nt.type;
            occ.name = &nt.name;
            occ.type = &nt.type;
            occ.slice = ref;
            occ.durationNs = c.duration[i];
            occ.role = role;
            visit(occ);
        }
    }
}

}  // namespace tracescope
