// The timeline's drawing surface: ruler, track headers, track contents, flows,
// selection and range overlays, all painted with QPainter in one widget. Input:
// Ctrl+wheel / W,S zoom at the cursor, wheel scrolls vertically, Shift+wheel /
// A,D / drag pan, Shift+drag selects a time range, click selects a slice,
// F zooms to the selection, 0 / Home fits all.
#pragma once

#include "model/trace/trace.h"
#include "views/timeline/color_palette.h"
#include "model/query/time_axis.h"
#include "views/timeline/timeline_index.h"
#include "model/query/track_layout.h"
#include "views/timeline/track_painter.h"
#include "views/trace_selection.h"  // declares SliceRef as a metatype for our signals

#include <QWidget>

#include <memory>
#include <optional>

namespace tracescope {

class TimelineCanvas : public QWidget {
    Q_OBJECT
public:
    explicit TimelineCanvas(QWidget* parent = nullptr);

    // The index may come later (built off the UI thread); until then only headers are drawn.
    void setTrace(std::shared_ptr<const Trace> trace);
    void setIndex(std::shared_ptr<const TimelineIndex> index);
    const Trace* trace() const { return trace_.get(); }
    bool hasIndex() const { return index_ != nullptr; }

    // Paints the whole timeline at `size` (also used offscreen by tests and benchmarks).
    void render(QPainter& p, QSize size);

    // --- view window
    void fitAll();
    void setVisibleRange(double begin, double end);
    double visibleBegin() const { return axis_.begin(); }
    double visibleEnd() const { return axis_.end(); }
    const TimeAxis& axis() const { return axis_; }
    void zoomAt(double widgetX, double factor);
    void panPixels(double dx);
    void zoomToSelection();
    int headerWidth() const { return headerWidth_; }
    // The tooltip text at a widget point ("" for none).
    QString tooltipAt(QPoint pos) const;
    // Width of the track-name column (dragging its edge sets it); the visible time window stays.
    void setHeaderWidth(int width);
    static constexpr int kRulerHeight = 28;

    // --- vertical scrolling
    int scrollY() const { return scrollY_; }
    void setScrollY(int y);
    int maxScrollY() const;
    int contentHeight() const { return layout_.contentHeight(); }
    const TrackLayout& layout() const { return layout_; }
    void setProcessCollapsed(ProcessIndex p, bool collapsed);
    bool processCollapsed(ProcessIndex p) const { return p < collapsed_.size() && collapsed_[p]; }

    // --- selection and highlights
    SliceRef selectedSlice() const { return selected_; }
    // Selects (or clears with an invalid ref); with `reveal`, scrolls and zooms until it is visible.
    void setSelectedSlice(SliceRef s, bool reveal);
    void setHighlight(TimelineHighlight h);
    const TimelineHighlight& highlight() const { return highlight_; }
    std::optional<std::pair<TimeNs, TimeNs>> rangeSelection() const;
    void setRangeSelection(TimeNs begin, TimeNs end);
    void clearRangeSelection();

    // Where a slice is drawn (widget coordinates); empty when hidden.
    QRectF sliceRect(SliceRef s) const;
    // The slice under a widget point (with a few px of tolerance for tiny slices).
    SliceRef sliceAtPoint(QPoint pos) const;

signals:
    void sliceClicked(tracescope::SliceRef slice);  // user clicked a slice (invalid: clicked empty space)
    void rangeSelected(qint64 begin, qint64 end);
    void rangeCleared();
    void viewChanged();  // window or scroll moved
    void contentHeightChanged();

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void leaveEvent(QEvent*) override;
    bool event(QEvent*) override;
    void changeEvent(QEvent*) override;

private:
    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const TimelineIndex> index_;
    TimeAxis axis_;
    TrackLayout layout_;
    FrameLayout frame_;  // the last frame's layout (buffers reused)
    std::vector<uint8_t> collapsed_;
    int scrollY_ = 0;
    int headerWidth_ = 260;
    ColorPalette palette_;
    NameCache names_;
    TimelineHighlight highlight_;
    SliceRef selected_;
    bool hasRange_ = false;
    TimeNs rangeBegin_ = 0, rangeEnd_ = 0;

    enum class Drag { None, Pan, Range, Header };
    Drag drag_ = Drag::None;
    QPoint pressPos_;
    double pressBegin_ = 0;
    int pressScroll_ = 0;
    bool moved_ = false;
    int hoverX_ = -1;

    void relayout();
    void updateBounds();
    int contentTop() const { return kRulerHeight; }
    int viewportHeight() const { return std::max(0, height() - kRulerHeight); }
    int trackAreaWidth(int widgetWidth) const { return std::max(1, widgetWidth - headerWidth_); }
    static constexpr int kMinHeaderWidth = 120;
    bool onHeaderEdge(int x) const;  // within grabbing distance of the name column's right edge
    QString instantsTooltip(const Track& track, double px) const;  // marker strip at track-area x `px`
    void paintRows(QPainter& p, QSize size);
    void paintRuler(QPainter& p, QSize size);
    void paintFlows(QPainter& p, QSize size);
    void paintOverlays(QPainter& p, QSize size);
    std::optional<QPointF> flowAnchor(SliceRef s, bool atEnd) const;
    void revealSlice(SliceRef s);
};

}  // namespace tracescope
