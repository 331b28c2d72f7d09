// tracescope-cli critical-path FILE [--step N] [--out PATH.json] [--json|--csv]
// The critical path per step as HTA's lightweight critical path analysis defines it
// (model/analysis/critical_path.h), asked of the trace's result store.
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/analysis/short_name.h"
#include "model/export/chrome_json_writer.h"
#include "model/results/critical_path_results.h"
#include "model/results/trace_results.h"

#include <cstdio>
#include <iostream>
#include <unordered_set>

namespace tracescope::cli {

namespace {

const char* kUsage =
    "usage: tracescope-cli critical-path FILE [--step N] [--out PATH.json[.gz]] [--hta-rules] [--json|--csv]\n"
    "  The critical path of each step, as HTA's critical_path_analysis defines it: a begin and an end\n"
    "  node per host op, runtime call and device activity; edges for nesting and CPU-serial order on\n"
    "  a thread, launch -> kernel (launch delay, when the stream was idle), kernel -> kernel on a\n"
    "  stream, and synchronisation -> the work it waited for; the longest path of that graph.\n"
    "  Beyond HTA: kernels of cudaGraphLaunch are linked to their launch, and without cuda_sync\n"
    "  records a blocking sync call waits for the device work that ended last inside it.\n"
    "  Steps: the trace's steps (overview's rule); the whole trace as one when it has none.\n"
    "  Per path: length_ns, time by category (cpu_op, runtime, kernel, memcpy, memset, launch_delay,\n"
    "  kernel_gap; _ns), HTA's bound_by totals, the ops contributing most, graph counts.\n"
    "  --step N       only step N (its number as listed); with --json the events and edges too\n"
    "  --out PATH     write the trace as Chrome JSON with the path marked as HTA's overlay marks it:\n"
    "                 args \"critical\": 1 on the events on the path, flows \"critical_path\" (category\n"
    "                 the edge type) along its launch, dependency and sync edges (all paths, or step N)\n"
    "  --hta-rules    HTA's rules alone (no inferred sync edges, no graph-launch edges): HTA's own path\n"
    "  --json         one object: steps (array of paths), notes, warnings\n"
    "  --csv          one row per path\n";

const char* kindName(const CriticalPath& p) { return p.wholeTrace ? "whole trace" : "step"; }

nlohmann::json categoriesJson(const CriticalPath& p) {
    nlohmann::json j = nlohmann::json::object();
    for (size_t c = 0; c < kCpCategoryCount; ++c)
        j[std::string(cpCategoryName(CpCategory(c))) + "_ns"] = p.byCategory[c];
    return j;
}

nlohmann::json boundByJson(const CriticalPath& p) {
    return {{"cpu_bound_ns", p.cpuBoundNs},
            {"gpu_compute_bound_ns", p.gpuComputeBoundNs},
            {"gpu_communication_bound_ns", p.gpuCommunicationBoundNs},
            {"gpu_kernel_kernel_overhead_ns", p.kernelKernelOverheadNs},
            {"gpu_kernel_launch_overhead_ns", p.kernelLaunchOverheadNs}};
}

nlohmann::json eventJson(const Trace& t, const ClassifiedTrace& ct, SliceRef s) {
    const Track& tr = t.tracks[s.track];
    return {{"name", std::string(fullNameView(ct, s))}, {"process", t.processes[tr.process].name},
            {"pid", t.processes[tr.process].pid},       {"tid", tr.tid},
            {"ts_ns", tr.slices.start[s.index]},        {"dur_ns", tr.slices.duration[s.index]}};
}

nlohmann::json pathJson(const Trace& t, const ClassifiedTrace& ct, const CriticalPath& p, bool detail) {
    nlohmann::json j = {{"kind", kindName(p)},
                        {"step", p.wholeTrace ? nlohmann::json(nullptr) : nlohmann::json(p.stepNumber)},
                        {"name", p.stepName},
                        {"window_start_ns", p.windowStartNs},
                        {"window_end_ns", p.windowEndNs},
                        {"length_ns", p.lengthNs},
                        {"events_on_path", p.events.size()},
                        {"by_category", categoriesJson(p)},
                        {"bound_by", boundByJson(p)}};
    nlohmann::json top = nlohmann::json::array();
    for (const CpContributor& c : p.topContributors)
        top.push_back(
            {{"name", c.name}, {"category", cpCategoryName(c.category)}, {"ns", c.ns}, {"occurrences", c.events}});
    j["top_contributors"] = top;
    j["counts"] = {{"graph_nodes", p.graphNodes},
                   {"graph_edges", p.graphEdges},
                   {"host_events", p.hostEvents},
                   {"device_activities", p.deviceActivities},
                   {"graph_launched_activities", p.graphLaunchedActivities},
                   {"sync_edges_from_records", p.syncEdgesFromRecords},
                   {"sync_edges_inferred", p.syncEdgesInferred},
                   {"negative_edges_clamped", p.negativeEdgesClamped},
                   {"cycle_nodes_left_out", p.cycleNodesLeftOut}};
    if (detail) {
        nlohmann::json events = nlohmann::json::array();
        for (SliceRef s : p.events) events.push_back(eventJson(t, ct, s));
        j["events"] = events;
        // Each edge: from node i to node i + 1 (node = an event's begin or end).
        nlohmann::json edges = nlohmann::json::array();
        for (size_t i = 0; i < p.edges.size(); ++i) {
            const CpPathEdge& e = p.edges[i];
            nlohmann::json ej = {{"type", cpEdgeTypeName(e.type)},
                                 {"weight_ns", e.weightNs},
                                 {"from", std::string(fullNameView(ct, p.nodes[i].slice))},
                                 {"from_node", p.nodes[i].isBegin ? "begin" : "end"},
                                 {"from_ts_ns", p.nodes[i].ts},
                                 {"to", std::string(fullNameView(ct, p.nodes[i + 1].slice))},
                                 {"to_node", p.nodes[i + 1].isBegin ? "begin" : "end"},
                                 {"to_ts_ns", p.nodes[i + 1].ts}};
            if (e.weightNs > 0) ej["category"] = cpCategoryName(e.category);
            edges.push_back(ej);
        }
        j["edges"] = edges;
    }
    return j;
}

// The overlay trace: HTA's overlay_critical_path_analysis with its defaults (critical events
// marked, flows for the launch, dependency and sync edges on the path).
bool writeOverlay(const Trace& t, const std::vector<const CriticalPath*>& paths, const std::string& out) {
    std::unordered_set<uint64_t> critical;
    ChromeJsonOverlay overlay;
    for (const CriticalPath* p : paths) {
        for (SliceRef s : p->events) critical.insert((uint64_t(s.track) << 32) | s.index);
        for (size_t i = 0; i < p->edges.size(); ++i) {
            const CpPathEdge& e = p->edges[i];
            if (e.type != CpEdgeType::LaunchDelay && e.type != CpEdgeType::Dependency &&
                e.type != CpEdgeType::SyncDependency)
                continue;
            ChromeJsonOverlay::Flow f;
            f.from = p->nodes[i].slice;
            f.to = p->nodes[i + 1].slice;
            f.fromEnd = !p->nodes[i].isBegin;
            f.toEnd = !p->nodes[i + 1].isBegin;
            f.name = "critical_path";
            f.category = cpEdgeTypeName(e.type);
            // HTA's weight is in µs; ours in ns, named so.
            f.args = "{\"weight_ns\":" + std::to_string(e.weightNs) + ",\"critical\":true}";
            overlay.flows.push_back(std::move(f));
        }
    }
    overlay.sliceArgs = [&](SliceRef s) -> std::string {
        return critical.count((uint64_t(s.track) << 32) | s.index) ? "\"critical\":1" : "";
    };
    ChromeJsonWriteOptions options;
    options.overlay = &overlay;
    const ChromeJsonWriteResult r = writeChromeJson(t, out, options);
    if (!r.ok) {
        std::fprintf(stderr, "tracescope-cli critical-path: cannot write %s: %s\n", out.c_str(), r.error.c_str());
        return false;
    }
    return true;
}

void printText(const CriticalPathResult& r, const std::vector<const CriticalPath*>& paths) {
    if (!r.stepRule.empty()) std::printf("Steps: %s\n", r.stepRule.c_str());
    for (const CriticalPath* p : paths) {
        std::printf("\n%s %s: critical path %.3f ms over a %.3f ms window, %zu events\n",
                    p->wholeTrace ? "Whole trace" : "Step", p->wholeTrace ? "" : std::to_string(p->stepNumber).c_str(),
                    double(p->lengthNs) / 1e6, double(p->windowEndNs - p->windowStartNs) / 1e6, p->events.size());
        for (size_t c = 0; c < kCpCategoryCount; ++c)
            if (p->byCategory[c])
                std::printf("  %-13s %12.3f ms  %5.1f%%\n", cpCategoryName(CpCategory(c)),
                            double(p->byCategory[c]) / 1e6,
                            p->lengthNs ? 100.0 * double(p->byCategory[c]) / double(p->lengthNs) : 0.0);
        if (!p->topContributors.empty()) std::printf("  most time on the path:\n");
        for (const CpContributor& c : p->topContributors)
            std::printf("    %12.3f ms  %-8s x%-5llu %s\n", double(c.ns) / 1e6, cpCategoryName(c.category),
                        (unsigned long long)c.events, shortName(c.name).substr(0, 90).c_str());
    }
    for (const std::string& n : r.notes) std::printf("Note: %s\n", n.c_str());
}

}  // namespace

int runCriticalPath(const Args& args) {
    if (hasFlag(args, "--help") || hasFlag(args, "-h")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const auto files = positionals(args, {"--step", "--out"});
    if (files.size() != 1) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    const std::string stepText = flagValue(args, "--step");
    int64_t stepWanted = 0;
    if (!stepText.empty()) {
        char* endp = nullptr;
        stepWanted = std::strtoll(stepText.c_str(), &endp, 10);
        if (!endp || *endp) {
            std::fprintf(stderr, "tracescope-cli critical-path: --step wants a step number, got '%s'\n",
                         stepText.c_str());
            return 2;
        }
    }
    std::shared_ptr<const Trace> trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    const std::shared_ptr<ResultStore> store = ResultStore::of(trace);
    const std::shared_ptr<const ClassifiedTrace> ct = classificationOf(*store);
    CriticalPathOptions options;
    options.htaRules = hasFlag(args, "--hta-rules");
    const std::shared_ptr<const CriticalPathResult> result = criticalPathsOf(*store, options);
    std::vector<const CriticalPath*> paths;
    for (const CriticalPath& p : result->paths)
        if (stepText.empty() || (!p.wholeTrace && p.stepNumber == stepWanted)) paths.push_back(&p);
    if (!stepText.empty() && paths.empty()) {
        std::fprintf(stderr, "tracescope-cli critical-path: no step %s in this trace (%s)\n", stepText.c_str(),
                     result->paths.size() == 1 && result->paths[0].wholeTrace ? "it has no steps"
                                                                              : "see the steps listed without --step");
        return 2;
    }
    const std::string out = flagValue(args, "--out");
    if (!out.empty() && !writeOverlay(*trace, paths, out)) return 1;

    if (hasFlag(args, "--json")) {
        nlohmann::json j;
        j["step_rule"] = result->stepRule;
        j["step_source"] = stepSourceName(result->stepSource);
        j["rules"] = result->htaRules ? "hta" : "hta+graph-launch+inferred-sync";
        nlohmann::json arr = nlohmann::json::array();
        for (const CriticalPath* p : paths) arr.push_back(pathJson(*trace, *ct, *p, !stepText.empty()));
        j["steps"] = arr;
        j["counts"] = {{"device_activities", result->deviceActivities},
                       {"device_without_launch", result->deviceWithoutLaunch},
                       {"sync_records", result->syncRecords}};
        j["notes"] = result->notes;
        if (!out.empty()) j["overlay"] = out;
        printJson(j);
        return 0;
    }
    if (hasFlag(args, "--csv")) {
        std::cout << "kind,step,name,window_start_ns,window_end_ns,length_ns,events_on_path";
        for (size_t c = 0; c < kCpCategoryCount; ++c) std::cout << ',' << cpCategoryName(CpCategory(c)) << "_ns";
        std::cout << ",cpu_bound_ns,gpu_compute_bound_ns,gpu_communication_bound_ns,gpu_kernel_kernel_overhead_ns,"
                     "gpu_kernel_launch_overhead_ns,top_contributor\n";
        for (const CriticalPath* p : paths) {
            std::cout << kindName(*p) << ',' << (p->wholeTrace ? std::string() : std::to_string(p->stepNumber)) << ','
                      << csvField(p->stepName) << ',' << p->windowStartNs << ',' << p->windowEndNs << ',' << p->lengthNs
                      << ',' << p->events.size();
            for (size_t c = 0; c < kCpCategoryCount; ++c) std::cout << ',' << p->byCategory[c];
            std::cout << ',' << p->cpuBoundNs << ',' << p->gpuComputeBoundNs << ',' << p->gpuCommunicationBoundNs << ','
                      << p->kernelKernelOverheadNs << ',' << p->kernelLaunchOverheadNs << ','
                      << csvField(p->topContributors.empty() ? std::string() : p->topContributors[0].name) << '\n';
        }
        return 0;
    }
    printText(*result, paths);
    return 0;
}

}  // namespace tracescope::cli
