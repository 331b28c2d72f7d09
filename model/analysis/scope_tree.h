// Name-scope tree: op time aggregated by the '/'-separated scopes of op names
// ("model/dense/MatMul" -> model > dense > MatMul), plus the flat "op view" by op type.
//
// Which name is split: XSpace: the tf_op stat (else long_name, else the name) of host ops and
// of device activities (device activities count under their op). Kineto: cpu_op names;
// PyTorch has no scopes in op names, so scopes come from the enclosing module/annotation
// hierarchy on the same thread: "nn.Module: Linear_0" python_function / user_annotation
// slices enclosing the op, outermost first; names containing '/' are split on '/', and
// "a::b" namespaces are NOT split (aten::mm stays one leaf).
// Memory: XSpace MemoryAllocation instants (bytes: allocation_bytes or requested_bytes, op: tf_op)
// and Kineto [memory] instants (arg "Bytes" > 0) add their bytes to the op slice that encloses
// them on the same thread (or the tf_op scope).
//
// Scope events: the host slices a node is made of. XSpace: host ops, as the op table counts them
// (XProf's op-name rule, op_stats.h, leaves some out and notes say so). Kineto: cpu_op slices,
// user annotations (not ProfilerStep#N, not gpu_user_annotation) and "nn.Module: X" spans; each
// event's own (deepest) scope is the node of its full path, e.g. an "Optimizer.step#AdamW.step"
// annotation is one event of the node "Optimizer.step#AdamW.step", and the aten::mul_ it encloses
// one event of "Optimizer.step#AdamW.step/aten::mul_".
// Device activities (kernels, copies, memsets) are not scope events; they are attributed to
// a node: Kineto: the innermost scope event enclosing the runtime call that launched them
// (flow, else correlation id), XSpace: their tf_op scope; none: "(no op)/<activity name>".
#pragma once

#include "model/analysis/op_classify.h"
#include "model/query/slice_row_index.h"
#include "model/trace/trace.h"

#include <string>
#include <vector>

namespace tracescope {

struct ScopeNode {
    std::string name;  // this level ("dense")
    std::string path;  // full path ("model/dense")
    uint32_t parent = kNoIndex;
    std::vector<uint32_t> children;  // sorted by totalNs descending
    // Scope events whose own (deepest) scope is this node (not its descendants').
    uint64_t occurrences = 0;
    // Inclusive wall time: length of the union of the intervals of the scope events at or under
    // this node; nested or concurrent events are not counted twice. A scope made only of its
    // children (XSpace "model/dense") covers what they cover.
    TimeNs totalNs = 0;
    // totalNs minus the union of the intervals of the events under the children: the time in
    // this node's own events when no child event runs. Never negative.
    TimeNs selfNs = 0;
    // Sum of the durations of the device activities attributed at or under this node.
    TimeNs deviceNs = 0;
    // Allocations (count, bytes) attributed at or under this node.
    int64_t bytesAllocated = 0;
    uint64_t allocations = 0;
};

// One op type (Kineto: the cpu_op name, "aten::mm"; XSpace: the ":Type" of the op name).
// Host figures are the op table's (Op Stats by type): every op slice of the type counts.
struct OpTypeRow {
    std::string type;
    uint64_t occurrences = 0;  // host op slices of this type
    TimeNs totalNs = 0;        // sum of their durations (an op nested in one of its type counts in both)
    TimeNs selfNs = 0;         // sum of their self times (duration minus directly nested ops)
    // Sum of the durations of the device activities this type launched: Kineto: the innermost
    // cpu_op enclosing the launching runtime call; XSpace: the type of the activity's tf_op.
    // Activities with no op go to the row "(no op)".
    TimeNs deviceNs = 0;
    int64_t bytesAllocated = 0;
};

struct ScopeTree {
    // nodes[0] is the root (empty name, no events of its own: occurrences 0, totalNs the union of
    // every scope event, selfNs 0). A child's index is always greater than its parent's.
    std::vector<ScopeNode> nodes;
    uint64_t scopeEvents = 0;       // scope events in the tree (the sum of every node's occurrences)
    std::vector<OpTypeRow> opView;  // sorted by selfNs descending
    bool hasMemory = false;
    // What the file does not carry for this page (producer_notes.h), e.g. no allocator events;
    // and what XProf's op-name rule left out (op_iteration.h).
    std::vector<std::string> notes;
};

ScopeTree computeScopeTree(const Trace& trace);
ScopeTree computeScopeTree(const ClassifiedTrace& ct);

// The slices counted at or under nodes[node]: scope events and attributed device activities.
std::vector<SliceRef> occurrencesOf(const Trace& trace, const ScopeTree& tree, size_t node);
std::vector<SliceRef> occurrencesOf(const ClassifiedTrace& classified, const ScopeTree& tree, size_t node);
// The op slices of opView[row] and the device activities they launched.
std::vector<SliceRef> occurrencesOfOpType(const Trace& trace, const ScopeTree& tree, size_t row);
std::vector<SliceRef> occurrencesOfOpType(const ClassifiedTrace& classified, const ScopeTree& tree, size_t row);

// Every scope event's own (deepest) node and every device activity's node, in one pass.
SliceRowIndex sliceNodeIndexOf(const Trace& trace, const ScopeTree& tree);
SliceRowIndex sliceNodeIndexOf(const ClassifiedTrace& classified, const ScopeTree& tree);
// Every op slice's row in tree.opView, in one pass.
SliceRowIndex sliceOpTypeIndexOf(const Trace& trace, const ScopeTree& tree);
SliceRowIndex sliceOpTypeIndexOf(const ClassifiedTrace& classified, const ScopeTree& tree);

// The tree and both indexes above from a single walk of the trace, for a page that needs all
// three: each of them alone walks it once, which tripled the page's time on large traces.
struct ScopeTreeWithIndexes {
    ScopeTree tree;
    SliceRowIndex sliceNodes;  // as sliceNodeIndexOf
    SliceRowIndex sliceTypes;  // as sliceOpTypeIndexOf
};
ScopeTreeWithIndexes computeScopeTreeWithIndexes(const ClassifiedTrace& classified);

}  // namespace tracescope
