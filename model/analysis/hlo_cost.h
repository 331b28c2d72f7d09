// FLOPs and bytes accessed per HLO instruction, following XLA's own cost analysis:
// HloCostAnalysis (xla/service/hlo_cost_analysis.cc: the definitions JAX's
// `compiled.cost_analysis()` reports on the CPU) and GpuHloCostAnalysis (what XProf runs over
// each GPU program for its op profile, HLO stats and roofline).
//
// Common to both: dot = 2 x output elements x the contracted size; convolution = 2 x the
// multiply-adds of the valid window positions (padding and dilation counted); reduce = the
// reducer's cost x (input elements - output elements); fusion = the sum over its fused
// computation, with bytes = what its parameters read + its outputs (intermediates stay on chip);
// while = one trip of body and condition; conditional = its costliest branch. Bytes accessed =
// operands + output, 0 for parameter, constant, get-tuple-element and bitcast; a tuple counts its
// table of pointers (hloPointerBytes per element), a shape without layout 0 bytes (as XLA does).
// The models differ on elementwise ops: XLA counts 1 flop per element (exp, log, tanh, sqrt...
// as transcendentals instead); XLA's GPU model weighs each element by clock cycles, 3 where it
// has no measurement for the op (which is what we use for every op: XLA's per-architecture
// measurements are not reproduced), and weighs fused instructions by how much of their output
// the fusion's root uses.
// Custom calls: cuBLAS GEMMs (__cublas$gemm, __cublas$lt$matmul) as the dot their backend
// config describes, cuDNN convolutions (__cudnn$conv*) as the convolution, both with the result
// (not the workspace) as output; any other target is unknown, counted and named, never zero.
#pragma once

#include "model/analysis/hlo_program.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tracescope {

enum class HloCostModel : uint8_t {
    Xla,     // HloCostAnalysis: JAX's cost_analysis() on the CPU
    XlaGpu,  // GpuHloCostAnalysis as XProf runs it (no device description)
};

struct HloCost {
    double flops = 0;
    double transcendentals = 0;
    double bytesAccessed = 0;
    double outputBytes = 0;
    // Instructions (this one or, for fusions and control flow, those it runs) whose cost XLA's
    // analysis does not know (custom calls of other targets): their share is missing above.
    uint32_t unknownOps = 0;
    bool known() const { return unknownOps == 0; }
};

struct HloProgramCost {
    HloCostModel model = HloCostModel::Xla;
    // Every instruction of every computation reached from the entry (fused and nested ones
    // included), by instruction id.
    std::unordered_map<int64_t, HloCost> byInstruction;
    HloCost entry;  // the entry computation's sum: the program's cost per execution
    std::vector<std::string> unknownTargets;  // distinct custom-call targets with no known cost

    const HloCost* of(int64_t instructionId) const {
        const auto it = byInstruction.find(instructionId);
        return it == byInstruction.end() ? nullptr : &it->second;
    }
};

HloProgramCost computeHloCost(const HloProgram& program, HloCostModel model);

// Bytes of a buffer of `shape` as XLA's ShapeUtil::ByteSizeOf: an array its elements (sub-byte
// element sizes of the layout honoured), a tuple its table of pointers, a token 0, and 0 for a
// shape without layout (as XLA's cost analysis).
double hloShapeBytes(const xla::ShapeProto& shape, double pointerBytes = 8);
// XLA's elementwise opcodes (HloInstruction::IsElementwise's, by name).
bool isHloElementwise(std::string_view opcode);
// The pointer size each model prices a tuple's table with: 8 bytes on GPUs (XLA's default); 4 in
// the analysis JAX's CPU client reports (measured: a 2-tuple costs 8 bytes there, a 3-tuple 12).
double hloPointerBytes(HloCostModel model);

}  // namespace tracescope
