#include "model/analysis/hlo_graph.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <unordered_set>

namespace tracescope {

namespace {

// The critical chain: the path along operand edges with the most device time (a DAG: an
// instruction's operands come before it in its computation, so node order is topological once
// the nodes are sorted by their place there).
void markCriticalChain(HloGraph& g, const HloProgram& p) {
    const size_t n = g.nodes.size();
    if (n == 0) return;
    std::vector<int> order(n);
    for (size_t k = 0; k < n; ++k) order[k] = int(k);
    std::unordered_map<int64_t, int> position;
    if (const xla::HloComputationProto* c = g.nodes[0].op ? p.computationOf(g.nodes[0].op->id()) : nullptr)
        for (int k = 0; k < c->instructions_size(); ++k) position[c->instructions(k).id()] = k;
    std::sort(order.begin(), order.end(), [&](int a, int b) { return position[g.nodes[a].op->id()] < position[g.nodes[b].op->id()]; });
    std::vector<std::vector<int>> operandEdges(n);  // per user: edge indices from its operands
    for (size_t e = 0; e < g.edges.size(); ++e) operandEdges[size_t(g.edges[e].second)].push_back(int(e));
    std::vector<TimeNs> best(n, 0);
    std::vector<int> via(n, -1);  // the edge the best chain arrives by
    for (int v : order) {
        TimeNs from = 0;
        for (int e : operandEdges[size_t(v)]) {
            const int u = g.edges[size_t(e)].first;
            if (best[size_t(u)] > from) {
                from = best[size_t(u)];
                via[size_t(v)] = e;
            }
        }
        best[size_t(v)] = from + g.nodes[size_t(v)].timeNs;
    }
    int end = int(std::max_element(best.begin(), best.end()) - best.begin());
    if (best[size_t(end)] <= 0) return;  // no device time: no chain
    g.criticalEdge.assign(g.edges.size(), 0);
    for (int guard = 0; end >= 0 && guard <= int(n); ++guard) {
        g.nodes[size_t(end)].critical = true;
        const int e = via[size_t(end)];
        if (e < 0) break;
        g.criticalEdge[size_t(e)] = 1;
        end = g.edges[size_t(e)].first;
    }
}

HloGraph build(const HloProgram& p, const std::vector<const xla::HloInstructionProto*>& ops,
               const xla::HloInstructionProto* center, const std::unordered_map<std::string, TimeNs>& timeOf) {
    HloGraph g;
    std::unordered_map<int64_t, int> index;
    for (const xla::HloInstructionProto* op : ops) {
        index.emplace(op->id(), int(g.nodes.size()));
        HloGraphNode n;
        n.op = op;
        n.center = op == center;
        if (const auto t = timeOf.find(op->name()); t != timeOf.end()) n.timeNs = t->second;
        g.nodes.push_back(n);
    }
    for (size_t k = 0; k < g.nodes.size(); ++k) {
        const xla::HloInstructionProto& op = *g.nodes[k].op;
        std::unordered_set<int64_t> seen;
        for (int64_t operand : op.operand_ids()) {
            if (!seen.insert(operand).second) continue;
            const auto it = index.find(operand);
            if (it == index.end()) g.nodes[k].truncated = true;
            else g.edges.emplace_back(it->second, int(k));
        }
        for (const xla::HloInstructionProto* u : p.users(op.id()))
            if (!index.count(u->id())) g.nodes[k].truncated = true;
    }
    g.criticalEdge.assign(g.edges.size(), 0);
    markCriticalChain(g, p);
    return g;
}

std::string escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

std::string timeText(TimeNs ns) {
    char buf[32];
    if (ns >= 1'000'000) std::snprintf(buf, sizeof buf, "%.3f ms", double(ns) / 1e6);
    else std::snprintf(buf, sizeof buf, "%.3f us", double(ns) / 1e3);
    return buf;
}

}  // namespace

HloGraph hloNeighbourhood(const HloProgram& p, const xla::HloInstructionProto& center, int radius,
                          const std::unordered_map<std::string, TimeNs>& timeOf) {
    const xla::HloComputationProto* computation = p.computationOf(center.id());
    std::vector<const xla::HloInstructionProto*> ops;
    bool capped = false;
    if (radius < 0 && computation) {
        for (const xla::HloInstructionProto& i : computation->instructions()) {
            if (ops.size() >= kHloGraphMaxNodes) {
                capped = true;
                break;
            }
            ops.push_back(&i);
        }
    } else {
        // Breadth first over operands and users, nearest first.
        std::unordered_map<int64_t, int> distance{{center.id(), 0}};
        std::deque<const xla::HloInstructionProto*> queue{&center};
        while (!queue.empty()) {
            const xla::HloInstructionProto* op = queue.front();
            queue.pop_front();
            if (ops.size() >= kHloGraphMaxNodes) {
                capped = true;
                break;
            }
            ops.push_back(op);
            const int d = distance[op->id()];
            if (d >= radius) continue;
            std::vector<const xla::HloInstructionProto*> next;
            for (int64_t o : op->operand_ids())
                if (const xla::HloInstructionProto* x = p.instruction(o)) next.push_back(x);
            for (const xla::HloInstructionProto* u : p.users(op->id())) next.push_back(u);
            for (const xla::HloInstructionProto* x : next)
                if (distance.emplace(x->id(), d + 1).second) queue.push_back(x);
        }
    }
    HloGraph g = build(p, ops, &center, timeOf);
    g.computation = computation ? computation->name() : std::string();
    g.capped = capped;
    return g;
}

HloGraph hloFusedGraph(const HloProgram& p, const xla::HloInstructionProto& fusion,
                       const std::unordered_map<std::string, TimeNs>& timeOf) {
    const xla::HloComputationProto* fused =
        fusion.called_computation_ids_size() > 0 ? p.computation(fusion.called_computation_ids(0)) : nullptr;
    std::vector<const xla::HloInstructionProto*> ops;
    bool capped = false;
    if (fused)
        for (const xla::HloInstructionProto& i : fused->instructions()) {
            if (ops.size() >= kHloGraphMaxNodes) {
                capped = true;
                break;
            }
            ops.push_back(&i);
        }
    HloGraph g = build(p, ops, fused ? p.root(*fused) : nullptr, timeOf);
    g.computation = fused ? fused->name() : std::string();
    g.capped = capped;
    return g;
}

std::string hloGraphDot(const HloGraph& g, const std::string& title) {
    TimeNs maxTime = 0;
    for (const HloGraphNode& n : g.nodes) maxTime = std::max(maxTime, n.timeNs);
    std::string out = "digraph \"" + escape(title) + "\" {\n  rankdir=TB;\n  node [shape=box, style=\"rounded,filled\", "
                      "fontname=\"Helvetica\", fontsize=10];\n  label=\"" + escape(title) + "\";\n";
    for (size_t k = 0; k < g.nodes.size(); ++k) {
        const HloGraphNode& n = g.nodes[k];
        // Lines joined by DOT's "\\n" escape; each line's own text escaped.
        std::string label = escape(n.op->name()) + "\\n" + escape(n.op->opcode() + " " + shapeText(n.op->shape()));
        if (n.timeNs > 0) label += "\\n" + timeText(n.timeNs);
        if (n.truncated) label += "\\n...";
        // White to orange by share of the most device time in the graph.
        const int heat = maxTime > 0 ? int(std::lround(200.0 * double(n.timeNs) / double(maxTime))) : 0;
        char fill[16];
        std::snprintf(fill, sizeof fill, "#ff%02x%02x", 255 - heat / 2, 255 - heat);
        out += "  n" + std::to_string(k) + " [label=\"" + label + "\", fillcolor=\"" + fill + "\"";
        if (n.center) out += ", penwidth=3";
        if (n.critical) out += ", color=\"#d32f2f\"";
        out += "];\n";
    }
    for (size_t e = 0; e < g.edges.size(); ++e) {
        out += "  n" + std::to_string(g.edges[e].first) + " -> n" + std::to_string(g.edges[e].second);
        if (e < g.criticalEdge.size() && g.criticalEdge[e]) out += " [color=\"#d32f2f\", penwidth=2.5]";
        out += ";\n";
    }
    return out + "}\n";
}

}  // namespace tracescope
