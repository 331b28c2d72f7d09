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
#pragma once

#include "model/analysis/op_classify.h"
#include "model/analysis/slice_row_index.h"
#include "model/trace/trace.h"

#include <string>
#include <vector>

namespace tracescope {

struct ScopeNode {
    std::string name;  // this level ("dense")
    std::string path;  // full path ("model/dense")
    uint32_t parent = kNoIndex;
    std::vector<uint32_t> children;  // sorted by totalNs descending
    // Aggregates over this node and everything under it.
    uint64_t occurrences = 0;  // op occurrences at or under this node
    TimeNs totalNs = 0;        // inclusive op time (nested ops not double counted)
    TimeNs selfNs = 0;         // self time of ops at or under this node
    TimeNs deviceNs = 0;       // device activity time attributed under this node
    int64_t bytesAllocated = 0;
    uint64_t allocations = 0;
};

struct OpTypeRow {
    std::string type;
    uint64_t occurrences = 0;
    TimeNs totalNs = 0;
    TimeNs selfNs = 0;
    TimeNs deviceNs = 0;
    int64_t bytesAllocated = 0;
};

struct ScopeTree {
    std::vector<ScopeNode> nodes;  // nodes[0] is the root (empty name)
    std::vector<OpTypeRow> opView;  // sorted by selfNs descending
    bool hasMemory = false;
};

ScopeTree computeScopeTree(const Trace& trace);
ScopeTree computeScopeTree(const ClassifiedTrace& ct);

// The op slices counted at or under nodes[node].
std::vector<SliceRef> occurrencesOf(const Trace& trace, const ScopeTree& tree, size_t node);
// The op slices of opView[row].
std::vector<SliceRef> occurrencesOfOpType(const Trace& trace, const ScopeTree& tree, size_t row);

// Every counted op slice's own (deepest) scope node, in one pass.
SliceRowIndex sliceNodeIndexOf(const Trace& trace, const ScopeTree& tree);
// Every op slice's row in tree.opView, in one pass.
SliceRowIndex sliceOpTypeIndexOf(const Trace& trace, const ScopeTree& tree);

}  // namespace tracescope
