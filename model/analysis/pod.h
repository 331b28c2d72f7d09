// The pod view over a multi-worker run (XProf's pod_viewer, extended to GPUs): per worker
// and step the step-time breakdown of the overview page, per step the straggler (the slowest
// worker and by how much), and per worker how much collective communication (NCCL kernels)
// is hidden behind compute kernels and how much is exposed.
#pragma once

#include "model/analysis/comm_overlap.h"
#include "model/analysis/step_set.h"
#include "model/analysis/steps.h"
#include "model/trace/workers.h"

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tracescope {

struct WorkerStep {
    bool present = false;     // the worker has this step
    StepBreakdown breakdown;  // times in the worker's own clock
    TimeNs runStartNs = 0;    // the step start on the run's clock (worker offset applied)
    CommOverlap overlap;
    bool inStepSet = false;  // one of the worker's steps its averages are taken over
};

struct PodWorker {
    std::string name;
    std::optional<int64_t> rank;
    std::string path;
    bool loaded = false;
    std::string error;
    TimeNs offsetNs = 0;  // effective offset (first-step alignment for workers without a wall clock)
    WorkerClock clock = WorkerClock::Unknown;
    StepSource stepSource = StepSource::None;
    std::string stepRule;
    std::vector<WorkerStep> steps;  // indexed like PodResult::steps
    CommOverlap overlap;            // over all its steps
    StepSet stepSet;                // which of its steps stepTimeNs is taken over (step_set.h)
    Distribution stepTimeNs;        // over its step set
    // Its average step over the step set: per category (ns) and the overlap per step.
    std::array<double, kStepCategoryCount> averageNs{};
    CommOverlap averageOverlap;
};

struct PodStep {
    int64_t number = 0;
    size_t workerCount = 0;    // workers that have it
    size_t slowestWorker = 0;  // index into PodResult::workers
    TimeNs slowestNs = 0;
    TimeNs fastestNs = 0;
    TimeNs medianNs = 0;
    TimeNs lagNs = 0;          // slowest - median: how much the straggler holds the others up
    double lagPercent = 0;     // of the median
    TimeNs startSpreadNs = 0;  // latest - earliest start on the run clock
};

struct PodResult {
    std::vector<PodWorker> workers;
    std::vector<PodStep> steps;  // by number
    std::vector<std::string> notes;
};

// What the pod needs of one worker, read from its trace (computePod) or from its rank summary
// (model/results/rank_summary.h): its identity, clock and step set (worker; the steps and the
// figures derived from them are filled by assemblePod), its steps, their breakdown and, per step
// of the breakdown, the communication/compute overlap.
struct PodWorkerFacts {
    PodWorker worker;
    std::vector<Step> steps;
    std::vector<StepBreakdown> breakdown;
    std::vector<CommOverlap> stepOverlap;
};

// The pod of workers' facts: the run's steps, first-step alignment of workers without a clock,
// per worker its steps and averages, per step the straggler.
PodResult assemblePod(std::vector<PodWorkerFacts> facts);

// Workers whose own trace was let go after merging (WorkerTrace::merged) are cut out of
// `mergedView` one at a time while they are analysed.
// `classify`: gives a worker trace's classification (the viewer's result stores); by default
// each worker is classified here.
using ClassifyFn = std::function<std::shared_ptr<const ClassifiedTrace>(const std::shared_ptr<const Trace>&)>;
PodResult computePod(const MultiWorkerRun& run, const StepOptions& stepOptions = {}, const Trace* mergedView = nullptr,
                     const ClassifyFn& classify = {});

// First-step alignment, one rule for the run and the pod page: every worker whose clock is
// Unknown and that has steps gets the offset that starts its first step with the reference
// worker's step of the same number (else the reference's first step); the reference is the first
// worker with a clock and steps, else the first worker with steps (then its offset is 0). Aligned
// workers' clocks become FirstStep. `steps[w]` may be null (no steps). Returns whether any moved.
bool firstStepOffsets(std::vector<TimeNs>& offsets, std::vector<WorkerClock>& clocks,
                      const std::vector<const std::vector<Step>*>& steps);

// The same on a loaded run whose workers still hold their own traces (before mergeWorkers), so
// that the merged view puts first-step-aligned workers where the pod page says they are.
bool alignWorkersOnFirstStep(MultiWorkerRun& run, const StepOptions& stepOptions = {});


}  // namespace tracescope
