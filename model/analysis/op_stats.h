// Op statistics (XProf "TF Stats" / Framework Op Stats, §7.1-7.2), host and device.
//
// Host rows: framework ops on host threads (XSpace TF/JAX ops, tf.data iterators;
// Kineto cpu_op). Self time = duration minus directly nested ops on the same thread.
// Device rows: kernels, memcpy and memset, attributed to the framework op that issued them
// (XSpace tf_op / hlo_op stat; Kineto: the cpu_op enclosing the launching cuda_runtime call).
// A device activity with no known op is its own row (its name, type = its kind).
// Device activities do not nest, so device self time = device time.
//
// XSpace and XProf's trace JSON follow XProf's op-name rule (isXprofOpName): host events whose
// names XProf does not take for ops (TensorFlow's internal "_send_y_0:_Send") are left out of the
// rows, busy and IDLE time, and `notes` says so.
//
// Percentages are of the side's total self time (idle included when options.includeIdle).
// Rows are sorted by side (device first), then self time descending; cumulative % runs
// within a side.
#pragma once

#include "model/analysis/op_classify.h"
#include "model/query/slice_row_index.h"
#include "model/trace/trace.h"

#include <string>
#include <vector>

namespace tracescope {

enum class OpSide : uint8_t { Host, Device };

enum class OpGrouping : uint8_t {
    ByName,   // one row per (op name, op type)
    ByType,   // one row per op type (XSpace: the ":Type" part; Kineto: the op name for
              // cpu_op, and kernel / gpu_memcpy / gpu_memset for device rows)
    ByHloOp,  // XSpace device rows: one row per HLO op (stat hlo_op; type = hlo_module), for JAX/XLA
              // programs whose tf_op says little; other rows as ByName
};

struct OpStatsOptions {
    OpGrouping grouping = OpGrouping::ByName;
    // Add an "IDLE" row per side. Device idle = per device, its active window (first to last
    // activity) minus the union of its activity time, summed over devices. Host idle = per
    // host thread with ops, span of the thread's ops minus the union of its top-level ops
    // (XProf: line total - ops). Texts: kDeviceIdleDefinition, kHostIdleDefinition.
    bool includeIdle = true;
    // Pie charts keep this many largest entries and fold the rest into "other".
    size_t pieTopN = 10;
};

inline constexpr const char* kIdleOpName = "IDLE";
// What the IDLE rows measure, for the UI and the CLI's JSON.
inline constexpr const char* kDeviceIdleDefinition =
    "per device, the time between its first and last activity (kernel, memcpy, memset) not covered by any "
    "activity, summed over devices";
inline constexpr const char* kHostIdleDefinition =
    "per host thread (TF1: per device, its lanes together), the time between its first and last op not covered "
    "by an op, summed over threads";

struct OpStatsRow {
    OpSide side = OpSide::Host;
    std::string name;  // op name (ByType: the type)
    std::string type;  // op type / category
    bool isIdle = false;
    uint64_t occurrences = 0;
    TimeNs totalNs = 0;
    TimeNs minNs = 0;
    TimeNs maxNs = 0;
    TimeNs selfNs = 0;
    double avgNs = 0;
    double avgSelfNs = 0;
    double selfPercent = 0;            // of the side's total self time
    double cumulativeSelfPercent = 0;  // running sum within the side, in row order
    // Device rows: time of kernels that use TensorCores (§7.3 name rules) / all kernel time.
    TimeNs tensorCoreNs = 0;
    TimeNs kernelNs = 0;
};

struct PieEntry {
    std::string label;
    TimeNs valueNs = 0;
    double percent = 0;  // of the pie's total
    // The remainder entry ("other"): how many entries were folded into it; 0 for a named entry.
    size_t foldedCount = 0;
};

struct OpStatsResult {
    OpStatsOptions options;
    std::vector<OpStatsRow> rows;
    TimeNs hostTotalSelfNs = 0;    // sum of host rows' self time (idle included if requested)
    TimeNs deviceTotalSelfNs = 0;  // same for device rows
    TimeNs hostIdleNs = 0;
    TimeNs deviceIdleNs = 0;
    size_t deviceCount = 0;
    // Pies: self time per op name and per op type, top N + "other" (idle excluded).
    std::vector<PieEntry> hostByOp, hostByType, deviceByOp, deviceByType;
    // What XProf's op-name rule left out or renamed (op_iteration.h), as sentences; empty when
    // nothing. The figures above are already without what it left out.
    std::vector<std::string> notes;
};

OpStatsResult computeOpStats(const Trace& trace, const OpStatsOptions& options = {});
OpStatsResult computeOpStats(const ClassifiedTrace& ct, const OpStatsOptions& options = {});

// The slices aggregated into rows[row] (empty for IDLE rows), in track/time order,
// for cross-navigation to the timeline.
std::vector<SliceRef> occurrencesOf(const Trace& trace, const OpStatsResult& result, size_t row);
std::vector<SliceRef> occurrencesOf(const ClassifiedTrace& classified, const OpStatsResult& result, size_t row);

// Folds (label, value) into the top `topN` by value plus "other"; percents of the total.
std::vector<PieEntry> makePie(std::vector<std::pair<std::string, TimeNs>> values, size_t topN);

const char* opSideName(OpSide side);

// Every occurrence's row in one pass (the inverse of occurrencesOf for all rows at once):
// a slice selected in the timeline finds its table row.
SliceRowIndex sliceRowIndexOf(const Trace& trace, const OpStatsResult& result);
SliceRowIndex sliceRowIndexOf(const ClassifiedTrace& classified, const OpStatsResult& result);

}  // namespace tracescope
