#include "model/results/sql_result_tables.h"

#include "model/analysis/kernel_stats.h"
#include "model/analysis/op_stats.h"
#include "model/analysis/steps.h"
#include "model/analysis/tf_data.h"
#include "model/analysis/torch_ops.h"
#include "model/results/call_tree_results.h"
#include "model/results/collectives_results.h"
#include "model/results/gpu_util_results.h"
#include "model/results/launch_queue_results.h"
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

SqlRows torchOpsRows(const ClassifiedTrace& ct) {
    const TorchOpsResult r = computeTorchOps(ct, {});
    SqlRows rows;
    rows.columns = 11;
    for (const TorchOpRow& o : r.rows)
        rows.add({text(o.name), integer(o.onDevice), integer(int64_t(o.calls)), integer(o.cpuTotalNs),
                  integer(o.selfCpuNs), integer(o.cudaTotalNs), integer(o.selfCudaNs), real(o.cpuTotalPercent),
                  real(o.selfCpuPercent), real(o.cudaTotalPercent), real(o.selfCudaPercent)});
    return rows;
}

SqlRows stepBreakdownRows(const ClassifiedTrace& ct) {
    const StepsResult steps = findSteps(ct, {});
    SqlRows rows;
    rows.columns = 6;
    for (const StepBreakdown& b : breakdownSteps(ct, steps))
        for (size_t c = 0; c < kStepCategoryCount; ++c)
            rows.add({integer(b.step.number), integer(b.step.startNs), integer(b.step.durationNs),
                      text(stepCategoryName(StepCategory(c))), integer(b.ns[c]), integer(b.hasCompute)});
    return rows;
}

SqlRows tfDataRows(const ClassifiedTrace& ct) {
    const TfDataResult r = computeTfData(ct);
    SqlRows rows;
    rows.columns = 16;
    for (const TfDataPipeline& p : r.pipelines)
        for (size_t rank = 0; rank < p.calls.size(); ++rank) {
            const TfDataCall& call = p.calls[rank];
            for (const TfDataIteratorStat& st : call.iterators) {
                const TfDataIterator* it = p.iterator(st.id);
                rows.add({text(p.host), text(p.name), integer(int64_t(rank)), integer(call.startNs),
                          integer(call.durationNs), integer(int64_t(st.id)),
                          it && it->hasParent ? integer(int64_t(it->parentId)) : SqlCell{}, text(it ? it->label : ""),
                          text(it ? it->longName : ""), integer(it && it->isAsync), integer(st.startNs),
                          integer(st.totalNs), integer(st.selfNs), integer(st.aheadNs), integer(int64_t(st.calls)),
                          integer(st.blocking)});
            }
        }
    return rows;
}

SqlCell knownOrNull(int64_t v) { return v < 0 ? SqlCell{} : integer(v); }  // -1: unknown

SqlRows memoryEventRows(const Trace& trace, const MemoryProfileResult& r, const sql::TraceRowIds& ids) {
    SqlRows rows;
    rows.columns = 13;
    for (const MemoryIdProfile& p : r.ids)
        for (const MemorySnapshot& e : p.timeline) {
            // The event in the trace: an instant, or a counter's sample for counter sources.
            const bool known = e.track < trace.tracks.size() && e.index != kNoIndex;
            const bool sample = p.source == MemorySource::Counter;
            rows.add({text(p.memoryId), integer(e.time), text(memoryEventKindName(e.kind)), integer(e.allocationBytes),
                      integer(e.inUseBytes()), knownOrNull(e.reservedBytes), knownOrNull(e.freeBytes),
                      knownOrNull(e.requestedBytes), e.address ? integer(int64_t(e.address)) : SqlCell{},
                      knownOrNull(e.step), text(trace.str(e.op)),
                      known && !sample ? integer(ids.instant(e.track, e.index)) : SqlCell{},
                      known && sample ? integer(ids.sample(e.track, e.index)) : SqlCell{}});
        }
    return rows;
}

SqlRows memoryPeakRows(const MemoryProfileResult& r) {
    SqlRows rows;
    rows.columns = 12;
    auto opt = [](const std::optional<int64_t>& v) { return v ? integer(*v) : SqlCell{}; };
    for (const MemoryIdProfile& p : r.ids)
        rows.add({text(p.memoryId), text(memorySourceName(p.source)), integer(int64_t(p.allocations)),
                  integer(int64_t(p.deallocations)), integer(p.peakBytes), integer(p.peakTimeNs), opt(p.peakStep),
                  opt(p.peakReservedBytes), opt(p.lifetimePeakBytes), opt(p.capacityBytes),
                  integer(int64_t(p.aliveAtEnd)), integer(p.aliveAtEndBytes)});
    return rows;
}

SqlRows idleGapRows(const GpuUtilizationResult& r) {
    SqlRows rows;
    rows.columns = 6;
    for (const GpuUtilization& g : r.gpus)
        for (const StreamIdle& s : g.streams)
            for (const IdleGap& gap : s.gaps)
                rows.add({knownOrNull(g.device), text(g.name), integer(s.stream), integer(gap.start),
                          integer(durationBetween(gap.start, gap.end)), text(idleCauseName(gap.cause))});
    return rows;
}

SqlRows launchRows(const LaunchStats& r, const sql::TraceRowIds& ids) {
    SqlRows rows;
    rows.columns = 8;
    for (const LaunchRow& l : r.rows)
        rows.add({integer(ids.slice(l.call.track, l.call.index)), integer(ids.slice(l.activity.track, l.activity.index)),
                  integer(l.cpuDurationNs), integer(l.gpuDurationNs), integer(l.launchDelayNs),
                  integer((l.outliers & kShortKernel) != 0), integer((l.outliers & kLongRuntime) != 0),
                  integer((l.outliers & kLongLaunchDelay) != 0)});
    return rows;
}

SqlRows collectiveRows(const CollectivesResult& r, const sql::TraceRowIds& ids) {
    SqlRows rows;
    rows.columns = 18;
    auto known = [](int64_t v) { return v >= 0 ? integer(v) : SqlCell{}; };
    auto rate = [](double v) { return v >= 0 ? real(v) : SqlCell{}; };
    auto textOrNull = [](const std::string& v) { return v.empty() ? SqlCell{} : text(v); };
    for (const CollectiveCall& c : r.calls) {
        const SliceRef kernel = c.kernels.empty() ? SliceRef{} : c.kernels.front();
        rows.add({text(c.kind), textOrNull(c.group), c.groupSize > 0 ? integer(c.groupSize) : SqlCell{},
                  textOrNull(c.dtype), known(c.inNelems), known(c.outNelems), c.seq ? integer(*c.seq) : SqlCell{},
                  known(c.sizeBytes), integer(c.startNs), integer(c.durationNs),
                  text(collectiveTimeSourceName(c.timeSource)), rate(c.algbwBytesPerS), rate(c.busbwBytesPerS),
                  c.hostOp.valid() ? integer(ids.slice(c.hostOp.track, c.hostOp.index)) : SqlCell{},
                  kernel.valid() ? integer(ids.slice(kernel.track, kernel.index)) : SqlCell{},
                  integer(int64_t(c.kernels.size())), text(c.kindSource),
                  c.workerSlice.valid() ? integer(ids.slice(c.workerSlice.track, c.workerSlice.index)) : SqlCell{}});
    }
    return rows;
}

// A table whose rows are the store's result {"sql-table", name}, made by `make` from the store's
// own results (so an analysis a page computed already is not computed again).
void addStoreTable(sql::TraceDatabase& db, ResultStore& store, std::string name, std::string meaning,
                   std::vector<SqlColumn> columns, std::function<SqlRows(ResultStore&)> make) {
    std::weak_ptr<ResultStore> weak = store.weak_from_this();
    const ResultKey key{"sql-table", name};
    db.addTable(sql::rowsTableDef(std::move(name), std::move(meaning), std::move(columns), [weak, key, make] {
        std::shared_ptr<ResultStore> s = weak.lock();
        if (!s) throw std::runtime_error("the trace was closed");
        return s->get<SqlRows>(key, [weak, make]() -> SqlRows {
            std::shared_ptr<ResultStore> s = weak.lock();
            if (!s) throw AnalysisCancelled();
            return make(*s);
        });
    }));
}

void addClassifiedTable(sql::TraceDatabase& db, ResultStore& store, std::string name, std::string meaning,
                        std::vector<SqlColumn> columns, SqlRows (*make)(const ClassifiedTrace&)) {
    addStoreTable(db, store, std::move(name), std::move(meaning), std::move(columns),
                  [make](ResultStore& s) { return make(*classificationOf(s)); });
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

    addStoreTable(db, store, "call_tree",
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
                  [](ResultStore& s) { return callTreeRows(*callTreeOf(s)); });
    addClassifiedTable(db, store, "torch_ops",
                       "PyTorch's operator table (torch.profiler key_averages: by name, CPU rows then device rows), "
                       "as the Op stats page's PyTorch convention shows it; empty for files without torch.profiler's "
                       "events",
                       {{"name", "TEXT", "operator or kernel name"},
                        {"on_device", "INTEGER", "1 for a kernel, memcpy or memset row"},
                        {"calls", "INTEGER", "occurrences"},
                        {"cpu_total_ns", "INTEGER", "CPU total"},
                        {"self_cpu_ns", "INTEGER", "self CPU"},
                        {"cuda_total_ns", "INTEGER", "device time of the kernels it launched, nested ops' too"},
                        {"self_cuda_ns", "INTEGER", "device time of the kernels it launched itself"},
                        {"cpu_total_percent", "REAL", "CPU total over all self CPU time"},
                        {"self_cpu_percent", "REAL", "self CPU over all self CPU time"},
                        {"cuda_total_percent", "REAL", "CUDA total over all self CUDA time"},
                        {"self_cuda_percent", "REAL", "self CUDA over all self CUDA time"}},
                       torchOpsRows);
    addClassifiedTable(db, store, "step_breakdown",
                       "each step's time by XProf's categories (one row per step and category; the categories of a "
                       "step add up to its dur), as the Overview computes them",
                       {{"number", "INTEGER", "step number (as in steps)"},
                        {"ts", "INTEGER", "step start, ns"},
                        {"dur", "INTEGER", "step duration, ns"},
                        {"category", "TEXT", "device compute, kernel launch, input, ... (the Overview's names)"},
                        {"ns", "INTEGER", "time of the step in this category"},
                        {"well_formed", "INTEGER", "1 when the step holds compute (XProf's step set keeps only these)"}},
                       stepBreakdownRows);
    addClassifiedTable(db, store, "tf_data_calls",
                       "tf.data: every call of each pipeline's root iterator with each iterator it reached, as the "
                       "tf.data page shows them (call_rank 0 is the slowest call)",
                       {{"host", "TEXT", "the host the pipeline ran on"},
                        {"pipeline", "TEXT", "Host:0, Device:1, ..."},
                        {"call_rank", "INTEGER", "the call's rank by duration (0: the slowest)"},
                        {"call_ts", "INTEGER", "the call's start, ns"},
                        {"call_dur", "INTEGER", "the call's duration, ns"},
                        {"iterator_id", "INTEGER", "the iterator"},
                        {"parent_id", "INTEGER", "its consumer (NULL: the root)"},
                        {"name", "TEXT", "the iterator's name (Map, BatchV2, TFRecord [1])"},
                        {"long_name", "TEXT", "Iterator::Root::Prefetch::..."},
                        {"is_async", "INTEGER", "1 for an asynchronous iterator"},
                        {"ts", "INTEGER", "its first event in the call, ns"},
                        {"total_ns", "INTEGER", "its events' time in the call"},
                        {"self_ns", "INTEGER", "minus its inputs' overlap"},
                        {"ahead_ns", "INTEGER", "the part done before the call began (by an asynchronous producer)"},
                        {"events", "INTEGER", "its events in the call"},
                        {"blocking", "INTEGER", "1 when on the call's critical path"}},
                       tfDataRows);
    const sql::TraceRowIds* ids = &db.ids();  // the database owns its tables: it outlives them
    addStoreTable(db, store, "memory_events",
                  "every event of the Memory profile page's timeline (allocations, deallocations, samples), with "
                  "the allocator's state right after it",
                  {{"memory_id", "TEXT", "the allocator (a device, or a PyTorch device id)"},
                   {"ts", "INTEGER", "time, ns"},
                   {"kind", "TEXT", "allocation, deallocation or sample"},
                   {"bytes", "INTEGER", "the chunk allocated or freed"},
                   {"in_use_bytes", "INTEGER", "allocated (heap + stack) after the event"},
                   {"reserved_bytes", "INTEGER", "PyTorch's reserved segments (NULL: not in the trace)"},
                   {"free_bytes", "INTEGER", "bytes available (NULL: not in the trace)"},
                   {"requested_bytes", "INTEGER", "bytes requested (NULL: not in the trace)"},
                   {"address", "INTEGER", "the chunk's address (NULL: not in the trace)"},
                   {"step", "INTEGER", "the step it falls in (NULL: outside every step)"},
                   {"op", "TEXT", "the op that allocated or freed it (empty: unknown)"},
                   {"instant_id", "INTEGER", "its event in the instant table (NULL for a counter's samples)"},
                   {"counter_id", "INTEGER", "its sample in the counter table (NULL for events)"}},
                  [ids](ResultStore& s) { return memoryEventRows(s.trace(), *memoryProfileOf(s), *ids); });
    addStoreTable(db, store, "memory_peaks", "each allocator's peak and totals, as the Memory profile page shows them",
                  {{"memory_id", "TEXT", "the allocator"},
                   {"source", "TEXT", "where the numbers came from"},
                   {"allocations", "INTEGER", "allocation events"},
                   {"deallocations", "INTEGER", "deallocation events"},
                   {"peak_bytes", "INTEGER", "largest heap + stack in use"},
                   {"peak_ts", "INTEGER", "when, ns"},
                   {"peak_step", "INTEGER", "the step of the peak (NULL: none)"},
                   {"peak_reserved_bytes", "INTEGER", "largest reserved (NULL: not in the trace)"},
                   {"lifetime_peak_bytes", "INTEGER", "the allocator's own peak since its start (NULL: not in the trace)"},
                   {"capacity_bytes", "INTEGER", "stack + heap + free at the peak (NULL: unknown)"},
                   {"alive_at_end", "INTEGER", "allocations never freed in the profile"},
                   {"alive_at_end_bytes", "INTEGER", "their bytes"}},
                  [](ResultStore& s) { return memoryPeakRows(*memoryProfileOf(s)); });
    addStoreTable(db, store, "gpu_idle_gaps",
                  "every idle gap of every GPU stream with HTA's cause (idle_time_breakdown: host_wait, "
                  "kernel_wait, other), as the GPU utilization page counts them",
                  {{"device", "INTEGER", "the GPU's index (NULL: the trace does not say)"},
                   {"gpu", "TEXT", "its process's name"},
                   {"stream", "INTEGER", "the stream"},
                   {"ts", "INTEGER", "gap start, ns"},
                   {"dur", "INTEGER", "gap length, ns"},
                   {"cause", "TEXT", "host_wait, kernel_wait or other"}},
                  [](ResultStore& s) { return idleGapRows(*gpuUtilizationOf(s)); });
    addStoreTable(db, store, "launches",
                  "each device activity joined to the runtime call that launched it, with HTA's launch statistics "
                  "(get_cuda_kernel_launch_stats) and outlier flags",
                  {{"call_slice_id", "INTEGER", "the runtime call (a slice id)"},
                   {"activity_slice_id", "INTEGER", "the kernel, memcpy or memset (a slice id)"},
                   {"cpu_dur_ns", "INTEGER", "the call's duration, ns"},
                   {"gpu_dur_ns", "INTEGER", "the activity's duration, ns"},
                   {"launch_delay_ns", "INTEGER", "activity start minus call end, clipped at 0, ns"},
                   {"short_kernel", "INTEGER", "1: cpu_dur_ns <= 50 us and gpu_dur_ns < cpu_dur_ns"},
                   {"long_runtime", "INTEGER", "1: cpu_dur_ns > 50 us"},
                   {"long_launch_delay", "INTEGER", "1: launch_delay_ns > 100 us"}},
                  [ids](ResultStore& s) { return launchRows(*launchStatsOf(s), *ids); });
    addStoreTable(db, store, "collectives",
                  "each collective communication call with its size and nccl-tests bandwidths (algbw = S / t, "
                  "busbw = algbw x the bus factor), as tracescope-cli collectives reports them",
                  {{"kind", "TEXT", "Kineto's collective name (allreduce, _allgather_base, broadcast, ...)"},
                   {"process_group", "TEXT", "the process group's name or id (NULL: not recorded)"},
                   {"group_size", "INTEGER", "ranks in the group, n (NULL: not recorded)"},
                   {"dtype", "TEXT", "element type (NULL: not recorded)"},
                   {"in_msg_nelems", "INTEGER", "input elements (NULL: not recorded)"},
                   {"out_msg_nelems", "INTEGER", "output elements (NULL: not recorded)"},
                   {"seq", "INTEGER", "the call's sequence number in its group (NULL: not recorded)"},
                   {"size_bytes", "INTEGER", "S as nccl-tests counts it, from the metadata or the recorded shapes (NULL: unknown)"},
                   {"ts", "INTEGER", "start of its first kernel, else of gloo's worker run of it, else of its host op, ns"},
                   {"dur", "INTEGER", "its kernels' time, else its gloo worker run's, else its host op's, ns"},
                   {"time_source", "TEXT", "kernel, gloo worker or host"},
                   {"algbw_bytes_per_s", "REAL", "size_bytes / dur (NULL: unknown)"},
                   {"busbw_bytes_per_s", "REAL", "algbw x the nccl-tests bus factor (NULL: unknown)"},
                   {"host_slice_id", "INTEGER", "the call's outermost host op (a slice id; NULL: none)"},
                   {"kernel_slice_id", "INTEGER", "its first communication kernel (a slice id; NULL: none)"},
                   {"kernels", "INTEGER", "its communication kernels"},
                   {"kind_source", "TEXT", "where the kind was read: metadata, op, annotation, kernel name"},
                   {"worker_slice_id", "INTEGER", "gloo's worker run of it (a slice id; NULL: none)"}},
                  [ids](ResultStore& s) { return collectiveRows(*collectivesOf(s), *ids); });
}

}  // namespace tracescope
