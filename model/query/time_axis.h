// The visible time window and its mapping to pixels of the track area, plus
// the ruler's tick spacing. Pure arithmetic, unit-tested through the view.
#pragma once

#include "model/trace/types.h"

#include <vector>

namespace tracescope {

class TimeAxis {
public:
    // Shows [begin, end) across `widthPx` pixels.
    void setWindow(double begin, double end, int widthPx);
    void setWidth(int widthPx);  // keeps the start and the zoom level
    // Limits for zoom and pan: [minTime, maxTime] is the trace span with a margin.
    void setBounds(double minTime, double maxTime);

    double begin() const { return begin_; }
    double end() const { return begin_ + nsPerPx_ * width_; }
    double nsPerPx() const { return nsPerPx_; }
    int width() const { return width_; }

    double x(double timeNs) const { return (timeNs - begin_) / nsPerPx_; }
    double time(double xPx) const { return begin_ + xPx * nsPerPx_; }

    // Zooms by `factor` (> 1 zooms in) keeping the time under `anchorX` fixed.
    void zoomAt(double anchorX, double factor);
    // Moves the window by `dxPx` pixels (positive: later times come into view).
    void panPixels(double dxPx);

    struct Ticks {
        double step = 1;      // ns between major ticks
        double unitNs = 1;    // unit for labels (1, 1e3, 1e6, 1e9)
        int decimals = 0;     // digits after the point in that unit
        std::vector<double> times;  // major tick times inside the window
    };
    // Major ticks at 1/2/5 x 10^k ns, at least `minSpacingPx` apart.
    Ticks ticks(double minSpacingPx) const;

    static constexpr double kMinNsPerPx = 0.02;  // deepest zoom: 50 px per ns
    static constexpr double kMaxBoundNs = 9e18;  // |bounds| at most this (int64 ends at ~9.22e18)

private:
    double begin_ = 0;
    double nsPerPx_ = 1;
    int width_ = 1;
    double minTime_ = -1e18, maxTime_ = 1e18;
    void clamp();
};

}  // namespace tracescope
