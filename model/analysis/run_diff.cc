#include "model/analysis/run_diff.h"

#include "model/analysis/kernel_stats.h"
#include "model/analysis/op_stats.h"
#include "model/analysis/overview.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

namespace tracescope {

const char* diffStatusName(DiffStatus s) {
    switch (s) {
    case DiffStatus::Both: return "both";
    case DiffStatus::New: return "new";
    case DiffStatus::Vanished: return "vanished";
    }
    return "both";
}

namespace {

struct Side {
    TimeNs ns = 0;
    uint64_t occurrences = 0;
    bool present = false;
};
using Keyed = std::map<std::pair<std::string, std::string>, std::pair<Side, Side>>;  // (name, detail) -> (A, B)

DiffRow rowOf(const std::string& name, const std::string& detail, TimeNs a, TimeNs b, uint64_t oa, uint64_t ob,
              DiffStatus status) {
    DiffRow r;
    r.name = name;
    r.detail = detail;
    r.aNs = a;
    r.bNs = b;
    r.deltaNs = b;
    subSat(r.deltaNs, a);
    if (a != 0) r.deltaPercent = 100.0 * (double(b) - double(a)) / double(a);
    r.aOccurrences = oa;
    r.bOccurrences = ob;
    r.status = status;
    return r;
}

std::vector<DiffRow> rowsOf(const Keyed& keyed, size_t& added, size_t& vanished) {
    std::vector<DiffRow> rows;
    for (const auto& [key, sides] : keyed) {
        const auto& [a, b] = sides;
        const DiffStatus st = !a.present ? DiffStatus::New : !b.present ? DiffStatus::Vanished : DiffStatus::Both;
        added += st == DiffStatus::New;
        vanished += st == DiffStatus::Vanished;
        rows.push_back(rowOf(key.first, key.second, a.ns, b.ns, a.occurrences, b.occurrences, st));
    }
    return rows;
}

// A row's per-step values from its totals: each side's total over its divisor (exact for the
// percentage, rounded to ns for the times).
void setPerStep(DiffRow& r, size_t aDivisor, size_t bDivisor) {
    const double a = double(r.aNs) / double(aDivisor), b = double(r.bNs) / double(bDivisor);
    r.aPerStepNs = TimeNs(std::llround(a));
    r.bPerStepNs = TimeNs(std::llround(b));
    r.deltaPerStepNs = r.bPerStepNs;
    subSat(r.deltaPerStepNs, r.aPerStepNs);
    if (a != 0) r.deltaPerStepPercent = 100.0 * (b - a) / a;
}

std::string perStepDescriptionOf(const RunDiff& d) {
    const auto n = [](size_t v) { return std::to_string(v); };
    if (!d.perStep) {
        const std::string who = !d.aSteps && !d.bSteps ? "Neither run has steps"
                                : !d.aSteps            ? "A has no steps"
                                                       : "B has no steps";
        return who + ": ops and kernels are compared by their totals (the per-step values are the totals)";
    }
    const std::string rule = "each run's total divided by the steps in its step set (A " + n(d.aPerStepDivisor) +
                             ", B " + n(d.bPerStepDivisor) + ")";
    if (d.aSteps != d.bSteps)
        return "The runs have different step counts (A " + n(d.aSteps) + ", B " + n(d.bSteps) +
               "): ops and kernels are compared per step, " + rule;
    return "Ops and kernels are compared per step (A and B have " + n(d.aSteps) + " steps each), " + rule;
}

void addOps(Keyed& keyed, const OpStatsResult& r, bool isB) {
    for (const OpStatsRow& row : r.rows) {
        if (row.isIdle) continue;
        Side& s = (isB ? keyed[{row.name, std::string(opSideName(row.side)) + " " + row.type}].second
                       : keyed[{row.name, std::string(opSideName(row.side)) + " " + row.type}].first);
        s.present = true;
        addSat(s.ns, row.selfNs);
        s.occurrences += row.occurrences;
    }
}

void addKernels(Keyed& keyed, const KernelStatsResult& r, bool isB) {
    for (const KernelStatsRow& row : r.rows) {
        auto& sides = keyed[{row.name, row.op}];
        Side& s = isB ? sides.second : sides.first;
        s.present = true;
        addSat(s.ns, row.totalNs);
        s.occurrences += row.occurrences;
    }
}

}  // namespace

RunDiff diffRuns(const Trace& a, const Trace& b, const StepOptions& stepOptions) {
    return diffRuns(classifyTrace(a), classifyTrace(b), stepOptions);
}

RunDiff diffRuns(const ClassifiedTrace& ca, const ClassifiedTrace& cb, const StepOptions& stepOptions) {
    RunDiff d;
    const Overview oa = computeOverview(ca, stepOptions), ob = computeOverview(cb, stepOptions);
    d.aSteps = oa.steps.steps.size();
    d.bSteps = ob.steps.steps.size();
    if (!oa.steps.steps.empty()) d.aFirstStep = oa.steps.steps.front();
    if (!ob.steps.steps.empty()) d.bFirstStep = ob.steps.steps.front();
    d.aStepSource = oa.steps.source;
    d.bStepSource = ob.steps.source;
    auto rounded = [](double x) { return TimeNs(std::llround(x)); };
    const auto both = DiffStatus::Both;
    d.aStepSet = oa.stepSet.description;
    d.bStepSet = ob.stepSet.description;
    // The step rows are averages over each run's step set: their occurrences are the set's steps.
    const size_t aSet = oa.stepSet.count, bSet = ob.stepSet.count;
    d.steps.push_back(
        rowOf("Step time (average)", "", rounded(oa.stepTimeNs.mean), rounded(ob.stepTimeNs.mean), aSet, bSet, both));
    for (size_t c = 0; c < kStepCategoryCount; ++c)
        d.steps.push_back(rowOf(stepCategoryName(StepCategory(c)), "average per step",
                                rounded(oa.categories[c].ns.mean), rounded(ob.categories[c].ns.mean), aSet, bSet,
                                both));

    OpStatsOptions opt;
    opt.includeIdle = false;
    Keyed ops;
    addOps(ops, computeOpStats(ca, opt), false);
    addOps(ops, computeOpStats(cb, opt), true);
    d.ops = rowsOf(ops, d.newOps, d.vanishedOps);

    Keyed kernels;
    addKernels(kernels, computeKernelStats(ca), false);
    addKernels(kernels, computeKernelStats(cb), true);
    d.kernels = rowsOf(kernels, d.newKernels, d.vanishedKernels);

    // Per step over each run's step set, like the step rows; a run without steps has no step to
    // divide by, and a per-step value on one side against a total on the other would mislead:
    // both stay totals then.
    d.aStepSetCount = d.aSteps ? aSet : 0;
    d.bStepSetCount = d.bSteps ? bSet : 0;
    d.perStep = d.aStepSetCount > 0 && d.bStepSetCount > 0;
    d.aPerStepDivisor = d.perStep ? d.aStepSetCount : 1;
    d.bPerStepDivisor = d.perStep ? d.bStepSetCount : 1;
    d.perStepDescription = perStepDescriptionOf(d);
    for (DiffRow& r : d.steps) {  // averages per step already
        r.aPerStepNs = r.aNs;
        r.bPerStepNs = r.bNs;
        r.deltaPerStepNs = r.deltaNs;
        r.deltaPerStepPercent = r.deltaPercent;
    }
    for (auto* rows : {&d.ops, &d.kernels}) {
        for (DiffRow& r : *rows) setPerStep(r, d.aPerStepDivisor, d.bPerStepDivisor);
        sortDiffRows(*rows, DiffBasis::PerStep);
    }
    return d;
}

void sortDiffRows(std::vector<DiffRow>& rows, DiffBasis basis) {
    // Largest regression first; equal deltas (e.g. unchanged rows) by the other basis's delta,
    // then by the larger time.
    const bool perStep = basis == DiffBasis::PerStep;
    std::stable_sort(rows.begin(), rows.end(), [perStep](const DiffRow& x, const DiffRow& y) {
        const TimeNs dx = perStep ? x.deltaPerStepNs : x.deltaNs, dy = perStep ? y.deltaPerStepNs : y.deltaNs;
        if (dx != dy) return dx > dy;
        if (perStep && x.deltaNs != y.deltaNs) return x.deltaNs > y.deltaNs;
        return std::max(x.aNs, x.bNs) > std::max(y.aNs, y.bNs);
    });
}

const DiffRow* largestRegression(const std::vector<DiffRow>& rows, DiffBasis basis) {
    const DiffRow* best = nullptr;
    for (const DiffRow& r : rows) {
        const TimeNs delta = basis == DiffBasis::PerStep ? r.deltaPerStepNs : r.deltaNs;
        if (delta > 0 && (!best || delta > (basis == DiffBasis::PerStep ? best->deltaPerStepNs : best->deltaNs)))
            best = &r;
    }
    return best;
}

}  // namespace tracescope
