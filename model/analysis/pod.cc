#include "model/analysis/pod.h"

#include "model/analysis/analysis_progress.h"

#include "model/analysis/op_classify.h"
#include "model/trace/merge_workers.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

namespace tracescope {

namespace {

void add(CommOverlap& a, const CommOverlap& b) {
    addSat(a.communicationNs, b.communicationNs);
    addSat(a.computeNs, b.computeNs);
    addSat(a.overlappedNs, b.overlappedNs);
    addSat(a.exposedNs, b.exposedNs);
}

// The worker's average step over its step set (the steps it has in the set, each counted once).
void averageOverSet(PodWorker& pw) {
    size_t n = 0;
    for (const WorkerStep& ws : pw.steps) {
        if (!ws.present || !ws.inStepSet) continue;
        ++n;
        for (size_t c = 0; c < kStepCategoryCount; ++c) pw.averageNs[c] += double(ws.breakdown.ns[c]);
        add(pw.averageOverlap, ws.overlap);
    }
    if (n < 2) return;
    for (double& x : pw.averageNs) x /= double(n);
    CommOverlap& o = pw.averageOverlap;
    for (TimeNs* v : {&o.communicationNs, &o.computeNs, &o.overlappedNs, &o.exposedNs}) *v /= TimeNs(n);
}

}  // namespace

bool firstStepOffsets(std::vector<TimeNs>& offsets, std::vector<WorkerClock>& clocks,
                      const std::vector<const std::vector<Step>*>& steps) {
    auto has = [&](size_t w) { return steps[w] && !steps[w]->empty(); };
    // The reference: the first clocked worker with steps, else the first worker with steps.
    std::optional<size_t> ref;
    for (size_t w = 0; w < steps.size() && !ref; ++w)
        if (has(w) && clocks[w] != WorkerClock::Unknown) ref = w;
    const bool refClocked = ref.has_value();
    for (size_t w = 0; w < steps.size() && !ref; ++w)
        if (has(w)) ref = w;
    if (!ref) return false;
    const TimeNs refOffset = refClocked ? offsets[*ref] : 0;
    bool aligned = false;
    for (size_t w = 0; w < steps.size(); ++w) {
        if (w == *ref || clocks[w] != WorkerClock::Unknown || !has(w)) continue;
        const Step& first = steps[w]->front();
        // The reference's step of the same number, else its first step.
        const Step* match = &steps[*ref]->front();
        for (const Step& s : *steps[*ref])
            if (s.number == first.number) match = &s;
        offsets[w] = minusSat(plusSat(match->startNs, refOffset), first.startNs);  // far-apart clocks saturate
        clocks[w] = WorkerClock::FirstStep;
        aligned = true;
    }
    // Without any wall clock the reference worker is the first-step origin itself (offset 0).
    if (aligned && !refClocked) {
        offsets[*ref] = 0;
        clocks[*ref] = WorkerClock::FirstStep;
    }
    return aligned;
}

bool alignWorkersOnFirstStep(MultiWorkerRun& run, const StepOptions& stepOptions) {
    std::vector<TimeNs> offsets;
    std::vector<WorkerClock> clocks;
    std::vector<StepsResult> found(run.workers.size());
    std::vector<const std::vector<Step>*> steps;
    bool unknown = false;
    for (const WorkerTrace& w : run.workers) unknown |= w.loaded() && w.clock == WorkerClock::Unknown;
    if (!unknown) return false;
    for (size_t w = 0; w < run.workers.size(); ++w) {
        const WorkerTrace& wt = run.workers[w];
        offsets.push_back(wt.offsetNs);
        clocks.push_back(wt.clock);
        if (wt.trace) found[w] = findSteps(*wt.trace, stepOptions);
        steps.push_back(&found[w].steps);
    }
    if (!firstStepOffsets(offsets, clocks, steps)) return false;
    for (size_t w = 0; w < run.workers.size(); ++w) {
        run.workers[w].offsetNs = offsets[w];
        run.workers[w].clock = clocks[w];
    }
    return true;
}

PodResult computePod(const MultiWorkerRun& run, const StepOptions& stepOptions, const Trace* mergedView,
                     const ClassifyFn& classify) {
    std::vector<PodWorkerFacts> facts;
    for (size_t w = 0; w < run.workers.size(); ++w) {
        const WorkerTrace& wt = run.workers[w];
        PodWorkerFacts f;
        PodWorker& pw = f.worker;
        pw.name = wt.name;
        pw.rank = wt.rank;
        pw.path = wt.path;
        pw.loaded = wt.loaded();
        pw.error = wt.error;
        pw.offsetNs = wt.offsetNs;
        pw.clock = wt.clock;
        // The worker's own trace, or a copy cut out of the merged view that lives for this worker only.
        std::shared_ptr<const Trace> own = wt.trace;
        if (!own && wt.merged && mergedView) own = workerTraceOf(*mergedView, wt);
        if (own) {
            const std::shared_ptr<const ClassifiedTrace> classified =
                classify ? classify(own) : std::make_shared<const ClassifiedTrace>(classifyTrace(*own));
            const ClassifiedTrace& ct = *classified;
            const StepsResult steps = findSteps(ct, stepOptions);
            f.steps = steps.steps;
            f.breakdown = breakdownSteps(ct, steps);
            const KernelUnions kernels = kernelUnionsOf(ct);
            for (const StepBreakdown& b : f.breakdown)
                f.stepOverlap.push_back(overlapIn(kernels, b.step.startNs, b.step.endNs()));
            pw.stepSource = steps.source;
            pw.stepRule = steps.rule;
            pw.stepSet = chooseStepSet(ct, f.breakdown, stepOptions.allSteps);
        }
        facts.push_back(std::move(f));
    }
    return assemblePod(std::move(facts));
}

PodResult assemblePod(std::vector<PodWorkerFacts> facts) {
    PodResult res;
    std::map<int64_t, size_t> numbers;  // step number -> index in res.steps
    for (PodWorkerFacts& f : facts) {
        f.worker.stepTimeNs = stepTimeOf(f.breakdown, f.worker.stepSet);
        for (const Step& s : f.steps) numbers.emplace(s.number, 0);
        res.workers.push_back(f.worker);
    }
    size_t k = 0;
    for (auto& [n, idx] : numbers) {
        idx = k++;
        res.steps.push_back(PodStep{.number = n});
    }

    // Workers without a wall clock: aligned on their first step (the same rule as the run's own
    // alignment, alignWorkersOnFirstStep, so that a run aligned at load shows the same offsets).
    std::vector<TimeNs> offsets;
    std::vector<WorkerClock> clocks;
    std::vector<const std::vector<Step>*> steps;
    for (size_t w = 0; w < facts.size(); ++w) {
        offsets.push_back(res.workers[w].offsetNs);
        clocks.push_back(res.workers[w].clock);
        steps.push_back(&facts[w].steps);
    }
    if (firstStepOffsets(offsets, clocks, steps))
        for (size_t w = 0; w < facts.size(); ++w) {
            res.workers[w].offsetNs = offsets[w];
            res.workers[w].clock = clocks[w];
        }
    if (std::any_of(res.workers.begin(), res.workers.end(),
                    [](const PodWorker& w) { return w.clock == WorkerClock::FirstStep; }))
        res.notes.push_back("Workers without a wall clock in their file are aligned on their first step's start.");

    for (size_t w = 0; w < facts.size(); ++w) {
        PodWorker& pw = res.workers[w];
        pw.steps.resize(res.steps.size());
        for (size_t i = 0; i < facts[w].breakdown.size(); ++i) {
            const StepBreakdown& b = facts[w].breakdown[i];
            WorkerStep& ws = pw.steps[numbers.at(b.step.number)];
            if (ws.present) continue;  // a repeated number: the first one counts
            ws.present = true;
            ws.inStepSet = pw.stepSet.contains(i);
            ws.breakdown = b;
            ws.runStartNs = plusSat(b.step.startNs, pw.offsetNs);
            if (i < facts[w].stepOverlap.size()) ws.overlap = facts[w].stepOverlap[i];
            add(pw.overlap, ws.overlap);
        }
        averageOverSet(pw);
    }

    for (size_t s = 0; s < res.steps.size(); ++s) {
        PodStep& ps = res.steps[s];
        std::vector<TimeNs> durations;
        TimeNs firstStart = 0, lastStart = 0;
        for (size_t w = 0; w < res.workers.size(); ++w) {
            const WorkerStep& ws = res.workers[w].steps[s];
            if (!ws.present) continue;
            const TimeNs d = ws.breakdown.step.durationNs;
            if (durations.empty() || d > ps.slowestNs) {
                ps.slowestNs = d;
                ps.slowestWorker = w;
            }
            if (durations.empty() || d < ps.fastestNs) ps.fastestNs = d;
            if (durations.empty() || ws.runStartNs < firstStart) firstStart = ws.runStartNs;
            if (durations.empty() || ws.runStartNs > lastStart) lastStart = ws.runStartNs;
            durations.push_back(d);
        }
        ps.workerCount = durations.size();
        if (durations.empty()) continue;
        std::sort(durations.begin(), durations.end());
        const size_t n = durations.size();
        // The lower median: with two workers the straggler is measured against the other one.
        ps.medianNs = durations[(n - 1) / 2];
        ps.lagNs = ps.slowestNs - ps.medianNs;
        ps.lagPercent = ps.medianNs > 0 ? 100.0 * double(ps.lagNs) / double(ps.medianNs) : 0;
        ps.startSpreadNs = durationBetween(firstStart, lastStart);
    }
    return res;
}

}  // namespace tracescope
