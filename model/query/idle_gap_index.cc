#include "model/query/idle_gap_index.h"

#include <algorithm>

namespace tracescope {

namespace {

TimeNs lengthOf(const IdleGap& g) { return g.end - g.start; }

}  // namespace

IdleGapIndex::IdleGapIndex(std::shared_ptr<const GpuUtilizationResult> gpus) : gpus_(std::move(gpus)) {
    if (!gpus_) return;
    for (const GpuUtilization& g : gpus_->gpus)
        for (const StreamIdle& s : g.streams) {
            if (s.gaps.empty()) continue;
            streams_.push_back({&s.gaps, BlockMaxima(s.gaps.size(), [&](size_t i) { return lengthOf(s.gaps[i]); })});
            for (TrackIndex t : s.tracks) byTrack_[t] = streams_.size() - 1;
        }
}

std::span<const IdleGap> IdleGapIndex::visible(TrackIndex track, TimeNs begin, TimeNs end) const {
    auto it = byTrack_.find(track);
    if (it == byTrack_.end() || begin >= end) return {};
    const std::vector<IdleGap>& gaps = *streams_[it->second].gaps;
    // Disjoint and sorted: ends ascend with starts.
    auto first =
        std::upper_bound(gaps.begin(), gaps.end(), begin, [](TimeNs t, const IdleGap& g) { return t < g.end; });
    auto last = std::lower_bound(first, gaps.end(), end, [](const IdleGap& g, TimeNs t) { return g.start < t; });
    return {first, last};
}

std::vector<IdleGap> IdleGapIndex::atLeast(TrackIndex track, TimeNs begin, TimeNs end, TimeNs minLength) const {
    const std::span<const IdleGap> window = visible(track, begin, end);
    if (window.empty()) return {};
    const StreamGaps& s = streams_[byTrack_.at(track)];
    const std::vector<IdleGap>& gaps = *s.gaps;
    const size_t from = size_t(window.data() - gaps.data()), to = from + window.size();
    const auto length = [&](size_t i) { return lengthOf(gaps[i]); };
    std::vector<IdleGap> out;
    for (size_t i = s.lengths.nextAtLeast(from, to, minLength, length); i < to;
         i = s.lengths.nextAtLeast(i + 1, to, minLength, length))
        out.push_back(gaps[i]);
    return out;
}

const IdleGap* IdleGapIndex::at(TrackIndex track, TimeNs t) const {
    const std::span<const IdleGap> v = visible(track, t, t + 1);
    return v.empty() ? nullptr : &v.front();
}

}  // namespace tracescope
