#include "views/timeline/timeline_canvas.h"

#include "model/query/slice_queries.h"
#include "views/timeline/time_format.h"

#include <QApplication>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace tracescope {

namespace {

bool isDarkPalette(const QPalette& pal) { return pal.color(QPalette::Base).lightness() < 128; }

QString processSummary(const Trace& trace, const Process& proc) {
    size_t slices = 0;
    for (TrackIndex t : proc.tracks) slices += trace.tracks[t].slices.size() + trace.tracks[t].instants.size();
    QString events = slices >= 1000000 ? QString::number(double(slices) / 1e6, 'f', 1) + QStringLiteral("M")
                     : slices >= 10000 ? QString::number(double(slices) / 1e3, 'f', 0) + QStringLiteral("k")
                                       : QString::number(slices);
    return QStringLiteral("%1 track%2 · %3 events").arg(proc.tracks.size()).arg(proc.tracks.size() == 1 ? "" : "s").arg(events);
}

QString trackTitle(const Track& track) {
    QString name = QString::fromStdString(track.name);
    if (name.isEmpty()) name = QStringLiteral("tid %1").arg(track.tid);
    return name;
}

}  // namespace

TimelineCanvas::TimelineCanvas(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(400, 200);
    palette_.setDark(isDarkPalette(palette()));
}

void TimelineCanvas::setTrace(std::shared_ptr<const Trace> trace) {
    trace_ = std::move(trace);
    index_.reset();
    names_.clear();
    highlight_ = {};
    selected_ = {};
    hasRange_ = false;
    scrollY_ = 0;
    collapsed_.assign(trace_ ? trace_->processes.size() : 0, 0);
    relayout();
    updateBounds();
    fitAll();
}

void TimelineCanvas::setIndex(std::shared_ptr<const TimelineIndex> index) {
    index_ = std::move(index);
    update();
}

void TimelineCanvas::relayout() {
    if (trace_) layout_.build(*trace_, collapsed_);
    else layout_ = {};
    scrollY_ = std::clamp(scrollY_, 0, maxScrollY());
    emit contentHeightChanged();
    update();
}

void TimelineCanvas::updateBounds() {
    axis_.setWidth(trackAreaWidth(width()));
    if (!trace_) return;
    const double span = double(std::max<TimeNs>(trace_->spanNs(), 1000));
    const double margin = span * 0.02;
    axis_.setBounds(double(trace_->startNs) - margin, double(trace_->endNs) + margin);
}

void TimelineCanvas::fitAll() {
    if (!trace_) return;
    const double span = double(std::max<TimeNs>(trace_->spanNs(), 1000));
    const double margin = span * 0.01;
    axis_.setWindow(double(trace_->startNs) - margin, double(trace_->startNs) + span + margin, trackAreaWidth(width()));
    emit viewChanged();
    update();
}

void TimelineCanvas::setVisibleRange(double begin, double end) {
    axis_.setWindow(begin, end, trackAreaWidth(width()));
    emit viewChanged();
    update();
}

void TimelineCanvas::zoomAt(double widgetX, double factor) {
    axis_.zoomAt(widgetX - headerWidth_, factor);
    emit viewChanged();
    update();
}

void TimelineCanvas::panPixels(double dx) {
    axis_.panPixels(dx);
    emit viewChanged();
    update();
}

void TimelineCanvas::zoomToSelection() {
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

void TimelineCanvas::setScrollY(int y) {
    y = std::clamp(y, 0, maxScrollY());
    if (y == scrollY_) return;
    scrollY_ = y;
    emit viewChanged();
    update();
}

int TimelineCanvas::maxScrollY() const { return std::max(0, layout_.contentHeight() - viewportHeight() + 8); }

void TimelineCanvas::setProcessCollapsed(ProcessIndex p, bool collapsed) {
    if (p >= collapsed_.size() || bool(collapsed_[p]) == collapsed) return;
    collapsed_[p] = collapsed;
    relayout();
}

void TimelineCanvas::setSelectedSlice(SliceRef s, bool reveal) {
    if (trace_ && s.valid() && (s.track >= trace_->tracks.size() || s.index >= trace_->tracks[s.track].slices.size()))
        s = {};
    selected_ = s;
    if (reveal && s.valid()) revealSlice(s);
    update();
}

void TimelineCanvas::revealSlice(SliceRef s) {
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
    if (const LayoutRow* row = layout_.rowOfTrack(s.track)) {
        const int y = layout_.depthTop(*row, track.slices.depth(s.index));
        const int h = layout_.metrics().sliceRow;
        if (y < scrollY_ || y + h > scrollY_ + viewportHeight()) setScrollY(y - viewportHeight() / 3);
    }
}

void TimelineCanvas::setHighlight(TimelineHighlight h) {
    highlight_ = std::move(h);
    update();
}

std::optional<std::pair<TimeNs, TimeNs>> TimelineCanvas::rangeSelection() const {
    if (!hasRange_) return std::nullopt;
    return std::make_pair(rangeBegin_, rangeEnd_);
}

void TimelineCanvas::setRangeSelection(TimeNs begin, TimeNs end) {
    if (end < begin) std::swap(begin, end);
    hasRange_ = end > begin;
    rangeBegin_ = begin;
    rangeEnd_ = end;
    update();
    if (hasRange_) emit rangeSelected(begin, end);
}

void TimelineCanvas::clearRangeSelection() {
    if (!hasRange_) return;
    hasRange_ = false;
    update();
    emit rangeCleared();
}

QRectF TimelineCanvas::sliceRect(SliceRef s) const {
    if (!trace_ || !s.valid() || s.track >= trace_->tracks.size()) return {};
    const SliceColumns& c = trace_->tracks[s.track].slices;
    if (s.index >= c.size()) return {};
    const LayoutRow* row = layout_.rowOfTrack(s.track);
    if (!row) return {};
    const double x0 = headerWidth_ + axis_.x(double(c.start[s.index]));
    const double x1 = headerWidth_ + axis_.x(double(c.end(s.index)));
    const int y = contentTop() + layout_.depthTop(*row, c.depth(s.index)) - scrollY_;
    return QRectF(x0, y, std::max(1.0, x1 - x0), layout_.metrics().sliceRow - 1);
}

SliceRef TimelineCanvas::sliceAtPoint(QPoint pos) const {
    if (!trace_ || !index_ || pos.x() < headerWidth_ || pos.y() < contentTop()) return {};
    return tracescope::sliceAtPoint(*trace_, layout_, index_->depths, axis_, pos.x() - headerWidth_,
                                    pos.y() - contentTop() + scrollY_);
}

// ---------------------------------------------------------------- painting

void TimelineCanvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    render(p, size());
}

void TimelineCanvas::render(QPainter& p, QSize size) {
    if (axis_.width() != trackAreaWidth(size.width())) axis_.setWidth(trackAreaWidth(size.width()));
    const QPalette& pal = palette();
    p.fillRect(QRect(QPoint(0, 0), size), pal.color(QPalette::Base));
    if (!trace_) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter,
                   tr("Open a trace: File > Open (Ctrl+O), or drop a file or folder here."));
        return;
    }
    paintRows(p, size);
    paintFlows(p, size);
    paintOverlays(p, size);
    paintRuler(p, size);
}

void TimelineCanvas::paintRows(QPainter& p, QSize size) {
    const QPalette& pal = palette();
    const bool dark = isDarkPalette(pal);
    const QColor headerBg = pal.color(QPalette::Window);
    const QColor processBg = dark ? pal.color(QPalette::Window).lighter(125) : pal.color(QPalette::Window).darker(108);
    const QColor gridColor = dark ? QColor(255, 255, 255, 22) : QColor(0, 0, 0, 18);
    const QColor separator = dark ? QColor(255, 255, 255, 30) : QColor(0, 0, 0, 30);
    const QColor textColor = pal.color(QPalette::Text);
    const QColor dimText = pal.color(QPalette::PlaceholderText);
    const int areaRight = size.width();
    const int viewBottom = size.height();
    const TrackMetrics& m = layout_.metrics();

    // Grid lines at the ruler's major ticks, under everything.
    const TimeAxis::Ticks ticks = axis_.ticks(110);
    for (double t : ticks.times) {
        const int x = headerWidth_ + int(std::lround(axis_.x(t)));
        p.fillRect(x, contentTop(), 1, viewBottom - contentTop(), gridColor);
    }

    TrackPaintContext ctx;
    ctx.painter = &p;
    ctx.trace = trace_.get();
    ctx.index = index_.get();
    ctx.axis = &axis_;
    ctx.palette = &palette_;
    ctx.names = &names_;
    ctx.highlight = &highlight_;
    ctx.selected = selected_;
    ctx.left = headerWidth_;
    ctx.rowHeight = m.sliceRow;
    ctx.background = pal.color(QPalette::Base);
    ctx.text = textColor;
    ctx.accent = dark ? QColor(255, 200, 40) : QColor(230, 120, 0);

    QFont baseFont = p.font();
    QFont smallFont = baseFont;
    smallFont.setPointSizeF(std::max(7.0, baseFont.pointSizeF() * 0.9));
    QFont boldFont = baseFont;
    boldFont.setBold(true);
    const QFontMetrics fmBase(baseFont), fmBold(boldFont), fmSmall(smallFont);

    FrameRequest request;
    request.axis = &axis_;
    request.scrollY = scrollY_;
    request.viewportHeight = viewBottom - contentTop();
    request.selected = selected_;
    request.highlight = &highlight_;
    layoutFrame(*trace_, layout_, index_ ? &index_->depths : nullptr, index_ ? &index_->coarse : nullptr, request, frame_);
    ctx.top = contentTop() - scrollY_;

    const auto& rows = layout_.rows();
    for (const FrameRow& frameRow : frame_.rows) {
        const LayoutRow& row = rows[frameRow.row];
        const int top = contentTop() + row.y - scrollY_;
        const int bottom = top + row.height;
        const QRect clip(0, std::max(top, contentTop()), areaRight, std::min(bottom, viewBottom) - std::max(top, contentTop()));
        if (clip.height() <= 0) continue;
        p.setClipRect(clip);
        if (row.kind == LayoutRow::Kind::Process) {
            const Process& proc = trace_->processes[row.process];
            p.fillRect(0, top, areaRight, row.height, processBg);
            p.fillRect(0, bottom - 1, areaRight, 1, separator);
            // Disclosure triangle.
            p.setRenderHint(QPainter::Antialiasing, true);
            p.setPen(Qt::NoPen);
            p.setBrush(textColor);
            const QPointF c(12, top + row.height / 2.0);
            if (collapsed_[row.process]) {
                const QPointF tri[3] = {c + QPointF(-3, -5), c + QPointF(-3, 5), c + QPointF(4, 0)};
                p.drawPolygon(tri, 3);
            } else {
                const QPointF tri[3] = {c + QPointF(-5, -3), c + QPointF(5, -3), c + QPointF(0, 4)};
                p.drawPolygon(tri, 3);
            }
            p.setRenderHint(QPainter::Antialiasing, false);
            QString name = QString::fromStdString(proc.name);
            if (name.isEmpty()) name = QStringLiteral("pid %1").arg(proc.pid);
            if (proc.kind == ProcessKind::Device && !name.contains(QLatin1String("device"), Qt::CaseInsensitive) &&
                !name.contains(QLatin1String("GPU"), Qt::CaseInsensitive))
                name += tr(" (device)");
            p.setFont(boldFont);
            p.setPen(textColor);
            const int textLeft = 24;
            const QString title = fmBold.elidedText(name, Qt::ElideMiddle, areaRight / 2);
            p.drawText(QRect(textLeft, top, areaRight, row.height), Qt::AlignVCenter | Qt::AlignLeft, title);
            p.setFont(smallFont);
            p.setPen(dimText);
            const int summaryLeft = std::max(textLeft + fmBold.horizontalAdvance(title) + 12, headerWidth_ + 8);
            QString summary = processSummary(*trace_, proc);
            if (!proc.labels.empty()) summary += QStringLiteral(" · ") + QString::fromStdString(proc.labels);
            p.drawText(QRect(summaryLeft, top, areaRight - summaryLeft - 8, row.height), Qt::AlignVCenter | Qt::AlignLeft,
                       fmSmall.elidedText(summary, Qt::ElideRight, areaRight - summaryLeft - 8));
            p.setFont(baseFont);
            continue;
        }

        const Track& track = trace_->tracks[row.track];
        // Track header cell.
        p.fillRect(0, top, headerWidth_, row.height, headerBg);
        p.fillRect(headerWidth_ - 1, top, 1, row.height, separator);
        const bool overflow = track.overflowOf != kNoIndex;
        const int indent = overflow ? 30 : 18;
        p.setPen(overflow ? dimText : textColor);
        p.setFont(baseFont);
        const int nameRowH = std::min(row.height, m.sliceRow + 2 * m.trackPadding);
        p.drawText(QRect(indent, top, headerWidth_ - indent - 6, nameRowH), Qt::AlignVCenter | Qt::AlignLeft,
                   fmBase.elidedText(trackTitle(track), Qt::ElideMiddle, headerWidth_ - indent - 8));
        if (row.height >= 2 * nameRowH && track.kind != TrackKind::Counter) {
            p.setFont(smallFont);
            p.setPen(dimText);
            const QString sub = track.kind == TrackKind::Async
                                    ? tr("async · %1 spans").arg(track.slices.size())
                                    : tr("%1 slices · depth %2").arg(track.slices.size()).arg(track.maxDepth);
            p.drawText(QRect(indent, top + nameRowH - 4, headerWidth_ - indent - 6, nameRowH), Qt::AlignVCenter | Qt::AlignLeft,
                       fmSmall.elidedText(sub, Qt::ElideRight, headerWidth_ - indent - 8));
            p.setFont(baseFont);
        }
        p.fillRect(0, bottom - 1, areaRight, 1, separator);

        if (!index_) continue;
        p.setClipRect(clip.intersected(QRect(headerWidth_, 0, areaRight - headerWidth_, viewBottom)));
        if (track.kind == TrackKind::Counter) paintCounter(ctx, row.track, top, row.height - 1);
        else paintFrameRow(ctx, frame_, frameRow);
    }
    p.setClipping(false);
    if (!index_) {
        p.setPen(dimText);
        p.drawText(QRect(headerWidth_, contentTop(), areaRight - headerWidth_, 40), Qt::AlignCenter, tr("Indexing…"));
    }
}

std::optional<QPointF> TimelineCanvas::flowAnchor(SliceRef s, bool atEnd) const {
    if (!s.valid() || s.track >= trace_->tracks.size()) return std::nullopt;
    const Track& track = trace_->tracks[s.track];
    const SliceColumns& c = track.slices;
    if (s.index >= c.size()) return std::nullopt;
    const double x = headerWidth_ + axis_.x(double(atEnd ? c.end(s.index) : c.start[s.index]));
    if (const LayoutRow* row = layout_.rowOfTrack(s.track)) {
        const int y = contentTop() + layout_.depthTop(*row, c.depth(s.index)) - scrollY_ + layout_.metrics().sliceRow / 2;
        return QPointF(x, y);
    }
    if (const LayoutRow* row = layout_.rowOfProcess(track.process))
        return QPointF(x, contentTop() + row->y - scrollY_ + row->height / 2.0);
    return std::nullopt;
}

void TimelineCanvas::paintFlows(QPainter& p, QSize size) {
    if (!selected_.valid()) return;
    p.setClipRect(QRect(headerWidth_, contentTop(), size.width() - headerWidth_, size.height() - contentTop()));
    const QColor color = isDarkPalette(palette()) ? QColor(120, 200, 255) : QColor(20, 90, 200);
    // An arrow leaves its source where the source starts (a launch call issues it
    // at its start) and points at the destination's start.
    for (uint32_t f : trace_->flowsFrom(selected_)) {
        const Flow& flow = trace_->flows[f];
        auto a = flowAnchor(flow.from, false), b = flowAnchor(flow.to, false);
        if (a && b) paintFlowArrow(p, *a, *b, color);
    }
    for (uint32_t f : trace_->flowsTo(selected_)) {
        const Flow& flow = trace_->flows[f];
        auto a = flowAnchor(flow.from, false), b = flowAnchor(flow.to, false);
        if (a && b) paintFlowArrow(p, *a, *b, color);
    }
    p.setClipping(false);
}

void TimelineCanvas::paintOverlays(QPainter& p, QSize size) {
    const QPalette& pal = palette();
    if (hasRange_) {
        const double x0 = headerWidth_ + axis_.x(double(rangeBegin_));
        const double x1 = headerWidth_ + axis_.x(double(rangeEnd_));
        QColor shade = pal.color(QPalette::Highlight);
        shade.setAlpha(40);
        const double l = std::max<double>(x0, headerWidth_), r = std::min<double>(x1, size.width());
        if (r > l) p.fillRect(QRectF(l, contentTop(), r - l, size.height() - contentTop()), shade);
        QColor edge = pal.color(QPalette::Highlight);
        for (double x : {x0, x1})
            if (x >= headerWidth_ && x <= size.width()) p.fillRect(QRectF(x, contentTop(), 1, size.height()), edge);
    }
    if (hoverX_ >= headerWidth_ && hoverX_ < size.width()) {
        QColor c = pal.color(QPalette::Text);
        c.setAlpha(90);
        p.fillRect(hoverX_, contentTop(), 1, size.height() - contentTop(), c);
    }
}

void TimelineCanvas::paintRuler(QPainter& p, QSize size) {
    const QPalette& pal = palette();
    const int h = kRulerHeight;
    p.fillRect(0, 0, size.width(), h, pal.color(QPalette::Window));
    p.fillRect(0, h - 1, size.width(), 1, pal.color(QPalette::Mid));
    const TimeAxis::Ticks ticks = axis_.ticks(110);
    QFont small = p.font();
    small.setPointSizeF(std::max(7.0, small.pointSizeF() * 0.9));
    p.setFont(small);
    p.setPen(pal.color(QPalette::Text));
    p.setClipRect(QRect(headerWidth_, 0, size.width() - headerWidth_, h));
    for (double t : ticks.times) {
        const int x = headerWidth_ + int(std::lround(axis_.x(t)));
        p.fillRect(x, h - 9, 1, 8, pal.color(QPalette::Text));
        p.drawText(QRect(x + 4, 0, 160, h - 4), Qt::AlignLeft | Qt::AlignVCenter,
                   formatTimeInUnit(t, ticks.unitNs, ticks.decimals));
        // Minor ticks at a fifth of the step.
        for (int k = 1; k < 5; ++k) {
            const int mx = headerWidth_ + int(std::lround(axis_.x(t + ticks.step * k / 5)));
            p.fillRect(mx, h - 5, 1, 4, pal.color(QPalette::Mid));
        }
    }
    // Range label centred over the selection.
    if (hasRange_) {
        const double x0 = headerWidth_ + axis_.x(double(rangeBegin_));
        const double x1 = headerWidth_ + axis_.x(double(rangeEnd_));
        const QString label = formatDuration(rangeEnd_ - rangeBegin_);
        const int w = p.fontMetrics().horizontalAdvance(label) + 12;
        const QRect box(int((x0 + x1) / 2 - w / 2.0), 3, w, h - 8);
        p.fillRect(box, pal.color(QPalette::Highlight));
        p.setPen(pal.color(QPalette::HighlightedText));
        p.drawText(box, Qt::AlignCenter, label);
    }
    p.setClipping(false);
    // Top-left corner: the cursor time, or the visible span.
    p.setPen(pal.color(QPalette::Text));
    QString readout;
    if (hoverX_ >= headerWidth_)
        readout = tr("cursor %1").arg(formatDurationExact(TimeNs(std::llround(axis_.time(hoverX_ - headerWidth_)))));
    else
        readout = tr("visible %1").arg(formatDuration(TimeNs(axis_.end() - axis_.begin())));
    p.drawText(QRect(8, 0, headerWidth_ - 12, h - 1), Qt::AlignVCenter | Qt::AlignLeft, readout);
    p.fillRect(headerWidth_ - 1, 0, 1, h, pal.color(QPalette::Mid));
    p.setFont(QFont());
}

// ---------------------------------------------------------------- input

void TimelineCanvas::resizeEvent(QResizeEvent*) {
    // Keep the visible time window when the widget resizes.
    const double b = axis_.begin(), e = axis_.end();
    updateBounds();
    if (trace_) axis_.setWindow(b, e, trackAreaWidth(width()));
    scrollY_ = std::clamp(scrollY_, 0, maxScrollY());
    emit contentHeightChanged();
}

void TimelineCanvas::wheelEvent(QWheelEvent* e) {
    if (!trace_) return;
    const QPoint delta = e->angleDelta();
    if (e->modifiers() & Qt::ControlModifier) {
        zoomAt(e->position().x(), std::pow(1.0015, delta.y()));
    } else if (delta.x() != 0 || (e->modifiers() & Qt::ShiftModifier)) {
        const int d = delta.x() != 0 ? delta.x() : delta.y();
        panPixels(-d * axis_.width() / 1200.0);
    } else {
        setScrollY(scrollY_ - delta.y() * 3 * layout_.metrics().sliceRow / 120);
    }
    e->accept();
}

void TimelineCanvas::mousePressEvent(QMouseEvent* e) {
    setFocus();
    pressPos_ = e->position().toPoint();
    pressBegin_ = axis_.begin();
    pressScroll_ = scrollY_;
    moved_ = false;
    drag_ = Drag::None;
    if (e->button() != Qt::LeftButton || !trace_) return;
    if (onHeaderEdge(pressPos_.x())) {
        drag_ = Drag::Header;
        return;
    }
    if (pressPos_.y() >= contentTop()) {
        const LayoutRow* row = layout_.rowAt(pressPos_.y() - contentTop() + scrollY_);
        if (row && row->kind == LayoutRow::Kind::Process && pressPos_.x() < headerWidth_ + 200) {
            setProcessCollapsed(row->process, !collapsed_[row->process]);
            return;
        }
    }
    drag_ = (e->modifiers() & Qt::ShiftModifier) && pressPos_.x() >= headerWidth_ ? Drag::Range : Drag::Pan;
}

bool TimelineCanvas::onHeaderEdge(int x) const { return trace_ && std::abs(x - headerWidth_) <= 3; }

void TimelineCanvas::setHeaderWidth(int width) {
    width = std::clamp(width, kMinHeaderWidth, std::max(kMinHeaderWidth, this->width() / 2));
    if (width == headerWidth_) return;
    const double begin = axis_.begin(), end = axis_.end();
    headerWidth_ = width;
    axis_.setWindow(begin, end, trackAreaWidth(this->width()));
    update();
    emit viewChanged();
}

void TimelineCanvas::mouseMoveEvent(QMouseEvent* e) {
    const QPoint pos = e->position().toPoint();
    hoverX_ = pos.x();
    if (drag_ != Drag::None && (pos - pressPos_).manhattanLength() >= QApplication::startDragDistance()) moved_ = true;
    if (drag_ == Drag::Header) {
        setHeaderWidth(pos.x());
        return;
    }
    if (drag_ == Drag::None) {
        if (onHeaderEdge(pos.x())) setCursor(Qt::SplitHCursor);
        else unsetCursor();
    }
    if (drag_ == Drag::Pan && moved_) {
        setCursor(Qt::ClosedHandCursor);
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
    update();
}

void TimelineCanvas::mouseReleaseEvent(QMouseEvent* e) {
    const Drag drag = drag_;
    drag_ = Drag::None;
    unsetCursor();
    if (e->button() != Qt::LeftButton || !trace_ || drag == Drag::Header) return;
    if (drag == Drag::Range && moved_) {
        if (rangeEnd_ > rangeBegin_) emit rangeSelected(rangeBegin_, rangeEnd_);
        return;
    }
    if (drag != Drag::None && !moved_) {
        const SliceRef hit = sliceAtPoint(e->position().toPoint());
        selected_ = hit;
        update();
        emit sliceClicked(hit);
    }
}

void TimelineCanvas::mouseDoubleClickEvent(QMouseEvent* e) {
    const SliceRef hit = sliceAtPoint(e->position().toPoint());
    if (!hit.valid()) return;
    selected_ = hit;
    zoomToSelection();
}

void TimelineCanvas::keyPressEvent(QKeyEvent* e) {
    if (!trace_) return QWidget::keyPressEvent(e);
    const double anchor = hoverX_ >= headerWidth_ ? hoverX_ : headerWidth_ + axis_.width() / 2.0;
    switch (e->key()) {
    case Qt::Key_W: zoomAt(anchor, 1.25); break;
    case Qt::Key_S: zoomAt(anchor, 1 / 1.25); break;
    case Qt::Key_A: panPixels(-axis_.width() * 0.1); break;
    case Qt::Key_D: panPixels(axis_.width() * 0.1); break;
    case Qt::Key_F: zoomToSelection(); break;
    case Qt::Key_0:
    case Qt::Key_Home: fitAll(); break;
    case Qt::Key_Up: setScrollY(scrollY_ - layout_.metrics().sliceRow * 3); break;
    case Qt::Key_Down: setScrollY(scrollY_ + layout_.metrics().sliceRow * 3); break;
    case Qt::Key_PageUp: setScrollY(scrollY_ - viewportHeight() * 9 / 10); break;
    case Qt::Key_PageDown: setScrollY(scrollY_ + viewportHeight() * 9 / 10); break;
    case Qt::Key_Escape:
        clearRangeSelection();
        if (selected_.valid()) {
            selected_ = {};
            update();
            emit sliceClicked({});
        }
        break;
    default: QWidget::keyPressEvent(e); return;
    }
    e->accept();
}

void TimelineCanvas::leaveEvent(QEvent*) {
    hoverX_ = -1;
    update();
}

void TimelineCanvas::changeEvent(QEvent* e) {
    if (e->type() == QEvent::PaletteChange) {
        palette_.setDark(isDarkPalette(palette()));
        update();
    }
    QWidget::changeEvent(e);
}

bool TimelineCanvas::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const QString text = tooltipAt(help->pos());
        if (text.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

QString TimelineCanvas::tooltipAt(QPoint pos) const {
    if (!trace_ || pos.y() < contentTop()) return {};
    const LayoutRow* row = layout_.rowAt(pos.y() - contentTop() + scrollY_);
    if (!row) return {};
    if (row->kind == LayoutRow::Kind::Process) {
        const Process& proc = trace_->processes[row->process];
        return QStringLiteral("<b>%1</b><br>pid %2<br>%3")
            .arg(QString::fromStdString(proc.name).toHtmlEscaped())
            .arg(proc.pid)
            .arg(processSummary(*trace_, proc));
    }
    const Track& track = trace_->tracks[row->track];
    if (pos.x() < headerWidth_) {
        QString s = QStringLiteral("<b>%1</b><br>tid %2").arg(trackTitle(track).toHtmlEscaped()).arg(track.tid);
        if (!track.slices.empty()) s += tr("<br>%1 slices, max depth %2").arg(track.slices.size()).arg(track.maxDepth);
        if (!track.instants.empty()) s += tr("<br>%1 instants").arg(track.instants.size());
        if (!track.counter.empty()) s += tr("<br>%1 samples").arg(track.counter.size());
        if (track.overflowOf != kNoIndex) s += tr("<br>slices that partially overlap their enclosing slice");
        return s;
    }
    const double px = pos.x() - headerWidth_;
    const int dy = pos.y() - contentTop() + scrollY_ - row->y;
    if (!track.instants.empty() && dy >= layout_.metrics().trackPadding && dy < row->slicesTop)
        return instantsTooltip(track, px);
    const SliceRef hit = sliceAtPoint(pos);
    if (!hit.valid()) return {};
    const SliceColumns& c = track.slices;
    const std::string_view name = trace_->str(c.name[hit.index]);
    QString s = QStringLiteral("<b>%1</b><br>%2").arg(QString::fromUtf8(name.data(), qsizetype(name.size())).toHtmlEscaped(),
                                                     formatDuration(c.duration[hit.index]));
    const std::string_view cat = trace_->str(c.category[hit.index]);
    if (!cat.empty()) s += QStringLiteral(" · ") + QString::fromUtf8(cat.data(), qsizetype(cat.size())).toHtmlEscaped();
    if (c.unfinished(hit.index)) s += tr("<br><i>unfinished: no end event, runs to the trace end</i>");
    // A slice under a pixel wide is drawn folded with its neighbours: say how many share the bar here.
    if (index_ && double(c.duration[hit.index]) < 2 * axis_.nsPerPx()) {
        const size_t shared = index_->depths.atDepth(hit.track, c.depth(hit.index))
                                  .countOverlapping(TimeNs(std::floor(axis_.time(px - 1))),
                                                    TimeNs(std::ceil(axis_.time(px + 2))));
        if (shared > 1)
            s += tr("<br>%1 slices in this bar at %2 · zoom in to see them")
                     .arg(shared)
                     .arg(formatDuration(TimeNs(std::llround(axis_.nsPerPx()))) + tr("/px"));
    }
    return s;
}

QString TimelineCanvas::instantsTooltip(const Track& track, double px) const {
    // The instants under the cursor's marker: those within its half-width either side.
    const InstantColumns& in = track.instants;
    const TimeNs t0 = TimeNs(std::floor(axis_.time(px - 4))), t1 = TimeNs(std::ceil(axis_.time(px + 4)));
    const auto first = std::lower_bound(in.time.begin(), in.time.end(), t0);
    const auto last = std::upper_bound(first, in.time.end(), t1);
    if (first == last) return {};
    const size_t k = size_t(first - in.time.begin());
    const std::string_view name = trace_->str(in.name[k]);
    QString s = QStringLiteral("<b>%1</b><br>instant at %2")
                    .arg(QString::fromUtf8(name.data(), qsizetype(name.size())).toHtmlEscaped(),
                         formatDurationExact(in.time[k]));  // the ruler's time, as the cursor readout
    if (last - first > 1) s += tr("<br>%1 instants here · zoom in to see them").arg(last - first);
    return s;
}

}  // namespace tracescope
