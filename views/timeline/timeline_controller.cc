#include "views/timeline/timeline_controller.h"

#include <algorithm>
#include <cmath>

namespace tracescope {

TimelineController::TimelineController(QObject* parent) : QObject(parent) {
    axis_.setWidth(trackAreaWidth(size().width()));
}

void TimelineController::setTrace(std::shared_ptr<const Trace> trace) {
    trace_ = std::move(trace);
    index_.reset();
    derived_.reset();  // the old trace's memory tracks go with it
    idleGaps_.reset();
    commOverlap_.reset();
    highlight_ = {};
    selected_ = {};
    hasRange_ = false;
    moment_.reset();
    scrollY_ = 0;
    options_.collapsed.assign(trace_ ? trace_->processes.size() : 0, 0);
    options_.hiddenTracks.assign(trace_ ? trace_->tracks.size() : 0, 0);
    options_.pinnedTracks.assign(trace_ ? trace_->tracks.size() : 0, 0);
    options_.processRank.clear();
    options_.trackRank.clear();
    options_.nameFilter.clear();
    options_.hiddenDerived.clear();
    bookmarks_.clear();
    options_.derived.clear();
    counterModes_.assign(trace_ ? trace_->tracks.size() : 0, 0);
    derivedCounterModes_.clear();
    relayout();
    updateBounds();
    fitAll();
    windowMoved_ = false;
}

void TimelineController::setIndex(std::shared_ptr<const TimelineIndex> index) {
    index_ = std::move(index);
    relayout();
    // The trace opened on its whole span; now that the data's extent is known, Fit All's window.
    if (!windowMoved_ && index_ && index_->extent.trimmed()) fitAll();
}

void TimelineController::setDerivedTracks(std::shared_ptr<const TimelineDerivedTracks> derived) {
    derived_ = std::move(derived);
    options_.derived.clear();
    if (derived_)
        for (const DerivedCounterTrack& d : derived_->tracks)
            options_.derived.push_back({d.process, d.name, uint32_t(d.spans.lanes.size())});
    derivedCounterModes_.assign(options_.derived.size(), 0);
    relayout();
}

void TimelineController::setIdleGaps(std::shared_ptr<const IdleGapIndex> gaps) {
    idleGaps_ = std::move(gaps);
    emit changed();
}

void TimelineController::setIdleGapsShown(bool shown) {
    if (shown == idleGapsShown_) return;
    idleGapsShown_ = shown;
    emit changed();
}

void TimelineController::setCommOverlap(std::shared_ptr<const CommOverlapIndex> overlap) {
    commOverlap_ = std::move(overlap);
    emit changed();
}

void TimelineController::setCommOverlapShown(bool shown) {
    if (shown == commOverlapShown_) return;
    commOverlapShown_ = shown;
    emit changed();
}

void TimelineController::relayout(bool userChange) {
    if (trace_) layout_.build(*trace_, options_);
    else layout_ = {};
    scrollY_ = std::clamp(scrollY_, 0, maxScrollY());
    emit contentHeightChanged();
    emit changed();
    if (userChange) emit layoutChanged();
}

void TimelineController::updateBounds() {
    axis_.setWidth(trackAreaWidth(size().width()));
    if (!trace_) return;
    const double span = double(std::max<TimeNs>(trace_->spanNs(), 1000));
    const double margin = span * 0.02;
    axis_.setBounds(double(trace_->startNs) - margin, double(trace_->endNs) + margin);
}

void TimelineController::fitRange(TimeNs begin, TimeNs end) {
    const double span = double(std::max<TimeNs>(durationBetween(begin, end), 1000));
    const double margin = span * 0.01;
    axis_.setWindow(double(begin) - margin, double(begin) + span + margin, trackAreaWidth(size().width()));
    emit viewChanged();
    emit changed();
}

void TimelineController::fitAll() {
    if (!trace_) return;
    if (index_) fitRange(index_->extent.begin, index_->extent.end);
    else fitRange(trace_->startNs, trace_->endNs);
}

void TimelineController::fitWholeSpan() {
    if (trace_) fitRange(trace_->startNs, trace_->endNs);
}

void TimelineController::showMoment(TimeNs t) {
    if (!trace_) return;
    const DataExtent extent = index_ ? index_->extent : DataExtent{trace_->startNs, trace_->endNs};
    const auto [begin, end] = windowAround(t, extent);
    clearRangeSelection();
    moment_ = t;
    setVisibleRange(double(begin), double(end));
}

void TimelineController::showSpan(TimeNs begin, TimeNs end) {
    if (!trace_) return;
    const double pad = std::max(500.0, double(durationBetween(begin, end)) * 0.05);
    setVisibleRange(double(begin) - pad, double(end) + pad);
}

void TimelineController::setVisibleRange(double begin, double end) {
    windowMoved_ = true;
    axis_.setWindow(begin, end, trackAreaWidth(size().width()));
    emit viewChanged();
    emit changed();
}

void TimelineController::zoomAt(double widgetX, double factor) {
    windowMoved_ = true;
    axis_.zoomAt(widgetX - headerWidth_, factor);
    emit viewChanged();
    emit changed();
}

void TimelineController::panPixels(double dx) {
    windowMoved_ = true;
    axis_.panPixels(dx);
    emit viewChanged();
    emit changed();
}

void TimelineController::zoomToSelection() {
    if (hasRange_) {
        setVisibleRange(double(rangeBegin_), double(rangeEnd_));
        return;
    }
    if (!trace_ || !selected_.valid()) return;
    const SliceColumns& c = trace_->tracks[selected_.track].slices;
    const double s = double(c.start[selected_.index]);
    const double d = std::max(double(c.duration[selected_.index]), 100.0);
    setVisibleRange(s - d * 0.1, s + d * 1.1);
}

void TimelineController::setScrollY(int y) {
    y = std::clamp(y, 0, maxScrollY());
    if (y == scrollY_) return;
    scrollY_ = y;
    emit viewChanged();
    emit changed();
}

int TimelineController::maxScrollY() const { return std::max(0, layout_.contentHeight() - viewportHeight() + 8); }

void TimelineController::setProcessCollapsed(ProcessIndex p, bool collapsed) {
    if (p >= options_.collapsed.size() || bool(options_.collapsed[p]) == collapsed) return;
    options_.collapsed[p] = collapsed;
    relayout(true);
}

void TimelineController::setSelectedSlice(SliceRef s, bool reveal) {
    if (trace_ && s.valid() && (s.track >= trace_->tracks.size() || s.index >= trace_->tracks[s.track].slices.size()))
        s = {};
    selected_ = s;
    if (reveal && s.valid()) revealSlice(s);
    emit changed();
}

void TimelineController::revealSlice(SliceRef s) {
    const Track& track = trace_->tracks[s.track];
    setProcessCollapsed(track.process, false);
    // Horizontally: keep the zoom when the slice fits, else zoom out just enough.
    const double start = double(track.slices.start[s.index]);
    const double dur = double(track.slices.duration[s.index]);
    const double visible = axis_.end() - axis_.begin();
    if (dur > visible * 0.9) {
        setVisibleRange(start - dur * 0.1, start + dur * 1.1);
    } else if (start < axis_.begin() || start + dur > axis_.end()) {
        const double mid = start + dur / 2;
        setVisibleRange(mid - visible / 2, mid + visible / 2);
    }
    // Vertically: bring the slice's level into the viewport.
    if (const LayoutRow* row = layout_.rowOfTrack(s.track); row && !row->pinned) {
        const int y = layout_.depthTop(*row, track.slices.depth(s.index));
        const int h = layout_.metrics().sliceRow;
        const int top = scrollY_ + layout_.pinnedHeight();  // the pinned strip covers the content above
        if (y < top || y + h > scrollY_ + viewportHeight())
            setScrollY(y - layout_.pinnedHeight() - viewportHeight() / 3);
    }
}

void TimelineController::setHighlight(TimelineHighlight h) {
    highlight_ = std::move(h);
    emit changed();
}

std::optional<std::pair<TimeNs, TimeNs>> TimelineController::rangeSelection() const {
    if (!hasRange_) return std::nullopt;
    return std::make_pair(rangeBegin_, rangeEnd_);
}

void TimelineController::setRangeSelection(TimeNs begin, TimeNs end) {
    if (end < begin) std::swap(begin, end);
    hasRange_ = end > begin;
    rangeBegin_ = begin;
    rangeEnd_ = end;
    emit changed();
    if (hasRange_) emit rangeSelected(begin, end);
}

void TimelineController::clearRangeSelection() {
    if (!hasRange_) return;
    hasRange_ = false;
    emit changed();
    emit rangeCleared();
}

QRectF TimelineController::sliceRect(SliceRef s) const {
    if (!trace_ || !s.valid() || s.track >= trace_->tracks.size()) return {};
    const SliceColumns& c = trace_->tracks[s.track].slices;
    if (s.index >= c.size()) return {};
    const LayoutRow* row = layout_.rowOfTrack(s.track);
    if (!row) return {};
    const double x0 = headerWidth_ + axis_.x(double(c.start[s.index]));
    const double x1 = headerWidth_ + axis_.x(double(c.end(s.index)));
    const int y = contentTop() + layout_.depthTop(*row, c.depth(s.index)) - (row->pinned ? 0 : scrollY_);
    return QRectF(x0, y, std::max(1.0, x1 - x0), layout_.metrics().sliceRow - 1);
}

SliceRef TimelineController::sliceAtPoint(QPoint pos) const {
    if (!trace_ || !index_ || pos.x() < headerWidth_ || pos.y() < contentTop()) return {};
    return tracescope::sliceAtPoint(*trace_, layout_, index_->depths, axis_, pos.x() - headerWidth_,
                                    layout_.contentY(pos.y() - contentTop(), scrollY_));
}

void TimelineController::setSize(QSize newSize) {
    size_ = newSize;  // (a size source, when set, already gives it)
    // Keep the visible time window when the widget resizes.
    const double b = axis_.begin(), e = axis_.end();
    updateBounds();
    if (trace_) axis_.setWindow(b, e, trackAreaWidth(size().width()));
    scrollY_ = std::clamp(scrollY_, 0, maxScrollY());
    emit contentHeightChanged();
}

bool TimelineController::wheel(QPointF pos, QPoint delta, Qt::KeyboardModifiers modifiers) {
    if (!trace_) return false;
    if (modifiers & Qt::ControlModifier) {
        zoomAt(pos.x(), std::pow(1.0015, delta.y()));
    } else if (delta.x() != 0 || (modifiers & Qt::ShiftModifier)) {
        const int d = delta.x() != 0 ? delta.x() : delta.y();
        panPixels(-d * axis_.width() / 1200.0);
    } else {
        setScrollY(scrollY_ - delta.y() * 3 * layout_.metrics().sliceRow / 120);
    }
    return true;
}

void TimelineController::press(QPoint pos, Qt::MouseButton button, Qt::KeyboardModifiers modifiers) {
    pressPos_ = pos;
    pressBegin_ = axis_.begin();
    pressScroll_ = scrollY_;
    moved_ = false;
    drag_ = Drag::None;
    if (button != Qt::LeftButton || !trace_) return;
    if (onHeaderEdge(pressPos_.x())) {
        drag_ = Drag::Header;
        return;
    }
    if (inMinimap(pressPos_)) {
        drag_ = Drag::Minimap;
        move(pos, 0);
        return;
    }
    if (const LayoutRow* row = rowAtPoint(pressPos_)) {
        // A process header toggles on click and moves on drag; a track's name cell moves it.
        if (row->kind == LayoutRow::Kind::Process && pressPos_.x() < headerWidth_ + 200) {
            drag_ = Drag::ProcessToggle;
            return;
        }
        if (row->kind == LayoutRow::Kind::Track && !row->pinned && pressPos_.x() < headerWidth_) {
            drag_ = Drag::Reorder;
            return;
        }
    }
    drag_ = (modifiers & Qt::ShiftModifier) && pressPos_.x() >= headerWidth_ ? Drag::Range : Drag::Pan;
}

bool TimelineController::onHeaderEdge(int x) const { return trace_ && std::abs(x - headerWidth_) <= 3; }

void TimelineController::setHeaderWidth(int width) {
    width = std::clamp(width, kMinHeaderWidth, std::max(kMinHeaderWidth, size().width() / 2));
    if (width == headerWidth_) return;
    const double begin = axis_.begin(), end = axis_.end();
    headerWidth_ = width;
    axis_.setWindow(begin, end, trackAreaWidth(size().width()));
    emit changed();
    emit viewChanged();
}

void TimelineController::move(QPoint pos, int startDragDistance) {
    hoverX_ = pos.x();
    hoverY_ = pos.y();
    if (drag_ != Drag::None && (pos - pressPos_).manhattanLength() >= startDragDistance) moved_ = true;
    if (drag_ == Drag::Header) {
        setHeaderWidth(pos.x());
        return;
    }
    if (drag_ == Drag::None) {
        emit cursorChanged(onHeaderEdge(pos.x()) ? Qt::SplitHCursor
                           : inMinimap(pos)      ? Qt::PointingHandCursor
                                                 : Qt::ArrowCursor);
    }
    if (drag_ == Drag::Minimap) {
        const double half = (axis_.end() - axis_.begin()) / 2, centre = minimapTime(pos.x());
        setVisibleRange(centre - half, centre + half);
        return;
    }
    if ((drag_ == Drag::Reorder || drag_ == Drag::ProcessToggle) && moved_) emit cursorChanged(Qt::DragMoveCursor);
    if (drag_ == Drag::Pan && moved_) {
        emit cursorChanged(Qt::ClosedHandCursor);
        windowMoved_ = true;
        axis_.setWindow(pressBegin_, pressBegin_ + (axis_.end() - axis_.begin()), axis_.width());
        axis_.panPixels(pressPos_.x() - pos.x());
        scrollY_ = std::clamp(pressScroll_ + pressPos_.y() - pos.y(), 0, maxScrollY());
        emit viewChanged();
    } else if (drag_ == Drag::Range && moved_) {
        const double t0 = axis_.time(pressPos_.x() - headerWidth_);
        const double t1 = axis_.time(std::max(headerWidth_, pos.x()) - headerWidth_);
        hasRange_ = true;
        rangeBegin_ = TimeNs(std::llround(std::min(t0, t1)));
        rangeEnd_ = TimeNs(std::llround(std::max(t0, t1)));
    }
    emit changed();
}

void TimelineController::release(QPoint pos, Qt::MouseButton button) {
    const Drag drag = drag_;
    drag_ = Drag::None;
    emit cursorChanged(Qt::ArrowCursor);
    if (button != Qt::LeftButton || !trace_ || drag == Drag::Header || drag == Drag::Minimap) return;
    if (drag == Drag::Reorder || drag == Drag::ProcessToggle) {
        const LayoutRow* moving = rowAtPoint(pressPos_);
        if (!moving) return;
        if (!moved_) {
            if (drag == Drag::ProcessToggle) setProcessCollapsed(moving->process, !options_.collapsed[moving->process]);
            return;
        }
        bool after = false;
        const LayoutRow movingRow = *moving;  // the layout is rebuilt below
        if (const LayoutRow* target = reorderTarget(pos, after)) moveRow(movingRow, *target, after);
        emit changed();
        return;
    }
    if (drag == Drag::Range && moved_) {
        if (rangeEnd_ > rangeBegin_) emit rangeSelected(rangeBegin_, rangeEnd_);
        return;
    }
    if (drag != Drag::None && !moved_) {
        const SliceRef hit = sliceAtPoint(pos);
        selected_ = hit;
        emit changed();
        emit sliceClicked(hit);
        const LayoutRow* row = rowAtPoint(pos);
        if (!hit.valid() && row && row->kind == LayoutRow::Kind::Derived && pos.x() >= headerWidth_)
            emit derivedPointClicked(row->track, qint64(std::floor(axis_.time(pos.x() - headerWidth_))));
    }
}

void TimelineController::doubleClick(QPoint pos) {
    const SliceRef hit = sliceAtPoint(pos);
    if (!hit.valid()) return;
    selected_ = hit;
    zoomToSelection();
}

bool TimelineController::key(int key, Qt::KeyboardModifiers modifiers) {
    if (!trace_) return false;
    if (key == Qt::Key_Home && (modifiers & Qt::ShiftModifier)) {
        fitWholeSpan();
        return true;
    }
    const double anchor = hoverX_ >= headerWidth_ ? hoverX_ : headerWidth_ + axis_.width() / 2.0;
    switch (key) {
    case Qt::Key_W: zoomAt(anchor, 1.25); break;
    case Qt::Key_S: zoomAt(anchor, 1 / 1.25); break;
    case Qt::Key_A: panPixels(-axis_.width() * 0.1); break;
    case Qt::Key_D: panPixels(axis_.width() * 0.1); break;
    case Qt::Key_F: zoomToSelection(); break;
    case Qt::Key_M: emit bookmarkRequested(bookmarkTime()); break;
    case Qt::Key_0:
    case Qt::Key_Home: fitAll(); break;
    case Qt::Key_Up: setScrollY(scrollY_ - layout_.metrics().sliceRow * 3); break;
    case Qt::Key_Down: setScrollY(scrollY_ + layout_.metrics().sliceRow * 3); break;
    case Qt::Key_PageUp: setScrollY(scrollY_ - viewportHeight() * 9 / 10); break;
    case Qt::Key_PageDown: setScrollY(scrollY_ + viewportHeight() * 9 / 10); break;
    case Qt::Key_Escape:
        clearRangeSelection();
        if (moment_) {
            moment_.reset();
            emit changed();
        }
        if (selected_.valid()) {
            selected_ = {};
            emit changed();
            emit sliceClicked({});
        }
        break;
    default: return false;
    }
    return true;
}

void TimelineController::leave() {
    hoverX_ = -1;
    emit changed();
}

const LayoutRow* TimelineController::rowAtPoint(QPoint pos) const {
    if (!trace_ || pos.y() < contentTop()) return nullptr;
    return layout_.rowAt(layout_.contentY(pos.y() - contentTop(), scrollY_));
}

}  // namespace tracescope

namespace tracescope {

void TimelineController::setAllCollapsed(bool collapsed) {
    options_.collapsed.assign(options_.collapsed.size(), collapsed ? 1 : 0);
    relayout(true);
}

void TimelineController::setTrackHidden(TrackIndex t, bool hidden) {
    if (t >= options_.hiddenTracks.size() || bool(options_.hiddenTracks[t]) == hidden) return;
    options_.hiddenTracks[t] = hidden;
    relayout(true);
}

void TimelineController::showAllTracks() {
    options_.hiddenTracks.assign(options_.hiddenTracks.size(), 0);
    options_.hiddenDerived.clear();
    relayout(true);
}

void TimelineController::setDerivedHidden(const std::string& name, bool hidden) {
    std::vector<std::string>& names = options_.hiddenDerived;
    const auto at = std::find(names.begin(), names.end(), name);
    if ((at != names.end()) == hidden) return;
    if (hidden) names.push_back(name);
    else names.erase(at);
    relayout(true);
}

std::vector<TrackIndex> TimelineController::hiddenTracks() const {
    std::vector<TrackIndex> out;
    for (TrackIndex t = 0; t < options_.hiddenTracks.size(); ++t)
        if (options_.hiddenTracks[t]) out.push_back(t);
    return out;
}

void TimelineController::setTrackFilter(const std::string& text) {
    if (text == options_.nameFilter) return;
    options_.nameFilter = text;
    relayout();
}

}  // namespace tracescope

namespace tracescope {

void TimelineController::setTrackPinned(TrackIndex t, bool pinned) {
    if (t >= options_.pinnedTracks.size() || bool(options_.pinnedTracks[t]) == pinned) return;
    options_.pinnedTracks[t] = pinned;
    relayout(true);
}

bool TimelineController::moveRow(const LayoutRow& moving, const LayoutRow& target, bool after) {
    if (!trace_) return false;
    bool moved = false;
    if (moving.kind == LayoutRow::Kind::Process) {
        moved = moveProcess(*trace_, options_, moving.process, target.process, after);
    } else if (target.kind == LayoutRow::Kind::Track && target.process == moving.process) {
        moved = moveTrack(*trace_, options_, moving.track, target.track, after);
    }
    if (moved) relayout(true);
    return moved;
}

// The row a dragged header would drop on: for a process, any row of another process
// (before it when over its upper half); for a track, a track of its own process.
const LayoutRow* TimelineController::reorderTarget(QPoint pos, bool& after) const {
    const LayoutRow* moving = rowAtPoint(pressPos_);
    const LayoutRow* over = rowAtPoint(pos);
    if (!moving || !over || over->pinned || over == moving) return nullptr;
    const int viewY = pos.y() - contentTop();
    if (moving->kind == LayoutRow::Kind::Process) {
        if (over->process == moving->process) return nullptr;
        const LayoutRow* head = layout_.rowOfProcess(over->process);
        if (!head) return nullptr;
        // Over the process's header: before it; over its tracks: after it.
        after = over->kind == LayoutRow::Kind::Track || viewY - layout_.viewY(*over, scrollY_) > over->height / 2;
        return head;
    }
    if (over->kind != LayoutRow::Kind::Track || over->process != moving->process) return nullptr;
    after = viewY - layout_.viewY(*over, scrollY_) > over->height / 2;
    return over;
}

std::optional<int> TimelineController::dropIndicatorY() const {
    if ((drag_ != Drag::Reorder && drag_ != Drag::ProcessToggle) || !moved_ || hoverX_ < 0) return std::nullopt;
    bool after = false;
    const LayoutRow* target = reorderTarget(QPoint(hoverX_, hoverY_), after);
    if (!target) return std::nullopt;
    int y = layout_.viewY(*target, scrollY_);
    if (after) {
        // After a process: below its last shown row.
        const LayoutRow* last = target;
        if (target->kind == LayoutRow::Kind::Process)
            for (const LayoutRow& r : layout_.rows())
                if (!r.pinned && r.process == target->process) last = &r;
        y = layout_.viewY(*last, scrollY_) + last->height;
    }
    return contentTop() + y;
}

TimelineUserLayout TimelineController::userLayout() const {
    TimelineUserLayout layout;
    layout.options = options_;
    layout.options.nameFilter.clear();
    layout.bookmarks = bookmarks_;
    layout.counterModes = counterModes_;
    return layout;
}

void TimelineController::applyUserLayout(TimelineUserLayout layout) {
    if (!trace_) return;
    layout.fitTo(*trace_);
    const std::string filter = options_.nameFilter;
    std::vector<TrackLayoutOptions::DerivedTrack> derived = std::move(options_.derived);
    options_ = std::move(layout.options);
    options_.nameFilter = filter;
    options_.derived = std::move(derived);  // the analysis' tracks, whatever the saved layout says
    bookmarks_ = std::move(layout.bookmarks);
    counterModes_ = std::move(layout.counterModes);
    relayout();
}

void TimelineController::resetLayout() {
    if (!trace_) return;
    options_.collapsed.assign(trace_->processes.size(), 0);
    options_.hiddenTracks.assign(trace_->tracks.size(), 0);
    options_.pinnedTracks.assign(trace_->tracks.size(), 0);
    options_.processRank.clear();
    options_.trackRank.clear();
    options_.hiddenDerived.clear();
    counterModes_.assign(trace_->tracks.size(), 0);
    derivedCounterModes_.assign(derivedCounterModes_.size(), 0);
    relayout(true);
}

// ---------------------------------------------------------------- counters

bool TimelineController::counterOf(const LayoutRow& row, const CounterSeries*& series,
                                   const CounterRangeIndex*& range) const {
    if (!trace_ || !index_) return false;
    if (row.kind == LayoutRow::Kind::Track && row.track < trace_->tracks.size() &&
        trace_->tracks[row.track].kind == TrackKind::Counter && row.track < index_->counters.size()) {
        series = &trace_->tracks[row.track].counter;
        range = &index_->counters[row.track];
        return true;
    }
    if (row.kind == LayoutRow::Kind::Derived && derived_ && row.track < derived_->tracks.size() &&
        row.track < derived_->ranges.size()) {
        series = &derived_->tracks[row.track].series;
        range = &derived_->ranges[row.track];
        return true;
    }
    return false;
}

std::optional<CounterDrawMode> TimelineController::counterModeOverride(const LayoutRow& row) const {
    const std::vector<uint8_t>& modes = row.kind == LayoutRow::Kind::Derived ? derivedCounterModes_ : counterModes_;
    if (row.kind == LayoutRow::Kind::Process || row.track >= modes.size() || !modes[row.track]) return std::nullopt;
    return CounterDrawMode(modes[row.track] - 1);
}

CounterDrawMode TimelineController::counterMode(const LayoutRow& row) const {
    if (const std::optional<CounterDrawMode> own = counterModeOverride(row)) return *own;
    if (globalCounterMode_) return *globalCounterMode_;
    // Derived tracks are memory in use: held between allocations and frees.
    if (row.kind == LayoutRow::Kind::Track && index_ && row.track < index_->counterModes.size())
        return index_->counterModes[row.track];
    return CounterDrawMode::Step;
}

void TimelineController::setCounterModeOverride(const LayoutRow& row, std::optional<CounterDrawMode> mode) {
    std::vector<uint8_t>& modes = row.kind == LayoutRow::Kind::Derived ? derivedCounterModes_ : counterModes_;
    if (row.kind == LayoutRow::Kind::Process || row.track >= modes.size()) return;
    modes[row.track] = mode ? uint8_t(1 + uint8_t(*mode)) : 0;
    emit changed();
    if (row.kind == LayoutRow::Kind::Track) emit layoutChanged();
}

void TimelineController::setGlobalCounterMode(std::optional<CounterDrawMode> mode) {
    if (mode == globalCounterMode_) return;
    globalCounterMode_ = mode;
    emit changed();
}

std::optional<TimelineController::CounterPoint> TimelineController::counterAtPoint(QPoint pos) const {
    if (pos.x() < headerWidth_) return std::nullopt;
    const LayoutRow* row = rowAtPoint(pos);
    const CounterSeries* series = nullptr;
    const CounterRangeIndex* range = nullptr;
    if (!row || !counterOf(*row, series, range)) return std::nullopt;
    CounterPoint p;
    p.row = *row;
    p.mode = counterMode(*row);
    p.hover = counterAt(*series, *range, axis_, trace_->endNs, p.mode, pos.x() - headerWidth_);
    return p;
}

void TimelineController::addBookmark(TimeNs time, std::string label) {
    const auto at = std::upper_bound(bookmarks_.begin(), bookmarks_.end(), time,
                                     [](TimeNs t, const Bookmark& b) { return t < b.time; });
    bookmarks_.insert(at, Bookmark{time, std::move(label)});
    emit changed();
    emit layoutChanged();
}

void TimelineController::renameBookmark(size_t i, std::string label) {
    if (i >= bookmarks_.size()) return;
    bookmarks_[i].label = std::move(label);
    emit changed();
    emit layoutChanged();
}

void TimelineController::removeBookmark(size_t i) {
    if (i >= bookmarks_.size()) return;
    bookmarks_.erase(bookmarks_.begin() + ptrdiff_t(i));
    emit changed();
    emit layoutChanged();
}

void TimelineController::clearBookmarks() {
    if (bookmarks_.empty()) return;
    bookmarks_.clear();
    emit changed();
    emit layoutChanged();
}

void TimelineController::goToBookmark(size_t i) {
    if (i >= bookmarks_.size()) return;
    const double half = (axis_.end() - axis_.begin()) / 2, t = double(bookmarks_[i].time);
    setVisibleRange(t - half, t + half);
}

TimeNs TimelineController::bookmarkTime() const {
    if (trace_ && selected_.valid()) return trace_->tracks[selected_.track].slices.start[selected_.index];
    if (hasRange_) return rangeBegin_;
    if (hoverX_ >= headerWidth_) return TimeNs(std::llround(axis_.time(hoverX_ - headerWidth_)));
    return TimeNs(std::llround((axis_.begin() + axis_.end()) / 2));
}

void TimelineController::setMinimapVisible(bool visible) {
    if (visible == minimap_) return;
    minimap_ = visible;
    scrollY_ = std::clamp(scrollY_, 0, maxScrollY());
    emit contentHeightChanged();
    emit changed();
}

double TimelineController::minimapX(double time) const {
    if (!trace_) return headerWidth_;
    const double span = double(std::max<TimeNs>(trace_->spanNs(), 1));
    return headerWidth_ + (time - double(trace_->startNs)) / span * axis_.width();
}

double TimelineController::minimapTime(int x) const {
    if (!trace_) return 0;
    const double span = double(std::max<TimeNs>(trace_->spanNs(), 1));
    return double(trace_->startNs) + double(x - headerWidth_) / std::max(1, axis_.width()) * span;
}

}  // namespace tracescope
