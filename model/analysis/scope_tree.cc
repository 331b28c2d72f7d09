#include "model/analysis/scope_tree.h"

#include "model/analysis/op_iteration.h"

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

// The scope path of a host op slice (see scope_tree.h for the rules per format).
std::vector<std::string> hostOpPath(const ClassifiedTrace& ct, SliceRef s) {
    const Trace& t = *ct.trace;
    std::vector<std::string> parts;
    if (ct.isXSpace) {
        appendSplit(hostOpNameType(ct, s).name, parts);
        capDepth(parts);
        return parts;
    }
    // PyTorch: enclosing modules / annotations / ops on the same thread, outermost first.
    std::vector<std::string_view> chain;
    const SliceColumns& c = t.tracks[s.track].slices;
    chain.push_back(t.str(c.name[s.index]));
    size_t walked = 0;
    for (uint32_t p = ct.parents[s.track][s.index]; p != kNoIndex && walked < kMaxScopeDepth;
         p = ct.parents[s.track][p], ++walked) {
        const SliceRole r = ct.roles[s.track][p];
        const std::string_view name = t.str(c.name[p]);
        if (r == SliceRole::HostOp || r == SliceRole::UserAnnotation) chain.push_back(name);
        else if (startsWith(name, "nn.Module: ")) chain.push_back(name.substr(11));
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) appendSplit(*it, parts);
    capDepth(parts);
    return parts;
}

struct Occ {
    SliceRef slice;
    uint32_t node;
};

// Builds the tree; `occurrences`, when given, receives every counted op with its node.
void build(const ClassifiedTrace& ct, ScopeTree& tree, std::vector<Occ>* occurrences,
           std::vector<std::pair<std::string, std::vector<SliceRef>>>* typeSlices) {
    const Trace& t = *ct.trace;
    Builder b(tree);
    std::unordered_map<uint64_t, uint32_t> hostOpNode;  // (track << 32 | index) -> node
    auto refKey = [](SliceRef s) { return (uint64_t(s.track) << 32) | s.index; };
    std::map<std::string, OpTypeRow> types;
    std::map<std::string, std::vector<SliceRef>> typeRefs;

    // Host ops first (device activities of Kineto look up their launching op's node).
    forEachOpOccurrence(ct, OpGrouping::ByName, [&](const OpOccurrence& o) {
        if (o.side != OpSide::Host) return;
        std::vector<std::string> parts = hostOpPath(ct, o.slice);
        if (parts.empty()) parts.push_back(*o.name);
        const uint32_t node = b.nodeFor(parts);
        hostOpNode[refKey(o.slice)] = node;
        if (occurrences) occurrences->push_back({o.slice, node});
        // Total time goes to the scopes between this op and its enclosing op's scope, so an
        // op nested in another op of the same scope is not counted twice.
        uint32_t stopAt = kNoIndex;
        const SliceRef parentOp = enclosingHostOp(ct, o.slice);
        if (parentOp.valid()) {
            auto it = hostOpNode.find(refKey(parentOp));
            if (it != hostOpNode.end()) stopAt = it->second;
        }
        for (uint32_t n = node; n != kNoIndex; n = tree.nodes[n].parent) {
            ScopeNode& sn = tree.nodes[n];
            ++sn.occurrences;
            sn.selfNs += o.selfNs;
            if (stopAt == kNoIndex || !isAncestorOrSelf(tree, n, stopAt)) sn.totalNs += o.durationNs;
        }
        OpTypeRow& tr = types[*o.type];
        tr.type = *o.type;
        ++tr.occurrences;
        tr.totalNs += o.durationNs;
        tr.selfNs += o.selfNs;
        if (typeSlices) typeRefs[*o.type].push_back(o.slice);
    });
    // Device activities: their time goes to the scope of the op that issued them.
    forEachOpOccurrence(ct, OpGrouping::ByName, [&](const OpOccurrence& o) {
        if (o.side != OpSide::Device) return;
        uint32_t node = kNoIndex;
        if (!ct.isXSpace) {
            const SliceRef op = enclosingHostOp(ct, launchOf(ct, o.slice));
            if (op.valid()) {
                auto it = hostOpNode.find(refKey(op));
                if (it != hostOpNode.end()) node = it->second;
            }
        } else {
            const std::string op = deviceActivityOp(ct, o.slice);
            if (!op.empty()) {
                std::vector<std::string> parts;
                // An HLO op (no framework annotation) lives under its module: "jit_step/fusion_3".
                const std::string tfOp = sliceArgText(t, o.slice, "tf_op");
                if (tfOp.empty() || tfOp.rfind("XlaModule:", 0) == 0) {
                    const std::string module = sliceArgText(t, o.slice, "hlo_module");
                    if (!module.empty()) parts.push_back(module);
                }
                appendSplit(splitTfOpName(op).name, parts);
                capDepth(parts);
                if (!parts.empty()) node = b.nodeFor(parts);
            }
        }
        if (node == kNoIndex) node = b.nodeFor({"(no op)", *o.name});
        for (uint32_t n = node; n != kNoIndex; n = tree.nodes[n].parent) tree.nodes[n].deviceNs += o.durationNs;
        OpTypeRow& tr = types[*o.type];
        tr.type = *o.type;
        tr.deviceNs += o.durationNs;
        if (occurrences) occurrences->push_back({o.slice, node});
        if (typeSlices) typeRefs[*o.type].push_back(o.slice);
    });

    // Memory: allocation instants add their bytes to the enclosing op's scope.
    const StringId memAlloc = t.strings.find("MemoryAllocation");
    const StringId kinetoMem = t.strings.find("[memory]");
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        const Track& tr = t.tracks[ti];
        const InstantColumns& ins = tr.instants;
        for (uint32_t k = 0; k < ins.size(); ++k) {
            const StringId name = ins.name[k];
            if (name == kNoIndex || (name != memAlloc && name != kinetoMem)) continue;
            int64_t bytes = 0;
            std::string tfOp;
            for (const Arg& a : decodeArgs(tr.argBytes(), ins.args[k])) {
                const std::string_view key = t.str(a.key);
                int64_t v;
                if (name == kinetoMem && key == "Bytes" && a.value.toInt64(v)) bytes = v;
                if (name == memAlloc && (key == "allocation_bytes" || (key == "requested_bytes" && bytes == 0)) &&
                    a.value.toInt64(v))
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
                const TimeNs at = ins.time[k];
                auto it = std::upper_bound(c.start.begin(), c.start.end(), at);
                uint32_t idx = it == c.start.begin() ? kNoIndex : uint32_t(it - c.start.begin() - 1);
                while (idx != kNoIndex && !(c.start[idx] <= at && at <= c.end(idx))) idx = ct.parents[ti][idx];
                if (idx != kNoIndex && ct.roles[ti][idx] != SliceRole::HostOp) {
                    const SliceRef op = enclosingHostOp(ct, {ti, idx});
                    idx = op.valid() ? op.index : kNoIndex;
                }
                if (idx != kNoIndex) {
                    auto h = hostOpNode.find(refKey({ti, idx}));
                    if (h != hostOpNode.end()) node = h->second;
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

ScopeTree computeScopeTree(const ClassifiedTrace& ct) {
    ScopeTree tree;
    build(ct, tree, nullptr, nullptr);
    return tree;
}

std::vector<SliceRef> occurrencesOf(const Trace& trace, const ScopeTree& tree, size_t node) {
    std::vector<SliceRef> out;
    if (node >= tree.nodes.size()) return out;
    // Rebuilding is deterministic, so node ids match the tree the caller holds.
    ScopeTree again;
    std::vector<Occ> occ;
    build(classifyTrace(trace), again, &occ, nullptr);
    if (again.nodes.size() != tree.nodes.size()) return out;
    for (const Occ& o : occ)
        if (isAncestorOrSelf(again, uint32_t(node), o.node)) out.push_back(o.slice);
    return out;
}

std::vector<SliceRef> occurrencesOfOpType(const Trace& trace, const ScopeTree& tree, size_t row) {
    if (row >= tree.opView.size()) return {};
    ScopeTree again;
    std::vector<std::pair<std::string, std::vector<SliceRef>>> typeSlices;
    build(classifyTrace(trace), again, nullptr, &typeSlices);
    for (auto& [type, refs] : typeSlices)
        if (type == tree.opView[row].type) return refs;
    return {};
}

SliceRowIndex sliceNodeIndexOf(const Trace& trace, const ScopeTree& tree) {
    SliceRowIndex index;
    ScopeTree again;
    std::vector<Occ> occ;
    build(classifyTrace(trace), again, &occ, nullptr);
    if (again.nodes.size() != tree.nodes.size()) return index;
    for (const Occ& o : occ) index.add(o.slice, o.node);
    index.finish();
    return index;
}

SliceRowIndex sliceOpTypeIndexOf(const Trace& trace, const ScopeTree& tree) {
    SliceRowIndex index;
    ScopeTree again;
    std::vector<std::pair<std::string, std::vector<SliceRef>>> typeSlices;
    build(classifyTrace(trace), again, nullptr, &typeSlices);
    std::map<std::string_view, uint32_t> rowOfType;
    for (size_t i = 0; i < tree.opView.size(); ++i) rowOfType.emplace(tree.opView[i].type, uint32_t(i));
    for (const auto& [type, refs] : typeSlices) {
        auto it = rowOfType.find(type);
        if (it != rowOfType.end()) index.add(refs, it->second);
    }
    index.finish();
    return index;
}

}  // namespace tracescope
