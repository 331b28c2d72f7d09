#include "model/query/time_axis.h"

#include <algorithm>
#include <cmath>

namespace tracescope {

void TimeAxis::setWindow(double begin, double end, int widthPx) {
    width_ = std::max(1, widthPx);
    if (!(end > begin)) end = begin + 1;
    begin_ = begin;
    nsPerPx_ = std::max(kMinNsPerPx, (end - begin) / width_);
    clamp();
}

void TimeAxis::setWidth(int widthPx) {
    width_ = std::max(1, widthPx);
    clamp();
}

void TimeAxis::setBounds(double minTime, double maxTime) {
    // Inside int64 with room to spare: the layout turns window times (and a few pixels past
    // them) back into TimeNs, and a double beyond int64 does not convert (undefined).
    minTime_ = std::clamp(minTime, -kMaxBoundNs, kMaxBoundNs - 1);
    maxTime_ = std::clamp(maxTime, minTime_ + 1, kMaxBoundNs);
    clamp();
}

void TimeAxis::zoomAt(double anchorX, double factor) {
    if (!(factor > 0)) return;
    const double anchorTime = time(anchorX);
    nsPerPx_ = std::max(kMinNsPerPx, nsPerPx_ / factor);
    begin_ = anchorTime - anchorX * nsPerPx_;
    clamp();
}

void TimeAxis::panPixels(double dxPx) {
    begin_ += dxPx * nsPerPx_;
    clamp();
}

void TimeAxis::clamp() {
    // Never zoom out past the whole trace, never pan it out of sight.
    const double span = maxTime_ - minTime_;
    nsPerPx_ = std::min(nsPerPx_, span / width_);
    nsPerPx_ = std::max(nsPerPx_, kMinNsPerPx);
    const double visible = nsPerPx_ * width_;
    begin_ = std::clamp(begin_, minTime_, std::max(minTime_, maxTime_ - visible));
}

TimeAxis::Ticks TimeAxis::ticks(double minSpacingPx) const {
    Ticks t;
    const double minStep = std::max(1.0, nsPerPx_ * minSpacingPx);
    double mag = std::pow(10.0, std::floor(std::log10(minStep)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * mag >= minStep) {
            t.step = m * mag;
            break;
        }
    }
    // Unit from the largest time shown; decimals so that one step is resolved.
    const double biggest = std::max(std::fabs(begin()), std::fabs(end()));
    t.unitNs = biggest >= 1e9 ? 1e9 : biggest >= 1e6 ? 1e6 : biggest >= 1e3 ? 1e3 : 1;
    t.unitNs = std::max(1.0, std::min(t.unitNs, t.step >= 1e9 ? 1e9 : t.unitNs));
    t.decimals = std::max(0, int(std::ceil(-std::log10(t.step / t.unitNs) - 1e-9)));
    const double first = std::ceil(begin() / t.step) * t.step;
    for (double x = first; x <= end() && t.times.size() < 1000; x += t.step) t.times.push_back(x);
    return t;
}

}  // namespace tracescope
