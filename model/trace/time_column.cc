#include "model/trace/time_column.h"

#include <algorithm>

namespace tracescope {

TimeNs TimeColumn::wideValue(size_t i) const {
    const TimeNs* v = wide_.find(i);
    return v ? *v : 0;
}

int32_t TimeColumn::offsetOf(size_t i, TimeNs v) const {
    TimeNs d = 0;
    // Hostile times may be anywhere in int64: the difference itself can overflow.
    if (__builtin_sub_overflow(v, base_[i >> kBlockShift], &d)) return kWide;
    return d > kWide && d <= std::numeric_limits<int32_t>::max() ? int32_t(d) : kWide;
}

void TimeColumn::push_back(TimeNs v) {
    const size_t i = offset_.size();
    if ((i & ((size_t(1) << kBlockShift) - 1)) == 0) base_.push_back(v);
    const int32_t d = offsetOf(i, v);
    offset_.push_back(d);
    if (d == kWide) wide_.append(i, v);
}

void TimeColumn::set(size_t i, TimeNs v) {
    const int32_t d = offsetOf(i, v);
    offset_[i] = d;
    if (d != kWide) wide_.erase(i);
    else wide_.set(i, v);
}

void TimeColumn::shift(TimeNs delta) {
    // Offsets from a base do not change when every time moves by the same amount, unless a
    // time saturates: then the column is built again.
    // A block's times lie within 2^31 of its base: a base this far from int64's ends is safe.
    constexpr TimeNs kSlack = TimeNs(1) << 32;
    auto nearTheEnds = [delta](TimeNs v) {
        TimeNs t = 0;
        return __builtin_add_overflow(v, delta, &t) || t > std::numeric_limits<TimeNs>::max() - kSlack ||
               t < std::numeric_limits<TimeNs>::min() + kSlack;
    };
    const bool saturates =
        std::any_of(base_.begin(), base_.end(), nearTheEnds) || wide_.anyValue(nearTheEnds);
    if (!saturates) {
        for (TimeNs& b : base_) b += delta;
        wide_.transformValues([delta](TimeNs v) { return v + delta; });
        return;
    }
    TimeColumn out;
    out.reserve(size());
    for (size_t i = 0; i < size(); ++i) out.push_back(plusSat((*this)[i], delta));
    swap(out);
}

void TimeColumn::permute(const std::vector<uint32_t>& perm) {
    TimeColumn out;
    out.reserve(perm.size());
    for (uint32_t k : perm) out.push_back((*this)[k]);
    swap(out);
}

}  // namespace tracescope
