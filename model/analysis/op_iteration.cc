#include "model/analysis/op_iteration.h"

#include "model/analysis/analysis_progress.h"

#include "model/analysis/kernel_stats.h"
#include "model/analysis/self_time.h"
#include "model/trace/import_warning.h"

#include <string_view>
#include <unordered_map>

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
    if (ct.isXSpace) return splitXprofDeviceOp(op);
    if (ct.isTf1) {
        std::string type(sliceArgView(*ct.trace, s, ct.keys.tf1Op));
        return {op, type.empty() ? std::string(kind) : std::move(type)};
    }
    // Kineto: the launching cpu_op; the type says what the device did for it.
    return {op, kind};
}

namespace {

// A name for a note: long TensorFlow names ("_send_cond_17/then/_256/…") are cut.
std::string exampleName(std::string_view name) {
    constexpr size_t kMax = 80;
    if (name.size() <= kMax) return std::string(name);
    size_t cut = kMax;
    while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
    return std::string(name.substr(0, cut)) + "…";
}

}  // namespace

std::vector<std::string> xprofRuleNotes(const XprofRuleTally& t) {
    std::vector<std::string> notes;
    if (t.hostEvents > 0)
        notes.push_back("Left out as XProf leaves them out: " + formatWarningCount(t.hostEvents) +
                        " host events named like ops (" + formatWarningDuration(t.hostNs) + " in all, e.g. " +
                        t.hostExample +
                        ") whose names fail XProf's op-name rule (a TensorFlow op name begins with a letter, a digit "
                        "or '.'; TensorFlow's internal _send_*/_recv_* ops do not). They are in no row and in neither "
                        "host busy nor IDLE time; an op around one keeps that time as self time.");
    if (t.deviceActivities > 0)
        notes.push_back("Device activities run for ops that fail XProf's op-name rule (" +
                        formatWarningCount(t.deviceActivities) + " in all, " + formatWarningDuration(t.deviceNs) +
                        ", e.g. " + t.deviceExample + ") are, as in XProf, one device row per op, named by the op's "
                        "whole text, type " + kXprofUnknownOpType + ".");
    return notes;
}

void forEachOpOccurrence(const ClassifiedTrace& ct, OpGrouping grouping,
                         const std::function<void(const OpOccurrence&)>& visit, XprofRuleTally* tally) {
    const Trace& t = *ct.trace;
    OpOccurrence occ;
    std::vector<uint8_t> isOp;
    // Whether a kernel uses Tensor Cores depends on its name only: asked once per name.
    const StringId longNameKey = t.strings.find("long_name");
    std::unordered_map<std::string_view, bool> tensorCoreOf;
    auto usesTensorCore = [&](SliceRef ref) {
        const std::string_view name = fullNameOf(t, ref, longNameKey);
        auto [it, added] = tensorCoreOf.try_emplace(name, false);
        if (added) it->second = kernelUsesTensorCore(name);
        return it->second;
    };
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (ct.trackSkipped[ti]) continue;
        const Track& tr = t.tracks[ti];
        const SliceColumns& c = tr.slices;
        const auto& roles = ct.roles[ti];
        // The host ops that count: XProf's op-name rule drops some (xprofLeavesOutHostOp), and
        // what it drops is no child either (its time stays in the enclosing op's self time).
        bool hasHostOps = false;
        isOp.assign(c.size(), 0);
        for (uint32_t i = 0; i < c.size(); ++i) {
            if (roles[i] != SliceRole::HostOp) continue;
            if (xprofLeavesOutHostOp(ct, {ti, i})) {
                if (tally) {
                    if (tally->hostEvents++ == 0) tally->hostExample = exampleName(fullNameView(ct, {ti, i}));
                    addSat(tally->hostNs, c.duration[i]);
                }
                continue;
            }
            isOp[i] = 1;
            hasHostOps = true;
        }
        std::vector<TimeNs> self;
        if (hasHostOps)
            self = tr.kind == TrackKind::Thread ? computeSelfTimes(c, [&](size_t i) { return isOp[i] != 0; })
                                                : std::vector<TimeNs>(c.duration.begin(), c.duration.end());
        for (uint32_t i = 0; i < c.size(); ++i) {
            analysisTick();
            const SliceRole role = roles[i];
            const SliceRef ref{ti, i};
            OpNameType nt;
            if (role == SliceRole::HostOp) {
                if (!isOp[i]) continue;
                nt = hostOpNameType(ct, ref);
                occ.side = OpSide::Host;
                occ.selfNs = self[i];
                occ.usesTensorCore = false;
            } else if (role == SliceRole::Kernel || role == SliceRole::Memcpy || role == SliceRole::Memset) {
                nt = deviceOpNameType(ct, ref);
                if (tally && ct.isXSpace && nt.type == kXprofUnknownOpType && !isXprofOpName(nt.name) &&
                    nt.name.find(':') != std::string::npos) {
                    if (tally->deviceActivities++ == 0) tally->deviceExample = exampleName(nt.name);
                    addSat(tally->deviceNs, c.duration[i]);
                }
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
                occ.usesTensorCore = role == SliceRole::Kernel && usesTensorCore(ref);
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
