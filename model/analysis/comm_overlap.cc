#include "model/analysis/comm_overlap.h"

#include "model/analysis/analysis_progress.h"
#include "model/analysis/steps.h"

#include <algorithm>

namespace tracescope {

namespace {

Intervals unite(Intervals v) {
    std::sort(v.begin(), v.end());
    Intervals out;
    for (const auto& [a, b] : v) {
        if (!out.empty() && a <= out.back().second) out.back().second = std::max(out.back().second, b);
        else out.push_back({a, b});
    }
    return out;
}

TimeNs lengthOf(const Intervals& v) {
    TimeNs n = 0;
    for (const auto& [a, b] : v) addSat(n, b - a);
    return n;
}

Intervals intersection(const Intervals& x, const Intervals& y) {
    Intervals out;
    size_t i = 0, j = 0;
    while (i < x.size() && j < y.size()) {
        const TimeNs a = std::max(x[i].first, y[j].first), b = std::min(x[i].second, y[j].second);
        if (b > a) out.push_back({a, b});
        (x[i].second < y[j].second) ? ++i : ++j;
    }
    return out;
}

}  // namespace

Intervals clipIntervals(const Intervals& v, TimeNs s, TimeNs e) {
    Intervals out;
    auto it = std::lower_bound(v.begin(), v.end(), s, [](const auto& iv, TimeNs x) { return iv.second <= x; });
    for (; it != v.end() && it->first < e; ++it) {
        const TimeNs a = std::max(it->first, s), b = std::min(it->second, e);
        if (b > a) out.push_back({a, b});
    }
    return out;
}

KernelUnions kernelUnionsOf(const ClassifiedTrace& ct) {
    const Trace& t = *ct.trace;
    KernelUnions k;
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (ct.trackSkipped[ti] || t.tracks[ti].kind != TrackKind::Thread) continue;
        const SliceColumns& c = t.tracks[ti].slices;
        for (uint32_t i = 0; i < c.size(); ++i) {
            analysisTick();
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
    const Intervals comm = clipIntervals(k.communication, s, e), comp = clipIntervals(k.compute, s, e);
    o.communicationNs = lengthOf(comm);
    o.computeNs = lengthOf(comp);
    o.overlappedNs = lengthOf(intersection(comm, comp));
    o.exposedNs = o.communicationNs - o.overlappedNs;
    return o;
}

Intervals overlappedIntervals(const KernelUnions& k) { return intersection(k.communication, k.compute); }

CommOverlap commOverlapIn(const ClassifiedTrace& ct, TimeNs startNs, TimeNs endNs) {
    return overlapIn(kernelUnionsOf(ct), startNs, endNs);
}

}  // namespace tracescope
