// tracescope-cli hlo-graph FILE --program NAME --op NAME [--radius N] [--fused] --dot OUT.dot
// A neighbourhood of an HLO instruction as Graphviz DOT (model/analysis/hlo_graph.h), as XLA's
// graph dumps: nodes with device time, the critical chain marked.
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/analysis/hlo_graph.h"
#include "model/results/hlo_results.h"

#include <cstdio>
#include <fstream>

namespace tracescope::cli {

namespace {

const char* kUsage =
    "usage: tracescope-cli hlo-graph FILE --program NAME --op NAME [--radius N] [--fused] --dot OUT.dot\n"
    "  The HLO instruction NAME of program NAME (its module name or \"module(id)\") and its neighbourhood:\n"
    "  the instructions within N operand/user hops (default 2; -1: its whole computation; at most 300),\n"
    "  written as Graphviz DOT (render with `dot -Tsvg OUT.dot`). Each node shows the instruction, its\n"
    "  opcode and shape and the device time of its activities (filled darker the more), the instruction\n"
    "  asked for drawn bold, the chain of operands with the most device time in red; \"...\" marks a node\n"
    "  with operands or users beyond the radius.\n"
    "  --fused  for a fusion: its fused computation instead\n"
    "  --dot OUT.dot  where to write the graph (\"-\": standard output)\n";

}  // namespace

int runHloGraph(const Args& args) {
    if (hasFlag(args, "--help") || hasFlag(args, "-h")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const auto files = positionals(args, {"--program", "--op", "--radius", "--dot"});
    const std::string programName = flagValue(args, "--program"), opName = flagValue(args, "--op");
    const std::string out = flagValue(args, "--dot");
    int radius = 2;
    try {
        radius = std::stoi(flagValue(args, "--radius", "2"));
    } catch (...) {
        radius = -2;
    }
    if (files.size() != 1 || programName.empty() || opName.empty() || out.empty() || radius < -1) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    std::shared_ptr<const Trace> trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    std::shared_ptr<ResultStore> store = ResultStore::of(trace);
    const std::shared_ptr<const HloOpProfileResult> profile = hloOpProfileOf(*store);
    const HloProgram* program = nullptr;
    for (const auto& p : profile->programs->programs)
        if (p->displayName() == programName || (!program && p->moduleName() == programName)) program = p.get();
    if (!program) {
        std::fprintf(stderr, "hlo-graph: no XLA program named '%s' in %s\n", programName.c_str(), files[0].c_str());
        return 1;
    }
    const xla::HloInstructionProto* op = program->instruction(std::string_view(opName));
    if (!op) {
        std::fprintf(stderr, "hlo-graph: program %s has no instruction '%s'\n", program->displayName().c_str(), opName.c_str());
        return 1;
    }
    std::unordered_map<std::string, TimeNs> timeOf;
    for (const HloOpRow& r : profile->profile.ops)
        if (r.program == program) timeOf[r.name] = r.metrics.timeNs;
    if (hasFlag(args, "--fused") && op->opcode() != "fusion") {
        std::fprintf(stderr, "hlo-graph: %s is a %s, not a fusion\n", opName.c_str(), op->opcode().c_str());
        return 1;
    }
    const HloGraph graph = hasFlag(args, "--fused") ? hloFusedGraph(*program, *op, timeOf)
                                                    : hloNeighbourhood(*program, *op, radius, timeOf);
    const std::string dot = hloGraphDot(graph, program->displayName() + " " + graph.computation + ": " + opName);
    if (out == "-") {
        std::fputs(dot.c_str(), stdout);
    } else {
        std::ofstream f(out, std::ios::binary);
        f << dot;
        if (!f) {
            std::fprintf(stderr, "hlo-graph: cannot write %s\n", out.c_str());
            return 1;
        }
        std::printf("%s: %zu nodes, %zu edges%s\n", out.c_str(), graph.nodes.size(), graph.edges.size(),
                    graph.capped ? (" (stopped at " + std::to_string(kHloGraphMaxNodes) + " nodes)").c_str() : "");
    }
    return exitStatus(args, 0);
}

}  // namespace tracescope::cli
