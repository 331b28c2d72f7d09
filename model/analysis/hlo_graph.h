// A neighbourhood of an HLO instruction as a graph (as XLA's graph dumps and XProf's graph
// viewer draw it): the instructions within `radius` operand/user hops of it in its computation
// (or, for a fusion opened, its fused computation), each with its device time from the op
// profile, and the chain of operands with the most device time through the graph (the critical
// chain) marked. Written as Graphviz DOT by hloGraphDot.
#pragma once

#include "model/analysis/hlo_program.h"
#include "model/trace/types.h"

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tracescope {

struct HloGraphNode {
    const xla::HloInstructionProto* op = nullptr;
    TimeNs timeNs = 0;          // device time of the op (0: none ran, or not a launch)
    bool center = false;
    bool critical = false;      // on the critical chain
    bool truncated = false;     // has operands or users beyond the radius (or the node cap)
};

struct HloGraph {
    std::string computation;
    std::vector<HloGraphNode> nodes;
    std::vector<std::pair<int, int>> edges;  // (operand, user) node indices
    std::vector<uint8_t> criticalEdge;       // per edge
    bool capped = false;                     // stopped at the node cap
};

inline constexpr size_t kHloGraphMaxNodes = 500;

// The neighbourhood of `center` within `radius` hops (radius < 0: the whole computation).
// `timeOf` gives device time per instruction name (the op profile's rows).
HloGraph hloNeighbourhood(const HloProgram& program, const xla::HloInstructionProto& center, int radius,
                          const std::unordered_map<std::string, TimeNs>& timeOf);
// The fused computation of a fusion, whole.
HloGraph hloFusedGraph(const HloProgram& program, const xla::HloInstructionProto& fusion,
                       const std::unordered_map<std::string, TimeNs>& timeOf);

// Graphviz DOT: one node per instruction (name, opcode, shape, device time; filled darker the
// more time it took; the center bold), edges operand -> user, the critical chain in red.
std::string hloGraphDot(const HloGraph& graph, const std::string& title);

}  // namespace tracescope
