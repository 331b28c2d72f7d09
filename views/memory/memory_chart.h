// The memory timeline chart (Qt Charts): stacked areas of stack / heap / free (XSpace
// allocators) or allocated / reserved (PyTorch), the in-use line of allocator counters,
// fragmentation % on a second axis, and the peak marked. Qt Charts gives the axes, grid
// and legend; the data are the runs memoryRuns finds for the visible window (min and max
// per pixel column), drawn as rects by a MemoryRunsItem, so the peak stays visible at any
// zoom and a frame does not grow with the event count (see memory_runs_item.h for why
// not an area series).
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
class MemoryRunsItem;
}

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
    // Runs (column spans) drawn by the last rebuild, summed over the series: at most the
    // plot's width per series whatever the event count. For tests and the benchmark.
    size_t runsDrawn() const { return runsDrawn_; }
    int columnsDrawn() const { return columns_; }
    // The time at a widget x of the chart view, clamped to the window.
    TimeNs timeAtViewX(double x) const;
    // The popup text at a time (what hovering shows).
    QString hoverTextAt(TimeNs time) const;

signals:
    void timeClicked(qint64 timeNs);
    void windowChanged();

protected:
    void changeEvent(QEvent* e) override;

private:
    friend class MemoryChartView;
    QChart* chart_ = nullptr;
    MemoryChartView* view_ = nullptr;
    QValueAxis* x_ = nullptr;
    QValueAxis* y_ = nullptr;
    QValueAxis* frag_ = nullptr;
    // The series are empty: they give the legend its entries; runs_ draws their data.
    std::vector<QColor> layerColors_;  // of the stacked layers, bottom first
    QLineSeries* fragLine_ = nullptr;
    MemoryRunsItem* runs_ = nullptr;
    QScatterSeries* peak_ = nullptr;
    const MemoryIdProfile* profile_ = nullptr;
    TimeNs traceStart_ = 0, traceEnd_ = 0;
    TimeNs begin_ = 0, end_ = 0;
    double unit_ = 1;  // bytes per y-axis unit
    size_t runsDrawn_ = 0;
    int columns_ = 0;
    bool showFree_ = true;
    std::function<QString(size_t)> hoverText_;

    void buildSeries();
    void rebuild();      // the x axis for the window, then the runs
    void redrawRuns();   // the runs for the window at the plot area's width
};

}  // namespace tracescope
