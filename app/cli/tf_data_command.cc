// tracescope-cli tfdata FILE [--json|--csv]: tf.data input pipelines, the critical path and
// bottleneck of each pipeline's slowest call, the summary and suggestion.
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"
#include "app/cli/step_set_cli.h"

#include "model/analysis/tf_data.h"

#include <cstdio>

namespace tracescope::cli {

namespace {

// Ids are 64-bit patterns (TF 2.x writes uint64): as decimal strings, which JSON readers keep exact.
std::string idText(uint64_t id) { return std::to_string(id); }

nlohmann::json nodeJson(const TfDataPipeline& p, const TfDataCall& call, const TfDataIteratorStat& s) {
    const TfDataIterator* it = p.iterator(s.id);
    nlohmann::json j;
    j["id"] = idText(s.id);
    j["parent_id"] = it && it->hasParent ? nlohmann::json(idText(it->parentId)) : nlohmann::json(nullptr);
    j["name"] = it ? it->name : "";
    j["long_name"] = it ? it->longName : "";
    j["is_async"] = it && it->isAsync;
    j["start_offset_ns"] = s.startNs - call.startNs;
    j["end_offset_ns"] = s.endNs - call.startNs;
    j["ahead_ns"] = s.aheadNs;
    j["total_ns"] = s.totalNs;
    j["self_ns"] = s.selfNs;
    j["calls"] = s.calls;
    j["blocking"] = s.blocking;
    return j;
}

nlohmann::json pipelineJson(const TfDataPipeline& p) {
    nlohmann::json j;
    j["host"] = p.host;
    j["name"] = p.name;
    j["kind"] = tfDataPipelineKindName(p.kind);
    j["root_id"] = idText(p.rootId);
    j["calls"] = p.calls.size();
    j["min_latency_ns"] = p.minNs;
    j["avg_latency_ns"] = p.avgNs;
    j["max_latency_ns"] = p.maxNs;
    j["slow_calls"] = p.slowCalls;
    if (p.calls.empty()) return j;
    const TfDataCall& slowest = p.calls.front();
    nlohmann::json c;
    c["start_ns"] = slowest.startNs;
    c["duration_ns"] = slowest.durationNs;
    c["bottleneck"] = idText(slowest.bottleneckId);
    c["nodes"] = nlohmann::json::array();
    for (const TfDataIteratorStat& s : slowest.iterators) c["nodes"].push_back(nodeJson(p, slowest, s));
    j["slowest_call"] = std::move(c);
    return j;
}

}  // namespace

int runTfData(const Args& args) {
    const auto files = positionals(args, {"--step-marker"});
    if (files.size() != 1) {
        std::fprintf(stderr, "usage: tracescope-cli tfdata FILE [--json|--csv] [--step-marker NAME] [--all-steps]\n");
        return 2;
    }
    auto trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    const TfDataResult r = computeTfData(*trace, stepOptionsOf(args));
    const TfDataSummary& s = r.summary;
    if (hasFlag(args, "--json")) {
        nlohmann::json j;
        nlohmann::json sum;
        sum["has_tf_data"] = s.hasTfData;
        sum["is_input_bound"] = s.slowPipeline;
        sum["device_pipelines_only"] = s.deviceOnly;
        sum["step_verdict"] = inputBoundName(s.stepVerdict);
        sum["step_input_percent"] = s.stepInputPercent;
        sum["steps"] = s.steps;
        sum["step_set"] = s.stepSet;  // the steps step_input_percent is taken over
        sum["text"] = s.text;
        sum["suggestion"] = s.suggestion;
        j["summary"] = std::move(sum);
        j["notes"] = r.notes;
        j["slow_call_threshold_ns"] = kTfDataSlowCallNs;
        j["pipelines"] = nlohmann::json::array();
        for (const TfDataPipeline& p : r.pipelines) j["pipelines"].push_back(pipelineJson(p));
        j["bottlenecks"] = nlohmann::json::array();
        for (const TfDataBottleneck& b : r.bottlenecks)
            j["bottlenecks"].push_back({{"host", b.host},
                                        {"pipeline", b.pipelineName},
                                        {"max_latency_ns", b.maxLatencyNs},
                                        {"iterator_id", idText(b.iteratorId)},
                                        {"iterator_name", b.iteratorName},
                                        {"iterator_long_name", b.iteratorLongName},
                                        {"iterator_latency_ns", b.iteratorLatencyNs},
                                        {"category", tfDataBottleneckCategoryName(b.category)},
                                        {"suggestion", b.suggestion}});
        printJson(j);
        return 0;
    }
    if (hasFlag(args, "--csv")) {
        std::printf("host,pipeline,kind,min_latency_ns,avg_latency_ns,max_latency_ns,calls,slow_calls,bottleneck,"
                    "bottleneck_self_ns\n");
        for (const TfDataPipeline& p : r.pipelines) {
            const TfDataIterator* b = p.calls.empty() ? nullptr : p.iterator(p.calls.front().bottleneckId);
            std::printf("%s,%s,%s,%lld,%.0f,%lld,%zu,%llu,%s,%lld\n", csvField(p.host).c_str(), csvField(p.name).c_str(),
                        tfDataPipelineKindName(p.kind), (long long)p.minNs, p.avgNs, (long long)p.maxNs, p.calls.size(),
                        (unsigned long long)p.slowCalls, csvField(b ? b->longName : "").c_str(),
                        (long long)(p.calls.empty() ? 0 : p.calls.front().bottleneckSelfNs));
        }
        return 0;
    }
    for (const auto& n : r.notes) std::printf("Note: %s\n", n.c_str());
    std::printf("%s\n", s.text.c_str());
    if (!s.suggestion.empty()) std::printf("Suggestion: %s\n", s.suggestion.c_str());
    for (const TfDataPipeline& p : r.pipelines) {
        std::printf("\n%s %s (%s): %zu calls, %llu slow; latency min %.3f / avg %.3f / max %.3f us\n", p.host.c_str(),
                    p.name.c_str(), tfDataPipelineKindName(p.kind), p.calls.size(), (unsigned long long)p.slowCalls,
                    double(p.minNs) / 1e3, p.avgNs / 1e3, double(p.maxNs) / 1e3);
        if (p.calls.empty()) continue;
        const TfDataCall& c = p.calls.front();
        std::printf("  slowest call: %-44s %12s %12s %12s %12s %6s\n", "iterator", "start (us)", "total (us)",
                    "self (us)", "ahead (us)", "events");
        for (const TfDataIteratorStat& st : c.iterators) {
            const TfDataIterator* it = p.iterator(st.id);
            const char* mark = st.id == c.bottleneckId ? "bottleneck" : st.blocking ? "blocking" : "";
            std::printf("  %-58s %12.3f %12.3f %12.3f %12.3f %6llu  %s\n", it ? it->longName.c_str() : "?",
                        double(st.startNs - c.startNs) / 1e3, double(st.totalNs) / 1e3, double(st.selfNs) / 1e3,
                        double(st.aheadNs) / 1e3, (unsigned long long)st.calls, mark);
        }
    }
    if (!r.pipelines.empty())
        std::printf("\nPer iterator: its events in that call, summed. start: its first event, from the call's "
                    "start;\nnegative, and \"ahead\": time before the call began, work done ahead by an "
                    "asynchronous producer\n(Prefetch, ParallelMap, ...), whose input runs on other threads, so "
                    "its total can exceed its parent's.\n");
    return 0;
}

}  // namespace tracescope::cli
