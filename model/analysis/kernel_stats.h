// GPU kernel statistics (XProf "GPU Kernel Stats", §7.3).
//
// Kernels: XSpace device events with a non-empty kernel_details stat (derived lines
// skipped, duration > 0); Kineto slices of category kernel / Kernel, whose launch
// parameters come from args grid, block, "registers per thread", "shared memory",
// "est. achieved occupancy %" (Kineto's own estimate; XSpace: occ_pct).
// One row per (kernel name, grid, block, registers, shared memory, op, flags); rows sorted
// by total duration, descending. Optionally bounded (KernelStatsOptions::maxRows): the first
// configurations met get rows, the launches of later ones count in the totals only.
#pragma once

#include "model/analysis/op_classify.h"
#include "model/analysis/tensor_core_rules.h"
#include "model/query/slice_row_index.h"
#include "model/trace/trace.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tracescope {

using Dim3 = std::array<uint32_t, 3>;

// Parsed kernel_details (§3.6). Every variant is accepted:
//   CUDA:   "regs:<n> static_shared:<b> dynamic_shared:<b> grid:<x>,<y>,<z> block:<x>,<y>,<z> occ_pct:<f>"
//   TF 2.4: "regs:38 shm:0 grid:160,1,1 block:1024,1,1"          (shm = static shared)
//   ROCm:   " grid:... block:... private_mem:<n> group_mem:<n> occ_pct:<f>" (group_mem = shared,
//           private_mem = per-thread scratch, kept apart)
// Unknown keys are ignored; grid/block default to 1,1,1.
struct KernelLaunchParams {
    uint32_t registersPerThread = 0;
    uint64_t staticSharedBytes = 0;
    uint64_t dynamicSharedBytes = 0;
    uint64_t privateMemBytes = 0;  // ROCm private_mem
    Dim3 grid{1, 1, 1};
    Dim3 block{1, 1, 1};
    std::optional<double> occupancyPct;

    uint64_t sharedMemBytes() const { return staticSharedBytes + dynamicSharedBytes; }
};

// False when the text holds no recognizable key (then `out` keeps its defaults).
bool parseKernelDetails(std::string_view text, KernelLaunchParams& out);
// Parses "[128, 1, 1]" / "128,1,1" / "128" into dims (missing ones = 1). False on garbage.
bool parseDim3(std::string_view text, Dim3& out);

// The rule table of tensor_core_rules.h.
bool kernelUsesTensorCore(std::string_view kernelName);
// `equation`: the einsum equation stat when present ("ab,bc->ac" makes an op eligible).
// TF names may carry ":Type" (the rules see both parts). PyTorch aten:: ops are eligible
// when they are matmul / conv / linear / einsum / attention kinds (the reference is silent).
bool opIsTensorCoreEligible(std::string_view opName, std::string_view equation = {});

struct KernelStatsRow {
    std::string name;  // kernel name (XSpace: long_name when present)
    std::string op;    // framework op ("" when unknown)
    Dim3 grid{1, 1, 1};
    Dim3 block{1, 1, 1};
    uint32_t registersPerThread = 0;
    uint64_t sharedMemBytes = 0;  // static + dynamic
    std::optional<double> occupancyPct;
    bool tensorCoreEligible = false;  // op eligible, or the kernel itself uses TensorCores
    bool usesTensorCore = false;
    const TensorCoreRule* tensorCoreRule = nullptr;  // the rule that decided usesTensorCore (null: none matched)
    uint64_t occurrences = 0;
    TimeNs totalNs = 0;
    TimeNs minNs = 0;
    TimeNs maxNs = 0;
    double avgNs = 0;
};

struct KernelStatsOptions {
    // At most this many rows (0: one per distinct configuration, however many). Each costs
    // memory while summing (see analysis_cost.h); the GUI bounds them to what the machine
    // holds. Configurations met once the bound is reached get no row: their launches count in
    // the totals and in unlistedCount / unlistedNs.
    size_t maxRows = 0;
    // Only the rows with the most time are returned (0: all): a page that shows the top rows
    // needs no full row (with its copied strings) for the others. `configurations` counts all.
    size_t keepRows = 0;
};

struct KernelStatsResult {
    std::vector<KernelStatsRow> rows;
    uint64_t kernelCount = 0;  // all kernel occurrences
    TimeNs totalKernelNs = 0;  // sum of all kernel durations
    TimeNs tensorCoreNs = 0;   // of which by TensorCore kernels
    // Launches (and their time) of configurations past KernelStatsOptions::maxRows: counted
    // above, in no row. 0 when every configuration has its row.
    uint64_t unlistedCount = 0;
    TimeNs unlistedNs = 0;
    size_t maxRows = 0;  // the bound the rows were summed under (0: none)
    // Rows summed (distinct configurations up to maxRows) before keepRows cut the list.
    size_t configurations = 0;
    // What the file does not carry for this page (producer_notes.h), as sentences.
    std::vector<std::string> notes;
};

KernelStatsResult computeKernelStats(const Trace& trace, const KernelStatsOptions& options = {});
KernelStatsResult computeKernelStats(const ClassifiedTrace& ct, const KernelStatsOptions& options = {});

// Launch parameters of one kernel slice (from kernel_details or Kineto args).
KernelLaunchParams kernelParamsOf(const Trace& trace, SliceRef kernel);

// The kernel slices aggregated into rows[row].
std::vector<SliceRef> occurrencesOf(const Trace& trace, const KernelStatsResult& result, size_t row);
std::vector<SliceRef> occurrencesOf(const ClassifiedTrace& classified, const KernelStatsResult& result, size_t row);

// Every kernel slice's row in one pass (the inverse of occurrencesOf for all rows at once).
SliceRowIndex sliceRowIndexOf(const Trace& trace, const KernelStatsResult& result);
SliceRowIndex sliceRowIndexOf(const ClassifiedTrace& classified, const KernelStatsResult& result);

}  // namespace tracescope
