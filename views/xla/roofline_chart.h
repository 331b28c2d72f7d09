// The roofline chart: operational intensity (FLOPs per byte, log) against attained FLOP rate
// (GFLOP/s, log), one point per HLO op (coloured by region: memory- or compute-bound side of
// the ridge) and per program, under the device's two ceilings (memory bandwidth x intensity
// up to the ridge point, then the peak FLOP rate). Hovering a point names it and its figures.
// Draws a model/analysis/hlo_roofline.h result; computes nothing.
#pragma once

#include "model/analysis/hlo_roofline.h"

#include <QWidget>

class QChart;
class QChartView;
class QLabel;

namespace tracescope {

class RooflineChart : public QWidget {
    Q_OBJECT
public:
    explicit RooflineChart(QWidget* parent = nullptr);

    void setRoofline(const RooflineResult& roofline);
    void clear();
    QChart* chart() const { return chart_; }
    int pointCount() const { return points_; }  // points drawn (ops and programs)
    static constexpr size_t kMaxOpPoints = 2000;  // ops drawn at most

protected:
    void changeEvent(QEvent* event) override;

private:
    QChart* chart_ = nullptr;
    QChartView* view_ = nullptr;
    QLabel* empty_ = nullptr;
    int points_ = 0;
};

}  // namespace tracescope
