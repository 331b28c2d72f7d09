#include "model/analysis/gpu_advice.h"

#include "model/analysis/analysis_progress.h"
#include "model/analysis/cuda_api_summary.h"
#include "model/trace/import_warning.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

namespace tracescope {

namespace {

constexpr size_t kMaxFindingsPerRule = 200;  // the costliest; the rule's totals count them all
constexpr size_t kHostSlicesPerGap = 3;
constexpr uint64_t kMinLaunchesForQueue = 10;  // fewer launches in a step say nothing of the queue

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string_view nameOf(const Trace& t, SliceRef s) { return t.strings.get(t.tracks[s.track].slices.name[s.index]); }
TimeNs startOf(const Trace& t, SliceRef s) { return t.tracks[s.track].slices.start[s.index]; }
TimeNs endOf(const Trace& t, SliceRef s) { return t.tracks[s.track].slices.end(s.index); }

struct Window {
    TimeNs start = 0, end = 0;
    int64_t number = -1;
    const Step* step = nullptr;
};

std::vector<Window> stepWindows(const StepsResult& steps) {
    std::vector<Window> w;
    for (const Step& s : steps.steps) w.push_back({s.startNs, s.endNs(), s.number, &s});
    std::sort(w.begin(), w.end(), [](const Window& a, const Window& b) { return a.start < b.start; });
    return w;
}

// The step whose window holds `t` (the last one starting at or before it), or null.
const Window* windowAt(const std::vector<Window>& w, TimeNs t) {
    auto it = std::upper_bound(w.begin(), w.end(), t, [](TimeNs x, const Window& s) { return x < s.start; });
    if (it == w.begin()) return nullptr;
    --it;
    return t < it->end ? &*it : nullptr;
}

// Keeps the costliest findings of one rule, after counting all of them in its summary.
void addRuleFindings(GpuAdvice& out, AdviceRule rule, std::vector<AdviceFinding> found) {
    AdviceRuleSummary& sum = out.rules[size_t(rule)];
    sum.rule = rule;
    sum.findings = found.size();
    for (const AdviceFinding& f : found) {
        sum.occurrences += f.occurrences;
        sum.costNs = plusSat(sum.costNs, f.costNs);
    }
    std::stable_sort(found.begin(), found.end(),
                     [](const AdviceFinding& a, const AdviceFinding& b) { return a.costNs > b.costNs; });
    if (found.size() > kMaxFindingsPerRule) found.resize(kMaxFindingsPerRule);
    for (AdviceFinding& f : found) out.findings.push_back(std::move(f));
}

// What the host thread `track` did during [g0, g1): each overlapping slice's own time inside the
// window (its overlap less its children's), and the part no slice covers. Step markers
// (ProfilerStep#N) span the whole step and say nothing of the work: they are left out, so their
// own time counts as untraced. On a properly nested track the slices covering g0 are the slice
// starting last before g0 and its ancestors.
void hostDuringGap(const ClassifiedTrace& ct, TrackIndex track, TimeNs g0, TimeNs g1, AdviceFinding& f) {
    const Trace& t = *ct.trace;
    const SliceColumns& c = t.tracks[track].slices;
    const std::vector<uint32_t>& parents = ct.parents[track];
    if (parents.size() != c.size()) return;
    const size_t lo = size_t(std::lower_bound(c.start.begin(), c.start.end(), g0) - c.start.begin());
    const size_t hi = size_t(std::lower_bound(c.start.begin(), c.start.end(), g1) - c.start.begin());
    std::unordered_map<uint32_t, TimeNs> own;
    TimeNs covered = 0;
    const std::vector<SliceRole>& roles = ct.roles[track];
    auto isMarker = [&](uint32_t i) { return roles[i] == SliceRole::StepMarker; };
    auto visit = [&](uint32_t i) {
        const TimeNs ov = std::min(c.end(i), g1) - std::max(c.start[i], g0);
        if (ov <= 0 || isMarker(i)) return;
        own[i] += ov;
        if (parents[i] == kNoIndex || isMarker(parents[i])) covered += ov;
        else own[parents[i]] -= ov;
    };
    if (lo > 0)
        for (uint32_t i = uint32_t(lo - 1); i != kNoIndex; i = parents[i]) visit(i);
    for (size_t i = lo; i < hi; ++i) {
        analysisTick();
        visit(uint32_t(i));
    }
    std::vector<GapHostSlice> slices;
    for (const auto& [i, ns] : own)
        if (ns > 0) slices.push_back({SliceRef{track, i}, ns});
    std::sort(slices.begin(), slices.end(), [](const GapHostSlice& a, const GapHostSlice& b) {
        return a.selfNs != b.selfNs ? a.selfNs > b.selfNs : a.slice.index < b.slice.index;
    });
    if (slices.size() > kHostSlicesPerGap) slices.resize(kHostSlicesPerGap);
    f.host = std::move(slices);
    f.hostTrack = track;
    f.hostUntracedNs = (g1 - g0) - covered;
}

struct DeviceActivity {
    TimeNs start = 0, end = 0;
    SliceRef slice;
};

bool isDeviceActivity(SliceRole r) { return r == SliceRole::Kernel || r == SliceRole::Memcpy || r == SliceRole::Memset; }

std::vector<AdviceFinding> gpuGaps(const ClassifiedTrace& ct, const std::vector<Window>& steps, const AdviceOptions& o) {
    const Trace& t = *ct.trace;
    std::map<int64_t, std::vector<DeviceActivity>> byDevice;  // by the device's pid
    for (TrackIndex k = 0; k < t.tracks.size(); ++k) {
        const Track& tr = t.tracks[k];
        if (!ct.trackOnDevice[k] || ct.trackSkipped[k] || tr.kind != TrackKind::Thread || tr.process == kNoIndex) continue;
        std::vector<DeviceActivity>& acts = byDevice[t.processes[tr.process].pid];
        for (uint32_t i = 0; i < tr.slices.size(); ++i)
            if (isDeviceActivity(ct.roles[k][i])) acts.push_back({tr.slices.start[i], tr.slices.end(i), {k, i}});
    }
    std::vector<AdviceFinding> found;
    for (auto& [device, acts] : byDevice) {
        std::sort(acts.begin(), acts.end(), [](const DeviceActivity& a, const DeviceActivity& b) {
            return a.start != b.start ? a.start < b.start : a.end > b.end;
        });
        for (size_t i = 1, busy = 0; i < acts.size(); ++i) {
            analysisTick();
            const TimeNs busyUntil = acts[busy].end;
            if (acts[i].start - busyUntil >= o.gapThresholdNs) {
                AdviceFinding f;
                f.rule = AdviceRule::GpuGap;
                f.start = busyUntil;
                f.end = acts[i].start;
                f.costNs = f.end - f.start;
                f.device = device;
                f.occurrences = 1;
                if (const Window* w = windowAt(steps, f.start)) f.step = w->number;
                f.what = std::string(nameOf(t, acts[i].slice));
                f.slices.push_back(acts[i].slice);
                const SliceRef call = launchOf(ct, acts[i].slice);
                if (call.valid()) {
                    f.slices.push_back(call);
                    TrackIndex host = call.track;
                    if (t.tracks[host].overflowOf != kNoIndex) host = t.tracks[host].overflowOf;
                    hostDuringGap(ct, host, f.start, f.end, f);
                }
                found.push_back(std::move(f));
            }
            if (acts[i].end > busyUntil) busy = i;
        }
    }
    return found;
}

// Findings that group slices by a name: occurrences, cost, the steps they fall in, the first slices.
struct Group {
    AdviceFinding finding;
    std::set<int64_t> steps;
};

void addToGroup(Group& g, const Trace& t, SliceRef s, TimeNs cost, const Window* step, size_t maxSlices) {
    AdviceFinding& f = g.finding;
    const TimeNs s0 = startOf(t, s), s1 = endOf(t, s);
    if (f.occurrences == 0 || s0 < f.start) f.start = s0;
    if (f.occurrences == 0 || s1 > f.end) f.end = s1;
    ++f.occurrences;
    f.costNs = plusSat(f.costNs, cost);
    if (f.slices.size() < maxSlices) f.slices.push_back(s);
    if (step) g.steps.insert(step->number);
}

std::vector<AdviceFinding> findingsOf(std::map<std::string, Group>& groups, AdviceRule rule) {
    std::vector<AdviceFinding> out;
    for (auto& [what, g] : groups) {
        g.finding.rule = rule;
        g.finding.what = what;
        g.finding.steps = g.steps.size();
        out.push_back(std::move(g.finding));
    }
    return out;
}

std::vector<AdviceFinding> syncsInSteps(const ClassifiedTrace& ct, const std::vector<Window>& steps,
                                        const AdviceOptions& o) {
    const Trace& t = *ct.trace;
    std::vector<int8_t> blocking(t.strings.size(), -1);  // per name id: unknown, no, yes
    std::map<std::string, Group> groups;
    for (TrackIndex k = 0; k < t.tracks.size(); ++k) {
        const Track& tr = t.tracks[k];
        if (ct.trackOnDevice[k] || tr.kind != TrackKind::Thread) continue;
        for (uint32_t i = 0; i < tr.slices.size(); ++i) {
            if (ct.roles[k][i] != SliceRole::Runtime) continue;
            analysisTick();
            int8_t& b = blocking[tr.slices.name[i]];
            if (b < 0) b = isBlockingCallName(t.strings.get(tr.slices.name[i])) ? 1 : 0;
            if (!b) continue;
            const Window* step = windowAt(steps, tr.slices.start[i]);
            if (!steps.empty() && !step) continue;
            const SliceRef s{k, i};
            const SliceRef op = enclosingHostOp(ct, s);
            std::string what(nameOf(t, s));
            if (op.valid()) what = std::string(nameOf(t, op)) + " → " + what;
            addToGroup(groups[what], t, s, tr.slices.duration[i], step, o.maxSlicesPerFinding);
        }
    }
    return findingsOf(groups, AdviceRule::SyncInStep);
}

// "Pageable" or "pageable".
bool mentionsPageable(std::string_view s) { return s.find("ageable") != std::string_view::npos; }

std::vector<AdviceFinding> pageableCopies(const ClassifiedTrace& ct, const std::vector<Window>& steps,
                                          const AdviceOptions& o) {
    const Trace& t = *ct.trace;
    std::map<std::string, Group> groups;
    for (TrackIndex k = 0; k < t.tracks.size(); ++k) {
        const Track& tr = t.tracks[k];
        if (!ct.trackOnDevice[k] || ct.trackSkipped[k] || tr.kind != TrackKind::Thread) continue;
        for (uint32_t i = 0; i < tr.slices.size(); ++i) {
            if (ct.roles[k][i] != SliceRole::Memcpy) continue;
            analysisTick();
            const SliceRef s{k, i};
            // Kineto names the memory kinds ("Memcpy HtoD (Pageable -> Device)"); XSpace's
            // memcpy_details stat may say so too.
            if (!mentionsPageable(nameOf(t, s)) && !mentionsPageable(sliceArgText(t, s, "memcpy_details"))) continue;
            std::string what = copyKindName(copyKindOf(t, s));
            const SliceRef call = launchOf(ct, s);
            if (call.valid()) what += " via " + std::string(nameOf(t, call));
            addToGroup(groups[what], t, s, tr.slices.duration[i], windowAt(steps, tr.slices.start[i]), o.maxSlicesPerFinding);
        }
    }
    return findingsOf(groups, AdviceRule::PageableCopy);
}

std::vector<AdviceFinding> shortKernels(const ClassifiedTrace& ct, const std::vector<Window>& steps,
                                        const LaunchStats& launches, const AdviceOptions& o) {
    const Trace& t = *ct.trace;
    std::map<std::string, Group> groups;
    for (const LaunchRow& r : launches.rows) {
        if (!(r.outliers & kShortKernel)) continue;
        analysisTick();
        addToGroup(groups[std::string(nameOf(t, r.activity))], t, r.activity, r.cpuDurationNs - r.gpuDurationNs,
                   windowAt(steps, startOf(t, r.activity)), o.maxSlicesPerFinding);
    }
    return findingsOf(groups, AdviceRule::ShortKernel);
}

// Launches (increments) and time at queue length <= 1 of one stream in [w0, w1).
struct QueueInWindow {
    uint64_t launches = 0;
    TimeNs lowNs = 0;
};

QueueInWindow queueIn(const QueueLengthStream& s, TimeNs w0, TimeNs w1) {
    QueueInWindow q;
    const auto& time = s.time;
    // The value entering w0: the last change before it (0 before the first); a change at w0 counts.
    size_t i = size_t(std::lower_bound(time.begin(), time.end(), w0) - time.begin());
    int32_t value = i > 0 ? s.value[i - 1] : 0;
    TimeNs at = w0;
    for (; i < time.size() && time[i] < w1; ++i) {
        if (value <= 1) q.lowNs += time[i] - at;
        const int32_t previous = value;
        value = s.value[i];
        if (value > previous) ++q.launches;
        at = time[i];
    }
    if (value <= 1) q.lowNs += w1 - at;
    return q;
}

std::vector<AdviceFinding> starvedQueues(const Trace& t, const std::vector<Window>& steps, const QueueLengthResult& queues,
                                         const AdviceOptions& o) {
    std::vector<Window> windows = steps;
    if (windows.empty()) {  // the whole trace as one window
        TimeNs w0 = t.endNs, w1 = t.startNs;
        for (const QueueLengthStream& s : queues.streams)
            if (!s.time.empty()) w0 = std::min(w0, s.time.front()), w1 = std::max(w1, s.time.back());
        if (w0 < w1) windows.push_back({w0, w1, -1, nullptr});
    }
    std::vector<AdviceFinding> found;
    for (const Window& w : windows) {
        analysisTick();
        const QueueLengthStream* busiest = nullptr;
        QueueInWindow best;
        for (const QueueLengthStream& s : queues.streams) {
            const QueueInWindow q = queueIn(s, w.start, w.end);
            if (q.launches > best.launches) best = q, busiest = &s;
        }
        if (!busiest || best.launches < kMinLaunchesForQueue || w.end <= w.start) continue;
        const double fraction = double(best.lowNs) / double(w.end - w.start);
        if (fraction <= o.starvedFraction) continue;
        AdviceFinding f;
        f.rule = AdviceRule::StarvedQueue;
        f.start = w.start;
        f.end = w.end;
        f.costNs = best.lowNs;
        f.device = busiest->device;
        f.stream = busiest->stream;
        f.step = w.number;
        f.occurrences = best.launches;
        f.fraction = fraction;
        f.what = "stream " + std::to_string(busiest->stream);
        if (w.step)
            for (const SliceRef& m : w.step->markers)
                if (f.slices.size() < o.maxSlicesPerFinding) f.slices.push_back(m);
        found.push_back(std::move(f));
    }
    return found;
}

std::string countText(uint64_t n, const char* one, const char* many) {
    return formatWarningCount(n) + " " + (n == 1 ? one : many);
}

}  // namespace

const char* adviceRuleId(AdviceRule rule) {
    switch (rule) {
    case AdviceRule::GpuGap: return "gpu-gap";
    case AdviceRule::SyncInStep: return "sync-in-step";
    case AdviceRule::PageableCopy: return "pageable-copy";
    case AdviceRule::ShortKernel: return "short-kernel";
    case AdviceRule::StarvedQueue: return "starved-queue";
    }
    return "gpu-gap";
}

std::string AdviceOptions::key() const {
    return "gap=" + std::to_string(gapThresholdNs) + ",starved=" + std::to_string(starvedFraction) +
           ",slices=" + std::to_string(maxSlicesPerFinding);
}

bool isBlockingCallName(std::string_view api) {
    const std::string_view kind = syncKindOfCall(api);
    if (!kind.empty()) return kind != "Stream Wait Event";  // the device waits there, not the host
    // Synchronous copies and memsets (nsys cuda_memcpy_sync, cuda_memset_sync): the runtime's
    // and the driver's calls without "Async" in the name.
    for (std::string_view prefix : {"cudaMemcpy", "cudaMemset", "cuMemcpy", "cuMemset", "hipMemcpy", "hipMemset"})
        if (startsWith(api, prefix)) return api.find("Async") == std::string_view::npos;
    return false;
}

GpuAdvice computeGpuAdvice(const ClassifiedTrace& ct, const StepsResult& steps, const LaunchStats& launches,
                           const QueueLengthResult& queues, const AdviceOptions& options) {
    const Trace& t = *ct.trace;
    GpuAdvice out;
    out.options = options;
    const std::vector<Window> windows = stepWindows(steps);
    out.steps = windows.size();
    for (size_t r = 0; r < kAdviceRuleCount; ++r) out.rules[r].rule = AdviceRule(r);

    addRuleFindings(out, AdviceRule::GpuGap, gpuGaps(ct, windows, options));
    addRuleFindings(out, AdviceRule::SyncInStep, syncsInSteps(ct, windows, options));
    addRuleFindings(out, AdviceRule::PageableCopy, pageableCopies(ct, windows, options));
    addRuleFindings(out, AdviceRule::ShortKernel, shortKernels(ct, windows, launches, options));
    addRuleFindings(out, AdviceRule::StarvedQueue, starvedQueues(t, windows, queues, options));

    if (launches.activities == 0) out.notes.push_back("no kernels, copies or memsets in this trace: the GPU rules have nothing to look at");
    if (windows.empty())
        out.notes.push_back("no steps in this trace: sync-in-step looks at the whole trace, starved-queue takes it as one step");
    if (launches.activities > 0 && launches.rows.empty()) {
        if (launches.withoutCall == launches.activities)
            out.notes.push_back(
                "no device activity is joined to its launch call (no flows or correlation ids): short-kernel and "
                "starved-queue cannot look, and gpu-gap cannot say what the host was doing");
        else
            out.notes.push_back(
                "every device activity was started by a call that is not a kernel launch (e.g. a CUDA graph "
                "launch, which starts many kernels): short-kernel and starved-queue have no launches to look at");
    }
    return out;
}

std::vector<std::string> adviceSentences(const ClassifiedTrace& ct, const GpuAdvice& advice) {
    const Trace& t = *ct.trace;
    std::vector<std::pair<TimeNs, std::string>> out;
    auto first = [&](AdviceRule rule) -> const AdviceFinding* {
        for (const AdviceFinding& f : advice.findings)
            if (f.rule == rule) return &f;
        return nullptr;
    };
    for (const AdviceRuleSummary& r : advice.rules) {
        const AdviceFinding* top = first(r.rule);
        if (r.findings == 0 || !top) continue;
        const std::string cost = formatWarningDuration(r.costNs);
        std::string s;
        switch (r.rule) {
        case AdviceRule::GpuGap:
            s = "The GPU was idle in " + countText(r.findings, "gap", "gaps") + " of at least " +
                formatWarningDuration(advice.options.gapThresholdNs) + ", " + cost + " in all; the longest lasted " +
                formatWarningDuration(top->costNs) + (top->step >= 0 ? " in step " + std::to_string(top->step) : "");
            if (!top->host.empty() && top->host[0].selfNs >= top->hostUntracedNs)
                s += ", while the host ran " + std::string(nameOf(t, top->host[0].slice));
            else if (top->hostTrack != kNoIndex)
                s += ", while the launching thread ran no traced op for " + formatWarningDuration(top->hostUntracedNs) +
                     " of it";
            s += ". Overlap the host work with the GPU's (prefetch inputs, non-blocking copies) or move it out of the step.";
            break;
        case AdviceRule::SyncInStep:
            s = countText(r.occurrences, "call", "calls") + " that block the host until the GPU is done ran " +
                (advice.steps ? "inside steps" : "in this trace") + " (" + cost + " blocked); most from " + top->what +
                (ct.producer == Producer::XProf
                     ? ". Avoid reading device values on the host in the step loop (printing, float(), "
                       "block_until_ready), or do it after the loop."
                     : ". Avoid .item(), .cpu(), .nonzero() and printing tensors in the step loop, or do them after "
                       "it.");
            break;
        case AdviceRule::PageableCopy:
            s = countText(r.occurrences, "copy", "copies") + " used pageable host memory (" + cost +
                "): such copies are staged and synchronous. Pin the host memory (DataLoader pin_memory=True, "
                "tensor.pin_memory()) and copy with non_blocking=True.";
            break;
        case AdviceRule::ShortKernel:
            s = countText(r.occurrences, "kernel was", "kernels were") +
                " shorter than their launch call (the calls took " + cost + " longer than the kernels): " +
                (ct.producer == Producer::XProf
                     ? "fewer, larger kernels help: jit larger functions so XLA fuses more, or use CUDA graphs "
                       "(XLA's command buffers)."
                     : "fuse small operations (torch.compile) or capture them in a CUDA graph.");
            break;
        case AdviceRule::StarvedQueue:
            s = "In " + countText(r.findings, advice.steps ? "step" : "window", advice.steps ? "steps" : "windows") +
                " the busiest stream's launch queue held at most one operation for most of the time: the host "
                "launches work barely as fast as the GPU runs it (launch-bound).";
            break;
        }
        out.push_back({r.costNs, std::move(s)});
    }
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::string> sentences;
    for (auto& [cost, s] : out) sentences.push_back(std::move(s));
    return sentences;
}

}  // namespace tracescope
