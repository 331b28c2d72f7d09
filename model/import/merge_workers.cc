#include "model/import/merge_workers.h"

#include <algorithm>
#include <limits>
#include <map>

namespace tracescope {

std::string workerProcessPrefix(const WorkerTrace& w) { return w.name + ": "; }

namespace {

// A worker's string ids -> the merged table's, interned on first use.
class StringMap {
public:
    StringMap(const StringTable& from, StringTable& to) : from_(from), to_(to), ids_(from.size(), kNoIndex) {}
    StringId operator()(StringId id) {
        if (id >= ids_.size()) return kEmptyString;
        if (ids_[id] == kNoIndex) ids_[id] = to_.intern(from_.get(id));
        return ids_[id];
    }

private:
    const StringTable& from_;
    StringTable& to_;
    std::vector<StringId> ids_;
};

// Re-encodes one event's args with the merged string ids into `blob`.
ArgsOffset remapArgs(std::span<const uint8_t> src, ArgsOffset offset, StringMap& map, std::vector<uint8_t>& blob) {
    if (offset == kNoArgs) return kNoArgs;
    ArgsReader reader(src, offset);
    ArgsWriter writer;
    Arg a;
    while (reader.next(a)) {
        if (a.value.type == ArgValue::Type::String || a.value.type == ArgValue::Type::Json) a.value.s = map(a.value.s);
        writer.add(map(a.key), a.value);
    }
    return writer.appendTo(blob);
}

}  // namespace

std::unique_ptr<Trace> mergeWorkers(const MultiWorkerRun& run, const std::vector<TimeNs>& offsets) {
    auto out = std::make_unique<Trace>();
    Trace& m = *out;
    m.originNs = 0;
    m.originUnixNs = run.originUnixNs;
    TimeNs lo = std::numeric_limits<TimeNs>::max(), hi = std::numeric_limits<TimeNs>::min();
    std::map<std::pair<StringId, StringId>, uint32_t> flowKinds;
    for (size_t w = 0; w < run.workers.size(); ++w) {
        const WorkerTrace& wt = run.workers[w];
        if (!wt.trace) continue;
        const Trace& t = *wt.trace;
        if (m.format.empty()) m.format = t.format;
        const TimeNs shift = w < offsets.size() ? offsets[w] : wt.offsetNs;
        const auto processBase = ProcessIndex(m.processes.size());
        const auto trackBase = TrackIndex(m.tracks.size());
        StringMap map(t.strings, m.strings);
        const std::string prefix = workerProcessPrefix(wt);
        for (const Process& p : t.processes) {
            Process np = p;
            np.name = prefix + p.name;
            if (np.host.empty()) np.host = wt.name;
            for (TrackIndex& ti : np.tracks) ti += trackBase;
            // Workers stay together, in rank order: the file's sort indices order within a worker only.
            np.hasSortIndex = false;
            m.processes.push_back(std::move(np));
        }
        for (const Track& tr : t.tracks) {
            Track nt;
            nt.kind = tr.kind;
            nt.process = tr.process == kNoIndex ? kNoIndex : tr.process + processBase;
            nt.name = tr.name;
            nt.tid = tr.tid;
            nt.sortIndex = tr.sortIndex;
            nt.hasSortIndex = tr.hasSortIndex;
            nt.overflowOf = tr.overflowOf == kNoIndex ? kNoIndex : tr.overflowOf + trackBase;
            nt.maxDepth = tr.maxDepth;
            nt.slices = tr.slices;
            for (TimeNs& x : nt.slices.start) x += shift;
            for (StringId& s : nt.slices.name) s = map(s);
            for (StringId& s : nt.slices.category) s = map(s);
            for (ArgsOffset& a : nt.slices.args) a = remapArgs(tr.argBytes(), a, map, nt.argBlob);
            nt.instants = tr.instants;
            for (TimeNs& x : nt.instants.time) x += shift;
            for (StringId& s : nt.instants.name) s = map(s);
            for (StringId& s : nt.instants.category) s = map(s);
            for (ArgsOffset& a : nt.instants.args) a = remapArgs(tr.argBytes(), a, map, nt.argBlob);
            nt.counter = tr.counter;
            for (TimeNs& x : nt.counter.time) x += shift;
            m.tracks.push_back(std::move(nt));
        }
        for (const Flow& f : t.flows) {
            const FlowKind& k = t.flowKinds[f.kind];
            const auto key = std::pair{map(k.name), map(k.category)};
            auto [it, added] = flowKinds.try_emplace(key, uint32_t(m.flowKinds.size()));
            if (added) m.flowKinds.push_back({key.first, key.second});
            m.flows.push_back({{f.from.track + trackBase, f.from.index}, {f.to.track + trackBase, f.to.index}, it->second});
        }
        for (const auto& [k, v] : t.metadata) m.metadata.emplace_back(prefix + k, v);
        if (t.hosts.empty()) m.hosts.push_back(wt.name);
        else m.hosts.insert(m.hosts.end(), t.hosts.begin(), t.hosts.end());
        for (const ImportWarning& x : t.warnings) m.warnings.push_back(workerWarning(x, wt.name));
        if (t.endNs > t.startNs || !t.processes.empty()) {
            lo = std::min(lo, t.startNs + shift);
            hi = std::max(hi, t.endNs + shift);
        }
    }
    for (const ImportWarning& x : run.warnings) m.warnings.push_back(x);
    m.metadata.emplace_back("workers", std::to_string(run.workers.size()));
    if (lo <= hi) {
        m.startNs = lo;
        m.endNs = hi;
    }
    return out;
}

}  // namespace tracescope
