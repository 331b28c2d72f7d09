#include "model/query/comm_overlap_index.h"

#include "model/analysis/analysis_progress.h"
#include "model/analysis/steps.h"

#include <algorithm>
#include <limits>

namespace tracescope {

CommOverlapIndex::CommOverlapIndex(const ClassifiedTrace& ct) {
    const Trace& t = *ct.trace;
    const KernelUnions kernels = kernelUnionsOf(ct);
    total_ = overlapIn(kernels, std::numeric_limits<TimeNs>::min(), std::numeric_limits<TimeNs>::max());
    const Intervals overlapped = overlappedIntervals(kernels);
    if (overlapped.empty()) return;
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (ct.trackSkipped[ti] || t.tracks[ti].kind != TrackKind::Thread) continue;
        const SliceColumns& c = t.tracks[ti].slices;
        Intervals parts;
        for (uint32_t i = 0; i < c.size(); ++i) {
            analysisTick();
            if (ct.roles[ti][i] != SliceRole::Kernel || !isCollectiveKernelName(fullNameView(ct, {ti, i}))) continue;
            for (const auto& part : clipIntervals(overlapped, c.start[i], c.end(i))) parts.push_back(part);
        }
        if (parts.empty()) continue;
        // A track's kernels do not overlap, so their parts come sorted and disjoint; an overflow
        // lane's might not: sort and merge to be sure.
        std::sort(parts.begin(), parts.end());
        Intervals merged;
        for (const auto& [a, b] : parts) {
            if (!merged.empty() && a <= merged.back().second) merged.back().second = std::max(merged.back().second, b);
            else merged.push_back({a, b});
        }
        byTrack_.emplace(ti, std::move(merged));
    }
}

std::span<const std::pair<TimeNs, TimeNs>> CommOverlapIndex::visible(TrackIndex track, TimeNs begin, TimeNs end) const {
    const auto it = byTrack_.find(track);
    if (it == byTrack_.end() || begin >= end) return {};
    const Intervals& v = it->second;
    auto first = std::upper_bound(v.begin(), v.end(), begin, [](TimeNs x, const auto& iv) { return x < iv.second; });
    auto last = std::lower_bound(first, v.end(), end, [](const auto& iv, TimeNs x) { return iv.first < x; });
    return {first, last};
}

Intervals joinNearby(std::span<const std::pair<TimeNs, TimeNs>> parts, TimeNs joinBelow) {
    Intervals out;
    joinBelow = std::max<TimeNs>(joinBelow, 0);
    const auto startsBefore = [](const auto& iv, TimeNs t) { return iv.first < t; };
    for (auto it = parts.begin(); it != parts.end();) {
        std::pair<TimeNs, TimeNs> run = *it;
        // Sorted and disjoint: of the parts starting before run.second + joinBelow, the last ends
        // last, so jump to it, not through the ones between. A jump that does not close the run
        // moves its end past the previous bound: by at least joinBelow every two jumps.
        for (;;) {
            const auto next = std::lower_bound(it, parts.end(), run.second + joinBelow, startsBefore);
            const TimeNs reach = std::prev(next)->second;
            it = next;
            if (reach <= run.second) break;
            run.second = reach;
        }
        out.push_back(run);
    }
    return out;
}

Intervals CommOverlapIndex::runs(TrackIndex track, TimeNs begin, TimeNs end, TimeNs joinBelow) const {
    return joinNearby(visible(track, begin, end), joinBelow);
}

}  // namespace tracescope
