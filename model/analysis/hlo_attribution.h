// XLA command buffers (the default for recent JAX on NVIDIA GPUs) run many HLO ops as one: every
// kernel inside one carries the buffer ("command_buffer_1") as its hlo_op. This attributes each
// such kernel to the HLO instruction it runs, so that every page (op stats, overview, the HLO
// op profile) sees the real ops: XLA names a fusion's kernel after the fusion ("fusion.34" ->
// "fusion_34") but gives identical fusions one kernel, and library kernels (cuBLAS, cuDNN) carry
// the library's names; each kernel is the next launch of the program's schedule that it can be,
// following each stream in time order.
#pragma once

#include "model/analysis/hlo_program.h"

#include <cstdint>
#include <string>
#include <unordered_map>

namespace tracescope {

struct ClassifiedTrace;

// The key of a slice in the attribution's map.
inline uint64_t activityKey(SliceRef s) { return uint64_t(s.track) << 32 | s.index; }

// Per device kernel whose hlo_op names no instruction of its program (a command buffer): the
// instruction it ran. Empty when the trace has no such kernel.
std::unordered_map<uint64_t, std::string> attributeCommandBuffers(const ClassifiedTrace& ct, const HloProgramIndex& index);

// True when some device activity's hlo_op looks like XLA's command buffer ("command_buffer_N"):
// the cheap test before parsing any HLO.
bool hasCommandBufferActivity(const ClassifiedTrace& ct);

// The program a device activity ran: its program_id stat, else its hlo_module's name, preferring
// the program of the activity's host. Null when the trace holds no such program.
const HloProgram* programOfActivity(const ClassifiedTrace& ct, const HloProgramIndex& index, SliceRef s);

}  // namespace tracescope
