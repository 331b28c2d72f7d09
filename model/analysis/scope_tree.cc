#include "model/analysis/scope_tree.h"

#include "model/analysis/analysis_progress.h"

#include "model/analysis/producer_notes.h"

#include "model/analysis/op_iteration.h"
#include "model/trace/arg_number.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace tracescope {

namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Splits on '/', dropping empty parts ("a//b/" -> a, b).
void appendSplit(std::string_view s, std::vector<std::string>& out) {
    while (!s.empty()) {
        const size_t p = s.find('/');
        const std::string_view part = s.substr(0, p);
        if (!part.empty()) out.emplace_back(part);
        if (p == std::string_view::npos) break;
        s.remove_prefix(p + 1);
    }
}

// Scopes deeper than this (hostile or runaway recursion) keep their outermost levels and
// their leaf, so paths stay short and building the tree stays linear.
constexpr size_t kMaxScopeDepth = 64;

void capDepth(std::vector<std::string>& parts) {
    if (parts.size() <= kMaxScopeDepth) return;
    parts[kMaxScopeDepth - 1] = std::move(parts.back());
    parts.resize(kMaxScopeDepth);
}

class Builder {
public:
    explicit Builder(ScopeTree& tree) : tree_(tree) {
        tree_.nodes.clear();
        tree_.nodes.emplace_back();  // root
    }

    uint32_t nodeFor(const std::vector<std::string>& parts) {
        uint32_t n = 0;
        for (const auto& part : parts) {
            std::string key = std::to_string(n);
            key += '\x1f';
            key += part;
            auto it = children_.find(key);
            if (it == children_.end()) {
                const uint32_t id = static_cast<uint32_t>(tree_.nodes.size());
                ScopeNode node;
                node.name = part;
                node.path = n == 0 ? part : tree_.nodes[n].path + "/" + part;
                node.parent = n;
                tree_.nodes.push_back(std::move(node));
                tree_.nodes[n].children.push_back(id);
                it = children_.emplace(std::move(key), id).first;
            }
            n = it->second;
        }
        return n;
    }

private:
    ScopeTree& tree_;
    std::unordered_map<std::string, uint32_t> children_;
};

bool isAncestorOrSelf(const ScopeTree& tree, uint32_t maybeAncestor, uint32_t node) {
    for (uint32_t n = node; n != kNoIndex; n = tree.nodes[n].parent)
        if (n == maybeAncestor) return true;
    return false;
}

// The scope a Kineto host slice names, "" when it is not a scope event: cpu_ops and user
// annotations by their name, "nn.Module: Linear_0" python frames as "Linear_0".
std::string_view kinetoScopeName(const ClassifiedTrace& ct, SliceRef s) {
    const std::string_view name = ct.trace->str(ct.trace->tracks[s.track].slices.name[s.index]);
    const SliceRole r = ct.role(s);
    if (r == SliceRole::HostOp || r == SliceRole::UserAnnotation) return name;
    if (r == SliceRole::None && startsWith(name, "nn.Module: ")) return name.substr(11);
    return {};
}

// The scope path of a host scope event (see scope_tree.h for the rules per format).
std::vector<std::string> scopePath(const ClassifiedTrace& ct, SliceRef s) {
    std::vector<std::string> parts;
    // XSpace and TF1: the op's name is its scope path ("gradients/dense/MatMul").
    if (ct.isXSpace || ct.isTf1) {
        appendSplit(hostOpNameType(ct, s).name, parts);
        capDepth(parts);
        return parts;
    }
    // PyTorch: the scope events enclosing this one on the same thread, outermost first.
    std::vector<std::string_view> chain;
    chain.push_back(kinetoScopeName(ct, s));
    size_t walked = 0;
    for (uint32_t p = ct.parents[s.track][s.index]; p != kNoIndex && walked < kMaxScopeDepth;
         p = ct.parents[s.track][p], ++walked) {
        const std::string_view name = kinetoScopeName(ct, {s.track, p});
        if (!name.empty()) chain.push_back(name);
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) appendSplit(*it, parts);
    capDepth(parts);
    return parts;
}

struct Occ {
    SliceRef slice;
    uint32_t node;
};

using Interval = std::pair<TimeNs, TimeNs>;  // [begin, end)

// Sorts and merges overlapping intervals in place; returns the length of their union.
TimeNs mergeIntervals(std::vector<Interval>& v) {
    std::sort(v.begin(), v.end());
    size_t out = 0;
    TimeNs length = 0;
    for (const Interval& iv : v) {
        if (out > 0 && iv.first <= v[out - 1].second) {
            if (iv.second > v[out - 1].second) {
                addSat(length, iv.second - v[out - 1].second);
                v[out - 1].second = iv.second;
            }
        } else {
            v[out++] = iv;
            addSat(length, iv.second - iv.first);
        }
    }
    v.resize(out);
    return length;
}

// Time and Self of every node from its events' intervals (see ScopeNode). Children have larger
// indices than their parents, so one pass from the last node up sees every child first; each
// node passes its merged union up, so an event nested in its parent's event merges away early.
void computeTimes(ScopeTree& tree, std::vector<std::vector<Interval>>& own) {
    std::vector<std::vector<Interval>> covered(tree.nodes.size());
    for (size_t n = tree.nodes.size(); n-- > 0;) {
        std::vector<Interval> v;
        for (uint32_t c : tree.nodes[n].children) {
            v.insert(v.end(), covered[c].begin(), covered[c].end());
            std::vector<Interval>().swap(covered[c]);
        }
        const TimeNs children = mergeIntervals(v);
        v.insert(v.end(), own[n].begin(), own[n].end());
        std::vector<Interval>().swap(own[n]);
        ScopeNode& node = tree.nodes[n];
        node.totalNs = mergeIntervals(v);
        node.selfNs = node.totalNs - children;
        covered[n] = std::move(v);
    }
}

// Builds the tree; `occurrences`, when given, receives every counted slice with its node.
void build(const ClassifiedTrace& ct, ScopeTree& tree, std::vector<Occ>* occurrences,
           std::vector<std::pair<std::string, std::vector<SliceRef>>>* typeSlices,
           XprofRuleTally* xprofRule = nullptr) {
    const Trace& t = *ct.trace;
    Builder b(tree);
    std::unordered_map<uint64_t, uint32_t> eventNode;  // scope event (track << 32 | index) -> node
    auto refKey = [](SliceRef s) { return (uint64_t(s.track) << 32) | s.index; };
    std::vector<std::vector<Interval>> own(1);  // per node: its own events' intervals
    std::map<std::string, OpTypeRow> types;
    std::map<std::string, std::vector<SliceRef>> typeRefs;

    auto addEvent = [&](SliceRef s, std::vector<std::string> parts) {
        const uint32_t node = b.nodeFor(parts);
        eventNode[refKey(s)] = node;
        if (own.size() < tree.nodes.size()) own.resize(tree.nodes.size());
        const SliceColumns& c = t.tracks[s.track].slices;
        own[node].push_back({c.start[s.index], c.end(s.index)});
        ++tree.nodes[node].occurrences;
        ++tree.scopeEvents;
        if (occurrences) occurrences->push_back({s, node});
    };

    // Host ops first (device activities of Kineto look up their launching op's node).
    forEachOpOccurrence(
        ct, OpGrouping::ByName,
        [&](const OpOccurrence& o) {
            if (o.side != OpSide::Host) return;
            std::vector<std::string> parts = scopePath(ct, o.slice);
            if (parts.empty()) parts.push_back(*o.name);
            addEvent(o.slice, std::move(parts));
            OpTypeRow& tr = types[*o.type];
            tr.type = *o.type;
            ++tr.occurrences;
            addSat(tr.totalNs, o.durationNs);
            addSat(tr.selfNs, o.selfNs);
            if (typeSlices) typeRefs[*o.type].push_back(o.slice);
        },
        xprofRule);  // one walk sees every slice: the rule is tallied once
    // Kineto annotations and module spans are scopes with events of their own.
    if (!ct.isXSpace && !ct.isTf1)
        for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
            if (ct.trackSkipped[ti] || ct.trackOnDevice[ti] || t.tracks[ti].kind != TrackKind::Thread) continue;
            for (uint32_t i = 0; i < t.tracks[ti].slices.size(); ++i) {
                analysisTick();
                const SliceRef s{ti, i};
                if (ct.role(s) == SliceRole::HostOp || kinetoScopeName(ct, s).empty()) continue;
                std::vector<std::string> parts = scopePath(ct, s);
                if (!parts.empty()) addEvent(s, std::move(parts));
            }
        }
    // Device activities: their time goes to the scope that launched them. XSpaces hold millions
    // of activities of a few thousand ops: the node of each (module, op row) is found once.
    const StringId tfOpKey = t.strings.find("tf_op"), moduleKey = t.strings.find("hlo_module");
    std::unordered_map<std::string, uint32_t> xspaceNodeOf;
    std::string pathKey;
    std::unordered_map<std::string, OpTypeRow*> typeRowOf;
    forEachOpOccurrence(ct, OpGrouping::ByName, [&](const OpOccurrence& o) {
        if (o.side != OpSide::Device) return;
        uint32_t node = kNoIndex;
        std::string type = *o.type;
        if (!ct.isXSpace && !ct.isTf1) {
            // The innermost scope event around the launch owns it in the tree; the innermost
            // cpu_op, in the op view (an annotation is not an op type).
            const SliceRef launch = launchOf(ct, o.slice);
            if (launch.valid()) {
                const auto& parents = ct.parents[launch.track];
                for (uint32_t p = parents[launch.index]; p != kNoIndex && node == kNoIndex; p = parents[p]) {
                    auto it = eventNode.find(refKey({launch.track, p}));
                    if (it != eventNode.end()) node = it->second;
                }
            }
            const SliceRef op = enclosingHostOp(ct, launch);
            type = op.valid() ? hostOpNameType(ct, op).type : "(no op)";
        } else {
            if (!deviceActivityOpView(ct, o.slice).empty()) {
                // An HLO op (no framework annotation) lives under its module: "jit_step/fusion_3".
                const std::string_view tfOp = sliceArgView(t, o.slice, tfOpKey);
                const std::string_view module = tfOp.empty() || tfOp.substr(0, 10) == "XlaModule:"
                                                     ? sliceArgView(t, o.slice, moduleKey)
                                                     : std::string_view();
                pathKey.assign(module);
                pathKey += '\0';
                pathKey += *o.name;
                auto [known, added] = xspaceNodeOf.try_emplace(pathKey, kNoIndex);
                if (added) {
                    std::vector<std::string> parts;
                    if (!module.empty()) parts.emplace_back(module);
                    appendSplit(*o.name, parts);  // the op table's row name (XProf's, splitXprofDeviceOp)
                    capDepth(parts);
                    if (!parts.empty()) known->second = b.nodeFor(parts);
                }
                node = known->second;
            } else {
                type = "(no op)";
            }
        }
        if (node == kNoIndex) node = b.nodeFor({"(no op)", *o.name});
        for (uint32_t n = node; n != kNoIndex; n = tree.nodes[n].parent) addSat(tree.nodes[n].deviceNs, o.durationNs);
        auto [row, first] = typeRowOf.try_emplace(type, nullptr);
        if (first) row->second = &types[type];  // std::map: the row stays where it is
        OpTypeRow& tr = *row->second;
        tr.type = type;
        addSat(tr.deviceNs, o.durationNs);
        if (occurrences) occurrences->push_back({o.slice, node});
        if (typeSlices) typeRefs[type].push_back(o.slice);
    });

    // Memory: allocation instants add their bytes to the enclosing op's scope. XProf's trace
    // JSON (when it keeps them) writes them as 1 ps long events with string args: 0 ns slices.
    const StringId memAlloc = t.strings.find("MemoryAllocation");
    const StringId kinetoMem = t.strings.find("[memory]");
    auto intArg = [&](const ArgValue& value, int64_t& v) { return numericArg(value, t.strings).toInt64(v); };
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        const Track& tr = t.tracks[ti];
        const InstantColumns& ins = tr.instants;
        // Instants first, then zero-length MemoryAllocation slices.
        const size_t allocSlices = memAlloc == kNoIndex ? 0 : tr.slices.size();
        for (uint32_t k = 0; k < ins.size() + allocSlices; ++k) {
            analysisTick();
            const bool isSlice = k >= ins.size();
            const uint32_t si = isSlice ? uint32_t(k - ins.size()) : 0;
            if (isSlice && (tr.slices.name[si] != memAlloc || tr.slices.duration[si] != 0)) continue;
            const StringId name = isSlice ? tr.slices.name[si] : ins.name[k];
            if (name == kNoIndex || (name != memAlloc && name != kinetoMem)) continue;
            int64_t bytes = 0;
            std::string tfOp;
            for (const Arg& a : decodeArgs(tr.argsView(), isSlice ? tr.slices.args[si] : ins.args[k])) {
                const std::string_view key = t.str(a.key);
                int64_t v;
                if (name == kinetoMem && key == "Bytes" && a.value.toInt64(v)) bytes = v;
                if (name == memAlloc && (key == "allocation_bytes" || (key == "requested_bytes" && bytes == 0)) &&
                    intArg(a.value, v))
                    bytes = v;
                if (key == "tf_op") tfOp = a.value.toString(t.strings);
            }
            if (bytes <= 0) continue;  // frees (Kineto negative Bytes) are not allocations
            tree.hasMemory = true;
            uint32_t node = kNoIndex;
            if (!tfOp.empty()) {
                std::vector<std::string> parts;
                appendSplit(splitTfOpName(tfOp).name, parts);
                capDepth(parts);
                if (!parts.empty()) node = b.nodeFor(parts);
            } else {
                // Deepest slice containing the time, then up to the nearest op.
                const SliceColumns& c = tr.slices;
                const TimeNs at = isSlice ? tr.slices.start[si] : ins.time[k];
                auto it = std::upper_bound(c.start.begin(), c.start.end(), at);
                uint32_t idx = it == c.start.begin() ? kNoIndex : uint32_t(it - c.start.begin() - 1);
                while (idx != kNoIndex && !(c.start[idx] <= at && at <= c.end(idx))) idx = ct.parents[ti][idx];
                if (idx != kNoIndex && ct.roles[ti][idx] != SliceRole::HostOp) {
                    const SliceRef op = enclosingHostOp(ct, {ti, idx});
                    idx = op.valid() ? op.index : kNoIndex;
                }
                if (idx != kNoIndex) {
                    auto h = eventNode.find(refKey({ti, idx}));
                    if (h != eventNode.end()) node = h->second;
                }
            }
            if (node == kNoIndex) node = b.nodeFor({"(no op)"});
            for (uint32_t n = node; n != kNoIndex; n = tree.nodes[n].parent) {
                tree.nodes[n].bytesAllocated += bytes;
                ++tree.nodes[n].allocations;
            }
            // The op view attributes bytes to the op type of the node's leaf name.
            types[tree.nodes[node].name].type = tree.nodes[node].name;
            types[tree.nodes[node].name].bytesAllocated += bytes;
        }
    }

    own.resize(tree.nodes.size());
    computeTimes(tree, own);

    for (auto& [k, row] : types) tree.opView.push_back(row);
    std::sort(tree.opView.begin(), tree.opView.end(), [](const OpTypeRow& a, const OpTypeRow& b) {
        if (a.selfNs != b.selfNs) return a.selfNs > b.selfNs;
        if (a.deviceNs != b.deviceNs) return a.deviceNs > b.deviceNs;
        return a.type < b.type;
    });
    if (typeSlices)
        for (const auto& row : tree.opView) typeSlices->push_back({row.type, typeRefs[row.type]});
    for (auto& n : tree.nodes)
        std::sort(n.children.begin(), n.children.end(), [&](uint32_t a, uint32_t c) {
            const auto& x = tree.nodes[a];
            const auto& y = tree.nodes[c];
            const TimeNs kx = std::max(x.totalNs, x.deviceNs), ky = std::max(y.totalNs, y.deviceNs);
            return kx != ky ? kx > ky : x.name < y.name;
        });
}

}  // namespace

ScopeTree computeScopeTree(const Trace& trace) { return computeScopeTree(classifyTrace(trace)); }

namespace {

// The notes of a built tree: what the file lacks, and what XProf's op-name rule left out.
void addNotes(const ClassifiedTrace& ct, const XprofRuleTally& xprofRule, ScopeTree& tree) {
    if (!tree.hasMemory) tree.notes = fileNotes(ct);
    for (std::string& n : xprofRuleNotes(xprofRule)) tree.notes.push_back(std::move(n));
}

SliceRowIndex nodeIndexOf(const std::vector<Occ>& occ) {
    SliceRowIndex index;
    for (const Occ& o : occ) index.add(o.slice, o.node);
    index.finish();
    return index;
}

SliceRowIndex typeIndexOf(const ScopeTree& tree, const std::vector<std::pair<std::string, std::vector<SliceRef>>>& typeSlices) {
    SliceRowIndex index;
    std::map<std::string_view, uint32_t> rowOfType;
    for (size_t i = 0; i < tree.opView.size(); ++i) rowOfType.emplace(tree.opView[i].type, uint32_t(i));
    for (const auto& [type, refs] : typeSlices) {
        auto it = rowOfType.find(type);
        if (it != rowOfType.end()) index.add(refs, it->second);
    }
    index.finish();
    return index;
}

}  // namespace

ScopeTree computeScopeTree(const ClassifiedTrace& ct) {
    ScopeTree tree;
    XprofRuleTally xprofRule;
    build(ct, tree, nullptr, nullptr, &xprofRule);
    addNotes(ct, xprofRule, tree);
    return tree;
}

ScopeTreeWithIndexes computeScopeTreeWithIndexes(const ClassifiedTrace& ct) {
    ScopeTreeWithIndexes out;
    XprofRuleTally xprofRule;
    std::vector<Occ> occ;
    std::vector<std::pair<std::string, std::vector<SliceRef>>> typeSlices;
    build(ct, out.tree, &occ, &typeSlices, &xprofRule);
    addNotes(ct, xprofRule, out.tree);
    out.sliceNodes = nodeIndexOf(occ);
    occ = {};  // freed before the second index is made
    out.sliceTypes = typeIndexOf(out.tree, typeSlices);
    return out;
}

std::vector<SliceRef> occurrencesOf(const ClassifiedTrace& ct, const ScopeTree& tree, size_t node) {
    std::vector<SliceRef> out;
    if (node >= tree.nodes.size()) return out;
    // Rebuilding is deterministic, so node ids match the tree the caller holds.
    ScopeTree again;
    std::vector<Occ> occ;
    build(ct, again, &occ, nullptr);
    if (again.nodes.size() != tree.nodes.size()) return out;
    for (const Occ& o : occ)
        if (isAncestorOrSelf(again, uint32_t(node), o.node)) out.push_back(o.slice);
    return out;
}

std::vector<SliceRef> occurrencesOfOpType(const ClassifiedTrace& ct, const ScopeTree& tree, size_t row) {
    if (row >= tree.opView.size()) return {};
    ScopeTree again;
    std::vector<std::pair<std::string, std::vector<SliceRef>>> typeSlices;
    build(ct, again, nullptr, &typeSlices);
    for (auto& [type, refs] : typeSlices)
        if (type == tree.opView[row].type) return refs;
    return {};
}

SliceRowIndex sliceNodeIndexOf(const ClassifiedTrace& ct, const ScopeTree& tree) {
    ScopeTree again;
    std::vector<Occ> occ;
    build(ct, again, &occ, nullptr);
    if (again.nodes.size() != tree.nodes.size()) return {};
    return nodeIndexOf(occ);
}

SliceRowIndex sliceOpTypeIndexOf(const ClassifiedTrace& ct, const ScopeTree& tree) {
    ScopeTree again;
    std::vector<std::pair<std::string, std::vector<SliceRef>>> typeSlices;
    build(ct, again, nullptr, &typeSlices);
    return typeIndexOf(tree, typeSlices);
}

std::vector<SliceRef> occurrencesOf(const Trace& trace, const ScopeTree& tree, size_t node) {
    return occurrencesOf(classifyTrace(trace), tree, node);
}
std::vector<SliceRef> occurrencesOfOpType(const Trace& trace, const ScopeTree& tree, size_t row) {
    return occurrencesOfOpType(classifyTrace(trace), tree, row);
}
SliceRowIndex sliceNodeIndexOf(const Trace& trace, const ScopeTree& tree) {
    return sliceNodeIndexOf(classifyTrace(trace), tree);
}
SliceRowIndex sliceOpTypeIndexOf(const Trace& trace, const ScopeTree& tree) {
    return sliceOpTypeIndexOf(classifyTrace(trace), tree);
}

}  // namespace tracescope
