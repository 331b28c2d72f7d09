// Call trees (model/analysis/call_tree.h) as results of the trace's store: the top-down tree per
// selection (CallTreeOptions), its bottom-up inversion and a pivot on a frame name, each computed
// once from the store's classification (the inversion and the pivot from the store's tree).
#pragma once

#include "model/analysis/call_tree.h"
#include "model/results/result_store.h"

#include <functional>
#include <memory>
#include <string>

namespace tracescope {

inline const char* const kCallTreeName = "call-tree";
inline const char* const kCallTreeBottomUpName = "call-tree-bottom-up";
inline const char* const kCallPivotName = "call-pivot";

uint64_t resultBytes(const CallTree& tree);
uint64_t resultBytes(const CallPivot& pivot);

// Blocking: computed on this thread when nobody has yet.
std::shared_ptr<const CallTree> callTreeOf(ResultStore& store, const CallTreeOptions& options = {});
std::shared_ptr<const CallTree> bottomUpCallTreeOf(ResultStore& store, const CallTreeOptions& options = {});
std::shared_ptr<const CallPivot> callPivotOf(ResultStore& store, const CallTreeOptions& options,
                                             const std::string& name);

// The computations themselves, for request().
std::function<CallTree()> callTreeWith(ResultStore& store, const CallTreeOptions& options);
std::function<CallTree()> bottomUpCallTreeWith(ResultStore& store, const CallTreeOptions& options);
std::function<CallPivot()> callPivotWith(ResultStore& store, const CallTreeOptions& options, const std::string& name);

// The store keys, for request().
ResultKey callTreeKey(const CallTreeOptions& options);
ResultKey bottomUpCallTreeKey(const CallTreeOptions& options);
ResultKey callPivotKey(const CallTreeOptions& options, const std::string& name);

}  // namespace tracescope
