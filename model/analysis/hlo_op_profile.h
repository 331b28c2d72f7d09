// The HLO op profile (XProf's op_profile and hlo_stats): device time per XLA program and HLO
// op, with each op's FLOPs and bytes from XLA's cost analysis (hlo_cost.h), FLOP rate, memory
// bandwidth, operational intensity, utilisation of the device's peaks and what bounds it.
//
// As XProf 2.24 does for GPUs: every device activity with an hlo_op stat is one occurrence of
// that op of its program (program_id stat, else hlo_module's name); the op's FLOPs and bytes
// are its cost per execution times its occurrences (so an op that runs as several kernels
// counts its cost once per kernel: a note names such ops, whose executions are counted apart);
// activities without hlo_op are idle time,
// and the profile's total time is, per device, its first activity's start to its last
// activity's end, summed over devices. Utilisation = rate / peak; the bound is the resource
// with the higher utilisation (compute or HBM), "Unknown" without cost. "Wasted time" =
// time fraction x (1 - max(FLOP utilisation, HBM utilisation)), XProf's op profile's sort.
// Peaks: the device's peak_teraflops_per_second / memory_bandwidth stats where set, else
// XProf's derivation: SMs (CUs) x clock x the architecture's dense FLOPs per SM per cycle.
#pragma once

#include "model/analysis/hlo_cost.h"
#include "model/analysis/hlo_program.h"
#include "model/analysis/op_classify.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tracescope {

struct DevicePeaks {
    std::string device;       // "NVIDIA sm_90", "AMD gfx950", or the plane's name
    double peakFlopsPerSecond = 0;  // 0 when unknown
    double peakHbmBytesPerSecond = 0;
    double ridgePoint() const {  // FLOPs per byte where the two ceilings meet
        return peakHbmBytesPerSecond > 0 ? peakFlopsPerSecond / peakHbmBytesPerSecond : 0;
    }
};

// Peaks of one device from its plane's stats (Process::properties); zero where unknown.
DevicePeaks devicePeaksOf(const Process& device);

struct HloOpMetrics {
    uint64_t occurrences = 0;  // device activities (XProf's occurrences)
    // Runs of activities of the op back to back on one stream: an op XLA runs as several
    // kernels (a cuDNN convolution: an im2col and a GEMM) executes once per run.
    uint64_t executions = 0;
    TimeNs timeNs = 0;
    double flops = 0;  // total over the occurrences
    double bytesAccessed = 0;
    uint32_t unknownCost = 0;  // occurrences whose cost is unknown (or partly so)

    double flopsPerSecond() const { return timeNs > 0 ? flops / (double(timeNs) * 1e-9) : 0; }
    double bytesPerSecond() const { return timeNs > 0 ? bytesAccessed / (double(timeNs) * 1e-9) : 0; }
    double operationalIntensity() const { return bytesAccessed > 0 ? flops / bytesAccessed : 0; }
};

enum class HloBound : uint8_t { Unknown, Compute, Hbm };
const char* hloBoundName(HloBound b);  // "Unknown", "Compute", "HBM" (XProf's words)

struct HloOpRow {
    const HloProgram* program = nullptr;
    const xla::HloInstructionProto* op = nullptr;  // null for an hlo_op the program does not name
    std::string name;      // the hlo_op stat
    std::string category;  // XProf's: "loop fusion", "convolution", "data formatting", the opcode...
    HloOpMetrics metrics;
    HloCost costPerExecution;
    double flopsUtilization = 0;  // of the device's peak FLOP rate (uncapped)
    double hbmUtilization = 0;    // of its peak memory bandwidth (uncapped)
    HloBound bound = HloBound::Unknown;
    double timeFraction = 0;  // of the profile's total time (idle included)
    double wastedTimeFraction = 0;
    std::vector<SliceRef> activities;  // its device activities, in track order
    // The XLA command buffer the op ran in ("command_buffer_1"), "" outside one. Inside a
    // buffer every activity carries the buffer as its hlo_op; the op is found from the kernel's
    // name (XLA names a fusion's kernel after it) or, for library kernels, as the next cuBLAS /
    // cuDNN call in the program's schedule. What stays unattributed (memsets) keeps the buffer
    // as its op.
    std::string parent;
};

struct HloProgramRow {
    const HloProgram* program = nullptr;
    std::string name;  // "<module>(<id>)"
    HloOpMetrics metrics;
    HloCost costPerExecution;  // the entry computation's cost
    double timeFraction = 0;
};

struct HloOpProfile {
    std::vector<HloOpRow> ops;  // by time, longest first
    std::vector<HloProgramRow> programs;  // every program of the trace, with device time first
    DevicePeaks peaks;  // of the first device with activity (XProf reports one device type)
    TimeNs totalNs = 0;  // per device first-to-last activity, summed
    TimeNs idleNs = 0;   // total - time of activities with hlo_op
    HloCostModel model = HloCostModel::XlaGpu;  // XlaGpu when the trace has GPUs, else Xla
    std::vector<std::string> notes;
};

HloOpProfile computeHloOpProfile(const ClassifiedTrace& ct, const HloProgramIndex& programs);

// XProf's category of an HLO instruction (HloInstruction::ToCategory with XProf's names).
std::string hloCategory(const xla::HloInstructionProto& op);

}  // namespace tracescope
