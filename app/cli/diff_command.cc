// tracescope-cli diff A B [--json|--csv] [--step-marker NAME] [--all-steps]
// Step time, op stats and kernel stats of two runs with deltas, largest regression first.
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"
#include "app/cli/step_set_cli.h"

#include "model/analysis/run_diff.h"

#include <cstdio>
#include <iostream>

namespace tracescope::cli {

namespace {

nlohmann::json rowJson(const DiffRow& r) {
    return {{"name", r.name},
            {"detail", r.detail},
            {"a_ns", r.aNs},
            {"b_ns", r.bNs},
            {"delta_ns", r.deltaNs},
            {"delta_percent", r.deltaPercent ? nlohmann::json(*r.deltaPercent) : nlohmann::json(nullptr)},
            {"a_occurrences", r.aOccurrences},
            {"b_occurrences", r.bOccurrences},
            {"status", diffStatusName(r.status)}};
}

void printSection(const char* title, const std::vector<DiffRow>& rows, size_t limit) {
    std::printf("%s\n", title);
    std::printf("  %12s %12s %12s %9s  %-8s %s\n", "A ms", "B ms", "delta ms", "delta %", "status", "name");
    for (size_t i = 0; i < rows.size() && i < limit; ++i) {
        const DiffRow& r = rows[i];
        char pct[32] = "-";
        if (r.deltaPercent) std::snprintf(pct, sizeof pct, "%+.1f", *r.deltaPercent);
        std::printf("  %12.3f %12.3f %+12.3f %9s  %-8s %s%s%s\n", double(r.aNs) / 1e6, double(r.bNs) / 1e6,
                    double(r.deltaNs) / 1e6, pct, diffStatusName(r.status), r.name.c_str(),
                    r.detail.empty() ? "" : "  [", r.detail.empty() ? "" : (r.detail + "]").c_str());
    }
    if (rows.size() > limit) std::printf("  ... %zu more (--csv or --json for all)\n", rows.size() - limit);
}

}  // namespace

int runDiff(const Args& args) {
    const auto files = positionals(args, {"--step-marker"});
    if (files.size() != 2) {
        std::fprintf(stderr, "usage: tracescope-cli diff A B [--json|--csv] [--step-marker NAME] [--all-steps]\n");
        return 2;
    }
    std::unique_ptr<Trace> a = loadTraceOrReport(files[0]);
    if (!a) return 1;
    std::unique_ptr<Trace> b = loadTraceOrReport(files[1]);
    if (!b) return 1;
    std::vector<ImportWarning> warnings;
    for (auto [which, t] : {std::pair{"A", a.get()}, std::pair{"B", b.get()}})
        for (const ImportWarning& w : t->warnings) warnings.push_back(workerWarning(w, which));
    reportImportWarnings(warnings);
    const RunDiff d = diffRuns(*a, *b, stepOptionsOf(args));

    if (hasFlag(args, "--json")) {
        nlohmann::json j;
        j["a"] = {{"path", files[0]},
                  {"steps", d.aSteps},
                  {"step_source", stepSourceName(d.aStepSource)},
                  {"step_set", d.aStepSet}};
        j["b"] = {{"path", files[1]},
                  {"steps", d.bSteps},
                  {"step_source", stepSourceName(d.bStepSource)},
                  {"step_set", d.bStepSet}};
        j["new_ops"] = d.newOps;
        j["vanished_ops"] = d.vanishedOps;
        j["new_kernels"] = d.newKernels;
        j["vanished_kernels"] = d.vanishedKernels;
        for (auto [key, rows] : {std::pair{"steps", &d.steps}, std::pair{"ops", &d.ops}, std::pair{"kernels", &d.kernels}}) {
            j[key] = nlohmann::json::array();
            for (const DiffRow& r : *rows) j[key].push_back(rowJson(r));
        }
        printJson(j);
        return 0;
    }
    if (hasFlag(args, "--csv")) {
        std::cout << "section,name,detail,a_ns,b_ns,delta_ns,delta_percent,a_occurrences,b_occurrences,status\n";
        for (auto [key, rows] : {std::pair{"step", &d.steps}, std::pair{"op", &d.ops}, std::pair{"kernel", &d.kernels}})
            for (const DiffRow& r : *rows) {
                std::cout << key << ',' << csvField(r.name) << ',' << csvField(r.detail) << ',' << r.aNs << ',' << r.bNs
                          << ',' << r.deltaNs << ',';
                if (r.deltaPercent) std::cout << *r.deltaPercent;
                std::cout << ',' << r.aOccurrences << ',' << r.bOccurrences << ',' << diffStatusName(r.status) << '\n';
            }
        return 0;
    }
    std::printf("A: %s (%zu steps, %s; averaged over %s)\nB: %s (%zu steps, %s; averaged over %s)\n", files[0].c_str(),
                d.aSteps, stepSourceName(d.aStepSource), d.aStepSet.c_str(), files[1].c_str(), d.bSteps,
                stepSourceName(d.bStepSource), d.bStepSet.c_str());
    printSection("Step time:", d.steps, d.steps.size());
    printSection("Ops (self time), largest regression first:", d.ops, 20);
    printSection("Kernels (total time), largest regression first:", d.kernels, 20);
    std::printf("Ops: %zu new, %zu vanished; kernels: %zu new, %zu vanished\n", d.newOps, d.vanishedOps, d.newKernels,
                d.vanishedKernels);
    return 0;
}

}  // namespace tracescope::cli
