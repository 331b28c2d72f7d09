// The GPU's idle gaps (model/analysis/gpu_utilization.h: HTA's idle-time attribution per stream)
// by timeline track, for shading them on each stream's rows: a stream's gaps go to every track
// that holds its activities (its overflow lanes too). Gaps are sorted and disjoint per stream,
// so the ones a frame shows are found by binary search; the block maxima of their lengths find
// the few at least a pixel wide among millions of narrower ones without walking them all.
#pragma once

#include "model/analysis/gpu_utilization.h"
#include "model/query/block_maxima.h"

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
    // The gaps of `track` that overlap [begin, end) and last at least `minLength`, in time order.
    // Costs O(log n) per gap returned and per run of shorter gaps skipped, however many gaps
    // the window holds.
    std::vector<IdleGap> atLeast(TrackIndex track, TimeNs begin, TimeNs end, TimeNs minLength) const;
    // The gap of `track` holding time t, if any.
    const IdleGap* at(TrackIndex track, TimeNs t) const;

private:
    struct StreamGaps {
        const std::vector<IdleGap>* gaps = nullptr;
        BlockMaxima lengths;
    };
    std::shared_ptr<const GpuUtilizationResult> gpus_;  // owns the gaps
    std::vector<StreamGaps> streams_;
    std::unordered_map<TrackIndex, size_t> byTrack_;  // track → its stream in streams_
};

}  // namespace tracescope
