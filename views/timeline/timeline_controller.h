// The timeline's controller: the state of the view (visible time window,
// vertical scroll, name column width, collapsed processes, selected slice,
// selected time range, highlight) and the input that changes it. Ctrl+wheel /
// W,S zoom at the cursor, wheel scrolls vertically, Shift+wheel / A,D / drag
// pan, Shift+drag selects a time range, click selects a slice, double-click or
// F zooms to it, 0 / Home fits the data (long empty margins left out: data_extent.h),
// Shift+Home the whole span, Esc clears, M asks for a bookmark. Dragging
// a track or process header moves it; the minimap strip under the ruler moves
// the window where it is clicked or dragged.
//
// It paints nothing: TimelineCanvas forwards its widget events here, draws
// what the layout step returns for this state, and repaints on changed().
// Coordinates are the canvas's widget coordinates: the name column on the
// left, the ruler on top.
#pragma once

#include "model/query/comm_overlap_index.h"
#include "model/query/counter_layout.h"
#include "model/query/idle_gap_index.h"
#include "model/query/time_axis.h"
#include "model/query/timeline_layout.h"
#include "model/query/track_layout.h"
#include "model/query/user_layout.h"
#include "model/trace/trace.h"
#include "views/timeline/timeline_index.h"
#include "views/trace_selection.h"  // declares SliceRef as a metatype for our signals

#include <QObject>
#include <QPoint>
#include <QRectF>
#include <QSize>

#include <functional>
#include <memory>
#include <optional>

namespace tracescope {

class TimelineController : public QObject {
    Q_OBJECT
public:
    static constexpr int kRulerHeight = 28;
    static constexpr int kMinimapHeight = 30;
    static constexpr int kMinHeaderWidth = 120;

    explicit TimelineController(QObject* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    void setIndex(std::shared_ptr<const TimelineIndex> index);
    // The derived tracks join the layout (under their process) when they arrive.
    void setDerivedTracks(std::shared_ptr<const TimelineDerivedTracks> derived);
    const Trace* trace() const { return trace_.get(); }
    const TimelineIndex* index() const { return index_.get(); }
    // The derived tracks (memory counters); null until the memory profile is ready.
    const TimelineDerivedTracks* derived() const { return derived_.get(); }
    // The GPU's idle gaps, shaded on each stream's rows by cause while shown; null until the
    // analysis is ready (and for traces without device activity).
    void setIdleGaps(std::shared_ptr<const IdleGapIndex> gaps);
    const IdleGapIndex* idleGaps() const { return idleGapsShown_ ? idleGaps_.get() : nullptr; }
    bool idleGapsShown() const { return idleGapsShown_; }
    void setIdleGapsShown(bool shown);
    // Communication hidden behind compute, marked on the NCCL kernels' rows (Timeline menu).
    void setCommOverlap(std::shared_ptr<const CommOverlapIndex> overlap);
    const CommOverlapIndex* commOverlap() const { return commOverlapShown_ ? commOverlap_.get() : nullptr; }
    bool commOverlapShown() const { return commOverlapShown_; }
    void setCommOverlapShown(bool shown);

    // The canvas's size in pixels (the track area is what the name column leaves).
    void setSize(QSize size);
    // Where the size comes from when set (the canvas: a hidden widget's resize() sends no event until shown).
    void setSizeSource(std::function<QSize()> source) { sizeSource_ = std::move(source); }
    // For a render at another width (offscreen): the track area becomes that wide, the window's start and zoom stay.
    void fitWidth(int widgetWidth) {
        if (axis_.width() != trackAreaWidth(widgetWidth)) axis_.setWidth(trackAreaWidth(widgetWidth));
    }
    QSize size() const { return sizeSource_ ? sizeSource_() : size_; }
    int contentTop() const { return kRulerHeight + (minimap_ ? kMinimapHeight : 0); }
    int viewportHeight() const { return std::max(0, size().height() - kRulerHeight); }
    int trackAreaWidth(int widgetWidth) const { return std::max(1, widgetWidth - headerWidth_); }

    // --- view window
    // Fit All: the span with data (TimelineIndex::extent, once the index is there).
    void fitAll();
    void fitWholeSpan();
    // A moment picked on another page (the memory chart): the window centred on it, a few
    // percent of the data wide (windowAround), and the moment marked until Esc.
    void showMoment(TimeNs t);
    std::optional<TimeNs> markedMoment() const { return moment_; }
    // A stretch of time (an allocation's lifetime) with a little room either side.
    void showSpan(TimeNs begin, TimeNs end);
    // The user (or a caller) moved the window since the trace was set: Fit All is not redone.
    bool windowMoved() const { return windowMoved_; }
    void setVisibleRange(double begin, double end);
    const TimeAxis& axis() const { return axis_; }
    void zoomAt(double widgetX, double factor);
    void panPixels(double dx);
    void zoomToSelection();
    int headerWidth() const { return headerWidth_; }
    void setHeaderWidth(int width);
    bool onHeaderEdge(int x) const;  // within grabbing distance of the name column's right edge

    // --- vertical scrolling and track layout
    int scrollY() const { return scrollY_; }
    void setScrollY(int y);
    int maxScrollY() const;
    const TrackLayout& layout() const { return layout_; }
    void setProcessCollapsed(ProcessIndex p, bool collapsed);
    bool processCollapsed(ProcessIndex p) const { return p < options_.collapsed.size() && options_.collapsed[p]; }
    void setAllCollapsed(bool collapsed);
    // Hidden tracks leave the layout (a process with none left too) until shown again.
    void setTrackHidden(TrackIndex t, bool hidden);
    void showAllTracks();  // derived ones too
    std::vector<TrackIndex> hiddenTracks() const;
    // Derived tracks (memory) hide by name: the name survives their recomputation and the saved layout.
    void setDerivedHidden(const std::string& name, bool hidden);
    const std::vector<std::string>& hiddenDerived() const { return options_.hiddenDerived; }
    size_t hiddenCount() const { return hiddenTracks().size() + options_.hiddenDerived.size(); }
    // Pinned tracks stay at the top while the rest scrolls.
    void setTrackPinned(TrackIndex t, bool pinned);
    bool trackPinned(TrackIndex t) const { return t < options_.pinnedTracks.size() && options_.pinnedTracks[t]; }
    // Moves the process or track of `moving` before (or after) `target`; tracks only within their process.
    bool moveRow(const LayoutRow& moving, const LayoutRow& target, bool after);
    // While a header is dragged: the widget y of the line where it would drop.
    std::optional<int> dropIndicatorY() const;

    // --- the user's layout of this trace (order, pins, hidden, collapsed) and bookmarks
    TimelineUserLayout userLayout() const;
    void applyUserLayout(TimelineUserLayout layout);
    void resetLayout();  // the default order, nothing pinned, hidden or collapsed; bookmarks stay

    // --- bookmarks
    const std::vector<Bookmark>& bookmarks() const { return bookmarks_; }
    void addBookmark(TimeNs time, std::string label);
    void renameBookmark(size_t i, std::string label);
    void removeBookmark(size_t i);
    void clearBookmarks();
    void goToBookmark(size_t i);  // centres the window on it, keeping the zoom
    // Where M puts a bookmark: the selected slice's start, the range's start, the cursor, or the window's centre.
    TimeNs bookmarkTime() const;

    // --- minimap: event density over the whole trace under the ruler
    bool minimapVisible() const { return minimap_; }
    void setMinimapVisible(bool visible);
    bool inMinimap(QPoint pos) const {
        return minimap_ && pos.x() >= headerWidth_ && pos.y() >= kRulerHeight &&
               pos.y() < kRulerHeight + kMinimapHeight;
    }
    // Trace time <-> widget x inside the minimap (the whole trace spans the track area).
    double minimapX(double time) const;
    double minimapTime(int x) const;
    // Only tracks whose name or process name contains `text` (case-insensitive); "" shows all.
    void setTrackFilter(const std::string& text);
    const std::string& trackFilter() const { return options_.nameFilter; }

    // --- selection and highlights
    SliceRef selectedSlice() const { return selected_; }
    void setSelectedSlice(SliceRef s, bool reveal);
    void setHighlight(TimelineHighlight h);
    const TimelineHighlight& highlight() const { return highlight_; }
    std::optional<std::pair<TimeNs, TimeNs>> rangeSelection() const;
    void setRangeSelection(TimeNs begin, TimeNs end);
    void clearRangeSelection();
    bool hasRange() const { return hasRange_; }
    TimeNs rangeBegin() const { return rangeBegin_; }
    TimeNs rangeEnd() const { return rangeEnd_; }

    // Where a slice is drawn (widget coordinates); empty when hidden.
    QRectF sliceRect(SliceRef s) const;
    // The slice under a widget point (with a few px of tolerance for tiny slices).
    SliceRef sliceAtPoint(QPoint pos) const;
    // The layout row under a widget point (nullptr on the ruler or below the last row).
    const LayoutRow* rowAtPoint(QPoint pos) const;

    // The mouse x while it is over the canvas, else -1.
    int hoverX() const { return hoverX_; }

    // --- counters: drawn as steps or lines, and the value under the cursor
    // How a counter row (a counter track or a derived one) is drawn: the track's own
    // choice, else the View menu's, else as its data is (defaultCounterDrawMode).
    CounterDrawMode counterMode(const LayoutRow& row) const;
    std::optional<CounterDrawMode> counterModeOverride(const LayoutRow& row) const;  // the track's own choice
    void setCounterModeOverride(const LayoutRow& row, std::optional<CounterDrawMode> mode);
    void setGlobalCounterMode(std::optional<CounterDrawMode> mode);  // View > Counters (nullopt: as the data is)
    // The samples and min/max index of a counter row; false for other rows (or before the index).
    bool counterOf(const LayoutRow& row, const CounterSeries*& series, const CounterRangeIndex*& range) const;
    // The counter row under a widget point and what it shows at that x; nullopt elsewhere.
    struct CounterPoint {
        LayoutRow row;
        CounterDrawMode mode = CounterDrawMode::Step;
        CounterHover hover;
    };
    std::optional<CounterPoint> counterAtPoint(QPoint pos) const;
    // The same under the mouse (drawn as a marker and a readout on the track).
    std::optional<CounterPoint> counterHover() const {
        return hoverX_ < 0 || drag_ != Drag::None ? std::nullopt : counterAtPoint(QPoint(hoverX_, hoverY_));
    }

    // --- input (widget coordinates); each returns whether it used the event
    bool wheel(QPointF pos, QPoint angleDelta, Qt::KeyboardModifiers modifiers);
    void press(QPoint pos, Qt::MouseButton button, Qt::KeyboardModifiers modifiers);
    void move(QPoint pos, int startDragDistance);
    void release(QPoint pos, Qt::MouseButton button);
    void doubleClick(QPoint pos);
    bool key(int key, Qt::KeyboardModifiers modifiers = {});
    void leave();

signals:
    void changed();                                 // anything drawn changed: repaint
    void cursorChanged(Qt::CursorShape shape);      // Qt::ArrowCursor: the default
    void sliceClicked(tracescope::SliceRef slice);  // user clicked a slice (invalid: clicked empty space)
    // User clicked a derived track (memory counter) at a time: `derived` indexes TimelineIndex::derived.
    void derivedPointClicked(quint32 derived, qint64 timeNs);
    void rangeSelected(qint64 begin, qint64 end);
    void rangeCleared();
    void viewChanged();  // window or scroll moved
    void contentHeightChanged();
    void layoutChanged();                 // the user's layout or bookmarks changed (to be saved)
    void bookmarkRequested(qint64 time);  // M pressed: the view asks for a label

private:
    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const TimelineIndex> index_;
    std::shared_ptr<const TimelineDerivedTracks> derived_;
    std::shared_ptr<const IdleGapIndex> idleGaps_;
    bool idleGapsShown_ = true;
    std::shared_ptr<const CommOverlapIndex> commOverlap_;
    bool commOverlapShown_ = true;
    QSize size_{400, 200};
    std::function<QSize()> sizeSource_;
    TimeAxis axis_;
    TrackLayout layout_;
    TrackLayoutOptions options_;  // collapsed processes, hidden tracks, name filter
    int scrollY_ = 0;
    int headerWidth_ = 260;
    TimelineHighlight highlight_;
    SliceRef selected_;
    bool hasRange_ = false;
    TimeNs rangeBegin_ = 0, rangeEnd_ = 0;
    std::optional<TimeNs> moment_;
    // Set once the window moves after the trace opened on its whole span: until then the
    // data's extent (Fit All) replaces that window when the index arrives.
    bool windowMoved_ = false;

    std::vector<Bookmark> bookmarks_;
    bool minimap_ = true;
    // Per track and per derived track: 0 as the View menu says, else 1 + CounterDrawMode.
    std::vector<uint8_t> counterModes_, derivedCounterModes_;
    std::optional<CounterDrawMode> globalCounterMode_;

    enum class Drag { None, Pan, Range, Header, Reorder, Minimap, ProcessToggle };
    Drag drag_ = Drag::None;
    QPoint pressPos_;
    double pressBegin_ = 0;
    int pressScroll_ = 0;
    bool moved_ = false;
    int hoverX_ = -1;
    int hoverY_ = -1;

    void relayout(bool userChange = false);
    void fitRange(TimeNs begin, TimeNs end);  // with 1% of room either side
    const LayoutRow* reorderTarget(QPoint pos, bool& after) const;
    void updateBounds();
    void revealSlice(SliceRef s);
};

}  // namespace tracescope
