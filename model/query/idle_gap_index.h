// The GPU's idle gaps (model/analysis/gpu_utilization.h: HTA's idle-time attribution per stream)
// by timeline track, for shading them on each stream's rows: a stream's gaps go to every track
// that holds its activities (its overflow lanes too). Gaps are sorted and disjoint per stream,
// so the ones a frame shows are found by binary search.
#pragma once

#include "model/analysis/gpu_utilization.h"

#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

namespace tracescope {

class IdleGapIndex {
public:
    explicit IdleGapIndex(std::shared_ptr<const GpuUtilizationResult> gpus);

    bool empty() const { return byTrack_.empty(); }
    // The gaps of `track` that overlap [begin, end), in time order (empty for other tracks).
    std::span<const IdleGap> visible(TrackIndex track, TimeNs begin, TimeNs end) const;
    // The gap of `track` holding time t, if any.
    const IdleGap* at(TrackIndex track, TimeNs t) const;

private:
    std::shared_ptr<const GpuUtilizationResult> gpus_;  // owns the gaps
    std::unordered_map<TrackIndex, const std::vector<IdleGap>*> byTrack_;
};

}  // namespace tracescope
