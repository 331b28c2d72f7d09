// Two runs compared (before/after a change), as HTA's TraceDiff and XProf's op profile
// comparison do: step time, op stats and kernel stats side by side with absolute and
// relative deltas, the largest regression first, and the ops one run has and the other lacks.
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
};

struct RunDiff {
    size_t aSteps = 0, bSteps = 0;
    StepSource aStepSource = StepSource::None, bStepSource = StepSource::None;
    // Which steps each run's averages are taken over (step_set.h), in words.
    std::string aStepSet, bStepSet;
    // Where each run's first step starts and how long it is (to show the two timelines aligned).
    std::optional<Step> aFirstStep, bFirstStep;
    std::vector<DiffRow> steps;    // average step time, then each breakdown category per step
    std::vector<DiffRow> ops;      // op stats (self time), idle excluded
    std::vector<DiffRow> kernels;  // kernel stats by kernel name
    size_t newOps = 0, vanishedOps = 0, newKernels = 0, vanishedKernels = 0;
};

// Rows of ops and kernels are sorted by delta, the largest increase (regression) first,
// then by name; step rows keep their fixed order.
RunDiff diffRuns(const Trace& a, const Trace& b, const StepOptions& stepOptions = {});
// The same on classifications made already (the result stores').
RunDiff diffRuns(const ClassifiedTrace& a, const ClassifiedTrace& b, const StepOptions& stepOptions = {});

}  // namespace tracescope
