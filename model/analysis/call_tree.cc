#include "model/analysis/call_tree.h"

#include "model/analysis/analysis_progress.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <unordered_map>

namespace tracescope {

namespace {

// Children of a node by name.
struct ChildKey {
    uint32_t parent;
    std::string_view name;
    friend bool operator==(const ChildKey&, const ChildKey&) = default;
};
struct ChildKeyHash {
    size_t operator()(const ChildKey& k) const {
        return std::hash<std::string_view>()(k.name) * 0x9E3779B97F4A7C15ull ^ k.parent;
    }
};

// Builds a tree's nodes; names are views that outlive it (the trace's strings or ownedNames).
class NodeBuilder {
public:
    explicit NodeBuilder(CallTree& tree) : tree_(tree) {
        tree_.nodes.clear();
        CallNode root;
        root.synthetic = true;
        tree_.nodes.push_back(root);
    }
    uint32_t child(uint32_t parent, std::string_view name) {
        auto [it, added] = index_.try_emplace(ChildKey{parent, name}, 0);
        if (added) {
            it->second = uint32_t(tree_.nodes.size());
            CallNode n;
            n.name = name;
            n.parent = parent;
            n.depth = tree_.nodes[parent].depth + 1;
            tree_.maxDepth = std::max(tree_.maxDepth, n.depth);
            tree_.nodes.push_back(n);
            tree_.nodes[parent].children.push_back(it->second);
        }
        return it->second;
    }

private:
    CallTree& tree_;
    std::unordered_map<ChildKey, uint32_t, ChildKeyHash> index_;
};

// Fills the inclusive figures (a child's index is greater than its parent's) and sorts children.
void finishTree(CallTree& tree) {
    auto& nodes = tree.nodes;
    for (CallNode& n : nodes) {
        if (tree.bottomUp) {
            n.subtreeSelfNs = n.totalNs;
        } else {
            n.deviceNs = n.selfDeviceNs;
            n.totalCount = n.count;
            n.subtreeSelfNs = n.selfNs;
            if (n.synthetic) n.totalNs = 0;
        }
    }
    if (tree.bottomUp) {
        // Routed values are summed already; the root holds what its children hold.
        CallNode& root = nodes[kCallRoot];
        root.totalNs = root.deviceNs = 0;
        root.totalCount = 0;
        for (uint32_t c : root.children) {
            addSat(root.totalNs, nodes[c].totalNs);
            addSat(root.deviceNs, nodes[c].deviceNs);
            root.totalCount += nodes[c].totalCount;
        }
        root.subtreeSelfNs = root.totalNs;
    } else {
        for (size_t i = nodes.size(); i-- > 1;) {
            CallNode& n = nodes[i];
            CallNode& p = nodes[n.parent];
            addSat(p.deviceNs, n.deviceNs);
            p.totalCount += n.totalCount;
            addSat(p.subtreeSelfNs, n.subtreeSelfNs);
            if (p.synthetic) addSat(p.totalNs, n.totalNs);  // a thread frame or the root spans its frames
        }
    }
    for (CallNode& n : nodes)
        std::sort(n.children.begin(), n.children.end(), [&](uint32_t a, uint32_t b) {
            if (nodes[a].totalNs != nodes[b].totalNs) return nodes[a].totalNs > nodes[b].totalNs;
            if (nodes[a].totalCount != nodes[b].totalCount) return nodes[a].totalCount > nodes[b].totalCount;
            return nodes[a].name < nodes[b].name;
        });
}

bool frameTrack(const ClassifiedTrace& ct, TrackIndex ti) {
    const Track& tr = ct.trace->tracks[ti];
    return tr.kind == TrackKind::Thread && !ct.trackOnDevice[ti] && !ct.trackSkipped[ti];
}

bool isDeviceActivity(SliceRole r) {
    return r == SliceRole::Kernel || r == SliceRole::Memcpy || r == SliceRole::Memset;
}

uint64_t refKey(SliceRef s) { return uint64_t(s.track) << 32 | s.index; }
bool refLess(SliceRef a, SliceRef b) { return refKey(a) < refKey(b); }

struct Launched {
    TimeNs deviceNs = 0;
    uint32_t activities = 0;
};

struct OpenFrame {
    TimeNs start, end;          // the slice's own interval (for containment)
    TimeNs clipStart, clipEnd;  // its part in the range
    uint32_t node;
    TimeNs covered = 0;  // union of the children's parts
    TimeNs watermark = 0;
};

// The walk shared by computeCallTree and slicesOfCallNode: builds `tree` and calls
// onSlice(slice, node) for every slice counted.
class Walker {
public:
    Walker(const ClassifiedTrace& ct, const CallTreeOptions& options, CallTree& tree)
        : ct_(ct), t_(*ct.trace), options_(options), tree_(tree), nodes_(tree) {
        tree_.options = options;
        traceCategory_ = t_.strings.find("Trace");
        pythonCategory_ = t_.strings.find("python_function");
        roots_ = options.roots;
        std::sort(roots_.begin(), roots_.end(), refLess);
    }

    void linkDevice() {
        const size_t nt = t_.tracks.size();
        for (TrackIndex ti = 0; ti < nt; ++ti) {
            if (ct_.trackSkipped[ti] || t_.tracks[ti].kind != TrackKind::Thread) continue;
            const SliceColumns& c = t_.tracks[ti].slices;
            for (uint32_t i = 0; i < c.size(); ++i) {
                analysisTick();
                if (!isDeviceActivity(ct_.roles[ti][i])) continue;
                const SliceRef launch = launchOf(ct_, {ti, i});
                if (!launch.valid()) {
                    if (overlaps(c.start[i], c.end(i))) ++tree_.unattributedDevice;
                    continue;
                }
                Launched& l = launched_[refKey(launch)];
                addSat(l.deviceNs, c.duration[i]);
                ++l.activities;
            }
        }
    }

    template <typename OnSlice>
    void walk(OnSlice&& onSlice) {
        const size_t nt = t_.tracks.size();
        std::vector<uint8_t> wanted(nt, options_.tracks.empty() ? 1 : 0);
        for (TrackIndex ti : options_.tracks)
            if (ti < nt) wanted[ti] = 1;
        // A thread's track first, then its overflow lanes.
        std::vector<std::vector<TrackIndex>> lanesOf(nt);
        for (TrackIndex ti = 0; ti < nt; ++ti) {
            if (!frameTrack(ct_, ti)) continue;
            const TrackIndex owner = t_.tracks[ti].overflowOf;
            const TrackIndex thread = owner != kNoIndex && owner < nt ? owner : ti;
            if (wanted[thread]) lanesOf[thread].push_back(ti);
        }
        std::vector<SliceRef> order;
        std::vector<OpenFrame> open;
        for (TrackIndex ti = 0; ti < nt; ++ti) {
            if (lanesOf[ti].empty()) continue;
            collect(lanesOf[ti], order);
            if (order.empty()) continue;
            const uint32_t threadNode = options_.byThread ? threadFrame(ti) : kCallRoot;
            open.clear();
            for (SliceRef s : order) {
                analysisTick();
                const SliceColumns& c = t_.tracks[s.track].slices;
                const TimeNs start = c.start[s.index], end = c.end(s.index);
                while (!open.empty() && !(open.back().start <= start && end <= open.back().end)) close(open);
                const TimeNs clipStart = options_.range ? std::max(start, options_.range->first) : start;
                const TimeNs clipEnd = options_.range ? std::min(end, options_.range->second) : end;
                const TimeNs part = durationBetween(clipStart, clipEnd);
                // With a set of slices, only they and what they enclose count; the others stay open
                // (uncounted, node kNoIndex) so that nesting is still found by containment.
                const bool parentCounted = !open.empty() && open.back().node != kNoIndex;
                if (!roots_.empty() && !parentCounted &&
                    !std::binary_search(roots_.begin(), roots_.end(), s, refLess)) {
                    if (open.size() < kMaxCallDepth)
                        open.push_back({start, end, clipStart, clipEnd, kNoIndex, 0, clipStart});
                    continue;
                }
                ++tree_.slices;
                if (open.size() >= kMaxCallDepth) {
                    // Counted in the deepest kept frame: its self time already covers this part.
                    ++tree_.cutAtDepth;
                    onSlice(s, open.back().node);
                    continue;
                }
                const uint32_t parent = parentCounted ? open.back().node : threadNode;
                if (parentCounted) {
                    OpenFrame& p = open.back();
                    const TimeNs from = std::max(clipStart, p.watermark);
                    if (clipEnd > from) addSat(p.covered, clipEnd - from);
                    p.watermark = std::max(p.watermark, clipEnd);
                }
                const std::string_view name = fullNameView(ct_, s);
                const uint32_t node = nodes_.child(parent, name);
                CallNode& n = tree_.nodes[node];
                addSat(n.totalNs, part);
                ++n.count;
                if (c.category[s.index] == pythonCategory_ && pythonCategory_ != kNoIndex) n.python = true;
                else if (ct_.isXSpace && !name.empty() && name[0] == '$' && pythonLocationOf(name)) n.python = true;
                if (!launched_.empty()) {
                    auto it = launched_.find(refKey(s));
                    if (it != launched_.end()) {
                        addSat(n.selfDeviceNs, it->second.deviceNs);
                        tree_.deviceActivities += it->second.activities;
                    }
                }
                open.push_back({start, end, clipStart, clipEnd, node, 0, clipStart});
                onSlice(s, node);
            }
            while (!open.empty()) close(open);
        }
    }

private:
    bool overlaps(TimeNs start, TimeNs end) const {
        if (!options_.range) return true;
        const auto [from, to] = *options_.range;
        // A zero-length slice at the range's start is in it.
        return start < to && (end > from || (start == end && start >= from));
    }

    // The frame slices of one thread that overlap the range, in (start, longer first) order.
    void collect(const std::vector<TrackIndex>& lanes, std::vector<SliceRef>& out) {
        out.clear();
        for (TrackIndex lane : lanes) {
            const SliceColumns& c = t_.tracks[lane].slices;
            size_t n = c.size();
            if (options_.range)  // slices are sorted by start: none after the range's end counts
                n = size_t(std::lower_bound(c.start.begin(), c.start.end(), options_.range->second) - c.start.begin());
            for (uint32_t i = 0; i < n; ++i) {
                analysisTick();
                if (traceCategory_ != kNoIndex && c.category[i] == traceCategory_) continue;  // profiler spans
                if (!overlaps(c.start[i], c.end(i))) continue;
                out.push_back({lane, i});
            }
        }
        if (lanes.size() > 1)
            std::stable_sort(out.begin(), out.end(), [&](SliceRef a, SliceRef b) {
                const SliceColumns& ca = t_.tracks[a.track].slices;
                const SliceColumns& cb = t_.tracks[b.track].slices;
                if (ca.start[a.index] != cb.start[b.index]) return ca.start[a.index] < cb.start[b.index];
                return ca.end(a.index) > cb.end(b.index);
            });
    }

    void close(std::vector<OpenFrame>& open) {
        const OpenFrame& f = open.back();
        if (f.node == kNoIndex) {  // outside the chosen slices
            open.pop_back();
            return;
        }
        const TimeNs self = durationBetween(f.clipStart, f.clipEnd) - f.covered;
        if (self > 0) addSat(tree_.nodes[f.node].selfNs, self);
        open.pop_back();
    }

    uint32_t threadFrame(TrackIndex ti) {
        const Track& tr = t_.tracks[ti];
        std::string name = tr.name;
        if (tr.process != kNoIndex && tr.process < t_.processes.size())
            name = t_.processes[tr.process].name + ": " + name;
        tree_.ownedNames.push_back(std::move(name));
        const uint32_t node = nodes_.child(kCallRoot, tree_.ownedNames.back());
        tree_.nodes[node].synthetic = true;
        return node;
    }

    const ClassifiedTrace& ct_;
    const Trace& t_;
    const CallTreeOptions& options_;
    CallTree& tree_;
    NodeBuilder nodes_;
    StringId traceCategory_ = kNoIndex;
    StringId pythonCategory_ = kNoIndex;
    std::unordered_map<uint64_t, Launched> launched_;
    std::vector<SliceRef> roots_;  // options_.roots, sorted
};

std::string nanosText(TimeNs v) { return std::to_string(v); }

}  // namespace

std::string CallTreeOptions::key() const {
    std::string k = "range=";
    if (range) k += nanosText(range->first) + ":" + nanosText(range->second);
    k += " thread=" + std::string(byThread ? "1" : "0") + " tracks=";
    for (TrackIndex t : tracks) k += std::to_string(t) + ",";
    if (!roots.empty()) {
        // The set by its size and a hash of its members (any order).
        uint64_t h = 0;
        for (SliceRef r : roots) h += std::hash<uint64_t>()(refKey(r)) * 0x9E3779B97F4A7C15ull;
        k += " roots=" + std::to_string(roots.size()) + ":" + std::to_string(h);
    }
    return k;
}

const char* callMetricId(CallMetric m) {
    switch (m) {
    case CallMetric::Wall: return "wall";
    case CallMetric::Self: return "self";
    case CallMetric::Device: return "device";
    case CallMetric::Count: return "count";
    }
    return "wall";
}

std::optional<CallMetric> callMetricFromId(std::string_view id) {
    for (CallMetric m : {CallMetric::Wall, CallMetric::Self, CallMetric::Device, CallMetric::Count})
        if (id == callMetricId(m)) return m;
    return std::nullopt;
}

TimeNs CallTree::width(uint32_t node, CallMetric metric) const {
    const CallNode& n = nodes[node];
    switch (metric) {
    case CallMetric::Wall: return n.totalNs;
    case CallMetric::Self: return bottomUp ? n.totalNs : n.subtreeSelfNs;
    case CallMetric::Device: return n.deviceNs;
    case CallMetric::Count: return TimeNs(n.totalCount);
    }
    return 0;
}

TimeNs CallTree::stackValue(uint32_t node, CallMetric metric) const {
    const CallNode& n = nodes[node];
    switch (metric) {
    case CallMetric::Wall: return n.synthetic ? 0 : n.totalNs;
    case CallMetric::Self: return n.selfNs;
    case CallMetric::Device: return n.selfDeviceNs;
    case CallMetric::Count: return TimeNs(n.count);
    }
    return 0;
}

std::vector<std::string_view> CallTree::stackOf(uint32_t node) const {
    std::vector<std::string_view> out;
    for (uint32_t n = node; n != kCallRoot && n != kNoIndex; n = nodes[n].parent) out.push_back(nodes[n].name);
    std::reverse(out.begin(), out.end());
    return out;
}

CallTree computeCallTree(const ClassifiedTrace& ct, const CallTreeOptions& options) {
    CallTree tree;
    if (!ct.trace) return tree;
    Walker walker(ct, options, tree);
    walker.linkDevice();
    walker.walk([](SliceRef, uint32_t) {});
    finishTree(tree);

    if (tree.slices == 0)
        tree.notes.push_back(options.range || !options.tracks.empty() || !options.roots.empty()
                                 ? "No host thread slice lies in the selection."
                                 : "The trace has no slices on host threads, so there is no call stack to show.");
    if (tree.cutAtDepth > 0)
        tree.notes.push_back(std::to_string(tree.cutAtDepth) + " slices lie deeper than " +
                             std::to_string(kMaxCallDepth) + " frames; each counts in its deepest kept frame.");
    if (tree.unattributedDevice > 0)
        tree.notes.push_back(std::to_string(tree.unattributedDevice) +
                             " device activities have no link to the call that launched them (no flow or "
                             "correlation id), so no frame's device time includes them.");
    if (std::none_of(tree.nodes.begin(), tree.nodes.end(), [](const CallNode& n) { return n.python; }))
        tree.notes.push_back(
            std::string(options.range || !options.tracks.empty() || !options.roots.empty() ? "The selection"
                                                                                           : "The trace") +
            " has no Python frames: PyTorch records them with torch.profiler.profile(with_stack=True), JAX's "
            "jax.profiler.trace with its Python tracer on (the default); frames here are ops, annotations and "
            "runtime calls.");
    return tree;
}

CallTree invertCallTree(const CallTree& topDown) {
    CallTree out;
    out.bottomUp = true;
    out.options = topDown.options;
    out.slices = topDown.slices;
    out.deviceActivities = topDown.deviceActivities;
    out.unattributedDevice = topDown.unattributedDevice;
    out.cutAtDepth = topDown.cutAtDepth;
    out.notes = topDown.notes;
    NodeBuilder nodes(out);
    std::unordered_map<std::string_view, std::string_view> owned;  // thread frame names, copied
    const auto nameOf = [&](const CallNode& n) -> std::string_view {
        if (!n.synthetic) return n.name;
        auto [it, added] = owned.try_emplace(n.name);
        if (added) {
            out.ownedNames.emplace_back(n.name);
            it->second = out.ownedNames.back();
        }
        return it->second;
    };
    for (uint32_t i = 1; i < topDown.nodes.size(); ++i) {
        analysisTick();
        const CallNode& leaf = topDown.nodes[i];
        if (leaf.selfNs == 0 && leaf.selfDeviceNs == 0 && leaf.count == 0) continue;
        uint32_t cur = kCallRoot;
        for (uint32_t n = i; n != kCallRoot && n != kNoIndex; n = topDown.nodes[n].parent) {
            const CallNode& src = topDown.nodes[n];
            cur = nodes.child(cur, nameOf(src));
            CallNode& dst = out.nodes[cur];
            dst.synthetic = src.synthetic;
            dst.python = src.python;
            addSat(dst.totalNs, leaf.selfNs);
            addSat(dst.deviceNs, leaf.selfDeviceNs);
            dst.totalCount += leaf.count;
            if (n == i) {
                addSat(dst.selfNs, leaf.selfNs);
                addSat(dst.selfDeviceNs, leaf.selfDeviceNs);
                dst.count += leaf.count;
            }
        }
    }
    finishTree(out);
    return out;
}

CallPivot pivotCallTree(const CallTree& topDown, std::string_view name) {
    CallPivot pivot;
    pivot.callees.options = pivot.callers.options = topDown.options;
    pivot.callers.bottomUp = true;
    NodeBuilder callees(pivot.callees), callers(pivot.callers);
    // Names are copied: the pivot may outlive nothing but the trace, and `name` may be the caller's.
    pivot.callees.ownedNames.emplace_back(name);
    const std::string_view pivotName = pivot.callees.ownedNames.back();
    pivot.callers.ownedNames.emplace_back(name);
    const uint32_t calleeTop = callees.child(kCallRoot, pivotName);
    const uint32_t callerTop = callers.child(kCallRoot, pivot.callers.ownedNames.back());
    std::unordered_map<std::string_view, std::string_view> ownedCallees, ownedCallers;
    const auto own = [](CallTree& tree, std::unordered_map<std::string_view, std::string_view>& map,
                        const CallNode& n) -> std::string_view {
        if (!n.synthetic) return n.name;
        auto [it, added] = map.try_emplace(n.name);
        if (added) {
            tree.ownedNames.emplace_back(n.name);
            it->second = tree.ownedNames.back();
        }
        return it->second;
    };

    const auto& src = topDown.nodes;
    // Depth-first, knowing how often `name` is on the path above.
    std::vector<std::pair<uint32_t, uint32_t>> stack;  // (top-down node, its merged callee node or kNoIndex)
    std::vector<uint32_t> onPath(src.size(), 0);       // occurrences of `name` from the root to the node
    for (uint32_t i = 1; i < src.size(); ++i) {
        analysisTick();
        const CallNode& n = src[i];
        const bool named = !n.synthetic && n.name == name;
        onPath[i] = onPath[n.parent] + (named ? 1 : 0);
    }
    // A node's merged counterpart under the pivot: the outermost occurrence maps to calleeTop.
    std::vector<uint32_t> merged(src.size(), kNoIndex);
    for (uint32_t i = 1; i < src.size(); ++i) {
        const CallNode& n = src[i];
        const bool named = !n.synthetic && n.name == name;
        uint32_t m = kNoIndex;
        if (named && onPath[n.parent] == 0) {
            m = calleeTop;
            ++pivot.occurrences;
            // Callers: the frames above this occurrence, carrying its inclusive figures.
            CallNode& top = pivot.callers.nodes[callerTop];
            addSat(top.totalNs, n.totalNs);
            addSat(top.deviceNs, n.deviceNs);
            top.totalCount += n.totalCount;
            addSat(top.selfNs, n.totalNs);
            addSat(top.selfDeviceNs, n.deviceNs);
            top.count += n.totalCount;
            uint32_t cur = callerTop;
            for (uint32_t p = n.parent; p != kCallRoot && p != kNoIndex; p = src[p].parent) {
                cur = callers.child(cur, own(pivot.callers, ownedCallers, src[p]));
                CallNode& c = pivot.callers.nodes[cur];
                c.synthetic = src[p].synthetic;
                c.python = src[p].python;
                addSat(c.totalNs, n.totalNs);
                addSat(c.deviceNs, n.deviceNs);
                c.totalCount += n.totalCount;
            }
        } else if (merged[n.parent] != kNoIndex) {
            m = callees.child(merged[n.parent], own(pivot.callees, ownedCallees, n));
        }
        merged[i] = m;
        if (m == kNoIndex) continue;
        CallNode& d = pivot.callees.nodes[m];
        d.python = d.python || n.python;
        d.synthetic = n.synthetic;
        addSat(d.totalNs, n.totalNs);
        addSat(d.selfNs, n.selfNs);
        addSat(d.selfDeviceNs, n.selfDeviceNs);
        d.count += n.count;
    }
    finishTree(pivot.callees);
    finishTree(pivot.callers);
    pivot.callees.slices = pivot.callees.root().totalCount;
    return pivot;
}

std::vector<SliceRef> frameSlicesMatching(const ClassifiedTrace& ct,
                                          const std::function<bool(std::string_view)>& match) {
    std::vector<SliceRef> out;
    if (!ct.trace) return out;
    const Trace& t = *ct.trace;
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (!frameTrack(ct, ti)) continue;
        const SliceColumns& c = t.tracks[ti].slices;
        for (uint32_t i = 0; i < c.size(); ++i) {
            analysisTick();
            if (match(fullNameView(ct, {ti, i}))) out.push_back({ti, i});
        }
    }
    return out;
}

std::vector<SliceRef> slicesOfCallNode(const ClassifiedTrace& ct, const CallTree& tree, uint32_t node, size_t limit) {
    std::vector<SliceRef> out;
    if (!ct.trace || tree.bottomUp || node == kCallRoot || node >= tree.nodes.size()) return out;
    // The walk numbers nodes as it meets them, so walking again with the same options gives the
    // same numbers.
    CallTree again;
    Walker walker(ct, tree.options, again);
    struct Enough {};
    try {
        walker.walk([&](SliceRef s, uint32_t n) {
            if (n != node) return;
            out.push_back(s);
            if (out.size() >= limit) throw Enough{};
        });
    } catch (const Enough&) {
    }
    return out;
}

std::vector<uint32_t> topDownNodesOf(const CallTree& topDown, const CallTree& bottomUp, uint32_t node) {
    std::vector<uint32_t> out;
    if (node == kCallRoot || node >= bottomUp.nodes.size()) return out;
    std::vector<std::string_view> path;  // leaf first, then its callers
    for (uint32_t n = node; n != kCallRoot && n != kNoIndex; n = bottomUp.nodes[n].parent)
        path.push_back(bottomUp.nodes[n].name);
    std::reverse(path.begin(), path.end());
    for (uint32_t i = 1; i < topDown.nodes.size(); ++i) {
        uint32_t n = i;
        size_t k = 0;
        while (k < path.size() && n != kCallRoot && n != kNoIndex && topDown.nodes[n].name == path[k]) {
            n = topDown.nodes[n].parent;
            ++k;
        }
        if (k == path.size()) out.push_back(i);
    }
    return out;
}

std::optional<PythonLocation> pythonLocationOf(std::string_view name) {
    const auto digits = [](std::string_view s, int64_t& v) {
        if (s.empty() || s.size() > 9) return false;
        const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        return ec == std::errc() && p == s.data() + s.size();
    };
    if (!name.empty() && name[0] == '$') {  // the Python tracer: "$file.py:12 function", "$<unknown> append"
        const std::string_view rest = name.substr(1);
        const size_t space = rest.find(' ');
        if (space == std::string_view::npos || space == 0) return std::nullopt;
        std::string_view where = rest.substr(0, space);
        PythonLocation loc;
        loc.function = rest.substr(space + 1);
        const size_t colon = where.rfind(':');
        if (colon != std::string_view::npos && digits(where.substr(colon + 1), loc.line))
            where = where.substr(0, colon);
        else if (where != "<unknown>") return std::nullopt;
        loc.file = where;
        return loc;
    }
    // Kineto: "file.py(12): function".
    const size_t close = name.find("): ");
    if (close == std::string_view::npos) return std::nullopt;
    const size_t open = name.rfind('(', close);
    if (open == std::string_view::npos || open == 0) return std::nullopt;
    PythonLocation loc;
    if (!digits(name.substr(open + 1, close - open - 1), loc.line)) return std::nullopt;
    loc.file = name.substr(0, open);
    loc.function = name.substr(close + 3);
    return loc;
}

std::vector<CallFrameRow> frameTable(const CallTree& tree) {
    std::vector<CallFrameRow> rows;
    if (tree.bottomUp) return rows;
    std::unordered_map<std::string_view, size_t> rowOf;
    const auto& nodes = tree.nodes;
    // How often each node's name occurs on the path above it: wall and device time count at the
    // outermost occurrence only, so a recursive frame's time is not counted twice.
    std::unordered_map<std::string_view, uint32_t> onPath;
    std::vector<std::pair<uint32_t, bool>> stack{{kCallRoot, false}};  // (node, leaving)
    while (!stack.empty()) {
        auto [i, leaving] = stack.back();
        stack.pop_back();
        const CallNode& n = nodes[i];
        const bool counted = i != kCallRoot && !n.synthetic;
        if (leaving) {
            if (counted && --onPath[n.name] == 0) onPath.erase(n.name);
            continue;
        }
        analysisTick();
        if (counted) {
            auto [it, added] = rowOf.try_emplace(n.name, rows.size());
            if (added) rows.push_back({n.name});
            CallFrameRow& r = rows[it->second];
            r.count += n.count;
            addSat(r.selfNs, n.selfNs);
            r.python = r.python || n.python;
            uint32_t& depth = onPath[n.name];
            if (depth == 0) {
                addSat(r.totalNs, n.totalNs);
                addSat(r.deviceNs, n.deviceNs);
            }
            ++depth;
            stack.push_back({i, true});
        }
        for (auto it = n.children.rbegin(); it != n.children.rend(); ++it) stack.push_back({*it, false});
    }
    std::sort(rows.begin(), rows.end(), [](const CallFrameRow& a, const CallFrameRow& b) {
        return a.selfNs != b.selfNs ? a.selfNs > b.selfNs : a.name < b.name;
    });
    return rows;
}

CallTree callTreeFromFolded(const std::vector<FoldedStack>& stacks) {
    CallTree tree;
    NodeBuilder nodes(tree);
    std::unordered_map<std::string_view, std::string_view> names;  // each distinct name stored once
    auto own = [&](std::string_view name) {
        if (name.empty()) name = "(empty)";
        auto it = names.find(name);
        if (it != names.end()) return it->second;
        tree.ownedNames.emplace_back(name);
        const std::string_view kept = tree.ownedNames.back();
        names.emplace(kept, kept);
        return kept;
    };
    for (const FoldedStack& s : stacks) {
        uint32_t node = kCallRoot;
        size_t at = 0;
        bool cut = false;
        while (at <= s.stack.size()) {
            const size_t semi = std::min(s.stack.find(';', at), s.stack.size());
            if (tree.nodes[node].depth >= kMaxCallDepth) {
                cut = true;
                break;
            }
            node = nodes.child(node, own(s.stack.substr(at, semi - at)));
            addSat(tree.nodes[node].totalNs, s.value);  // inclusive: every frame on the stack
            at = semi + 1;
        }
        if (cut) ++tree.cutAtDepth;  // its deeper frames are not made: the value counts in the deepest kept
        addSat(tree.nodes[node].selfNs, s.value);
        ++tree.nodes[node].count;
        ++tree.slices;
    }
    finishTree(tree);
    return tree;
}

}  // namespace tracescope
