#include "model/analysis/gpu_utilization.h"

#include "model/analysis/analysis_progress.h"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

namespace tracescope {

namespace {

constexpr TimeNs kNoLaunch = std::numeric_limits<TimeNs>::min();

// One kernel, memcpy or memset of a stream.
struct Activity {
    TimeNs start = 0;
    TimeNs end = 0;
    TimeNs launchStart = kNoLaunch;
    bool compute = false;
};

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// The digits after "GPU:", "GPU " or "MTIA " in a process name ("/device:GPU:3", "GPU 3",
// Kineto's "MTIA 9"); -1 when none.
int64_t gpuIndexInName(std::string_view name) {
    for (std::string_view key : {"GPU:", "GPU ", "MTIA "}) {
        const size_t at = name.find(key);
        if (at == std::string_view::npos) continue;
        int64_t v = 0;
        size_t i = at + key.size(), digits = 0;
        for (; i < name.size() && name[i] >= '0' && name[i] <= '9' && digits < 9; ++i, ++digits)
            v = v * 10 + (name[i] - '0');
        if (digits) return v;
    }
    return -1;
}

bool isActivity(SliceRole r) { return r == SliceRole::Kernel || r == SliceRole::Memcpy || r == SliceRole::Memset; }

// Merges the sorted runs [bounds[i], bounds[i+1]) of `v` into one sorted range, pairwise
// (O(n log runs)); each track's slices come sorted by start already.
void mergeRuns(std::vector<Activity>& v, std::vector<size_t> bounds) {
    auto byStart = [](const Activity& a, const Activity& b) { return a.start < b.start; };
    while (bounds.size() > 2) {
        std::vector<size_t> next;
        for (size_t i = 0; i + 2 < bounds.size(); i += 2) {
            std::inplace_merge(v.begin() + bounds[i], v.begin() + bounds[i + 1], v.begin() + bounds[i + 2], byStart);
            next.push_back(bounds[i]);
        }
        if (bounds.size() % 2 == 0) next.push_back(bounds[bounds.size() - 2]);
        next.push_back(bounds.back());
        bounds = std::move(next);
    }
}

// Sum of the union of the intervals of `v` (sorted by start) that `take` accepts.
template <typename Take>
TimeNs unionLength(const std::vector<Activity>& v, Take take) {
    TimeNs total = 0, curStart = 0, curEnd = 0;
    bool open = false;
    for (const Activity& a : v) {
        if (!take(a)) continue;
        if (open && a.start <= curEnd) {
            curEnd = std::max(curEnd, a.end);
            continue;
        }
        if (open) total += curEnd - curStart;
        curStart = a.start;
        curEnd = a.end;
        open = true;
    }
    if (open) total += curEnd - curStart;
    return total;
}

// HTA's attribution of the gaps of one stream (its activities sorted by start).
void attributeGaps(StreamIdle& s, const std::vector<Activity>& acts, TimeNs threshold) {
    if (acts.empty()) return;
    s.firstStart = acts.front().start;
    TimeNs busyUntil = acts.front().end;
    for (size_t i = 1; i < acts.size(); ++i) {
        const Activity& a = acts[i];
        if (a.start > busyUntil) {
            const TimeNs gap = a.start - busyUntil;
            IdleCause cause = IdleCause::Other;
            if (a.launchStart != kNoLaunch && a.launchStart > busyUntil) cause = IdleCause::HostWait;
            else if (gap < threshold) cause = IdleCause::KernelWait;
            s.idle.ns[size_t(cause)] += gap;
            ++s.idle.gaps[size_t(cause)];
            s.gaps.push_back({busyUntil, a.start, cause});
        } else if (a.start < busyUntil) {
            ++s.overlapping;
        }
        busyUntil = std::max(busyUntil, a.end);
    }
    s.lastEnd = busyUntil;
    s.gaps.shrink_to_fit();  // kept as a result (the timeline's idle track): no growth room
}

struct StreamWork {
    StreamIdle idle;
    std::vector<Activity> acts;
    std::vector<size_t> runs;  // start offsets of each track's sorted run
};

struct GpuWork {
    GpuUtilization gpu;
    std::map<int64_t, StreamWork> streams;
};

}  // namespace

const char* idleCauseName(IdleCause cause) {
    switch (cause) {
    case IdleCause::HostWait: return "host_wait";
    case IdleCause::KernelWait: return "kernel_wait";
    case IdleCause::Other: return "other";
    }
    return "other";
}

double GpuUtilization::percentOfWindow(TimeNs part) const {
    const TimeNs w = activeNs();
    return w > 0 ? 100.0 * double(part) / double(w) : 0.0;
}

bool isComputeKernelName(std::string_view name) {
    // HTA: communication (^nccl.*Kernel), memory (^Memcpy|^Memset|^dma), and the names its
    // is_compute_kernel pattern (^nccl.*Kernel)|(.*(Memcpy)|(Memset))|(.*Sync) matches.
    if (startsWith(name, "nccl") && name.find("Kernel", 4) != std::string_view::npos) return false;
    if (startsWith(name, "Memset") || startsWith(name, "dma")) return false;
    if (name.find("Memcpy") != std::string_view::npos || name.find("Sync") != std::string_view::npos) return false;
    return true;
}

GpuUtilizationResult computeGpuUtilization(const ClassifiedTrace& ct, const GpuUtilizationOptions& options) {
    const Trace& t = *ct.trace;
    GpuUtilizationResult out;
    out.kernelWaitThresholdNs = options.kernelWaitThresholdNs;
    analysisStep("GPU utilisation", 0, 1);

    // Compute or not, per kernel name (names repeat: decided once each).
    std::vector<int8_t> computeByName(t.strings.size(), -1);
    // GPUs by (device index, process when the index is unknown).
    std::map<std::pair<int64_t, int64_t>, GpuWork> gpus;

    // Per track, its first device activity; per process, whether one of its tracks names its stream.
    // HTA takes an activity without a "stream" arg for no device work (stream -1): where a device's
    // other tracks name theirs (MTIA writes its DMA transfers on a thread of their own without
    // one), such a track is left out, as HTA leaves it; devices that name no stream at all (older
    // Kineto) keep every track, the thread's id standing for the stream.
    std::vector<uint32_t> firstActivity(t.tracks.size(), kNoIndex);
    std::vector<uint8_t> processNamesStreams(t.processes.size(), 0);
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (ti < ct.trackSkipped.size() && ct.trackSkipped[ti]) continue;
        const std::vector<SliceRole>& roles = ct.roles[ti];
        for (uint32_t i = 0; i < roles.size() && firstActivity[ti] == kNoIndex; ++i)
            if (isActivity(roles[i])) firstActivity[ti] = i;
        int64_t streamArg;
        if (firstActivity[ti] != kNoIndex && t.tracks[ti].process < t.processes.size() &&
            sliceArgInt(t, {ti, firstActivity[ti]}, "stream", streamArg))
            processNamesStreams[t.tracks[ti].process] = 1;
    }
    uint64_t withoutStream = 0;

    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (ti < ct.trackSkipped.size() && ct.trackSkipped[ti]) continue;
        const Track& tr = t.tracks[ti];
        const std::vector<SliceRole>& roles = ct.roles[ti];
        const uint32_t first = firstActivity[ti];
        if (first == kNoIndex) continue;
        // A track's activities share a device and a stream: read them from its first one.
        TrackIndex base = ti;
        while (t.tracks[base].overflowOf != kNoIndex && t.tracks[base].overflowOf != base)
            base = t.tracks[base].overflowOf;
        const Process* proc = tr.process < t.processes.size() ? &t.processes[tr.process] : nullptr;
        int64_t device = -1, stream = t.tracks[base].tid;
        if (!sliceArgInt(t, {ti, first}, "device", device)) device = -1;
        if (device < 0 && proc) device = gpuIndexInName(proc->name);
        if (device < 0 && proc) device = gpuIndexInName(proc->labels);
        int64_t streamArg;
        if (sliceArgInt(t, {ti, first}, "stream", streamArg)) {
            stream = streamArg;
        } else if (tr.process < t.processes.size() && processNamesStreams[tr.process]) {
            for (uint32_t i = first; i < roles.size(); ++i) withoutStream += isActivity(roles[i]);
            continue;
        }
        GpuWork& g = gpus[{device, device < 0 ? int64_t(tr.process) : 0}];
        if (g.gpu.name.empty() && proc) g.gpu.name = !proc->labels.empty() ? proc->labels : proc->name;
        g.gpu.device = device;
        StreamWork& s = g.streams[stream];
        s.idle.stream = stream;
        s.idle.tracks.push_back(ti);
        s.runs.push_back(s.acts.size());

        for (uint32_t i = first; i < roles.size(); ++i) {
            analysisTick();
            const SliceRole r = roles[i];
            if (!isActivity(r)) continue;
            Activity a;
            a.start = tr.slices.start[i];
            a.end = tr.slices.end(i);
            if (r == SliceRole::Kernel) {
                ++g.gpu.kernels;
                const StringId name = tr.slices.name[i];
                int8_t& c = computeByName[name];
                if (c < 0) c = isComputeKernelName(t.str(name)) ? 1 : 0;
                a.compute = c == 1;
                g.gpu.computeKernels += a.compute;
            } else {
                ++(r == SliceRole::Memcpy ? g.gpu.memcpys : g.gpu.memsets);
            }
            const SliceRef launch = launchOf(ct, {ti, i});
            if (launch.valid()) {
                a.launchStart = t.tracks[launch.track].slices.start[launch.index];
                if (a.launchStart > a.start) ++g.gpu.launchedAfterStart;
            } else {
                ++s.idle.withoutLaunch;
            }
            ++s.idle.activities;
            s.acts.push_back(a);
        }
    }

    uint64_t withoutLaunch = 0, launchedAfterStart = 0, overlapping = 0, unknownDevice = 0;
    for (auto& [key, g] : gpus) {
        GpuUtilization& gpu = g.gpu;
        std::vector<Activity> all;
        std::vector<size_t> runs;
        for (auto& [id, s] : g.streams) {
            s.runs.push_back(s.acts.size());
            mergeRuns(s.acts, s.runs);
            attributeGaps(s.idle, s.acts, options.kernelWaitThresholdNs);
            for (size_t c = 0; c < kIdleCauseCount; ++c) {
                gpu.idle.ns[c] = plusSat(gpu.idle.ns[c], s.idle.idle.ns[c]);
                gpu.idle.gaps[c] += s.idle.idle.gaps[c];
            }
            gpu.withoutLaunch += s.idle.withoutLaunch;
            overlapping += s.idle.overlapping;
            runs.push_back(all.size());
            all.insert(all.end(), s.acts.begin(), s.acts.end());
            gpu.streams.push_back(std::move(s.idle));
        }
        g.streams.clear();
        runs.push_back(all.size());
        mergeRuns(all, runs);
        gpu.windowStart = all.front().start;
        gpu.windowEnd = gpu.windowStart;
        for (const Activity& a : all) gpu.windowEnd = std::max(gpu.windowEnd, a.end);
        const TimeNs busy = unionLength(all, [](const Activity&) { return true; });
        gpu.idleNs = gpu.activeNs() - busy;
        gpu.computeNs = unionLength(all, [](const Activity& a) { return a.compute; });
        gpu.nonComputeNs = gpu.activeNs() - gpu.idleNs - gpu.computeNs;
        unknownDevice += gpu.device < 0;
        withoutLaunch += gpu.withoutLaunch;
        launchedAfterStart += gpu.launchedAfterStart;
        out.gpus.push_back(std::move(gpu));
    }

    if (out.gpus.empty())
        out.notes.push_back(
            "no kernels, memcpys or memsets in this trace (CPU-only, or device activity of a kind not read as "
            "kernels): no GPU to break down");
    if (withoutStream)
        out.notes.push_back(std::to_string(withoutStream) +
                            " device activities name no stream on a device whose other work does (MTIA's DMA on a "
                            "thread of its own): left out, as HTA leaves work without a stream");
    if (unknownDevice)
        out.notes.push_back(std::to_string(unknownDevice) +
                            " GPU(s) whose index the trace does not record (no device arg, no GPU number in the "
                            "process name): shown as device -1, one per process");
    if (withoutLaunch)
        out.notes.push_back(std::to_string(withoutLaunch) +
                            " device activities have no launch call in the trace (no flow, no matching correlation "
                            "id): the gaps before them cannot be host waits and count as kernel wait or other");
    if (launchedAfterStart)
        out.notes.push_back(std::to_string(launchedAfterStart) +
                            " device activities start before their launch call began (host and device clocks "
                            "disagree): their gaps are attributed as recorded");
    if (overlapping)
        out.notes.push_back(std::to_string(overlapping) +
                            " activities start before earlier work on their stream ended: no gap before them");
    return out;
}

}  // namespace tracescope
