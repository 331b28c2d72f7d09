// tracescope-cli diff A B [--json|--csv] [--totals] [--step-marker NAME] [--all-steps]
// Step time, op stats and kernel stats of two runs with deltas, largest regression first: per
// step by default (runs of different lengths compare like for like), by totals with --totals.
// JSON and CSV rows carry both.
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"
#include "app/cli/step_set_cli.h"

#include "model/analysis/run_diff.h"

#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

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
            {"status", diffStatusName(r.status)},
            {"a_per_step_ns", r.aPerStepNs},
            {"b_per_step_ns", r.bPerStepNs},
            {"delta_per_step_ns", r.deltaPerStepNs},
            {"delta_per_step_percent",
             r.deltaPerStepPercent ? nlohmann::json(*r.deltaPerStepPercent) : nlohmann::json(nullptr)}};
}

void printSection(const std::string& title, const std::vector<DiffRow>& rows, size_t limit, bool perStep) {
    std::printf("%s\n", title.c_str());
    std::printf("  %12s %12s %12s %9s  %-8s %s\n", "A ms", "B ms", "delta ms", "delta %", "status", "name");
    for (size_t i = 0; i < rows.size() && i < limit; ++i) {
        const DiffRow& r = rows[i];
        const std::optional<double>& percent = perStep ? r.deltaPerStepPercent : r.deltaPercent;
        char pct[32] = "-";
        if (percent) std::snprintf(pct, sizeof pct, "%+.1f", *percent);
        std::printf("  %12.3f %12.3f %+12.3f %9s  %-8s %s%s%s\n", double(perStep ? r.aPerStepNs : r.aNs) / 1e6,
                    double(perStep ? r.bPerStepNs : r.bNs) / 1e6, double(perStep ? r.deltaPerStepNs : r.deltaNs) / 1e6,
                    pct, diffStatusName(r.status), r.name.c_str(), r.detail.empty() ? "" : "  [",
                    r.detail.empty() ? "" : (r.detail + "]").c_str());
    }
    if (rows.size() > limit) std::printf("  ... %zu more (--csv or --json for all)\n", rows.size() - limit);
}

}  // namespace

int runDiff(const Args& args) {
    const auto files = positionals(args, {"--step-marker"});
    if (files.size() != 2) {
        std::fprintf(stderr,
                     "usage: tracescope-cli diff A B [--json|--csv] [--totals] [--step-marker NAME] [--all-steps]\n");
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
    RunDiff d = diffRuns(*a, *b, stepOptionsOf(args));
    // Per step by default; --totals ranks (and, in the text, shows) the totals instead.
    const DiffBasis basis = hasFlag(args, "--totals") ? DiffBasis::Totals : DiffBasis::PerStep;
    for (auto* rows : {&d.ops, &d.kernels}) sortDiffRows(*rows, basis);

    if (hasFlag(args, "--json")) {
        nlohmann::json j;
        j["a"] = {{"path", files[0]},
                  {"steps", d.aSteps},
                  {"step_source", stepSourceName(d.aStepSource)},
                  {"step_set", d.aStepSet},
                  {"step_set_count", d.aStepSetCount}};
        j["b"] = {{"path", files[1]},
                  {"steps", d.bSteps},
                  {"step_source", stepSourceName(d.bStepSource)},
                  {"step_set", d.bStepSet},
                  {"step_set_count", d.bStepSetCount}};
        // How the *_per_step_ns values are made: totals over these divisors (1 and 1, the
        // totals themselves, when a run has no steps).
        j["per_step"] = {{"per_step", d.perStep},
                         {"a_divisor", d.aPerStepDivisor},
                         {"b_divisor", d.bPerStepDivisor},
                         {"description", d.perStepDescription}};
        j["sorted_by"] = basis == DiffBasis::PerStep ? "delta_per_step_ns" : "delta_ns";
        j["new_ops"] = d.newOps;
        j["vanished_ops"] = d.vanishedOps;
        j["new_kernels"] = d.newKernels;
        j["vanished_kernels"] = d.vanishedKernels;
        for (auto [key, rows] :
             {std::pair{"steps", &d.steps}, std::pair{"ops", &d.ops}, std::pair{"kernels", &d.kernels}}) {
            j[key] = nlohmann::json::array();
            for (const DiffRow& r : *rows) j[key].push_back(rowJson(r));
        }
        printJson(j);
        return 0;
    }
    if (hasFlag(args, "--csv")) {
        std::cout << "section,name,detail,a_ns,b_ns,delta_ns,delta_percent,a_occurrences,b_occurrences,status,"
                     "a_per_step_ns,b_per_step_ns,delta_per_step_ns,delta_per_step_percent\n";
        for (auto [key, rows] : {std::pair{"step", &d.steps}, std::pair{"op", &d.ops}, std::pair{"kernel", &d.kernels}})
            for (const DiffRow& r : *rows) {
                std::cout << key << ',' << csvField(r.name) << ',' << csvField(r.detail) << ',' << r.aNs << ',' << r.bNs
                          << ',' << r.deltaNs << ',';
                if (r.deltaPercent) std::cout << *r.deltaPercent;
                std::cout << ',' << r.aOccurrences << ',' << r.bOccurrences << ',' << diffStatusName(r.status) << ','
                          << r.aPerStepNs << ',' << r.bPerStepNs << ',' << r.deltaPerStepNs << ',';
                if (r.deltaPerStepPercent) std::cout << *r.deltaPerStepPercent;
                std::cout << '\n';
            }
        return 0;
    }
    std::printf("A: %s (%zu steps, %s; averaged over %s)\nB: %s (%zu steps, %s; averaged over %s)\n", files[0].c_str(),
                d.aSteps, stepSourceName(d.aStepSource), d.aStepSet.c_str(), files[1].c_str(), d.bSteps,
                stepSourceName(d.bStepSource), d.bStepSet.c_str());
    std::printf("%s\n", d.perStepDescription.c_str());
    const bool perStep = basis == DiffBasis::PerStep;
    const bool divided = perStep && d.perStep;
    printSection("Step time:", d.steps, d.steps.size(), true);
    printSection(
        divided ? "Ops (self time per step), largest regression first:" : "Ops (self time), largest regression first:",
        d.ops, 20, perStep);
    printSection(divided ? "Kernels (time per step), largest regression first:"
                         : "Kernels (total time), largest regression first:",
                 d.kernels, 20, perStep);
    for (auto [what, rows] : {std::pair{"kernel", &d.kernels}, std::pair{"op", &d.ops}})
        if (const DiffRow* top = largestRegression(*rows, basis)) {
            const std::optional<double>& percent = perStep ? top->deltaPerStepPercent : top->deltaPercent;
            std::printf("Largest %s regression%s: %s +%.3f ms", what, divided ? " per step" : "", top->name.c_str(),
                        double(perStep ? top->deltaPerStepNs : top->deltaNs) / 1e6);
            if (percent) std::printf(" (%+.1f %%)", *percent);
            std::printf("\n");
        }
    std::printf("Ops: %zu new, %zu vanished; kernels: %zu new, %zu vanished\n", d.newOps, d.vanishedOps, d.newKernels,
                d.vanishedKernels);
    return 0;
}

}  // namespace tracescope::cli
