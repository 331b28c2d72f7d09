// tracescope-cli advice FILE [--json|--csv] [--gap-threshold-us N]
// Expert advice on a GPU trace (model/analysis/gpu_advice.h): GPU gaps with what the host was
// doing, blocking calls inside steps, pageable copies, kernels shorter than their launch, starved
// launch queues; each finding with the slices it found.
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/results/gpu_advice_results.h"
#include "model/results/trace_results.h"

#include <charconv>
#include <cstdio>
#include <iostream>

namespace tracescope::cli {

namespace {

const char* kUsage =
    "usage: tracescope-cli advice FILE [--json|--csv] [--gap-threshold-us N]\n"
    "  Why the GPU waits, as rules in the manner of Nsight Systems' expert rules and HTA's outliers;\n"
    "  each finding names the slices it found and what it is worth (cost_ns):\n"
    "   gpu-gap        the device idle (no kernel, copy or memset on any stream) for at least the\n"
    "                  threshold (default 1000 us), with what the launching host thread did meanwhile:\n"
    "                  its slices with the most own time in the gap, and the time no slice covered\n"
    "   sync-in-step   host calls that block until the GPU is done (cuda/cu/hip Device-, Stream-,\n"
    "                  EventSynchronize; memcpy and memset calls without Async) inside steps (the\n"
    "                  whole trace without steps), grouped by the framework op that made them; cost:\n"
    "                  the calls' time\n"
    "   pageable-copy  copies from or to pageable host memory; cost: the copies' time\n"
    "   short-kernel   kernels shorter than their launch call (HTA's outlier, runtime <= 50 us),\n"
    "                  by kernel name; cost: the calls' time beyond the kernels'\n"
    "   starved-queue  steps where the busiest stream's launch queue (HTA's queue length) was at\n"
    "                  most 1 for more than half the step (10 launches or more); cost: that time\n"
    "  Rules count every finding; the findings listed are each rule's 200 costliest, with up to\n"
    "  100 slices each.\n"
    "  --gap-threshold-us N   the shortest gap gpu-gap reports, in microseconds (default 1000)\n"
    "  --json   rules, findings (slices: name, pid, tid, ts_ns, dur_ns), recommendations, notes\n"
    "  --csv    a row per finding\n";

nlohmann::json sliceJson(const Trace& t, const ClassifiedTrace& ct, SliceRef s) {
    const Track& tr = t.tracks[s.track];
    return {{"name", std::string(fullNameView(ct, s))},
            {"pid", tr.process != kNoIndex ? t.processes[tr.process].pid : 0},
            {"tid", tr.tid},
            {"ts_ns", tr.slices.start[s.index]},
            {"dur_ns", tr.slices.duration[s.index]}};
}

nlohmann::json orNull(int64_t v) { return v >= 0 ? nlohmann::json(v) : nlohmann::json(nullptr); }

nlohmann::json findingJson(const Trace& t, const ClassifiedTrace& ct, const AdviceFinding& f) {
    nlohmann::json j = {{"rule", adviceRuleId(f.rule)}, {"what", f.what},
                        {"cost_ns", f.costNs},          {"start_ns", f.start},
                        {"end_ns", f.end},              {"occurrences", f.occurrences},
                        {"step", orNull(f.step)},       {"device", orNull(f.device)}};
    if (f.rule == AdviceRule::StarvedQueue) {
        j["stream"] = f.stream;
        j["fraction_at_most_one"] = f.fraction;
    }
    if (f.rule == AdviceRule::SyncInStep) j["steps"] = f.steps;
    nlohmann::json slices = nlohmann::json::array();
    for (SliceRef s : f.slices) slices.push_back(sliceJson(t, ct, s));
    j["slices"] = slices;
    if (f.rule == AdviceRule::GpuGap) {
        nlohmann::json host = nlohmann::json::array();
        for (const GapHostSlice& h : f.host) {
            nlohmann::json hj = sliceJson(t, ct, h.slice);
            hj["self_in_gap_ns"] = h.selfNs;
            host.push_back(hj);
        }
        j["host"] = host;
        j["host_thread"] = f.hostTrack != kNoIndex ? nlohmann::json(t.tracks[f.hostTrack].name) : nlohmann::json(nullptr);
        j["host_untraced_ns"] = f.hostTrack != kNoIndex ? nlohmann::json(f.hostUntracedNs) : nlohmann::json(nullptr);
    }
    return j;
}

}  // namespace

int runAdvice(const Args& args) {
    if (hasFlag(args, "--help") || hasFlag(args, "-h")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const auto files = positionals(args, {"--gap-threshold-us"});
    if (files.size() != 1) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    AdviceOptions options;
    if (hasFlag(args, "--gap-threshold-us")) {
        const std::string v = flagValue(args, "--gap-threshold-us");
        int64_t us = 0;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), us);
        if (ec != std::errc() || end != v.data() + v.size() || us < 1 || us > 3'600'000'000) {
            std::fprintf(stderr, "tracescope-cli advice: --gap-threshold-us needs a positive integer, got '%s'\n",
                         v.c_str());
            return 2;
        }
        options.gapThresholdNs = us * 1000;
    }
    std::shared_ptr<const Trace> trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    const std::shared_ptr<ResultStore> store = ResultStore::of(trace);
    const std::shared_ptr<const ClassifiedTrace> ct = classificationOf(*store);
    const std::shared_ptr<const GpuAdvice> result = gpuAdviceOf(*store, options);
    const GpuAdvice& a = *result;
    const Trace& t = *trace;

    if (hasFlag(args, "--json")) {
        nlohmann::json j;
        j["options"] = {{"gap_threshold_ns", a.options.gapThresholdNs}, {"starved_fraction", a.options.starvedFraction}};
        j["steps"] = a.steps;
        j["rules"] = nlohmann::json::array();
        for (const AdviceRuleSummary& r : a.rules)
            j["rules"].push_back({{"rule", adviceRuleId(r.rule)},
                                  {"findings", r.findings},
                                  {"occurrences", r.occurrences},
                                  {"cost_ns", r.costNs}});
        j["findings"] = nlohmann::json::array();
        for (const AdviceFinding& f : a.findings) j["findings"].push_back(findingJson(t, *ct, f));
        j["recommendations"] = adviceSentences(*ct, a);
        j["notes"] = a.notes;
        printJson(j);
        return 0;
    }
    if (hasFlag(args, "--csv")) {
        std::cout << "rule,what,cost_ns,start_ns,end_ns,occurrences,step,device,stream,first_slice\n";
        for (const AdviceFinding& f : a.findings) {
            std::cout << adviceRuleId(f.rule) << ',' << csvField(f.what) << ',' << f.costNs << ',' << f.start << ','
                      << f.end << ',' << f.occurrences << ',' << (f.step >= 0 ? std::to_string(f.step) : "") << ','
                      << (f.device >= 0 ? std::to_string(f.device) : "") << ','
                      << (f.rule == AdviceRule::StarvedQueue ? std::to_string(f.stream) : "") << ','
                      << csvField(f.slices.empty() ? "" : std::string(fullNameView(*ct, f.slices[0]))) << '\n';
        }
        return 0;
    }
    std::printf("%-14s %9s %12s %15s\n", "rule", "findings", "occurrences", "cost (ns)");
    for (const AdviceRuleSummary& r : a.rules)
        std::printf("%-14s %9llu %12llu %15lld\n", adviceRuleId(r.rule), (unsigned long long)r.findings,
                    (unsigned long long)r.occurrences, (long long)r.costNs);
    for (const std::string& s : adviceSentences(*ct, a)) std::printf("\n%s\n", s.c_str());
    for (const std::string& n : a.notes) std::printf("Note: %s\n", n.c_str());
    return 0;
}

}  // namespace tracescope::cli
