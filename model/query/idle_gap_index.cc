#include "model/query/idle_gap_index.h"

#include <algorithm>

namespace tracescope {

IdleGapIndex::IdleGapIndex(std::shared_ptr<const GpuUtilizationResult> gpus) : gpus_(std::move(gpus)) {
    if (!gpus_) return;
    for (const GpuUtilization& g : gpus_->gpus)
        for (const StreamIdle& s : g.streams)
            if (!s.gaps.empty())
                for (TrackIndex t : s.tracks) byTrack_[t] = &s.gaps;
}

std::span<const IdleGap> IdleGapIndex::visible(TrackIndex track, TimeNs begin, TimeNs end) const {
    auto it = byTrack_.find(track);
    if (it == byTrack_.end() || begin >= end) return {};
    const std::vector<IdleGap>& gaps = *it->second;
    // Disjoint and sorted: ends ascend with starts.
    auto first = std::upper_bound(gaps.begin(), gaps.end(), begin, [](TimeNs t, const IdleGap& g) { return t < g.end; });
    auto last = std::lower_bound(first, gaps.end(), end, [](const IdleGap& g, TimeNs t) { return g.start < t; });
    return {first, last};
}

const IdleGap* IdleGapIndex::at(TrackIndex track, TimeNs t) const {
    const std::span<const IdleGap> v = visible(track, t, t + 1);
    return v.empty() ? nullptr : &v.front();
}

}  // namespace tracescope
