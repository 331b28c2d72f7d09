// tracescope-cli scopes FILE [--json]
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/analysis/scope_tree.h"

#include <cstdio>
#include <functional>

namespace tracescope::cli {

int runScopes(const Args& args) {
    const auto files = positionals(args, {"--depth"});
    if (files.size() != 1) {
        std::fprintf(stderr, "usage: tracescope-cli scopes FILE [--json] [--depth N]\n");
        return 2;
    }
    auto trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    const ScopeTree tree = computeScopeTree(*trace);
    if (hasFlag(args, "--json")) {
        std::function<nlohmann::json(uint32_t)> node = [&](uint32_t n) {
            const ScopeNode& s = tree.nodes[n];
            nlohmann::json j = {{"name", s.name},
                                {"path", s.path},
                                {"occurrences", s.occurrences},
                                {"total_ns", s.totalNs},
                                {"self_ns", s.selfNs},
                                {"device_ns", s.deviceNs},
                                {"bytes_allocated", s.bytesAllocated},
                                {"allocations", s.allocations}};
            j["children"] = nlohmann::json::array();
            for (uint32_t c : s.children) j["children"].push_back(node(c));
            return j;
        };
        nlohmann::json j;
        // Which definition each figure uses (see model/analysis/scope_tree.h).
        j["definitions"] = {
            {"scope_event", "a host slice a node is made of: an op (PyTorch cpu_op), and for PyTorch a user "
                            "annotation or nn.Module span; its own node is its full scope path"},
            {"occurrences", "scope events whose own (deepest) scope is this node, not counting its descendants'"},
            {"total_ns", "inclusive wall time: length of the union of the intervals of the scope events at or "
                         "under this node (nested or concurrent events counted once)"},
            {"self_ns", "total_ns minus the union of the intervals of the scope events under its children"},
            {"device_ns", "sum of the durations of the kernels, copies and memsets attributed at or under this "
                          "node (PyTorch: launched inside its events, linked by flow or correlation id)"},
            {"bytes_allocated", "bytes of the allocations made inside the ops at or under this node"},
            {"op_view", "per op type: occurrences = op slices of the type, total_ns = sum of their durations, "
                        "self_ns = sum of their self times, device_ns = sum of the device activities the type "
                        "launched (PyTorch: the innermost op around the launching runtime call; XSpace: the "
                        "activity's tf_op; \"(no op)\": none)"}};
        j["scope_events"] = tree.scopeEvents;
        j["has_memory"] = tree.hasMemory;
        j["notes"] = tree.notes;
        j["root"] = node(0);
        j["op_view"] = nlohmann::json::array();
        for (const auto& r : tree.opView)
            j["op_view"].push_back({{"name", r.type},
                                    {"occurrences", r.occurrences},
                                    {"total_ns", r.totalNs},
                                    {"self_ns", r.selfNs},
                                    {"device_ns", r.deviceNs},
                                    {"bytes_allocated", r.bytesAllocated}});
        printJson(j);
        return 0;
    }
    const int maxDepth = std::atoi(flagValue(args, "--depth", "6").c_str());
    // time: inclusive wall time; self: time minus the children's; count: the node's own events.
    std::printf("%12s %12s %12s %8s %12s  scope\n", "time(us)", "self(us)", "device(us)", "count", "bytes");
    std::function<void(uint32_t, int)> print = [&](uint32_t n, int depth) {
        const ScopeNode& s = tree.nodes[n];
        if (n != 0)
            std::printf("%12.3f %12.3f %12.3f %8llu %12lld  %*s%s\n", double(s.totalNs) / 1e3, double(s.selfNs) / 1e3,
                        double(s.deviceNs) / 1e3, (unsigned long long)s.occurrences, (long long)s.bytesAllocated,
                        2 * (depth - 1), "", s.name.c_str());
        if (depth >= maxDepth) return;
        for (uint32_t c : s.children) print(c, depth + 1);
    };
    print(0, 0);
    return 0;
}

}  // namespace tracescope::cli
