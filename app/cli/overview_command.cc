// tracescope-cli overview FILE [--json] [--step-marker NAME] [--all-steps]
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"
#include "app/cli/step_set_cli.h"

#include "model/analysis/compile_activity.h"
#include "model/analysis/overview.h"

#include <cstdio>

namespace tracescope::cli {

int runOverview(const Args& args) {
    const auto files = positionals(args, {"--step-marker"});
    if (files.size() != 1) {
        std::fprintf(stderr, "usage: tracescope-cli overview FILE [--json] [--step-marker NAME] [--all-steps]\n");
        return 2;
    }
    auto trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    const Overview o = computeOverview(*trace, stepOptionsOf(args));

    if (hasFlag(args, "--json")) {
        nlohmann::json j;
        nlohmann::json env;
        env["hosts"] = o.environment.hosts;
        env["host_count"] = o.environment.hostCount;
        env["files_without_host_name"] = o.environment.filesWithoutHostName;
        env["device_type"] = o.environment.deviceType;
        env["device_count"] = o.environment.deviceCount;
        env["devices"] = nlohmann::json::array();
        for (const auto& d : o.environment.devices) {
            nlohmann::json props = nlohmann::json::object();
            for (const auto& [k, v] : d.properties) props[k] = v;
            env["devices"].push_back({{"name", d.name}, {"host", d.host}, {"properties", props}});
        }
        j["environment"] = env;
        j["step_source"] = stepSourceName(o.steps.source);
        j["step_rule"] = o.steps.rule;
        j["step_count"] = o.steps.steps.size();
        // Averages and percentages are over the step set; `steps` lists every step.
        j["step_set"] = stepSetJson(o.stepSet, o.breakdown);
        j["average_step_ns"] = static_cast<long long>(o.averageStepNs + 0.5);
        j["steps"] = nlohmann::json::array();
        for (size_t i = 0; i < o.breakdown.size(); ++i) {
            const StepBreakdown& b = o.breakdown[i];
            nlohmann::json s = {{"name", b.step.name},
                                {"number", b.step.number},
                                {"start_ns", b.step.startNs},
                                {"duration_ns", b.step.durationNs},
                                {"in_step_set", o.stepSet.contains(i)}};
            for (size_t c = 0; c < kStepCategoryCount; ++c) s["breakdown_ns"][stepCategoryName(StepCategory(c))] = b.ns[c];
            j["steps"].push_back(std::move(s));
        }
        for (size_t c = 0; c < kStepCategoryCount; ++c) {
            const auto& cs = o.categories[c];
            j["categories"].push_back({{"name", stepCategoryName(StepCategory(c))},
                                       {"percent_of_step", cs.percentOfStep},
                                       {"avg_ns", static_cast<long long>(cs.ns.mean + 0.5)},
                                       {"stddev_ns", static_cast<long long>(cs.ns.stddev + 0.5)},
                                       {"min_ns", static_cast<long long>(cs.ns.min)},
                                       {"max_ns", static_cast<long long>(cs.ns.max)}});
            if (StepCategory(c) == StepCategory::Compilation) j["categories"].back()["definition"] = kCompilationDefinition;
        }
        j["top_device_ops"] = nlohmann::json::array();
        for (const auto& op : o.topDeviceOps)
            j["top_device_ops"].push_back(
                {{"name", op.name}, {"type", op.type}, {"self_ns", op.selfNs}, {"percent", op.percent}});
        j["host_op_percent"] = o.hostOpPercent;
        j["device_op_percent"] = o.deviceOpPercent;
        j["compute_16bit_percent"] = o.compute16Percent;
        j["compute_32bit_percent"] = o.compute32Percent;
        j["input_percent"] = o.inputPercent;
        j["kernel_launch_percent"] = o.kernelLaunchPercent;
        j["output_percent"] = o.outputPercent;
        j["other_percent"] = o.otherPercent;
        j["input_bound"] = inputBoundName(o.inputBound);
        j["recommendations"] = o.recommendations;
        j["notes"] = o.notes;
        printJson(j);
        return 0;
    }
    const auto& env = o.environment;
    std::printf("Run environment: %s; %zu %s device(s)\n", hostsText(env).c_str(), env.deviceCount,
                env.deviceType.c_str());
    for (const auto& d : env.devices) {
        std::printf("  %s", d.name.c_str());
        for (const auto& [k, v] : d.properties)
            if (k == "name" || k == "gpu_device_name" || k == "numSms" || k == "core_count" || k == "computeMajor" ||
                k == "compute_cap_major")
                std::printf("  %s=%s", k.c_str(), v.c_str());
        std::printf("\n");
    }
    std::printf("Steps: %zu (%s), average step time %.3f ms\n", o.steps.steps.size(), stepSourceName(o.steps.source),
                o.averageStepNs / 1e6);
    std::printf("  Step rule: %s\n", o.steps.rule.c_str());
    std::printf("  Averaged over: %s\n", o.stepSet.description.c_str());
    for (size_t c = 0; c < kStepCategoryCount; ++c)
        std::printf("  %-32s %6.2f%%  avg %.3f ms\n", stepCategoryName(StepCategory(c)),
                    o.categories[c].percentOfStep, o.categories[c].ns.mean / 1e6);
    std::printf("Op placement: host %.1f%%, device %.1f%%\n", o.hostOpPercent, o.deviceOpPercent);
    std::printf("Device compute precision: 16-bit %.1f%%, 32-bit %.1f%%\n", o.compute16Percent, o.compute32Percent);
    std::printf("Top device ops:\n");
    for (const auto& op : o.topDeviceOps)
        std::printf("  %6.2f%% %12.3f us  %s [%s]\n", op.percent, double(op.selfNs) / 1e3, op.name.c_str(),
                    op.type.c_str());
    std::printf("Verdict: %s\n", inputBoundName(o.inputBound));
    for (const auto& r : o.recommendations) std::printf("- %s\n", r.c_str());
    for (const auto& n : o.notes) std::printf("Note: %s\n", n.c_str());
    return 0;
}

}  // namespace tracescope::cli
