#include "model/analysis/pod.h"

#include "model/analysis/op_classify.h"
#include "model/import/merge_workers.h"

#include <algorithm>
#include <map>
#include <utility>

namespace tracescope {

namespace {

using Intervals = std::vector<std::pair<TimeNs, TimeNs>>;  // sorted, disjoint

Intervals unite(Intervals v) {
    std::sort(v.begin(), v.end());
    Intervals out;
    for (const auto& [a, b] : v) {
        if (!out.empty() && a <= out.back().second) out.back().second = std::max(out.back().second, b);
        else out.push_back({a, b});
    }
    return out;
}

// The part of disjoint sorted intervals inside [s, e).
Intervals clip(const Intervals& v, TimeNs s, TimeNs e) {
    Intervals out;
    auto it = std::lower_bound(v.begin(), v.end(), s, [](const auto& iv, TimeNs x) { return iv.second <= x; });
    for (; it != v.end() && it->first < e; ++it) {
        const TimeNs a = std::max(it->first, s), b = std::min(it->second, e);
        if (b > a) out.push_back({a, b});
    }
    return out;
}

TimeNs lengthOf(const Intervals& v) {
    TimeNs n = 0;
    for (const auto& [a, b] : v) addSat(n, b - a);
    return n;
}

TimeNs intersectionLength(const Intervals& x, const Intervals& y) {
    TimeNs n = 0;
    size_t i = 0, j = 0;
    while (i < x.size() && j < y.size()) {
        const TimeNs a = std::max(x[i].first, y[j].first), b = std::min(x[i].second, y[j].second);
        if (b > a) addSat(n, b - a);
        (x[i].second < y[j].second) ? ++i : ++j;
    }
    return n;
}

// Collective and compute kernel time of a trace's devices, each as one union.
struct KernelUnions {
    Intervals communication, compute;
};

KernelUnions kernelUnionsOf(const ClassifiedTrace& ct) {
    const Trace& t = *ct.trace;
    KernelUnions k;
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (ct.trackSkipped[ti] || t.tracks[ti].kind != TrackKind::Thread) continue;
        const SliceColumns& c = t.tracks[ti].slices;
        for (uint32_t i = 0; i < c.size(); ++i) {
            if (ct.roles[ti][i] != SliceRole::Kernel || c.duration[i] <= 0) continue;
            (isCollectiveKernelName(fullNameView(ct, {ti, i})) ? k.communication : k.compute)
                .push_back({c.start[i], c.end(i)});
        }
    }
    k.communication = unite(std::move(k.communication));
    k.compute = unite(std::move(k.compute));
    return k;
}

CommOverlap overlapIn(const KernelUnions& k, TimeNs s, TimeNs e) {
    CommOverlap o;
    const Intervals comm = clip(k.communication, s, e), comp = clip(k.compute, s, e);
    o.communicationNs = lengthOf(comm);
    o.computeNs = lengthOf(comp);
    o.overlappedNs = intersectionLength(comm, comp);
    o.exposedNs = o.communicationNs - o.overlappedNs;
    return o;
}

void add(CommOverlap& a, const CommOverlap& b) {
    addSat(a.communicationNs, b.communicationNs);
    addSat(a.computeNs, b.computeNs);
    addSat(a.overlappedNs, b.overlappedNs);
    addSat(a.exposedNs, b.exposedNs);
}

}  // namespace

CommOverlap commOverlapIn(const ClassifiedTrace& ct, TimeNs startNs, TimeNs endNs) {
    return overlapIn(kernelUnionsOf(ct), startNs, endNs);
}

PodResult computePod(const MultiWorkerRun& run, const StepOptions& stepOptions, const Trace* mergedView) {
    PodResult res;
    struct PerWorker {
        StepsResult steps;
        std::vector<StepBreakdown> breakdown;
        KernelUnions kernels;
    };
    std::vector<PerWorker> per(run.workers.size());
    std::map<int64_t, size_t> numbers;  // step number -> index in res.steps
    for (size_t w = 0; w < run.workers.size(); ++w) {
        const WorkerTrace& wt = run.workers[w];
        PodWorker pw;
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
            const ClassifiedTrace ct = classifyTrace(*own);
            per[w].steps = findSteps(ct, stepOptions);
            per[w].breakdown = breakdownSteps(ct, per[w].steps);
            per[w].kernels = kernelUnionsOf(ct);
            pw.stepSource = per[w].steps.source;
            pw.stepRule = per[w].steps.rule;
            pw.stepTimeNs = per[w].steps.stepTimeNs;
            for (const Step& s : per[w].steps.steps) numbers.emplace(s.number, 0);
        }
        res.workers.push_back(std::move(pw));
    }
    size_t k = 0;
    for (auto& [n, idx] : numbers) {
        idx = k++;
        res.steps.push_back(PodStep{.number = n});
    }

    // Workers without a wall clock: their first step starts with the first clocked worker's
    // same-numbered step (or the first worker with steps).
    const PerWorker* ref = nullptr;
    TimeNs refOffset = 0;
    for (size_t w = 0; w < per.size() && !ref; ++w)
        if (!per[w].steps.steps.empty() && run.workers[w].clock != WorkerClock::Unknown) {
            ref = &per[w];
            refOffset = res.workers[w].offsetNs;
        }
    size_t refIndex = 0;
    for (size_t w = 0; w < per.size() && !ref; ++w)
        if (!per[w].steps.steps.empty()) {
            ref = &per[w];
            refIndex = w;
        }
    bool stepAligned = false;
    for (size_t w = 0; w < per.size(); ++w) {
        if (!ref || res.workers[w].clock != WorkerClock::Unknown || per[w].steps.steps.empty() || &per[w] == ref)
            continue;
        const Step& first = per[w].steps.steps.front();
        const Step* match = &ref->steps.steps.front();
        for (const Step& s : ref->steps.steps)
            if (s.number == first.number) match = &s;
        res.workers[w].offsetNs = match->startNs + refOffset - first.startNs;
        res.workers[w].clock = WorkerClock::FirstStep;
        stepAligned = true;
    }
    // Without any wall clock the reference worker is the first-step origin itself.
    if (stepAligned && res.workers[refIndex].clock == WorkerClock::Unknown && ref == &per[refIndex])
        res.workers[refIndex].clock = WorkerClock::FirstStep;
    if (stepAligned)
        res.notes.push_back("Workers without a wall clock in their file are aligned on their first step's start.");

    for (size_t w = 0; w < per.size(); ++w) {
        PodWorker& pw = res.workers[w];
        pw.steps.resize(res.steps.size());
        for (const StepBreakdown& b : per[w].breakdown) {
            WorkerStep& ws = pw.steps[numbers.at(b.step.number)];
            if (ws.present) continue;  // a repeated number: the first one counts
            ws.present = true;
            ws.breakdown = b;
            ws.runStartNs = b.step.startNs + pw.offsetNs;
            ws.overlap = overlapIn(per[w].kernels, b.step.startNs, b.step.endNs());
            add(pw.overlap, ws.overlap);
        }
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
        ps.startSpreadNs = lastStart - firstStart;
    }
    return res;
}

}  // namespace tracescope
