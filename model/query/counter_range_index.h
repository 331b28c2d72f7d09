// Minimum and maximum of a counter over any sample range in O(log n), so the
// timeline can draw one min/max bar per pixel column without touching every
// sample (a bottom-up segment tree of floats: 16 bytes per sample).
#pragma once

#include "model/trace/track.h"

#include <cstddef>
#include <vector>

namespace tracescope {

class CounterRangeIndex {
public:
    CounterRangeIndex() = default;
    explicit CounterRangeIndex(const CounterSeries& series);

    size_t size() const { return n_; }
    // Min and max of samples [lo, hi); false when the range is empty.
    bool minMax(size_t lo, size_t hi, double& min, double& max) const;
    double globalMin() const { return globalMin_; }
    double globalMax() const { return globalMax_; }

private:
    size_t n_ = 0;
    std::vector<float> min_, max_;  // tree nodes: leaves at [n, 2n)
    double globalMin_ = 0, globalMax_ = 0;
};

}  // namespace tracescope
