#include "model/trace/duration_column.h"

#include <algorithm>

namespace tracescope {

namespace {
using LongEntry = std::pair<uint32_t, TimeNs>;
bool indexLess(const LongEntry& e, size_t i) { return e.first < i; }
}  // namespace

TimeNs DurationColumn::longValue(size_t i) const {
    auto it = std::lower_bound(long_.begin(), long_.end(), i, indexLess);
    return it != long_.end() && it->first == i ? it->second : TimeNs(kLong);
}

void DurationColumn::push_back(TimeNs v) {
    v = std::max<TimeNs>(v, 0);
    if (v < TimeNs(kLong)) {
        short_.push_back(uint32_t(v));
        return;
    }
    // The new index is the largest so far: the side table stays sorted.
    long_.emplace_back(uint32_t(short_.size()), v);
    short_.push_back(kLong);
}

void DurationColumn::set(size_t i, TimeNs v) {
    v = std::max<TimeNs>(v, 0);
    auto it = std::lower_bound(long_.begin(), long_.end(), i, indexLess);
    const bool wasLong = it != long_.end() && it->first == i;
    if (v < TimeNs(kLong)) {
        short_[i] = uint32_t(v);
        if (wasLong) long_.erase(it);
        return;
    }
    short_[i] = kLong;
    if (wasLong) it->second = v;
    else long_.insert(it, {uint32_t(i), v});
}

void DurationColumn::permute(const std::vector<uint32_t>& perm) {
    std::vector<uint32_t> out(short_.size());
    for (size_t k = 0; k < perm.size(); ++k) out[k] = short_[perm[k]];
    if (!long_.empty()) {
        std::vector<LongEntry> moved;
        for (size_t k = 0; k < perm.size(); ++k)
            if (out[k] == kLong) moved.emplace_back(uint32_t(k), longValue(perm[k]));
        long_.swap(moved);  // built in index order: sorted
    }
    short_.swap(out);
}

}  // namespace tracescope
