// PyTorch's own op table: the numbers of torch.profiler's
// `prof.key_averages().table()`, so PyTorch users can hold ours against theirs.
//
// It follows torch.profiler's function-event tree (torch/autograd/profiler_util.py), not
// XProf's op convention (op_stats.h, which folds runtime calls into their op):
//  * CPU-side events: cpu_op, user_annotation (record_function, ProfilerStep#N, all of
//    which make one row "ProfilerStep*" as torch names it), cuda_runtime and cuda_driver
//    slices on host threads (old Kineto: Operator, Runtime, Driver). Python frames
//    (python_function, with_stack=True) are nodes of the tree without rows, as in
//    torch.profiler 2.15 (key_averages(include_python_functions=False)): an op called
//    from a Python frame is that frame's child, not the enclosing op's.
//  * What torch leaves out before it counts: events named [memory], [OutOfMemory],
//    profiler::_record_function_enter(_new)/_exit, aten::is_leaf, aten::output_nr,
//    aten::_version are no events (_filter_name in torch/autograd/profiler.py); an event that
//    is the only child of a parent of the same name is merged into it, its children becoming
//    the parent's (EventList._remove_dup_nodes): one call, whose total is the parent's duration.
//  * CPU total = duration; Self CPU = duration minus the durations of the event's direct
//    children: CPU-side events (runtime calls included) and Python frames.
//  * Self CUDA = device time (kernels, memcpy, memset) launched by runtime calls that are
//    direct children of the event, matched by correlation id (or the launch flow);
//    CUDA total = launched anywhere below the event. A runtime call's own row has none.
//  * Device rows: each kernel / memcpy / memset name is a row of its own whose Self CUDA
//    and CUDA total are its device time, as in recent torch.profiler tables.
//  * Percentages as torch's table prints them: Self CPU % and CPU total % of the sum of
//    Self CPU over all rows; Self CUDA % and CUDA total % of the sum of the device rows'
//    device time.
// Rows are keyed by name (and by the "Input Dims" arg / the top N stack frames when asked),
// CPU and device rows apart.
#pragma once

#include "model/analysis/op_classify.h"
#include "model/query/slice_row_index.h"
#include "model/trace/trace.h"

#include <string>
#include <vector>

namespace tracescope {

struct TorchOpsOptions {
    bool groupByInputShapes = false;  // key_averages(group_by_input_shape=True)
    size_t groupByStackFrames = 0;    // key_averages(group_by_stack_n=N); 0 = off
};

struct TorchOpRow {
    std::string name;
    std::string inputShapes;  // grouped by shape: the events' "Input Dims" ("" when absent)
    std::string stack;        // grouped by stack: the top frames, innermost first, one per line
    bool onDevice = false;    // a kernel / memcpy / memset row
    uint64_t calls = 0;
    TimeNs cpuTotalNs = 0;
    TimeNs selfCpuNs = 0;
    TimeNs cudaTotalNs = 0;
    TimeNs selfCudaNs = 0;
    double selfCpuPercent = 0;
    double cpuTotalPercent = 0;
    double selfCudaPercent = 0;
    double cudaTotalPercent = 0;

    double cpuAvgNs() const { return calls ? double(cpuTotalNs) / double(calls) : 0; }
    double cudaAvgNs() const { return calls ? double(cudaTotalNs) / double(calls) : 0; }
};

struct TorchOpsResult {
    TorchOpsOptions options;
    std::vector<TorchOpRow> rows;  // CPU rows by CPU total descending, then device rows by CUDA total
    TimeNs totalSelfCpuNs = 0;     // the denominators of the percentages
    TimeNs totalSelfCudaNs = 0;
    bool hasInputShapes = false;  // some event carries "Input Dims" (record_shapes=True)
    bool hasStacks = false;       // some event has a call stack (with_stack=True)
    // Why the table cannot be made from this trace ("" when it can): XSpace and XProf trace
    // JSON (JAX, TensorFlow, PyTorch/XLA) and TF1 files hold no torch.profiler event tree.
    std::string unavailable;
};

// The reason computeTorchOps() gives for a trace without torch.profiler's event tree, "" for
// one that has it (Kineto and other Chrome JSON).
std::string torchOpsUnavailableReason(const ClassifiedTrace& ct);

TorchOpsResult computeTorchOps(const ClassifiedTrace& ct, const TorchOpsOptions& options = {});
TorchOpsResult computeTorchOps(const Trace& trace, const TorchOpsOptions& options = {});

// The slices aggregated into rows[row], in track/time order (not those merged into a parent).
std::vector<SliceRef> occurrencesOf(const Trace& trace, const TorchOpsResult& result, size_t row);
std::vector<SliceRef> occurrencesOf(const ClassifiedTrace& classified, const TorchOpsResult& result, size_t row);
// Every counted slice's row, in one pass; a slice merged into its parent has its parent's row.
SliceRowIndex sliceRowIndexOf(const Trace& trace, const TorchOpsResult& result);
SliceRowIndex sliceRowIndexOf(const ClassifiedTrace& classified, const TorchOpsResult& result);

}  // namespace tracescope
