#include "model/query/counter_range_index.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tracescope {

CounterRangeIndex::CounterRangeIndex(const CounterSeries& series) : n_(series.size()) {
    min_.assign(2 * n_, 0.f);
    max_.assign(2 * n_, 0.f);
    globalMin_ = n_ ? std::numeric_limits<double>::infinity() : 0;
    globalMax_ = n_ ? -std::numeric_limits<double>::infinity() : 0;
    for (size_t i = 0; i < n_; ++i) {
        double v = series.value[i];
        if (!std::isfinite(v)) v = 0;  // NaN / inf samples would poison every bucket
        min_[n_ + i] = max_[n_ + i] = float(v);
        globalMin_ = std::min(globalMin_, v);
        globalMax_ = std::max(globalMax_, v);
    }
    for (size_t i = n_; i-- > 1;) {
        min_[i] = std::min(min_[2 * i], min_[2 * i + 1]);
        max_[i] = std::max(max_[2 * i], max_[2 * i + 1]);
    }
}

bool CounterRangeIndex::minMax(size_t lo, size_t hi, double& min, double& max) const {
    hi = std::min(hi, n_);
    if (lo >= hi) return false;
    float mn = std::numeric_limits<float>::infinity(), mx = -mn;
    for (lo += n_, hi += n_; lo < hi; lo >>= 1, hi >>= 1) {
        if (lo & 1) { mn = std::min(mn, min_[lo]); mx = std::max(mx, max_[lo]); ++lo; }
        if (hi & 1) { --hi; mn = std::min(mn, min_[hi]); mx = std::max(mx, max_[hi]); }
    }
    min = mn;
    max = mx;
    return true;
}

}  // namespace tracescope
