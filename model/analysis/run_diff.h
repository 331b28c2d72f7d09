// Two runs compared (before/after a change), as HTA's TraceDiff and XProf's op profile
// comparison do: step time, op stats and kernel stats side by side with absolute and
// relative deltas, the largest regression first, and the ops one run has and the other lacks.
//
// Runs of different lengths are compared per step: each op and kernel row has its totals and
// its time per step, the total over the number of steps in that run's step set (step_set.h),
// so a 3-step profile and a 524-step one compare like for like. When a run has no steps,
// per-step values cannot be formed: both runs' per-step values are their totals, and
// RunDiff::perStepDescription says so.
#pragma once

#include "model/analysis/steps.h"
#include "model/trace/trace.h"

#include <optional>
#include <string>
#include <vector>

namespace tracescope {

enum class DiffStatus : uint8_t { Both, New, Vanished };  // New: only in B; Vanished: only in A
const char* diffStatusName(DiffStatus s);

struct DiffRow {
    std::string name;
    std::string detail;  // op: "host"/"device" and type; kernel: its framework op
    TimeNs aNs = 0;      // A's time (op/kernel: total self time; step rows: average per step)
    TimeNs bNs = 0;
    TimeNs deltaNs = 0;                  // b - a
    std::optional<double> deltaPercent;  // of a; none when a is 0
    uint64_t aOccurrences = 0;
    uint64_t bOccurrences = 0;
    DiffStatus status = DiffStatus::Both;
    // Per step (RunDiff::aPerStepDivisor / bPerStepDivisor; step rows: their averages again).
    TimeNs aPerStepNs = 0;
    TimeNs bPerStepNs = 0;
    TimeNs deltaPerStepNs = 0;                  // bPerStepNs - aPerStepNs
    std::optional<double> deltaPerStepPercent;  // of A's exact time per step; none when it is 0
};

// Which values rank the rows and name the largest regression.
enum class DiffBasis : uint8_t { PerStep, Totals };

struct RunDiff {
    size_t aSteps = 0, bSteps = 0;
    StepSource aStepSource = StepSource::None, bStepSource = StepSource::None;
    // Which steps each run's averages are taken over (step_set.h), in words.
    std::string aStepSet, bStepSet;
    // Where each run's first step starts and how long it is (to show the two timelines aligned).
    std::optional<Step> aFirstStep, bFirstStep;
    // The steps in each run's step set (what its averages are over).
    size_t aStepSetCount = 0, bStepSetCount = 0;
    // Per-step values are totals divided by these: the step-set counts, or 1 for both runs when
    // either has no steps (perStep false: the per-step values are the totals).
    size_t aPerStepDivisor = 1, bPerStepDivisor = 1;
    bool perStep = false;
    // One sentence: how the per-step values are made, naming differing step counts.
    std::string perStepDescription;
    std::vector<DiffRow> steps;    // average step time, then each breakdown category per step
    std::vector<DiffRow> ops;      // op stats (self time), idle excluded
    std::vector<DiffRow> kernels;  // kernel stats by kernel name
    size_t newOps = 0, vanishedOps = 0, newKernels = 0, vanishedKernels = 0;
};

// Rows of ops and kernels are sorted by delta per step, the largest increase (regression)
// first, then by total delta; step rows keep their fixed order.
RunDiff diffRuns(const Trace& a, const Trace& b, const StepOptions& stepOptions = {});
// The same on classifications made already (the result stores').
RunDiff diffRuns(const ClassifiedTrace& a, const ClassifiedTrace& b, const StepOptions& stepOptions = {});

// Rows of ops or kernels sorted by the basis's delta, the largest regression first.
void sortDiffRows(std::vector<DiffRow>& rows, DiffBasis basis);
// The row with the largest positive delta on the basis; null when nothing got slower.
const DiffRow* largestRegression(const std::vector<DiffRow>& rows, DiffBasis basis);

}  // namespace tracescope
