// tracescope-cli flame FILE [--range A:B] [--tracks REGEX] [--under REGEX] [--step N] [--metric M] [--bottom-up]
//                       [--by-thread] [--pivot NAME] [--json|--csv|--folded|--pprof OUT|--code]
// Where the time goes by call stack (model/analysis/call_tree.h): the host threads' slices merged
// by name path, as folded stacks, a pprof profile, a table or JSON.
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"
#include "app/cli/step_set_cli.h"

#include "model/analysis/steps.h"
#include "model/export/call_stack_export.h"
#include "model/results/call_tree_results.h"
#include "model/results/trace_results.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <iostream>
#include <regex>

namespace tracescope::cli {

namespace {

const char* kUsage =
    "usage: tracescope-cli flame FILE [--range A:B] [--tracks REGEX] [--under REGEX] [--step N] [--step-marker NAME]\n"
    "                      [--metric wall|self|device|count] [--bottom-up] [--by-thread] [--pivot NAME]\n"
    "                      [--json|--csv|--folded|--pprof OUT.pb.gz|--code]\n"
    "  Where the time goes by call stack: every host thread's slices (Python frames, ops, annotations,\n"
    "  runtime calls; not device streams or profiler spans) nested by time on their thread and merged\n"
    "  by name path. A frame's wall time is its slices' time, its self time that time when none of its\n"
    "  callees runs, its device time the kernels, copies and memsets it and its callees launched.\n"
    "  Without an output flag: the totals and the 30 frames with the most self time.\n"
    "  --range A:B       only [A, B) on the trace's clock (the ts_ns of --json outputs): integers in\n"
    "                    ns, or with us / ms / s; slices cut by it count their part inside it\n"
    "  --tracks REGEX    only the threads whose name, process name or \"process: thread\" matches\n"
    "  --under REGEX     only the slices whose name matches and what they enclose, each from the root\n"
    "                    (their callers left out); one inside another counts as its callee\n"
    "  --step N          only step N (its number as `overview` lists it); --step-marker NAME picks the\n"
    "                    step slices\n"
    "  --metric M        the value of folded stacks and of the table's order: self (default: each\n"
    "                    stack's self time, what flamegraph.pl adds up), wall (each stack's inclusive\n"
    "                    time), device (device time each stack launched itself), count (slices)\n"
    "  --bottom-up       the tree inverted: leaves first, their callers below (folded: leaf first)\n"
    "  --by-thread       one root frame per thread (\"process: thread\") instead of merging threads\n"
    "  --pivot NAME      the frames called by NAME (merged over every place it occurs) and its callers\n"
    "  --json            totals, the tree's nodes (id, parent, name, figures), the frame table, notes\n"
    "  --csv             a row per node: its stack (frames joined by ';') and figures\n"
    "  --folded          folded stacks, \"a;b;c VALUE\" per distinct stack (values in ns, or slices)\n"
    "  --pprof OUT       a gzipped pprof profile (sample types wall/nanoseconds and, when the trace\n"
    "                    links kernels to launches, device/nanoseconds); `go tool pprof -top OUT`\n"
    "  --code            the code view: Python frames by file, line and function (self, total and\n"
    "                    device time; --json or --csv for all rows)\n";

nlohmann::json nodeJson(const CallTree& tree, uint32_t i) {
    const CallNode& n = tree.nodes[i];
    return {{"id", i},
            {"parent", n.parent == kNoIndex ? nlohmann::json(nullptr) : nlohmann::json(n.parent)},
            {"name", std::string(n.name)},
            {"depth", n.depth},
            {"total_ns", n.totalNs},
            {"self_ns", n.selfNs},
            {"device_ns", n.deviceNs},
            {"self_device_ns", n.selfDeviceNs},
            {"occurrences", n.count},
            {"total_occurrences", n.totalCount},
            {"python", n.python},
            {"thread_frame", n.synthetic && i != kCallRoot}};
}

nlohmann::json treeJson(const CallTree& tree) {
    nlohmann::json nodes = nlohmann::json::array();
    for (uint32_t i = 0; i < tree.nodes.size(); ++i) nodes.push_back(nodeJson(tree, i));
    return nodes;
}

std::string stackText(const CallTree& tree, uint32_t node) {
    std::string s;
    for (std::string_view f : tree.stackOf(node)) {
        if (!s.empty()) s += ';';
        s += foldedFrameName(f);
    }
    return s;
}

void printTop(const std::vector<CallFrameRow>& rows, size_t limit) {
    std::printf("%15s %15s %15s %10s  %s\n", "self (ns)", "total (ns)", "device (ns)", "count", "frame");
    for (size_t i = 0; i < rows.size() && i < limit; ++i)
        std::printf("%15lld %15lld %15lld %10llu  %.*s\n", (long long)rows[i].selfNs, (long long)rows[i].totalNs,
                    (long long)rows[i].deviceNs, (unsigned long long)rows[i].count, int(rows[i].name.size()),
                    rows[i].name.data());
}

// The threads the --tracks regex names.
bool pickTracks(const Trace& t, const std::string& pattern, std::vector<TrackIndex>& out) {
    std::regex re;
    try {
        re = std::regex(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
        std::fprintf(stderr, "tracescope-cli flame: --tracks is not a regular expression: %s\n", e.what());
        return false;
    }
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        const Track& tr = t.tracks[ti];
        if (tr.kind != TrackKind::Thread || tr.overflowOf != kNoIndex) continue;
        const std::string process = tr.process < t.processes.size() ? t.processes[tr.process].name : "";
        if (std::regex_search(tr.name, re) || std::regex_search(process, re) ||
            std::regex_search(process + ": " + tr.name, re))
            out.push_back(ti);
    }
    return true;
}

int codeView(const Args& args, const CallTree& tree) {
    std::vector<CallFrameRow> rows;
    for (const CallFrameRow& r : frameTable(tree))
        if (r.python) rows.push_back(r);
    const auto locationOf = [](const CallFrameRow& r) {
        return pythonLocationOf(r.name).value_or(PythonLocation{{}, 0, r.name});
    };
    if (hasFlag(args, "--json")) {
        nlohmann::json j;
        j["rows"] = nlohmann::json::array();
        for (const CallFrameRow& r : rows) {
            const PythonLocation loc = locationOf(r);
            j["rows"].push_back({{"file", std::string(loc.file)},
                                 {"line", loc.line},
                                 {"function", std::string(loc.function)},
                                 {"frame", std::string(r.name)},
                                 {"occurrences", r.count},
                                 {"self_ns", r.selfNs},
                                 {"total_ns", r.totalNs},
                                 {"device_ns", r.deviceNs}});
        }
        j["notes"] = tree.notes;
        printJson(j);
        return 0;
    }
    if (hasFlag(args, "--csv")) {
        std::cout << "file,line,function,occurrences,self_ns,total_ns,device_ns\n";
        for (const CallFrameRow& r : rows) {
            const PythonLocation loc = locationOf(r);
            std::cout << csvField(std::string(loc.file)) << ',' << loc.line << ','
                      << csvField(std::string(loc.function)) << ',' << r.count << ',' << r.selfNs << ',' << r.totalNs
                      << ',' << r.deviceNs << '\n';
        }
        return 0;
    }
    if (rows.empty()) {
        std::printf("No Python frames.\n");
        for (const std::string& n : tree.notes) std::printf("Note: %s\n", n.c_str());
        return 0;
    }
    std::printf("%15s %15s %15s %10s  %s\n", "self (ns)", "total (ns)", "device (ns)", "count", "file:line function");
    for (size_t i = 0; i < rows.size() && i < 30; ++i) {
        const PythonLocation loc = locationOf(rows[i]);
        const std::string where =
            loc.file.empty() ? std::string(loc.function)
                             : std::string(loc.file) + ":" + std::to_string(loc.line) + " " + std::string(loc.function);
        std::printf("%15lld %15lld %15lld %10llu  %s\n", (long long)rows[i].selfNs, (long long)rows[i].totalNs,
                    (long long)rows[i].deviceNs, (unsigned long long)rows[i].count, where.c_str());
    }
    return 0;
}

}  // namespace

int runFlame(const Args& args) {
    if (hasFlag(args, "--help") || hasFlag(args, "-h")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const auto files = positionals(
        args, {"--range", "--tracks", "--under", "--step", "--step-marker", "--metric", "--pivot", "--pprof"});
    if (files.size() != 1) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    const std::optional<CallMetric> metric = callMetricFromId(flagValue(args, "--metric", "self"));
    if (!metric) {
        std::fprintf(stderr, "tracescope-cli flame: --metric is wall, self, device or count, got '%s'\n",
                     flagValue(args, "--metric").c_str());
        return 2;
    }
    CallTreeOptions options;
    options.byThread = hasFlag(args, "--by-thread");
    if (hasFlag(args, "--range")) {
        const std::string v = flagValue(args, "--range");
        const size_t colon = v.find(':');
        TimeNs a = 0, b = 0;
        if (colon == std::string::npos || !parseTimeNs(std::string_view(v).substr(0, colon), a) ||
            !parseTimeNs(std::string_view(v).substr(colon + 1), b) || b < a) {
            std::fprintf(stderr,
                         "tracescope-cli flame: --range wants A:B with A <= B (ns, or with us/ms/s), got '%s'\n",
                         v.c_str());
            return 2;
        }
        options.range = std::make_pair(a, b);
    }
    if (hasFlag(args, "--step") && options.range) {
        std::fputs("tracescope-cli flame: --step and --range exclude each other\n", stderr);
        return 2;
    }
    int64_t stepWanted = 0;
    if (hasFlag(args, "--step")) {
        const std::string v = flagValue(args, "--step");
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), stepWanted);
        if (v.empty() || ec != std::errc() || end != v.data() + v.size()) {
            std::fprintf(stderr, "tracescope-cli flame: --step wants a step number, got '%s'\n", v.c_str());
            return 2;
        }
    }

    std::shared_ptr<const Trace> trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    const Trace& t = *trace;
    const std::shared_ptr<ResultStore> store = ResultStore::of(trace);
    const std::shared_ptr<const ClassifiedTrace> ct = classificationOf(*store);
    if (hasFlag(args, "--tracks")) {
        if (!pickTracks(t, flagValue(args, "--tracks"), options.tracks)) return 2;
        if (options.tracks.empty()) {
            std::fprintf(stderr, "tracescope-cli flame: no thread matches --tracks '%s'\n",
                         flagValue(args, "--tracks").c_str());
            return 2;
        }
    }
    if (hasFlag(args, "--under")) {
        const std::string pattern = flagValue(args, "--under");
        std::regex re;
        try {
            re = std::regex(pattern, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            std::fprintf(stderr, "tracescope-cli flame: --under is not a regular expression: %s\n", e.what());
            return 2;
        }
        options.roots = frameSlicesMatching(
            *ct, [&](std::string_view name) { return std::regex_search(name.begin(), name.end(), re); });
        if (options.roots.empty()) {
            std::fprintf(stderr, "tracescope-cli flame: no slice matches --under '%s'\n", pattern.c_str());
            return 2;
        }
    }
    if (hasFlag(args, "--step")) {
        const StepsResult steps = findSteps(*ct, stepOptionsOf(args));
        const auto it =
            std::find_if(steps.steps.begin(), steps.steps.end(), [&](const Step& s) { return s.number == stepWanted; });
        if (it == steps.steps.end()) {
            std::fprintf(stderr, "tracescope-cli flame: the trace has no step %lld (%zu steps found)\n",
                         (long long)stepWanted, steps.steps.size());
            return 2;
        }
        options.range = std::make_pair(it->startNs, it->endNs());
    }

    const std::shared_ptr<const CallTree> topDown = callTreeOf(*store, options);
    if (hasFlag(args, "--pprof")) {
        const std::string out = flagValue(args, "--pprof");
        PprofOptions po;
        const TimeNs from = options.range ? options.range->first : t.startNs;
        const TimeNs to = options.range ? options.range->second : t.endNs;
        if (t.originUnixNs) po.timeNanos = *t.originUnixNs + from;
        po.durationNanos = durationBetween(from, to);
        std::string error;
        if (out.empty() || !writePprofProfile(*topDown, out, error, po)) {
            std::fprintf(stderr, "tracescope-cli flame: cannot write the pprof profile '%s': %s\n", out.c_str(),
                         error.c_str());
            return 1;
        }
        return 0;
    }
    if (hasFlag(args, "--code")) return codeView(args, *topDown);
    if (hasFlag(args, "--folded")) {
        std::fputs(foldedStacks(*topDown, *metric, hasFlag(args, "--bottom-up")).c_str(), stdout);
        return 0;
    }

    std::shared_ptr<const CallPivot> pivot;
    if (hasFlag(args, "--pivot")) pivot = callPivotOf(*store, options, flagValue(args, "--pivot"));
    std::shared_ptr<const CallTree> shown = topDown;
    if (hasFlag(args, "--bottom-up")) shown = bottomUpCallTreeOf(*store, options);
    const CallNode& root = topDown->root();

    if (hasFlag(args, "--json")) {
        nlohmann::json j;
        j["options"] = {
            {"range_ns",
             options.range ? nlohmann::json({options.range->first, options.range->second}) : nlohmann::json(nullptr)},
            {"threads", options.tracks.empty() ? nlohmann::json("all") : nlohmann::json(options.tracks.size())},
            {"under_slices", options.roots.size()},
            {"by_thread", options.byThread},
            {"bottom_up", shown->bottomUp},
            {"metric", callMetricId(*metric)}};
        j["totals"] = {{"wall_ns", root.totalNs},
                       {"self_ns", root.subtreeSelfNs},
                       {"device_ns", root.deviceNs},
                       {"slices", topDown->slices},
                       {"device_activities", topDown->deviceActivities},
                       {"unattributed_device_activities", topDown->unattributedDevice},
                       {"nodes", topDown->nodes.size()},
                       {"max_depth", topDown->maxDepth}};
        if (pivot) {
            j["pivot"] = {{"name", flagValue(args, "--pivot")},
                          {"occurrences", pivot->occurrences},
                          {"callees", treeJson(pivot->callees)},
                          {"callers", treeJson(pivot->callers)}};
        } else {
            j["nodes"] = treeJson(*shown);
        }
        j["frames"] = nlohmann::json::array();
        for (const CallFrameRow& r : frameTable(*topDown))
            j["frames"].push_back({{"name", std::string(r.name)},
                                   {"occurrences", r.count},
                                   {"self_ns", r.selfNs},
                                   {"total_ns", r.totalNs},
                                   {"device_ns", r.deviceNs},
                                   {"python", r.python}});
        j["notes"] = topDown->notes;
        printJson(j);
        return 0;
    }
    if (hasFlag(args, "--csv")) {
        const CallTree& tree = pivot ? pivot->callees : *shown;
        std::cout << "stack,depth,total_ns,self_ns,device_ns,self_device_ns,occurrences\n";
        for (uint32_t i = 1; i < tree.nodes.size(); ++i) {
            const CallNode& n = tree.nodes[i];
            std::cout << csvField(stackText(tree, i)) << ',' << n.depth << ',' << n.totalNs << ',' << n.selfNs << ','
                      << n.deviceNs << ',' << n.selfDeviceNs << ',' << n.count << '\n';
        }
        return 0;
    }
    std::printf("slices %llu, wall %lld ns, self %lld ns, device %lld ns, %zu distinct stacks, deepest %u\n",
                (unsigned long long)topDown->slices, (long long)root.totalNs, (long long)root.subtreeSelfNs,
                (long long)root.deviceNs, topDown->nodes.size() - 1, topDown->maxDepth);
    if (pivot) {
        std::printf("\n%s: %llu outermost occurrences\n", flagValue(args, "--pivot").c_str(),
                    (unsigned long long)pivot->occurrences);
        const auto list = [](const char* title, const CallTree& tree) {
            std::printf("\n%s\n", title);
            const CallNode& top = tree.nodes[tree.root().children.empty() ? 0 : tree.root().children[0]];
            for (size_t k = 0; k < top.children.size() && k < 30; ++k) {
                const CallNode& c = tree.nodes[top.children[k]];
                std::printf("%15lld  %.*s\n", (long long)c.totalNs, int(c.name.size()), c.name.data());
            }
        };
        list("callers (total ns of the pivot under them):", pivot->callers);
        list("callees (total ns):", pivot->callees);
    } else {
        std::vector<CallFrameRow> rows = frameTable(*topDown);
        if (*metric == CallMetric::Wall)
            std::stable_sort(rows.begin(), rows.end(),
                             [](const CallFrameRow& a, const CallFrameRow& b) { return a.totalNs > b.totalNs; });
        else if (*metric == CallMetric::Device)
            std::stable_sort(rows.begin(), rows.end(),
                             [](const CallFrameRow& a, const CallFrameRow& b) { return a.deviceNs > b.deviceNs; });
        else if (*metric == CallMetric::Count)
            std::stable_sort(rows.begin(), rows.end(),
                             [](const CallFrameRow& a, const CallFrameRow& b) { return a.count > b.count; });
        std::printf("\n");
        printTop(rows, 30);
    }
    for (const std::string& n : topDown->notes) std::printf("Note: %s\n", n.c_str());
    return 0;
}

}  // namespace tracescope::cli
