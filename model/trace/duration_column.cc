#include "model/trace/duration_column.h"

#include <algorithm>

namespace tracescope {

TimeNs DurationColumn::longValue(size_t i) const {
    const TimeNs* v = long_.find(i);
    return v ? *v : TimeNs(kLong);
}

void DurationColumn::push_back(TimeNs v) {
    v = std::max<TimeNs>(v, 0);
    if (v < TimeNs(kLong)) {
        short_.push_back(uint32_t(v));
        return;
    }
    long_.append(short_.size(), v);
    short_.push_back(kLong);
}

void DurationColumn::set(size_t i, TimeNs v) {
    v = std::max<TimeNs>(v, 0);
    if (v < TimeNs(kLong)) {
        short_[i] = uint32_t(v);
        long_.erase(i);
        return;
    }
    short_[i] = kLong;
    long_.set(i, v);
}

void DurationColumn::permute(const std::vector<uint32_t>& perm) {
    std::vector<uint32_t> out(short_.size());
    for (size_t k = 0; k < perm.size(); ++k) out[k] = short_[perm[k]];
    long_.permute(perm, [&out](size_t k) { return out[k] == kLong; });
    short_.swap(out);
}

}  // namespace tracescope
