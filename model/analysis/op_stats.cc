#include "model/analysis/op_stats.h"

#include "model/analysis/analysis_progress.h"

#include "model/analysis/op_iteration.h"
#include "model/analysis/self_time.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace tracescope {

const char* opSideName(OpSide side) { return side == OpSide::Host ? "host" : "device"; }

std::vector<PieEntry> makePie(std::vector<std::pair<std::string, TimeNs>> values, size_t topN) {
    std::sort(values.begin(), values.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    TimeNs total = 0;
    for (const auto& v : values) addSat(total, v.second);
    std::vector<PieEntry> pie;
    TimeNs other = 0;
    size_t folded = 0;
    for (size_t i = 0; i < values.size(); ++i) {
        if (values[i].second <= 0) continue;
        if (i < topN) {
            pie.push_back({values[i].first, values[i].second, 0});
        } else {
            addSat(other, values[i].second);
            ++folded;
        }
    }
    if (other > 0) pie.push_back({"other", other, 0, folded});
    for (auto& p : pie) p.percent = total > 0 ? 100.0 * double(p.valueNs) / double(total) : 0;
    return pie;
}

namespace {

std::string rowKey(OpSide side, const std::string& name, const std::string& type) {
    std::string k;
    k.reserve(name.size() + type.size() + 3);
    k += side == OpSide::Host ? 'h' : 'd';
    k += name;
    k += '\x1f';
    k += type;
    return k;
}

// Per device: its active window (first activity start to last activity end, as HTA's
// temporal breakdown measures it) minus the union of its activity; time before the device's
// first and after its last activity is not idle, it is outside the device's work. Per host
// thread with ops: the span of its ops minus the union of its ops (XProf adds IDLE for
// uncovered line time). TF1's lanes are not threads but a drawing of one device's executor,
// so there the span is per device (process); and TF1's GPU tracer shows one GPU as several
// devices ("…/stream:all" for kernels, "…/memcpy" for copies): they are one device here, not
// a GPU of kernels idle during the copies and a GPU of copies idle during the kernels.
void computeIdle(const ClassifiedTrace& ct, TimeNs& hostIdle, TimeNs& deviceIdle, size_t& deviceCount) {
    const Trace& t = *ct.trace;
    // The device of each process: itself, or for TF1 the first process of the same GPU.
    std::vector<ProcessIndex> deviceOf(t.processes.size());
    std::map<std::string, ProcessIndex> tf1Gpus;
    for (ProcessIndex p = 0; p < t.processes.size(); ++p)
        deviceOf[p] = ct.isTf1 ? tf1Gpus.try_emplace(tf1GpuName(t.processes[p].name), p).first->second : p;
    std::map<ProcessIndex, std::vector<std::pair<TimeNs, TimeNs>>> perDevice;
    std::map<int64_t, std::vector<std::pair<TimeNs, TimeNs>>> perHostLine;
    hostIdle = 0;
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (ct.trackSkipped[ti]) continue;
        const SliceColumns& c = t.tracks[ti].slices;
        auto& hostOps = perHostLine[ct.isTf1 ? int64_t(t.tracks[ti].process) : -1 - int64_t(ti)];
        for (size_t i = 0; i < c.size(); ++i) {
            analysisTick();
            const SliceRole r = ct.roles[ti][i];
            if (r == SliceRole::Kernel || r == SliceRole::Memcpy || r == SliceRole::Memset)
                perDevice[t.tracks[ti].process < deviceOf.size() ? deviceOf[t.tracks[ti].process]
                                                                 : t.tracks[ti].process]
                    .push_back({c.start[i], c.end(i)});
            else if (r == SliceRole::HostOp && !xprofLeavesOutHostOp(ct, {ti, uint32_t(i)}))
                hostOps.push_back({c.start[i], c.end(i)});
        }
    }
    for (auto& [line, hostOps] : perHostLine) {
        if (hostOps.empty()) continue;
        TimeNs first = hostOps.front().first, last = hostOps.front().second;
        for (const auto& [s, e] : hostOps) {
            first = std::min(first, s);
            last = std::max(last, e);
        }
        addSat(hostIdle, minusSat(durationBetween(first, last), unionLength(std::move(hostOps))));
    }
    deviceIdle = 0;
    deviceCount = perDevice.size();
    for (auto& [p, iv] : perDevice) {
        TimeNs first = iv.front().first, last = iv.front().second;
        for (const auto& [s, e] : iv) {
            first = std::min(first, s);
            last = std::max(last, e);
        }
        addSat(deviceIdle, std::max<TimeNs>(0, minusSat(durationBetween(first, last), unionLength(std::move(iv)))));
    }
}

}  // namespace

OpStatsResult computeOpStats(const Trace& trace, const OpStatsOptions& options) {
    return computeOpStats(classifyTrace(trace), options);
}

OpStatsResult computeOpStats(const ClassifiedTrace& ct, const OpStatsOptions& options) {
    OpStatsResult res;
    res.options = options;
    std::unordered_map<std::string, size_t> index;
    XprofRuleTally xprofRule;
    forEachOpOccurrence(
        ct, options.grouping,
        [&](const OpOccurrence& o) {
            const std::string key = rowKey(o.side, *o.name, *o.type);
            auto [it, inserted] = index.try_emplace(key, res.rows.size());
            if (inserted) {
                OpStatsRow row;
                row.side = o.side;
                row.name = *o.name;
                row.type = *o.type;
                row.minNs = o.durationNs;
                row.maxNs = o.durationNs;
                res.rows.push_back(std::move(row));
            }
            OpStatsRow& row = res.rows[it->second];
            ++row.occurrences;
            addSat(row.totalNs, o.durationNs);
            addSat(row.selfNs, o.selfNs);
            row.minNs = std::min(row.minNs, o.durationNs);
            row.maxNs = std::max(row.maxNs, o.durationNs);
            if (o.role == SliceRole::Kernel) {
                addSat(row.kernelNs, o.durationNs);
                if (o.usesTensorCore) addSat(row.tensorCoreNs, o.durationNs);
            }
        },
        &xprofRule);
    res.notes = xprofRuleNotes(xprofRule);

    computeIdle(ct, res.hostIdleNs, res.deviceIdleNs, res.deviceCount);

    // Pies before idle rows are added (idle is not an op).
    std::map<std::string, TimeNs> hostOp, hostType, devOp, devType;
    for (const auto& r : res.rows) {
        auto& byOp = r.side == OpSide::Host ? hostOp : devOp;
        auto& byType = r.side == OpSide::Host ? hostType : devType;
        addSat(byOp[r.name], r.selfNs);
        addSat(byType[r.type], r.selfNs);
    }
    auto toVec = [](const std::map<std::string, TimeNs>& m) {
        return std::vector<std::pair<std::string, TimeNs>>(m.begin(), m.end());
    };
    res.hostByOp = makePie(toVec(hostOp), options.pieTopN);
    res.hostByType = makePie(toVec(hostType), options.pieTopN);
    res.deviceByOp = makePie(toVec(devOp), options.pieTopN);
    res.deviceByType = makePie(toVec(devType), options.pieTopN);

    if (options.includeIdle) {
        auto addIdle = [&](OpSide side, TimeNs ns) {
            if (ns <= 0) return;
            OpStatsRow row;
            row.side = side;
            row.name = kIdleOpName;
            row.type = kIdleOpName;
            row.isIdle = true;
            row.occurrences = 0;
            row.totalNs = row.selfNs = row.minNs = row.maxNs = ns;
            res.rows.push_back(std::move(row));
        };
        addIdle(OpSide::Host, res.hostIdleNs);
        addIdle(OpSide::Device, res.deviceIdleNs);
    }

    for (auto& r : res.rows) {
        addSat(r.side == OpSide::Host ? res.hostTotalSelfNs : res.deviceTotalSelfNs, r.selfNs);
        if (r.occurrences > 0) {
            r.avgNs = double(r.totalNs) / double(r.occurrences);
            r.avgSelfNs = double(r.selfNs) / double(r.occurrences);
        }
    }
    std::sort(res.rows.begin(), res.rows.end(), [](const OpStatsRow& a, const OpStatsRow& b) {
        if (a.side != b.side) return a.side == OpSide::Device;
        if (a.selfNs != b.selfNs) return a.selfNs > b.selfNs;
        if (a.name != b.name) return a.name < b.name;
        return a.type < b.type;
    });
    double cumHost = 0, cumDev = 0;
    for (auto& r : res.rows) {
        const TimeNs total = r.side == OpSide::Host ? res.hostTotalSelfNs : res.deviceTotalSelfNs;
        r.selfPercent = total > 0 ? 100.0 * double(r.selfNs) / double(total) : 0;
        double& cum = r.side == OpSide::Host ? cumHost : cumDev;
        cum += r.selfPercent;
        r.cumulativeSelfPercent = cum;
    }
    return res;
}

std::vector<SliceRef> occurrencesOf(const ClassifiedTrace& ct, const OpStatsResult& result, size_t row) {
    std::vector<SliceRef> out;
    if (row >= result.rows.size() || result.rows[row].isIdle) return out;
    const OpStatsRow& r = result.rows[row];
    forEachOpOccurrence(ct, result.options.grouping, [&](const OpOccurrence& o) {
        if (o.side == r.side && *o.name == r.name && *o.type == r.type) out.push_back(o.slice);
    });
    return out;
}

SliceRowIndex sliceRowIndexOf(const ClassifiedTrace& ct, const OpStatsResult& result) {
    std::map<std::tuple<OpSide, std::string_view, std::string_view>, uint32_t> rowOfKey;
    for (size_t i = 0; i < result.rows.size(); ++i)
        if (!result.rows[i].isIdle)
            rowOfKey.emplace(std::tuple(result.rows[i].side, std::string_view(result.rows[i].name),
                                        std::string_view(result.rows[i].type)),
                             uint32_t(i));
    SliceRowIndex index;
    forEachOpOccurrence(ct, result.options.grouping, [&](const OpOccurrence& o) {
        auto it = rowOfKey.find(std::tuple(o.side, std::string_view(*o.name), std::string_view(*o.type)));
        if (it != rowOfKey.end()) index.add(o.slice, it->second);
    });
    index.finish();
    return index;
}

std::vector<SliceRef> occurrencesOf(const Trace& trace, const OpStatsResult& result, size_t row) {
    return occurrencesOf(classifyTrace(trace), result, row);
}
SliceRowIndex sliceRowIndexOf(const Trace& trace, const OpStatsResult& result) {
    return sliceRowIndexOf(classifyTrace(trace), result);
}

}  // namespace tracescope
