#include "model/analysis/step_groups.h"

#include "model/analysis/analysis_progress.h"

#include <algorithm>
#include <deque>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace tracescope {

namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// An integer stat as XProf compares it (IntOrUintValue: the 64 bits, whatever the sign).
bool bitsOf(const ArgValue& v, uint64_t& out) {
    if (v.type == ArgValue::Type::Int) out = static_cast<uint64_t>(v.i);
    else if (v.type == ArgValue::Type::UInt) out = v.u;
    else return false;
    return true;
}

struct Keys {
    StringId root, producerType, producerId, consumerType, consumerId, stepId, iterNum, stepNum, groupId;
};

// The stats of one event that grouping reads.
struct GroupingStats {
    bool hasRoot = false, hasProducer = false, hasConsumer = false, hasStepId = false, hasIter = false;
    bool hasStepNum = false, hasGroup = false;
    int64_t rootLevel = 0, stepNum = 0, groupId = 0;
    uint64_t producerType = 0, producerId = 0, consumerType = 0, consumerId = 0, stepId = 0, iterNum = 0;
};

GroupingStats statsOf(const Track& tr, ArgsOffset args, const Keys& k) {
    GroupingStats s;
    if (args == kNoArgs) return s;
    ArgsReader r(tr.argsView(), args);
    Arg a;
    bool pt = false, p = false, ct = false, c = false;
    while (r.next(a)) {
        uint64_t bits = 0;
        if (!bitsOf(a.value, bits)) continue;
        const StringId key = a.key;
        if (key == k.root) s.hasRoot = true, s.rootLevel = static_cast<int64_t>(bits);
        else if (key == k.producerType) pt = true, s.producerType = bits;
        else if (key == k.producerId) p = true, s.producerId = bits;
        else if (key == k.consumerType) ct = true, s.consumerType = bits;
        else if (key == k.consumerId) c = true, s.consumerId = bits;
        else if (key == k.stepId) s.hasStepId = true, s.stepId = bits;
        else if (key == k.iterNum) s.hasIter = true, s.iterNum = bits;
        else if (key == k.stepNum) s.hasStepNum = true, s.stepNum = static_cast<int64_t>(bits);
        else if (key == k.groupId) s.hasGroup = true, s.groupId = static_cast<int64_t>(bits);
    }
    s.hasProducer = pt && p;
    s.hasConsumer = ct && c;
    return s;
}

struct PairHash {
    size_t operator()(const std::pair<uint64_t, uint64_t>& p) const {
        return std::hash<uint64_t>()(p.first * 0x9E3779B97F4A7C15ull ^ p.second);
    }
};

bool isTfDataFunctionRun(std::string_view n) {
    return n == "InstantiatedCapturedFunction::Run" || n == "InstantiatedCapturedFunction::RunAsync" ||
           n == "InstantiatedCapturedFunction::RunInstantiated" ||
           n == "InstantiatedCapturedFunction::RunWithBorrowedArgs";
}

// Host thread tracks take part; device planes and counters do not.
bool groupedTrack(const ClassifiedTrace& ct, TrackIndex ti) {
    const Track& tr = ct.trace->tracks[ti];
    return tr.kind == TrackKind::Thread && !ct.trackOnDevice[ti] && !ct.trackSkipped[ti];
}

// Nesting on one thread as XProf's EventForest connects it (ConnectIntraThread): the thread's
// events in start order (longer first on ties), each one the child of the latest event still
// open that contains it in time; events that do not contain it are closed. An event that only
// partly overlaps an open one (a step annotation that begins inside a Python frame and ends after
// it) closes that one and still owns what starts inside its own interval. The display puts such
// events in overflow lanes; here a thread's lanes are one sequence again, so grouping does not
// depend on how the timeline draws them.
std::vector<std::pair<uint32_t, uint32_t>> nestingEdges(const ClassifiedTrace& ct, const std::vector<uint32_t>& base) {
    const Trace& t = *ct.trace;
    const size_t nt = t.tracks.size();
    std::vector<std::vector<TrackIndex>> lanesOf(nt);  // a thread's own track first, then its overflow lanes
    for (TrackIndex ti = 0; ti < nt; ++ti) {
        if (!groupedTrack(ct, ti)) continue;
        const TrackIndex owner = t.tracks[ti].overflowOf;
        lanesOf[owner != kNoIndex && owner < nt ? owner : ti].push_back(ti);
    }
    std::vector<std::pair<uint32_t, uint32_t>> edges;
    std::vector<ThreadSlice> open;
    for (TrackIndex ti = 0; ti < nt; ++ti) {
        if (lanesOf[ti].empty()) continue;
        open.clear();
        for (const ThreadSlice& ev : threadSlicesInLineOrder(t, lanesOf[ti])) {
            analysisTick();
            while (!open.empty() && !(open.back().start <= ev.start && ev.end <= open.back().end)) open.pop_back();
            const auto node = [&](SliceRef r) { return base[r.track] + r.index; };
            if (!open.empty()) edges.push_back({node(open.back().ref), node(ev.ref)});
            open.push_back(ev);
        }
    }
    return edges;
}

}  // namespace

std::vector<ThreadSlice> threadSlicesInLineOrder(const Trace& trace, const std::vector<TrackIndex>& lanes) {
    std::vector<ThreadSlice> out;
    for (TrackIndex lane : lanes) {
        const SliceColumns& c = trace.tracks[lane].slices;
        for (uint32_t i = 0; i < c.size(); ++i) out.push_back({c.start[i], c.end(i), SliceRef{lane, i}});
    }
    // One lane is sorted already (start, longer first).
    if (lanes.size() > 1)
        std::stable_sort(out.begin(), out.end(), [](const ThreadSlice& a, const ThreadSlice& b) {
            return a.start != b.start ? a.start < b.start : a.end > b.end;
        });
    return out;
}

bool isExplicitStepMarkerName(std::string_view n) {
    return (startsWith(n, "train") || startsWith(n, "test") || startsWith(n, "TraceContext")) &&
           n.find('/') == std::string_view::npos;
}

bool isImplicitRootName(std::string_view n) {
    return n == "FunctionRun" || n == "SessionRun" || n == "RunGraph" || n == "ExecutorState::Process";
}

StepGroups groupHostEvents(const ClassifiedTrace& ct) {
    StepGroups out;
    if (!ct.isXSpace || !ct.trace) return out;
    const Trace& t = *ct.trace;
    const Keys k{t.strings.find("_r"),  t.strings.find("_pt"),      t.strings.find("_p"),
                 t.strings.find("_ct"), t.strings.find("_c"),       t.strings.find("id"),
                 t.strings.find("iter_num"), t.strings.find("step_num"), t.strings.find("group_id")};
    const size_t nt = t.tracks.size();
    out.groupOf.resize(nt);

    // Flat node numbering over the grouped tracks' slices.
    std::vector<uint32_t> base(nt + 1, 0);
    for (TrackIndex ti = 0; ti < nt; ++ti)
        base[ti + 1] = base[ti] + (groupedTrack(ct, ti) ? uint32_t(t.tracks[ti].slices.size()) : 0);
    const uint32_t n = base[nt];
    if (n == 0) return out;
    std::vector<SliceRef> refOf(n);
    std::vector<GroupingStats> stats(n);
    for (TrackIndex ti = 0; ti < nt; ++ti) {
        if (!groupedTrack(ct, ti)) continue;
        const Track& tr = t.tracks[ti];
        for (uint32_t i = 0; i < tr.slices.size(); ++i) {
            refOf[base[ti] + i] = {ti, i};
            stats[base[ti] + i] = statsOf(tr, tr.slices.args[i], k);
        }
    }

    // A file grouped by its producer (TF 2.4-era profiles) keeps its groups, as in XProf
    // (IsXSpaceGrouped: no regrouping).
    if (k.groupId != kNoIndex && std::any_of(stats.begin(), stats.end(), [](const auto& s) { return s.hasGroup; })) {
        out.fromFile = true;
        std::map<int64_t, int32_t> index;
        for (uint32_t v = 0; v < n; ++v)
            if (stats[v].hasGroup) index.emplace(stats[v].groupId, 0);
        for (auto& [id, idx] : index) {
            idx = int32_t(out.groups.size());
            out.groups.push_back({SliceRef{}, id, id});
        }
        for (TrackIndex ti = 0; ti < nt; ++ti)
            if (groupedTrack(ct, ti)) out.groupOf[ti].assign(t.tracks[ti].slices.size(), kNoStepGroup);
        for (uint32_t v = 0; v < n; ++v)
            if (stats[v].hasGroup) out.groupOf[refOf[v].track][refOf[v].index] = index[stats[v].groupId];
        return out;
    }

    // Edges parent -> child.
    std::vector<std::pair<uint32_t, uint32_t>> edges = nestingEdges(ct, base);
    struct ContextGroup {
        std::vector<uint32_t> producers, consumers;
    };
    std::unordered_map<std::pair<uint64_t, uint64_t>, ContextGroup, PairHash> contexts;
    std::unordered_map<std::pair<uint64_t, uint64_t>, uint32_t, PairHash> executors;  // (id, iter_num)
    std::vector<uint32_t> getNextOps;
    std::unordered_set<uint64_t> tfDataStepIds;
    for (uint32_t v = 0; v < n; ++v) {
        const GroupingStats& s = stats[v];
        if (s.hasProducer) contexts[{s.producerType, s.producerId}].producers.push_back(v);
        if (s.hasConsumer) contexts[{s.consumerType, s.consumerId}].consumers.push_back(v);
        if (!s.hasStepId) continue;
        const std::string_view name = fullNameView(ct, refOf[v]);
        if (s.hasIter && name == "ExecutorState::Process") executors[{s.stepId, s.iterNum}] = v;
        else if (s.hasIter && (name == "IteratorGetNextOp::DoCompute" || name == "IteratorGetNextAsOptionalOp::DoCompute"))
            getNextOps.push_back(v);
        else if (isTfDataFunctionRun(name)) tfDataStepIds.insert(s.stepId);
    }
    for (const auto& [key, g] : contexts) {
        // XProf skips a context shared by 64 or more producers and 64 or more consumers.
        if (g.producers.size() >= 64 && g.consumers.size() >= 64) continue;
        for (uint32_t p : g.producers)
            for (uint32_t c : g.consumers) edges.push_back({p, c});
    }
    for (uint32_t v : getNextOps)
        if (auto it = executors.find({stats[v].stepId, stats[v].iterNum}); it != executors.end())
            edges.push_back({it->second, v});

    // Children and parents in CSR form.
    std::vector<uint32_t> childStart(n + 1, 0), parentStart(n + 1, 0);
    for (const auto& [p, c] : edges) ++childStart[p + 1], ++parentStart[c + 1];
    for (uint32_t v = 0; v < n; ++v) childStart[v + 1] += childStart[v], parentStart[v + 1] += parentStart[v];
    std::vector<uint32_t> children(edges.size()), parentsOf(edges.size());
    {
        std::vector<uint32_t> cf(childStart.begin(), childStart.end() - 1), pf(parentStart.begin(), parentStart.end() - 1);
        for (const auto& [p, c] : edges) children[cf[p]++] = c, parentsOf[pf[c]++] = p;
    }
    edges.clear();
    edges.shrink_to_fit();

    // Roots: _r (its value is the level) or a legacy "TraceContext"; not tf.data functions' steps.
    std::vector<int64_t> level(n, 0);
    std::vector<uint32_t> roots;
    for (uint32_t v = 0; v < n; ++v) {
        const GroupingStats& s = stats[v];
        if (s.hasRoot) level[v] = s.rootLevel;
        else if (fullNameView(ct, refOf[v]) == "TraceContext") level[v] = 1;
        if (level[v] <= 0) continue;
        if (s.hasStepId && tfDataStepIds.count(s.stepId)) continue;
        roots.push_back(v);
    }
    if (roots.empty()) return out;
    auto startOf = [&](uint32_t v) { return t.tracks[refOf[v].track].slices.start[refOf[v].index]; };
    std::stable_sort(roots.begin(), roots.end(), [&](uint32_t a, uint32_t b) {
        return level[a] != level[b] ? level[a] > level[b] : startOf(a) < startOf(b);
    });

    std::vector<int32_t> group(n, kNoStepGroup);
    std::vector<uint32_t> seenMark(n, 0);  // visit stamps for the searches below
    uint32_t stamp = 0;
    std::deque<uint32_t> queue;
    // XProf's RootNeedsGrouping: a root below a root of the same level (through any link) is
    // grouped with that one.
    auto hasRootAncestorOfLevel = [&](uint32_t root) {
        ++stamp;
        queue.clear();
        seenMark[root] = stamp;
        for (uint32_t e = parentStart[root]; e < parentStart[root + 1]; ++e) {
            const uint32_t p = parentsOf[e];
            if (seenMark[p] != stamp) seenMark[p] = stamp, queue.push_back(p);
        }
        while (!queue.empty()) {
            const uint32_t v = queue.front();
            queue.pop_front();
            if (level[v] > 0 && level[v] == level[root]) return true;
            for (uint32_t e = parentStart[v]; e < parentStart[v + 1]; ++e) {
                const uint32_t p = parentsOf[e];
                if (seenMark[p] != stamp) seenMark[p] = stamp, queue.push_back(p);
            }
        }
        return false;
    };
    // The root's step number: its (or an ancestor's) iter_num, else step_num (GetGroupName).
    auto numberOf = [&](uint32_t root, int64_t fallback) {
        for (bool iter : {true, false}) {
            ++stamp;
            queue.assign(1, root);
            seenMark[root] = stamp;
            while (!queue.empty()) {
                const uint32_t v = queue.front();
                queue.pop_front();
                if (iter && stats[v].hasIter) return static_cast<int64_t>(stats[v].iterNum);
                if (!iter && stats[v].hasStepNum) return stats[v].stepNum;
                for (uint32_t e = parentStart[v]; e < parentStart[v + 1]; ++e) {
                    const uint32_t p = parentsOf[e];
                    if (seenMark[p] != stamp) seenMark[p] = stamp, queue.push_back(p);
                }
            }
        }
        return fallback;
    };

    for (uint32_t root : roots) {
        if (group[root] != kNoStepGroup || hasRootAncestorOfLevel(root)) continue;
        const int32_t g = int32_t(out.groups.size());
        out.groups.push_back({refOf[root], int64_t(g), numberOf(root, int64_t(g))});
        // PropagateGroupId: the group takes every event it reaches that has no group yet, and
        // goes on only through those.
        queue.assign(1, root);
        group[root] = g;
        while (!queue.empty()) {
            const uint32_t v = queue.front();
            queue.pop_front();
            for (uint32_t e = childStart[v]; e < childStart[v + 1]; ++e) {
                const uint32_t c = children[e];
                if (group[c] != kNoStepGroup) continue;
                group[c] = g;
                queue.push_back(c);
            }
        }
    }
    for (TrackIndex ti = 0; ti < nt; ++ti)
        if (groupedTrack(ct, ti)) out.groupOf[ti].assign(group.begin() + base[ti], group.begin() + base[ti + 1]);
    return out;
}

}  // namespace tracescope
