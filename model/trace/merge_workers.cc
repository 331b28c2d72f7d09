#include "model/trace/merge_workers.h"

#include "model/trace/args_compaction.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>

namespace tracescope {

std::string workerProcessPrefix(const WorkerTrace& w) { return w.name + ": "; }

namespace {

// A source trace's string ids -> the built trace's, interned on first use.
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

// Re-encodes one event's args with the built trace's string ids into `blob`.
ArgsOffset remapArgs(ArgsView src, ArgsOffset offset, StringMap& map, std::vector<uint8_t>& blob) {
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

using FlowKindIds = std::map<std::pair<StringId, StringId>, uint32_t>;

// Appends the processes and tracks `from` names in `src` (a whole worker trace, or one worker of
// a view) to `out`: times moved by `shift`, string ids and indices renumbered, each process
// passed through `adjust`, the flows that leave those tracks kept. Returns where they went.
WorkerSpan appendRange(Trace& out, const Trace& src, const WorkerSpan& from, TimeNs shift,
                       const std::function<void(Process&)>& adjust, FlowKindIds& flowKinds) {
    WorkerSpan to = from;
    to.firstProcess = ProcessIndex(out.processes.size());
    to.firstTrack = TrackIndex(out.tracks.size());
    StringMap map(src.strings, out.strings);
    auto trackIn = [&](TrackIndex t) { return t >= from.firstTrack && t - from.firstTrack < from.trackCount; };
    auto newTrack = [&](TrackIndex t) { return trackIn(t) ? t - from.firstTrack + to.firstTrack : kNoIndex; };
    for (uint32_t p = 0; p < from.processCount; ++p) {
        Process np = src.processes[from.firstProcess + p];
        for (TrackIndex& ti : np.tracks) ti = newTrack(ti);
        std::erase(np.tracks, kNoIndex);
        if (adjust) adjust(np);
        out.processes.push_back(std::move(np));
    }
    for (uint32_t k = 0; k < from.trackCount; ++k) {
        const Track& tr = src.tracks[from.firstTrack + k];
        Track nt;
        nt.kind = tr.kind;
        const bool ownProcess = tr.process != kNoIndex && tr.process >= from.firstProcess &&
                                tr.process - from.firstProcess < from.processCount;
        nt.process = ownProcess ? tr.process - from.firstProcess + to.firstProcess : kNoIndex;
        nt.name = tr.name;
        nt.tid = tr.tid;
        nt.sortIndex = tr.sortIndex;
        nt.hasSortIndex = tr.hasSortIndex;
        nt.overflowOf = tr.overflowOf == kNoIndex ? kNoIndex : newTrack(tr.overflowOf);
        nt.maxDepth = tr.maxDepth;
        nt.slices = tr.slices;
        nt.slices.start.shift(shift);
        nt.slices.name.remap(std::ref(map));
        nt.slices.category.remap(std::ref(map));
        for (ArgsOffset& a : nt.slices.args) a = remapArgs(tr.argsView(), a, map, nt.argBlob);
        nt.instants = tr.instants;
        nt.instants.time.shift(shift);
        nt.instants.name.remap(std::ref(map));
        nt.instants.category.remap(std::ref(map));
        for (ArgsOffset& a : nt.instants.args) a = remapArgs(tr.argsView(), a, map, nt.argBlob);
        nt.counter = tr.counter;
        for (TimeNs& x : nt.counter.time) addSat(x, shift);
        compactArgs(nt);
        out.tracks.push_back(std::move(nt));
    }
    // Flows are sorted by `from`: those leaving these tracks stay sorted after the ones already in `out`.
    for (const Flow& f : src.flows) {
        if (!trackIn(f.from.track) || !trackIn(f.to.track)) continue;
        const FlowKind& k = src.flowKinds[f.kind];
        const auto key = std::pair{map(k.name), map(k.category)};
        auto [it, added] = flowKinds.try_emplace(key, uint32_t(out.flowKinds.size()));
        if (added) out.flowKinds.push_back({key.first, key.second});
        out.flows.push_back({{newTrack(f.from.track), f.from.index}, {newTrack(f.to.track), f.to.index}, it->second});
    }
    return to;
}

// The view's span on the run's clock: every merged worker's own span moved by its offset.
void setRunSpan(Trace& m, const MultiWorkerRun& run) {
    TimeNs lo = std::numeric_limits<TimeNs>::max(), hi = std::numeric_limits<TimeNs>::min();
    for (const WorkerTrace& w : run.workers) {
        if (!w.merged || (w.merged->endNs <= w.merged->startNs && w.merged->processCount == 0)) continue;
        lo = std::min(lo, plusSat(w.merged->startNs, w.offsetNs));
        hi = std::max(hi, plusSat(w.merged->endNs, w.offsetNs));
    }
    if (lo <= hi) {
        m.startNs = lo;
        m.endNs = hi;
    }
}

}  // namespace

std::shared_ptr<const Trace> mergeWorkers(MultiWorkerRun& run) { return mergeWorkersToTrace(run); }

std::unique_ptr<Trace> mergeWorkersToTrace(MultiWorkerRun& run) {
    auto out = std::make_unique<Trace>();
    Trace& m = *out;
    m.originNs = 0;
    m.originUnixNs = run.originUnixNs;
    FlowKindIds flowKinds;
    for (WorkerTrace& wt : run.workers) {
        if (!wt.trace) continue;
        const Trace& t = *wt.trace;
        if (m.format.empty()) m.format = t.format;
        const std::string prefix = workerProcessPrefix(wt);
        const WorkerSpan whole{0, uint32_t(t.processes.size()), 0, uint32_t(t.tracks.size()), t.startNs, t.endNs};
        wt.merged = appendRange(
            m, t, whole, wt.offsetNs,
            [&](Process& p) {
                p.name = prefix + p.name;
                if (p.host.empty()) p.host = wt.name;
                // Workers stay together, in rank order: the file's sort indices order within a worker only.
                p.hasSortIndex = false;
            },
            flowKinds);
        for (const auto& [k, v] : t.metadata) m.metadata.emplace_back(prefix + k, v);
        for (XlaProgramBlob p : t.xlaPrograms) {
            p.host = p.host.empty() ? wt.name : wt.name + "/" + p.host;
            m.xlaPrograms.push_back(std::move(p));
        }
        if (t.hosts.empty()) m.hosts.push_back(wt.name);
        else m.hosts.insert(m.hosts.end(), t.hosts.begin(), t.hosts.end());
        for (const ImportWarning& x : t.warnings) m.warnings.push_back(workerWarning(x, wt.name));
        wt.trace.reset();  // its events live in the view now (freed unless someone else holds it)
    }
    for (const ImportWarning& x : run.warnings) m.warnings.push_back(x);
    m.metadata.emplace_back("workers", std::to_string(run.workers.size()));
    setRunSpan(m, run);
    return out;
}

std::shared_ptr<const Trace> remergeWorkers(const Trace& view, MultiWorkerRun& run,
                                            const std::vector<TimeNs>& offsets) {
    auto out = std::make_shared<Trace>();
    Trace& m = *out;
    m.format = view.format;
    m.originNs = view.originNs;
    m.originUnixNs = view.originUnixNs;
    m.metadata = view.metadata;
    m.xlaPrograms = view.xlaPrograms;
    m.hosts = view.hosts;
    m.warnings = view.warnings;
    FlowKindIds flowKinds;
    for (size_t w = 0; w < run.workers.size(); ++w) {
        WorkerTrace& wt = run.workers[w];
        if (!wt.merged) continue;
        const TimeNs offset = w < offsets.size() ? offsets[w] : wt.offsetNs;
        wt.merged = appendRange(m, view, *wt.merged, minusSat(offset, wt.offsetNs), nullptr, flowKinds);
        if (offset != wt.offsetNs) setWorkerOffset(wt, offset);
    }
    setRunSpan(m, run);
    return out;
}

std::unique_ptr<Trace> workerTraceOf(const Trace& view, const WorkerTrace& w) {
    if (!w.merged || w.merged->firstProcess + uint64_t(w.merged->processCount) > view.processes.size() ||
        w.merged->firstTrack + uint64_t(w.merged->trackCount) > view.tracks.size())
        return nullptr;
    auto out = std::make_unique<Trace>();
    Trace& t = *out;
    t.format = view.format;
    if (view.originUnixNs) t.originUnixNs = plusSat(*view.originUnixNs, w.offsetNs);
    const std::string prefix = workerProcessPrefix(w);
    FlowKindIds flowKinds;
    appendRange(
        t, view, *w.merged, minusSat(0, w.offsetNs),
        [&](Process& p) {
            if (p.name.rfind(prefix, 0) == 0) p.name.erase(0, prefix.size());
            if (p.host == w.name) p.host.clear();
        },
        flowKinds);
    for (const auto& [k, v] : view.metadata)
        if (k.rfind(prefix, 0) == 0) t.metadata.emplace_back(k.substr(prefix.size()), v);
    // The worker's programs, with the host they had before the merge.
    for (const XlaProgramBlob& p : view.xlaPrograms) {
        const bool whole = p.host == w.name, within = p.host.rfind(w.name + "/", 0) == 0;
        if (!whole && !within) continue;
        t.xlaPrograms.push_back(p);
        t.xlaPrograms.back().host = whole ? std::string() : p.host.substr(w.name.size() + 1);
    }
    t.startNs = w.merged->startNs;
    t.endNs = w.merged->endNs;
    return out;
}

}  // namespace tracescope
