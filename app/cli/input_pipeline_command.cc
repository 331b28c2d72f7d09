// tracescope-cli input-pipeline FILE [--json] [--step-marker NAME] [--all-steps]
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"
#include "app/cli/step_set_cli.h"

#include "model/analysis/input_pipeline.h"

#include <cstdio>

namespace tracescope::cli {

namespace {
nlohmann::json distJson(const Distribution& d) {
    return {{"count", d.count}, {"mean", d.mean}, {"stddev", d.stddev}, {"min", d.min}, {"max", d.max}};
}
}  // namespace

int runInputPipeline(const Args& args) {
    const auto files = positionals(args, {"--step-marker"});
    if (files.size() != 1) {
        std::fprintf(stderr, "usage: tracescope-cli input-pipeline FILE [--json] [--step-marker NAME] [--all-steps]\n");
        return 2;
    }
    auto trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    const InputPipelineResult r = computeInputPipeline(*trace, stepOptionsOf(args));
    if (hasFlag(args, "--json")) {
        nlohmann::json j;
        j["step_source"] = stepSourceName(r.stepSource);
        j["verdict"] = inputBoundName(r.verdict);
        j["summary"] = r.summary;
        // input_percent, wait_ns and wait_percent are over the step set; steps lists every step.
        j["step_set"] = stepSetJson(r.stepSet, r.breakdown);
        j["input_percent"] = r.inputPercent;
        j["steps"] = nlohmann::json::array();
        for (const auto& s : r.steps)
            j["steps"].push_back({{"name", "step " + std::to_string(s.stepNumber)},
                                  {"number", s.stepNumber},
                                  {"step_ns", s.stepNs},
                                  {"wait_input_ns", s.waitInputNs},
                                  {"wait_percent", s.waitPercent},
                                  {"in_step_set", s.inStepSet}});
        j["wait_ns"] = distJson(r.waitNs);
        // The mean of per-step ratios; input_percent is the ratio of the sums.
        j["wait_percent"] = distJson(r.waitPercent);
        j["host_input_self_ns"] = r.hostInputSelfNs;
        for (size_t c = 0; c < kInputOpCategoryCount; ++c)
            j["host_breakdown_ns"][inputOpCategoryName(InputOpCategory(c))] = r.byCategoryNs[c];
        j["ops"] = nlohmann::json::array();
        for (const auto& op : r.ops)
            j["ops"].push_back({{"name", op.name},
                                {"category", inputOpCategoryName(op.category)},
                                {"count", op.count},
                                {"total_ns", op.totalNs},
                                {"total_percent", op.totalPercent},
                                {"self_ns", op.selfNs},
                                {"self_percent", op.selfPercent}});
        printJson(j);
        return 0;
    }
    std::printf("%s\n", r.summary.c_str());
    std::printf("Device input wait per step: mean %.3f ms, stddev %.3f ms, min %.3f ms, max %.3f ms\n",
                r.waitNs.mean / 1e6, r.waitNs.stddev / 1e6, r.waitNs.min / 1e6, r.waitNs.max / 1e6);
    for (const auto& s : r.steps)
        std::printf("  step %-6lld %10.3f ms  input %10.3f ms (%.1f%%)%s\n", (long long)s.stepNumber,
                    double(s.stepNs) / 1e6, double(s.waitInputNs) / 1e6, s.waitPercent,
                    s.inStepSet ? "" : "  (not in the step set)");
    std::printf("Host input time (self): %.3f ms\n", double(r.hostInputSelfNs) / 1e6);
    for (size_t c = 0; c < kInputOpCategoryCount; ++c)
        std::printf("  %-20s %10.3f ms\n", inputOpCategoryName(InputOpCategory(c)), double(r.byCategoryNs[c]) / 1e6);
    for (const auto& op : r.ops)
        std::printf("  %6llu %10.3f ms %6.2f%%  self %10.3f ms %6.2f%%  %-18s %s\n", (unsigned long long)op.count,
                    double(op.totalNs) / 1e6, op.totalPercent, double(op.selfNs) / 1e6, op.selfPercent,
                    inputOpCategoryName(op.category), op.name.c_str());
    return 0;
}

}  // namespace tracescope::cli
