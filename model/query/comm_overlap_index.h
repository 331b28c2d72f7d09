// Where communication was hidden behind compute, by timeline track, for marking it on the
// communication kernels' rows: each NCCL kernel's part that some compute kernel overlapped
// (model/analysis/comm_overlap.h, HTA's get_comm_comp_overlap). Sorted and disjoint per track,
// so the parts a frame shows are found by binary search.
#pragma once

#include "model/analysis/comm_overlap.h"

#include <span>
#include <unordered_map>

namespace tracescope {

class CommOverlapIndex {
public:
    explicit CommOverlapIndex(const ClassifiedTrace& ct);

    bool empty() const { return byTrack_.empty(); }
    // The overlapped parts on `track` that meet [begin, end), in time order.
    std::span<const std::pair<TimeNs, TimeNs>> visible(TrackIndex track, TimeNs begin, TimeNs end) const;
    // The same parts with those less than `joinBelow` apart joined (joinNearby), as a frame shows
    // them at `joinBelow` ns per pixel.
    Intervals runs(TrackIndex track, TimeNs begin, TimeNs end, TimeNs joinBelow) const;
    const CommOverlap& total() const { return total_; }

private:
    std::unordered_map<TrackIndex, Intervals> byTrack_;
    CommOverlap total_;
};

// Sorted, disjoint intervals with those less than `joinBelow` apart joined into runs, found by
// binary search: O(log n) per run and per `joinBelow` of time the runs cover, not O(n).
Intervals joinNearby(std::span<const std::pair<TimeNs, TimeNs>> sorted, TimeNs joinBelow);

}  // namespace tracescope
