#include "model/analysis/memory_xprof_peak.h"

#include "model/trace/arg_number.h"
#include "model/trace/args.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace tracescope {

XprofPeakBreakdown xprofPeakBreakdown(const std::vector<XprofMemoryEvent>& events) {
    XprofPeakBreakdown r;
    // The window peak, in reading order: XProf's summary starts at 0 and takes every event whose
    // stack + heap reaches or ties it.
    int64_t heapAtPeak = 0;
    for (size_t i = 0; i < events.size(); ++i) {
        int64_t inUse = events[i].stackBytes;
        addSat(inUse, events[i].heapBytes);
        if (inUse < r.peakBytes) continue;
        r.found = true;
        r.peakEvent = i;
        r.peakBytes = inUse;
        r.peakTime = events[i].time;
        heapAtPeak = events[i].heapBytes;
    }

    // Sorted by time (ties in reading order), with the -1 step ids filled in.
    std::vector<size_t> order(events.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return events[a].time < events[b].time; });
    std::vector<int64_t> step(events.size());
    int64_t lastValid = -1;
    for (size_t i : order) {
        if (events[i].stepId == -1) {
            step[i] = lastValid;
            addSat(step[i], 1);
        } else {
            step[i] = lastValid = events[i].stepId;
        }
    }

    // The peak's step: that of the last event in time at the peak's bytes (0 when none is).
    for (size_t i : order) {
        int64_t inUse = events[i].stackBytes;
        addSat(inUse, events[i].heapBytes);
        if (inUse == r.peakBytes) r.peakStep = step[i];
    }

    // The walk over the peak's step up to the peak's time.
    int64_t unmapped = heapAtPeak, freedOfEarlierSteps = 0;
    std::unordered_map<uint64_t, size_t> live;
    for (size_t i : order) {
        const XprofMemoryEvent& e = events[i];
        if (e.time > r.peakTime) break;
        if (step[i] != r.peakStep) continue;
        if (e.allocation) {
            live[e.address] = i;
            subSat(unmapped, e.allocationBytes);
        } else {
            if (auto it = live.find(e.address); it != live.end()) live.erase(it);
            else addSat(freedOfEarlierSteps, e.allocationBytes);
            addSat(unmapped, e.allocationBytes);
        }
    }
    subSat(unmapped, freedOfEarlierSteps);
    r.unmappedBytes = unmapped;
    for (const auto& [address, i] : live) {
        r.active.push_back(i);
        addSat(r.activeBytes, events[i].allocationBytes);
    }
    std::sort(r.active.begin(), r.active.end(), [&](size_t a, size_t b) {
        return events[a].time != events[b].time ? events[a].time < events[b].time : a < b;
    });
    return r;
}


std::vector<int64_t> xprofMemoryStepIds(const Trace& trace, const StepGroups& groups,
                                        const std::vector<MemorySnapshot>& timeline) {
    std::vector<int64_t> ids(timeline.size(), -1);
    const StringId groupKey = trace.strings.find("group_id");
    const bool nest = !groups.fromFile && !groups.empty();
    // Snapshots still to nest, per track (timeline order is time order).
    std::unordered_map<TrackIndex, std::vector<uint32_t>> toNest;
    for (uint32_t i = 0; i < timeline.size(); ++i) {
        const MemorySnapshot& s = timeline[i];
        if (s.track >= trace.tracks.size() || s.index >= trace.tracks[s.track].instants.size()) continue;
        const Track& track = trace.tracks[s.track];
        bool own = false;
        if (groupKey != kNoIndex) {
            ArgsReader r(track.argsView(), track.instants.args[s.index]);
            Arg a;
            while (r.next(a))
                if (a.key == groupKey && numericArg(a.value, trace.strings).toInt64(ids[i])) own = true;
        }
        if (!own && nest) toNest[s.track].push_back(i);
    }
    if (toNest.empty()) return ids;

    std::unordered_map<TrackIndex, std::vector<TrackIndex>> lanesOf;
    for (const auto& [track, list] : toNest) lanesOf[track].push_back(track);
    for (TrackIndex ti = 0; ti < trace.tracks.size(); ++ti)
        if (auto it = lanesOf.find(trace.tracks[ti].overflowOf); it != lanesOf.end()) it->second.push_back(ti);

    std::vector<ThreadSlice> open;
    for (auto& [track, list] : toNest) {
        std::stable_sort(list.begin(), list.end(), [&](uint32_t a, uint32_t b) { return timeline[a].index < timeline[b].index; });
        const std::vector<ThreadSlice> slices = threadSlicesInLineOrder(trace, lanesOf[track]);
        const InstantColumns& instants = trace.tracks[track].instants;
        open.clear();
        size_t next = 0;
        for (uint32_t i : list) {
            const TimeNs t = instants.time[timeline[i].index];
            // An instant comes after every slice starting at or before it (a zero-length event
            // sorts after the longer ones of its start).
            for (; next < slices.size() && slices[next].start <= t; ++next) {
                const ThreadSlice& s = slices[next];
                while (!open.empty() && !(open.back().start <= s.start && s.end <= open.back().end)) open.pop_back();
                open.push_back(s);
            }
            while (!open.empty() && open.back().end < t) open.pop_back();
            if (open.empty()) continue;
            const int32_t g = groups.of(open.back().ref);
            if (g != kNoStepGroup) ids[i] = groups.groups[size_t(g)].id;
        }
    }
    return ids;
}

}  // namespace tracescope
