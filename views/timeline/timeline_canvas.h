// The timeline's drawing surface: ruler, track headers, track contents, flows,
// selection and range overlays, painted with QPainter. What the tracks show
// comes from the layout step (model/query/timeline_layout.h); the view's state
// and the input that changes it live in TimelineController, to which this
// widget forwards its events (see there for the keys and mouse gestures).
#pragma once

#include "model/query/time_axis.h"
#include "model/query/track_layout.h"
#include "model/trace/trace.h"
#include "views/timeline/color_palette.h"
#include "views/timeline/timeline_controller.h"
#include "views/timeline/timeline_index.h"
#include "views/timeline/track_painter.h"
#include "views/trace_selection.h"  // declares SliceRef as a metatype for our signals

#include <QWidget>

class QMenu;

#include <memory>
#include <optional>

namespace tracescope {

class TimelineCanvas : public QWidget {
    Q_OBJECT
public:
    explicit TimelineCanvas(QWidget* parent = nullptr);

    // The view's state and its input handling; the canvas paints it.
    TimelineController& controller() { return ctl_; }
    const TimelineController& controller() const { return ctl_; }

    // The index may come later (built off the UI thread); until then only headers are drawn.
    void setTrace(std::shared_ptr<const Trace> trace);
    void setIndex(std::shared_ptr<const TimelineIndex> index);
    const Trace* trace() const { return ctl_.trace(); }
    bool hasIndex() const { return ctl_.index() != nullptr; }
    // Slice boxes drawn by the last frame (0 before the index): when a user first sees slices.
    size_t lastFrameBoxes() const { return frame_.boxes.size(); }

    // Paints the whole timeline at `size` (also used offscreen by tests and benchmarks).
    void render(QPainter& p, QSize size);

    // --- view window
    void fitAll() { ctl_.fitAll(); }
    void setVisibleRange(double begin, double end) { ctl_.setVisibleRange(begin, end); }
    double visibleBegin() const { return ctl_.axis().begin(); }
    double visibleEnd() const { return ctl_.axis().end(); }
    const TimeAxis& axis() const { return ctl_.axis(); }
    void zoomAt(double widgetX, double factor) { ctl_.zoomAt(widgetX, factor); }
    void panPixels(double dx) { ctl_.panPixels(dx); }
    void zoomToSelection() { ctl_.zoomToSelection(); }
    int headerWidth() const { return ctl_.headerWidth(); }
    // The tooltip text at a widget point ("" for none).
    QString tooltipAt(QPoint pos) const;
    // Width of the track-name column (dragging its edge sets it); the visible time window stays.
    void setHeaderWidth(int width) { ctl_.setHeaderWidth(width); }
    static constexpr int kRulerHeight = TimelineController::kRulerHeight;

    // --- vertical scrolling
    int scrollY() const { return ctl_.scrollY(); }
    void setScrollY(int y) { ctl_.setScrollY(y); }
    int maxScrollY() const { return ctl_.maxScrollY(); }
    int contentHeight() const { return ctl_.layout().contentHeight(); }
    const TrackLayout& layout() const { return ctl_.layout(); }
    void setProcessCollapsed(ProcessIndex p, bool collapsed) { ctl_.setProcessCollapsed(p, collapsed); }
    bool processCollapsed(ProcessIndex p) const { return ctl_.processCollapsed(p); }

    // --- selection and highlights
    SliceRef selectedSlice() const { return ctl_.selectedSlice(); }
    // Selects (or clears with an invalid ref); with `reveal`, scrolls and zooms until it is visible.
    void setSelectedSlice(SliceRef s, bool reveal) { ctl_.setSelectedSlice(s, reveal); }
    void setHighlight(TimelineHighlight h) { ctl_.setHighlight(std::move(h)); }
    const TimelineHighlight& highlight() const { return ctl_.highlight(); }
    std::optional<std::pair<TimeNs, TimeNs>> rangeSelection() const { return ctl_.rangeSelection(); }
    void setRangeSelection(TimeNs begin, TimeNs end) { ctl_.setRangeSelection(begin, end); }
    void clearRangeSelection() { ctl_.clearRangeSelection(); }

    // The hidden tracks, each an action that shows it again, and "Show All" (cleared first).
    void fillHiddenTracksMenu(QMenu& menu);

    // Where a slice is drawn (widget coordinates); empty when hidden.
    QRectF sliceRect(SliceRef s) const { return ctl_.sliceRect(s); }
    // The slice under a widget point (with a few px of tolerance for tiny slices).
    SliceRef sliceAtPoint(QPoint pos) const { return ctl_.sliceAtPoint(pos); }

signals:
    void sliceClicked(tracescope::SliceRef slice);  // user clicked a slice (invalid: clicked empty space)
    void rangeSelected(qint64 begin, qint64 end);
    void rangeCleared();
    void viewChanged();  // window or scroll moved
    void contentHeightChanged();
    void queryTrackRemoveRequested(const std::string& name);  // the context menu of a query's track

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
    void contextMenuEvent(QContextMenuEvent*) override;
    bool event(QEvent*) override;
    void changeEvent(QEvent*) override;

private:
    TimelineController ctl_;
    FrameLayout frame_;  // the last frame's layout (buffers reused)
    ColorPalette palette_;
    NameCache names_;

    int contentTop() const { return ctl_.contentTop(); }
    void applyNameStyle();                                         // labels short or full, as View > Short Names says
    QString instantsTooltip(const Track& track, double px) const;  // marker strip at track-area x `px`
    QString idleGapTooltip(TrackIndex track, double px) const;     // a shaded GPU idle gap under the cursor
    bool inBytes(const LayoutRow& row) const;                       // a derived memory track (values in bytes)
    void paintRows(QPainter& p, QSize size);
    void paintRuler(QPainter& p, QSize size);
    void paintFlows(QPainter& p, QSize size);
    void paintOverlays(QPainter& p, QSize size);
    void paintMinimap(QPainter& p, QSize size);
    // The GPU's idle gaps of one stream row, shaded by cause under its slices.
    void paintIdleGaps(QPainter& p, TrackIndex track, int top, int height);
    void paintIdleGapLegend(QPainter& p, QSize size);  // and the overlapped communication's
    void paintCommOverlap(QPainter& p, TrackIndex track, int top, int height);
    std::optional<QPointF> flowAnchor(SliceRef s, bool atEnd) const;
    // A derived counter row (memory in use): header and series.
    void paintDerivedRow(QPainter& p, const TrackPaintContext& ctx, const LayoutRow& row, int top, int areaRight,
                         int viewBottom, const QRect& clip);
    // `px`: track-area x; `rowY`: y within the row.
    QString derivedTooltip(const LayoutRow& row, double px, int rowY) const;
    // A counter row (of the trace or derived), laid out for this frame and painted.
    void paintCounterRow(const TrackPaintContext& ctx, const LayoutRow& row, int top, bool bytes);
    QString counterTooltip(QPoint pos) const;  // a counter track of the trace, at a widget point
    CounterFrame counterFrame_;                // buffers reused between rows and frames
};

}  // namespace tracescope
