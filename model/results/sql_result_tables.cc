#include "model/results/sql_result_tables.h"

#include "model/analysis/kernel_stats.h"
#include "model/analysis/op_stats.h"
#include "model/analysis/steps.h"
#include "model/results/call_tree_results.h"
#include "model/results/trace_results.h"
#include "model/sql/rows_table.h"

namespace tracescope {

namespace {

using sql::SqlCell;
using sql::SqlColumn;
using sql::SqlRows;

SqlCell text(std::string_view s) { return std::string(s); }
SqlCell integer(int64_t v) { return v; }
SqlCell real(double v) { return v; }

SqlRows opStatsRows(const ClassifiedTrace& ct) {
    const OpStatsResult r = computeOpStats(ct, {});
    SqlRows rows;
    rows.columns = 12;
    for (const OpStatsRow& o : r.rows)
        rows.add({text(o.side == OpSide::Device ? "device" : "host"), text(o.name), text(o.type),
                  integer(o.isIdle), integer(int64_t(o.occurrences)), integer(o.totalNs), integer(o.selfNs),
                  integer(o.minNs), integer(o.maxNs), real(o.avgNs), real(o.avgSelfNs), real(o.selfPercent)});
    return rows;
}

SqlRows kernelStatsRows(const ClassifiedTrace& ct) {
    const KernelStatsResult r = computeKernelStats(ct, {});
    SqlRows rows;
    rows.columns = 14;
    for (const KernelStatsRow& k : r.rows) {
        auto dims = [](const Dim3& d) {
            return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]);
        };
        rows.add({text(k.name), text(k.op), text(dims(k.grid)), text(dims(k.block)),
                  integer(k.registersPerThread), integer(int64_t(k.sharedMemBytes)),
                  k.occupancyPct ? real(*k.occupancyPct) : SqlCell{}, integer(k.usesTensorCore),
                  integer(k.tensorCoreEligible), integer(int64_t(k.occurrences)), integer(k.totalNs),
                  integer(k.minNs), integer(k.maxNs), real(k.avgNs)});
    }
    return rows;
}

SqlRows stepRows(const ClassifiedTrace& ct) {
    const StepsResult r = findSteps(ct, {});
    SqlRows rows;
    rows.columns = 5;
    for (const Step& s : r.steps)
        rows.add({integer(s.number), text(s.name), integer(s.startNs), integer(s.durationNs),
                  text(stepSourceName(r.source))});
    return rows;
}

SqlRows callTreeRows(const CallTree& tree) {
    SqlRows rows;
    rows.columns = 10;
    for (uint32_t i = 0; i < tree.nodes.size(); ++i) {
        const CallNode& n = tree.nodes[i];
        rows.add({integer(i), n.parent == kNoIndex ? SqlCell{} : integer(n.parent), text(n.name), integer(n.depth),
                  integer(n.totalNs), integer(n.selfNs), integer(n.deviceNs), integer(n.selfDeviceNs),
                  integer(int64_t(n.count)), integer(n.python)});
    }
    return rows;
}

// A table whose rows are the store's result {"sql-table", name}, made from the classification.
void addClassifiedTable(sql::TraceDatabase& db, ResultStore& store, std::string name, std::string meaning,
                        std::vector<SqlColumn> columns, SqlRows (*make)(const ClassifiedTrace&)) {
    std::weak_ptr<ResultStore> weak = store.weak_from_this();
    const ResultKey key{"sql-table", name};
    db.addTable(sql::rowsTableDef(std::move(name), std::move(meaning), std::move(columns), [weak, key, make] {
        std::shared_ptr<ResultStore> s = weak.lock();
        if (!s) throw std::runtime_error("the trace was closed");
        return s->get<SqlRows>(key, [weak, make]() -> SqlRows {
            std::shared_ptr<ResultStore> s = weak.lock();
            if (!s) throw AnalysisCancelled();
            return make(*classificationOf(*s));
        });
    }));
}

}  // namespace

void addAnalysisTables(sql::TraceDatabase& db, ResultStore& store) {
    addClassifiedTable(db, store, "op_stats",
                       "XProf's op statistics by op name (host and device sides, IDLE rows included), as the Op "
                       "stats page shows them",
                       {{"side", "TEXT", "host or device"},
                        {"name", "TEXT", "op name"},
                        {"type", "TEXT", "op type or category"},
                        {"is_idle", "INTEGER", "1 for a side's IDLE row"},
                        {"occurrences", "INTEGER", "times the op ran"},
                        {"total_ns", "INTEGER", "total time"},
                        {"self_ns", "INTEGER", "self time (minus nested ops)"},
                        {"min_ns", "INTEGER", "shortest"},
                        {"max_ns", "INTEGER", "longest"},
                        {"avg_ns", "REAL", "average time"},
                        {"avg_self_ns", "REAL", "average self time"},
                        {"self_percent", "REAL", "share of the side's self time"}},
                       opStatsRows);
    addClassifiedTable(db, store, "kernel_stats",
                       "GPU kernels by name, op and launch configuration, as the Kernel stats page shows them",
                       {{"name", "TEXT", "kernel name"},
                        {"op", "TEXT", "the framework op that launched it (empty: unknown)"},
                        {"grid", "TEXT", "grid dimensions x,y,z"},
                        {"block", "TEXT", "block dimensions x,y,z"},
                        {"registers_per_thread", "INTEGER", "registers per thread"},
                        {"shared_mem_bytes", "INTEGER", "static + dynamic shared memory"},
                        {"occupancy_percent", "REAL", "theoretical occupancy (NULL: unknown)"},
                        {"uses_tensor_core", "INTEGER", "1 when the kernel uses TensorCores"},
                        {"tensor_core_eligible", "INTEGER", "1 when its op could use them"},
                        {"occurrences", "INTEGER", "launches"},
                        {"total_ns", "INTEGER", "total time"},
                        {"min_ns", "INTEGER", "shortest"},
                        {"max_ns", "INTEGER", "longest"},
                        {"avg_ns", "REAL", "average"}},
                       kernelStatsRows);
    addClassifiedTable(db, store, "steps", "the training steps the Overview finds (every step, not only the step set)",
                       {{"number", "INTEGER", "step number (else the ordinal)"},
                        {"name", "TEXT", "the step's marker name"},
                        {"ts", "INTEGER", "start, ns"},
                        {"dur", "INTEGER", "duration, ns"},
                        {"source", "TEXT", "the rule that found the steps"}},
                       stepRows);

    std::weak_ptr<ResultStore> weak = store.weak_from_this();
    db.addTable(sql::rowsTableDef(
        "call_tree",
        "the flame graph's top-down call tree over the whole trace: host threads' slices merged by name path",
        {{"id", "INTEGER", "node id (0: the root)"},
         {"parent_id", "INTEGER", "its caller's node (NULL: the root)"},
         {"name", "TEXT", "frame name"},
         {"depth", "INTEGER", "stack depth (the root is 0)"},
         {"total_ns", "INTEGER", "wall time of the slices at this stack"},
         {"self_ns", "INTEGER", "their self time"},
         {"device_ns", "INTEGER", "device time launched at or under this stack"},
         {"self_device_ns", "INTEGER", "device time launched by the slices at this stack"},
         {"occurrences", "INTEGER", "slices at this stack"},
         {"python", "INTEGER", "1 for a Python frame"}},
        [weak] {
            std::shared_ptr<ResultStore> s = weak.lock();
            if (!s) throw std::runtime_error("the trace was closed");
            return s->get<SqlRows>({"sql-table", "call_tree"}, [weak]() -> SqlRows {
                std::shared_ptr<ResultStore> s = weak.lock();
                if (!s) throw AnalysisCancelled();
                return callTreeRows(*callTreeOf(*s));
            });
        }));
}

}  // namespace tracescope
