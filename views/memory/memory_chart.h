// The memory timeline chart (Qt Charts): stacked areas of stack / heap / free (XSpace
// allocators) or allocated / reserved (PyTorch), the in-use line of allocator counters,
// fragmentation % on a second axis, and the peak marked. It draws the points
// memoryPointsToDraw picks for the visible window (min and max per pixel column), so the
// peak stays visible at any zoom and a frame does not grow with the event count.
// Input: hover shows the event at that time (hoverText), drag selects a time range to
// zoom into, the wheel zooms, double-click or right-click shows everything again, and a
// click reports the time (timeClicked).
#pragma once

#include "model/analysis/memory_profile.h"

#include <QWidget>

#include <functional>

class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;
class QScatterSeries;

namespace tracescope {

class MemoryChartView;

class MemoryChart : public QWidget {
    Q_OBJECT
public:
    explicit MemoryChart(QWidget* parent = nullptr);

    // The profile to draw (not owned; nullptr clears). The window starts at the whole timeline.
    void setProfile(const MemoryIdProfile* profile, TimeNs traceStart, TimeNs traceEnd);
    // The visible time window, in trace ns.
    void setWindow(TimeNs begin, TimeNs end);
    TimeNs windowBegin() const { return begin_; }
    TimeNs windowEnd() const { return end_; }
    void showAll();
    // Whether free memory is stacked on top (XSpace allocators); applies at the next setProfile.
    void setShowFree(bool on) { showFree_ = on; }
    // Text of the popup for a snapshot; the page supplies it (it knows the trace).
    void setHoverText(std::function<QString(size_t snapshot)> text) { hoverText_ = std::move(text); }

    QChart* chart() const { return chart_; }
    QChartView* chartView() const;
    // Points drawn by the last rebuild (per series), for tests and the benchmark.
    size_t pointsDrawn() const { return pointsDrawn_; }
    // The time at a widget x of the chart view, clamped to the window.
    TimeNs timeAtViewX(double x) const;
    // The popup text at a time (what hovering shows).
    QString hoverTextAt(TimeNs time) const;

signals:
    void timeClicked(qint64 timeNs);
    void windowChanged();

protected:
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    friend class MemoryChartView;
    QChart* chart_ = nullptr;
    MemoryChartView* view_ = nullptr;
    QValueAxis* x_ = nullptr;
    QValueAxis* y_ = nullptr;
    QValueAxis* frag_ = nullptr;
    std::vector<QLineSeries*> bounds_;  // upper bounds of the stacked areas, bottom first
    QLineSeries* fragLine_ = nullptr;
    QScatterSeries* peak_ = nullptr;
    const MemoryIdProfile* profile_ = nullptr;
    TimeNs traceStart_ = 0, traceEnd_ = 0;
    TimeNs begin_ = 0, end_ = 0;
    double unit_ = 1;  // bytes per y-axis unit
    size_t pointsDrawn_ = 0;
    bool showFree_ = true;
    std::function<QString(size_t)> hoverText_;

    void buildSeries();
    void rebuild();
};

}  // namespace tracescope
