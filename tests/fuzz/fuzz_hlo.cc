// An XLA program's serialized HloProto (the stat hlo_proto of an XSpace) through everything that
// reads it: parsing and indexing, both cost models, the memory view and the graph of each of its
// first instructions, written as DOT.
#include "model/analysis/hlo_cost.h"
#include "model/analysis/hlo_graph.h"
#include "model/analysis/hlo_memory.h"
#include "model/analysis/hlo_program.h"

using namespace tracescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    XlaProgramBlob blob;
    blob.programId = 1;
    blob.hloProto.assign(reinterpret_cast<const char*>(data), size);
    std::string error;
    const std::shared_ptr<const HloProgram> p = HloProgram::parse(blob, &error);
    if (!p) return 0;
    const HloProgramCost gpu = computeHloCost(*p, HloCostModel::XlaGpu);
    (void)computeHloCost(*p, HloCostModel::Xla);
    (void)computeHloMemoryView(*p);
    std::unordered_map<std::string, TimeNs> time;
    int graphs = 0;
    for (const xla::HloComputationProto& c : p->module().computations())
        for (const xla::HloInstructionProto& i : c.instructions()) {
            time[i.name()] = TimeNs(i.id() & 0xffff);
            if (graphs++ >= 4) continue;
            (void)hloGraphDot(hloNeighbourhood(*p, i, 2, time), "fuzz");
            (void)p->sourceStack(i);
            if (i.opcode() == "fusion") (void)hloFusedGraph(*p, i, time);
        }
    (void)gpu.entry.flops;
    return 0;
}
