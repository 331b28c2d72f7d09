#include "model/results/call_tree_results.h"

#include "model/results/trace_results.h"

namespace tracescope {

uint64_t resultBytes(const CallTree& tree) {
    uint64_t bytes = sizeof tree + tree.nodes.capacity() * sizeof(CallNode);
    for (const CallNode& n : tree.nodes) bytes += n.children.capacity() * sizeof(uint32_t);
    for (const std::string& s : tree.ownedNames) bytes += sizeof s + s.capacity();
    for (const std::string& s : tree.notes) bytes += sizeof s + s.capacity();
    return bytes;
}

uint64_t resultBytes(const CallPivot& pivot) { return resultBytes(pivot.callees) + resultBytes(pivot.callers); }

ResultKey callTreeKey(const CallTreeOptions& options) { return {kCallTreeName, options.key()}; }
ResultKey bottomUpCallTreeKey(const CallTreeOptions& options) { return {kCallTreeBottomUpName, options.key()}; }
ResultKey callPivotKey(const CallTreeOptions& options, const std::string& name) {
    return {kCallPivotName, options.key() + " pivot=" + name};
}

std::function<CallTree()> callTreeWith(ResultStore& store, const CallTreeOptions& options) {
    std::weak_ptr<ResultStore> weak = store.weak_from_this();
    return [weak, options]() -> CallTree {
        std::shared_ptr<ResultStore> s = weak.lock();
        if (!s) throw AnalysisCancelled();
        return computeCallTree(*classificationOf(*s), options);
    };
}

std::function<CallTree()> bottomUpCallTreeWith(ResultStore& store, const CallTreeOptions& options) {
    std::weak_ptr<ResultStore> weak = store.weak_from_this();
    return [weak, options]() -> CallTree {
        std::shared_ptr<ResultStore> s = weak.lock();
        if (!s) throw AnalysisCancelled();
        return invertCallTree(*callTreeOf(*s, options));
    };
}

std::function<CallPivot()> callPivotWith(ResultStore& store, const CallTreeOptions& options, const std::string& name) {
    std::weak_ptr<ResultStore> weak = store.weak_from_this();
    return [weak, options, name]() -> CallPivot {
        std::shared_ptr<ResultStore> s = weak.lock();
        if (!s) throw AnalysisCancelled();
        return pivotCallTree(*callTreeOf(*s, options), name);
    };
}

std::shared_ptr<const CallTree> callTreeOf(ResultStore& store, const CallTreeOptions& options) {
    return store.get<CallTree>(callTreeKey(options), callTreeWith(store, options));
}

std::shared_ptr<const CallTree> bottomUpCallTreeOf(ResultStore& store, const CallTreeOptions& options) {
    return store.get<CallTree>(bottomUpCallTreeKey(options), bottomUpCallTreeWith(store, options));
}

std::shared_ptr<const CallPivot> callPivotOf(ResultStore& store, const CallTreeOptions& options,
                                             const std::string& name) {
    return store.get<CallPivot>(callPivotKey(options, name), callPivotWith(store, options, name));
}

}  // namespace tracescope
