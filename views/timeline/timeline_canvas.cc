#include "views/timeline/timeline_canvas.h"

#include "views/memory/memory_event_text.h"

#include "model/query/slice_queries.h"
#include "model/query/span_lanes.h"
#include "model/trace/has_events.h"
#include "views/name_style.h"
#include "views/timeline/counter_style.h"
#include "views/timeline/time_format.h"
#include "views/theme_colors.h"

#include <QApplication>
#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace tracescope {

namespace {

// The moment a page sent the timeline to: orange, apart from the selection, bookmarks and flows.
QColor momentColor(const QPalette& pal) { return isDarkPalette(pal) ? QColor(255, 170, 60) : QColor(220, 100, 0); }

QString processSummary(const Trace& trace, const Process& proc) {
    size_t slices = 0;
    for (TrackIndex t : proc.tracks) slices += trace.tracks[t].slices.size() + trace.tracks[t].instants.size();
    QString events = slices >= 1000000 ? QString::number(double(slices) / 1e6, 'f', 1) + QStringLiteral("M")
                     : slices >= 10000 ? QString::number(double(slices) / 1e3, 'f', 0) + QStringLiteral("k")
                                       : QString::number(slices);
    return QStringLiteral("%1 track%2 · %3 events")
        .arg(proc.tracks.size())
        .arg(proc.tracks.size() == 1 ? "" : "s")
        .arg(events);
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
    ctl_.setSizeSource([this] { return size(); });
    connect(&ctl_, &TimelineController::changed, this, qOverload<>(&QWidget::update));
    connect(&NameStyleSetting::instance(), &NameStyleSetting::changed, this, &TimelineCanvas::applyNameStyle);
    ctl_.setGlobalCounterMode(CounterStyleSetting::instance().mode());
    connect(&CounterStyleSetting::instance(), &CounterStyleSetting::changed, this,
            [this] { ctl_.setGlobalCounterMode(CounterStyleSetting::instance().mode()); });
    connect(&ctl_, &TimelineController::cursorChanged, this, [this](Qt::CursorShape shape) {
        if (shape == Qt::ArrowCursor) unsetCursor();
        else setCursor(shape);
    });
    connect(&ctl_, &TimelineController::sliceClicked, this, &TimelineCanvas::sliceClicked);
    connect(&ctl_, &TimelineController::rangeSelected, this, &TimelineCanvas::rangeSelected);
    connect(&ctl_, &TimelineController::rangeCleared, this, &TimelineCanvas::rangeCleared);
    connect(&ctl_, &TimelineController::viewChanged, this, &TimelineCanvas::viewChanged);
    connect(&ctl_, &TimelineController::contentHeightChanged, this, &TimelineCanvas::contentHeightChanged);
}

void TimelineCanvas::setTrace(std::shared_ptr<const Trace> trace) {
    names_.setShortNames(nullptr);
    ctl_.setTrace(std::move(trace));
}

void TimelineCanvas::setIndex(std::shared_ptr<const TimelineIndex> index) {
    ctl_.setIndex(std::move(index));
    applyNameStyle();
}

void TimelineCanvas::applyNameStyle() {
    const TimelineIndex* index = ctl_.index();
    names_.setShortNames(index && NameStyleSetting::instance().shortNames() ? &index->shortNames : nullptr);
    update();
}

// ---------------------------------------------------------------- painting

void TimelineCanvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    render(p, size());
}

void TimelineCanvas::render(QPainter& p, QSize size) {
    ctl_.fitWidth(size.width());
    const QPalette& pal = palette();
    p.fillRect(QRect(QPoint(0, 0), size), pal.color(QPalette::Base));
    if (!ctl_.trace()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter,
                   tr("Open a trace: File > Open (Ctrl+O), or drop a file or folder here."));
        return;
    }
    if (!traceHasEvents(*ctl_.trace())) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("This trace holds no events: no slices, instants, counters or flows.\n"
                      "The file may be an empty event list, or hold only metadata."));
        return;
    }
    paintRows(p, size);
    paintFlows(p, size);
    paintOverlays(p, size);
    paintRuler(p, size);
    if (ctl_.minimapVisible()) paintMinimap(p, size);
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
    const TrackMetrics& m = ctl_.layout().metrics();

    // Grid lines at the ruler's major ticks, under everything.
    const TimeAxis::Ticks ticks = ctl_.axis().ticks(110);
    for (double t : ticks.times) {
        const int x = ctl_.headerWidth() + int(std::lround(ctl_.axis().x(t)));
        p.fillRect(x, contentTop(), 1, viewBottom - contentTop(), gridColor);
    }

    TrackPaintContext ctx;
    ctx.painter = &p;
    ctx.trace = ctl_.trace();
    ctx.index = ctl_.index();
    ctx.axis = &ctl_.axis();
    ctx.palette = &palette_;
    ctx.names = &names_;
    ctx.highlight = &ctl_.highlight();
    ctx.selected = ctl_.selectedSlice();
    ctx.left = ctl_.headerWidth();
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
    request.axis = &ctl_.axis();
    request.scrollY = ctl_.scrollY();
    request.viewportHeight = viewBottom - contentTop();
    request.selected = ctl_.selectedSlice();
    request.highlight = &ctl_.highlight();
    layoutFrame(*ctl_.trace(), ctl_.layout(), ctl_.index() ? &ctl_.index()->depths : nullptr,
                ctl_.index() ? &ctl_.index()->coarse : nullptr, request, frame_);
    ctx.top = contentTop() - ctl_.scrollY();

    const auto& rows = ctl_.layout().rows();
    for (const FrameRow& frameRow : frame_.rows) {
        const LayoutRow& row = rows[frameRow.row];
        const int top = contentTop() + ctl_.layout().viewY(row, ctl_.scrollY());
        const int bottom = top + row.height;
        // Scrolled rows pass under the pinned strip.
        const int visibleTop = contentTop() + (row.pinned ? 0 : ctl_.layout().pinnedHeight());
        const QRect clip(0, std::max(top, visibleTop), areaRight,
                         std::min(bottom, viewBottom) - std::max(top, visibleTop));
        if (clip.height() <= 0) continue;
        ctx.top = contentTop() - (row.pinned ? 0 : ctl_.scrollY());
        p.setClipRect(clip);
        if (row.kind == LayoutRow::Kind::Process) {
            const Process& proc = ctl_.trace()->processes[row.process];
            p.fillRect(0, top, areaRight, row.height, processBg);
            p.fillRect(0, bottom - 1, areaRight, 1, separator);
            // Disclosure triangle.
            p.setRenderHint(QPainter::Antialiasing, true);
            p.setPen(Qt::NoPen);
            p.setBrush(textColor);
            const QPointF c(12, top + row.height / 2.0);
            if (ctl_.processCollapsed(row.process)) {
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
            const int summaryLeft = std::max(textLeft + fmBold.horizontalAdvance(title) + 12, ctl_.headerWidth() + 8);
            QString summary = processSummary(*ctl_.trace(), proc);
            if (!proc.labels.empty()) summary += QStringLiteral(" · ") + QString::fromStdString(proc.labels);
            p.drawText(QRect(summaryLeft, top, areaRight - summaryLeft - 8, row.height),
                       Qt::AlignVCenter | Qt::AlignLeft,
                       fmSmall.elidedText(summary, Qt::ElideRight, areaRight - summaryLeft - 8));
            p.setFont(baseFont);
            continue;
        }

        if (row.kind == LayoutRow::Kind::Derived) {
            paintDerivedRow(p, ctx, row, top, areaRight, viewBottom, clip);
            continue;
        }
        const Track& track = ctl_.trace()->tracks[row.track];
        // Track header cell.
        p.fillRect(0, top, ctl_.headerWidth(), row.height, headerBg);
        p.fillRect(ctl_.headerWidth() - 1, top, 1, row.height, separator);
        const bool overflow = track.overflowOf != kNoIndex;
        const int indent = overflow ? 30 : 18;
        p.setPen(overflow ? dimText : textColor);
        p.setFont(baseFont);
        const int nameRowH = std::min(row.height, m.sliceRow + 2 * m.trackPadding);
        QString title = trackTitle(track);
        if (row.pinned) {
            // Out of its process: say whose track it is, and mark the strip.
            title = QString::fromStdString(ctl_.trace()->processes[track.process].name) + QStringLiteral(" › ") + title;
            p.fillRect(0, top, 3, row.height, ctx.accent);
        }
        p.drawText(QRect(indent, top, ctl_.headerWidth() - indent - 6, nameRowH), Qt::AlignVCenter | Qt::AlignLeft,
                   fmBase.elidedText(title, Qt::ElideMiddle, ctl_.headerWidth() - indent - 8));
        if (row.height >= 2 * nameRowH && track.kind != TrackKind::Counter) {
            p.setFont(smallFont);
            p.setPen(dimText);
            const QString sub = track.kind == TrackKind::Async
                                    ? tr("async · %1 spans").arg(track.slices.size())
                                    : tr("%1 slices · depth %2").arg(track.slices.size()).arg(track.maxDepth);
            p.drawText(QRect(indent, top + nameRowH - 4, ctl_.headerWidth() - indent - 6, nameRowH),
                       Qt::AlignVCenter | Qt::AlignLeft,
                       fmSmall.elidedText(sub, Qt::ElideRight, ctl_.headerWidth() - indent - 8));
            p.setFont(baseFont);
        }
        p.fillRect(0, bottom - 1, areaRight, 1, separator);

        if (!ctl_.index()) continue;
        p.setClipRect(clip.intersected(QRect(ctl_.headerWidth(), 0, areaRight - ctl_.headerWidth(), viewBottom)));
        if (track.kind == TrackKind::Counter) {
            paintCounterRow(ctx, row, top, false);
            continue;
        }
        if (track.kind == TrackKind::Thread) paintIdleGaps(p, row.track, top, row.height - 1);
        paintFrameRow(ctx, frame_, frameRow);
        if (track.kind == TrackKind::Thread) paintCommOverlap(p, row.track, top, row.height - 1);
    }
    // The value under the cursor on a counter track, over the row it belongs to.
    if (const auto hover = ctl_.counterHover(); hover && hover->hover.valid) {
        const LayoutRow& row = hover->row;
        const int top = contentTop() + ctl_.layout().viewY(row, ctl_.scrollY());
        const int visibleTop = contentTop() + (row.pinned ? 0 : ctl_.layout().pinnedHeight());
        const CounterSeries* series = nullptr;
        const CounterRangeIndex* range = nullptr;
        if (ctl_.counterOf(row, series, range)) {
            p.setClipRect(QRect(ctl_.headerWidth(), std::max(top, visibleTop), areaRight - ctl_.headerWidth(),
                                std::min(top + row.height, viewBottom) - std::max(top, visibleTop)));
            paintCounterHover(ctx, hover->hover, CounterScale::of(*range), hover->mode,
                              ctl_.hoverX() - ctl_.headerWidth(), top, row.height - 1, areaRight, inBytes(row));
        }
    }
    p.setClipping(false);
    if (const int pinned = ctl_.layout().pinnedHeight(); pinned > 0 && pinned < viewBottom - contentTop())
        p.fillRect(0, contentTop() + pinned - 1, areaRight, 2, dark ? QColor(255, 255, 255, 90) : QColor(0, 0, 0, 90));
    if (!ctl_.index()) {
        p.setPen(dimText);
        p.drawText(QRect(ctl_.headerWidth(), contentTop(), areaRight - ctl_.headerWidth(), 40), Qt::AlignCenter,
                   tr("Indexing…"));
    }
}

namespace {

// HTA's causes of a stream's idle gap: waiting on the host (the CPU was late), on launch
// overhead between back-to-back kernels, on anything else.
QColor idleGapColor(IdleCause cause, bool dark) {
    QColor c;
    switch (cause) {
    case IdleCause::HostWait: c = QColor(235, 110, 30); break;
    case IdleCause::KernelWait: c = QColor(60, 130, 220); break;
    case IdleCause::Other: c = QColor(140, 140, 140); break;
    }
    c.setAlpha(dark ? 90 : 60);
    return c;
}

// Communication kernels' time with compute beside them (HTA's overlap): a saturated colour no
// slice takes (slices are drawn in muted tones), so the band stands out on any kernel.
QColor commOverlapColor(bool dark) { return dark ? QColor(235, 90, 235) : QColor(170, 0, 170); }

}  // namespace

void TimelineCanvas::paintIdleGaps(QPainter& p, TrackIndex track, int top, int height) {
    const IdleGapIndex* gaps = ctl_.idleGaps();
    if (!gaps) return;
    const TimeAxis& axis = ctl_.axis();
    const bool dark = isDarkPalette(palette());
    // Gaps under a pixel wide are left out: zoomed out, a stream's work fills its row anyway. The
    // index finds the wider ones without walking the rest (millions at fit-all on a large trace);
    // its bound is a little under a pixel and the test below is the exact one.
    const auto wide = gaps->atLeast(track, TimeNs(std::floor(axis.begin())), TimeNs(std::ceil(axis.end())) + 1,
                                    TimeNs(std::floor(axis.nsPerPx())));
    for (const IdleGap& g : wide) {
        const double x0 = ctl_.headerWidth() + axis.x(double(g.start));
        const double x1 = ctl_.headerWidth() + axis.x(double(g.end));
        if (x1 - x0 < 1) continue;
        p.fillRect(QRectF(x0, top, x1 - x0, height), idleGapColor(g.cause, dark));
    }
}

void TimelineCanvas::paintCommOverlap(QPainter& p, TrackIndex track, int top, int height) {
    const CommOverlapIndex* overlap = ctl_.commOverlap();
    if (!overlap || height < 4) return;
    const TimeAxis& axis = ctl_.axis();
    const QColor c = commOverlapColor(isDarkPalette(palette()));
    // A band along the row's foot, so the kernels' names above stay readable. Parts less than a
    // pixel apart are drawn as one run, each at least a pixel wide: a frame draws O(pixels) runs
    // however many parts the window holds.
    const int band = std::max(2, height / 5);
    for (const auto& [start, end] : overlap->runs(track, TimeNs(std::floor(axis.begin())),
                                                  TimeNs(std::ceil(axis.end())) + 1, TimeNs(std::ceil(axis.nsPerPx())))) {
        const double x0 = ctl_.headerWidth() + axis.x(double(start));
        const double x1 = ctl_.headerWidth() + axis.x(double(end));
        const QRectF r(x0, top + height - band, std::max(1.0, x1 - x0), band);
        p.fillRect(r.adjusted(0, -1, 0, -band), palette().color(QPalette::Base));  // a line apart from the kernel
        p.fillRect(r, c);
    }
}

void TimelineCanvas::paintIdleGapLegend(QPainter& p, QSize size) {
    const IdleGapIndex* gaps = ctl_.idleGaps();
    const CommOverlapIndex* overlap = ctl_.commOverlap();
    const bool showGaps = gaps && !gaps->empty(), showOverlap = overlap && !overlap->empty();
    if (!showGaps && !showOverlap) return;
    const QPalette& pal = palette();
    const bool dark = isDarkPalette(pal);
    const QFontMetrics fm(font());
    // (a colour and its label; a title is an entry without a colour)
    std::vector<std::pair<QColor, QString>> entries;
    if (showGaps) {
        entries.push_back({QColor(), tr("GPU idle:")});
        for (const auto& [cause, label] : {std::pair{IdleCause::HostWait, tr("host wait")},
                                           std::pair{IdleCause::KernelWait, tr("kernel wait")},
                                           std::pair{IdleCause::Other, tr("other")}}) {
            QColor c = idleGapColor(cause, dark);
            c.setAlpha(200);
            entries.push_back({c, label});
        }
    }
    if (showOverlap) {
        entries.push_back({QColor(), (showGaps ? QStringLiteral("  ") : QString()) + tr("Communication:")});
        entries.push_back({commOverlapColor(dark), tr("overlapped by compute")});
    }
    const int box = fm.height() - 4, gap = 6;
    int width = 0;
    for (const auto& [c, label] : entries) width += (c.isValid() ? box + 3 : 0) + fm.horizontalAdvance(label) + gap;
    const QRect r(size.width() - width - 12, contentTop() + 4, width + 6, fm.height() + 4);
    QColor bg = pal.color(QPalette::Window);
    bg.setAlpha(225);
    p.fillRect(r, bg);
    p.setPen(pal.color(QPalette::Mid));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r.adjusted(0, 0, -1, -1));
    p.setPen(pal.color(QPalette::Text));
    int x = r.left() + 4;
    for (const auto& [c, label] : entries) {
        if (c.isValid()) {
            p.fillRect(QRect(x, r.top() + (r.height() - box) / 2, box, box), c);
            x += box + 3;
        }
        p.drawText(QRect(x, r.top(), r.width(), r.height()), Qt::AlignVCenter | Qt::AlignLeft, label);
        x += fm.horizontalAdvance(label) + gap;
    }
}

void TimelineCanvas::paintDerivedRow(QPainter& p, const TrackPaintContext& ctx, const LayoutRow& row, int top,
                                     int areaRight, int viewBottom, const QRect& clip) {
    const QPalette pal = palette();
    const QColor headerBg = pal.color(QPalette::Window);
    const QColor separator = pal.color(QPalette::Mid);
    p.fillRect(0, top, ctl_.headerWidth(), row.height, headerBg);
    p.fillRect(ctl_.headerWidth() - 1, top, 1, row.height, separator);
    const TimelineDerivedTracks* derived = ctl_.derived();
    const DerivedCounterTrack* d =
        derived && row.track < derived->tracks.size() ? &derived->tracks[row.track] : nullptr;
    const QFontMetrics fm(font());
    const int indent = 18;
    const int nameH = ctl_.layout().metrics().sliceRow + 2 * ctl_.layout().metrics().trackPadding;
    p.setPen(pal.color(QPalette::WindowText));
    const QString name = d ? QString::fromStdString(d->name) : QString();
    p.drawText(QRect(indent, top, ctl_.headerWidth() - indent - 6, nameH), Qt::AlignVCenter | Qt::AlignLeft,
               fm.elidedText(name, Qt::ElideMiddle, ctl_.headerWidth() - indent - 8));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    p.setPen(pal.color(QPalette::PlaceholderText));
    const bool memory = !d || d->source == DerivedSource::Memory;
    const QString origin = memory                                                  ? tr("derived · memory profile")
                           : d->source == DerivedSource::Query && !d->error.empty() ? tr("derived · query failed")
                           : d->source == DerivedSource::Query                      ? tr("derived · query")
                                                                                    : tr("derived · HTA queue length");
    p.drawText(QRect(indent, top + nameH - 6, ctl_.headerWidth() - indent - 6, nameH), Qt::AlignVCenter | Qt::AlignLeft,
               origin);
    p.setFont(font());
    p.fillRect(0, top + row.height - 1, areaRight, 1, separator);
    if (!d) return;
    p.setClipRect(clip.intersected(QRect(ctl_.headerWidth(), 0, areaRight - ctl_.headerWidth(), viewBottom)));
    if (!d->error.empty()) {  // a saved query that failed: say why where its samples would be
        p.setPen(pal.color(QPalette::PlaceholderText));
        const QRect area(ctl_.headerWidth() + 6, top, areaRight - ctl_.headerWidth() - 12, row.height - 1);
        p.drawText(area, Qt::AlignVCenter | Qt::AlignLeft,
                   p.fontMetrics().elidedText(tr("The saved query failed: %1").arg(QString::fromStdString(d->error)),
                                              Qt::ElideRight, area.width()));
        return;
    }
    if (d->isSpans()) {
        paintSpanLanes(ctx, d->spans, top, ctl_.layout().metrics().trackPadding, areaRight - ctl_.headerWidth());
        return;
    }
    paintCounterRow(ctx, row, top, memory);
}

void TimelineCanvas::paintCounterRow(const TrackPaintContext& ctx, const LayoutRow& row, int top, bool bytes) {
    const CounterSeries* series = nullptr;
    const CounterRangeIndex* range = nullptr;
    if (!ctl_.counterOf(row, series, range)) return;
    layoutCounter(*series, *range, ctl_.axis(), ctl_.trace()->endNs, ctl_.counterMode(row), counterFrame_);
    const std::string& name = row.kind == LayoutRow::Kind::Derived ? ctl_.derived()->tracks[row.track].name
                                                                   : ctl_.trace()->tracks[row.track].name;
    paintCounterFrame(ctx, counterFrame_, *range, name, top, row.height - 1, bytes);
}

bool TimelineCanvas::inBytes(const LayoutRow& row) const {
    const TimelineDerivedTracks* derived = ctl_.derived();
    return row.kind == LayoutRow::Kind::Derived && derived && row.track < derived->tracks.size() &&
           derived->tracks[row.track].source == DerivedSource::Memory;
}

QString TimelineCanvas::derivedTooltip(const LayoutRow& row, double px, int rowY) const {
    const TimelineDerivedTracks* derived = ctl_.derived();
    if (!derived || row.track >= derived->tracks.size()) return {};
    const DerivedCounterTrack& d = derived->tracks[row.track];
    if (d.isSpans()) {  // the box under the cursor, within 2 px
        const int lane = (rowY - ctl_.layout().metrics().trackPadding) / ctl_.layout().metrics().sliceRow;
        if (lane < 0 || size_t(lane) >= d.spans.lanes.size()) return {};
        const DerivedSpans::Lane& l = d.spans.lanes[size_t(lane)];
        const size_t i = spanAt(l, TimeNs(std::floor(ctl_.axis().time(px))), TimeNs(2 * ctl_.axis().nsPerPx()));
        if (i == SIZE_MAX) return {};
        return tr("<b>%1</b><br>%2 from %3 (after the trace start)<br>a row of the query “%4”")
            .arg(QString::fromStdString(d.spans.names[l.name[i]]).toHtmlEscaped(),
                 formatDuration(l.end[i] - l.start[i]), formatDuration(l.start[i] - ctl_.trace()->startNs),
                 QString::fromStdString(d.name).toHtmlEscaped());
    }
    if (d.source == DerivedSource::Query) {
        const QString sql = QString::fromStdString(d.query.size() > 400 ? d.query.substr(0, 400) + "…" : d.query)
                                .toHtmlEscaped()
                                .replace(QLatin1Char('\n'), QStringLiteral("<br>"));
        if (!d.error.empty())
            return tr("<b>%1</b><br>the saved query failed when run again: %2<br><tt>%3</tt>")
                .arg(QString::fromStdString(d.name).toHtmlEscaped(),
                     QString::fromStdString(d.error).toHtmlEscaped(), sql);
        return tr("<b>%1</b><br>a query's rows (ts and value), added on the Query page:<br><tt>%2</tt>")
            .arg(QString::fromStdString(d.name).toHtmlEscaped(), sql);
    }
    if (d.source == DerivedSource::QueueLength)
        return tr("<b>%1</b><br>operations launched on the stream and not yet started (HTA's queue length: +1 when a "
                  "launch call begins, −1 when its kernel, copy or memset begins)")
            .arg(QString::fromStdString(d.name).toHtmlEscaped());
    if (!derived->memory) return {};
    const MemoryIdProfile& m = derived->memory->ids[d.memoryId];
    if (m.timeline.empty()) return {};
    const TimeNs t = TimeNs(std::floor(ctl_.axis().time(px)));
    if (t < m.timeline.front().time)
        return tr("<b>%1</b><br>no memory event yet").arg(QString::fromStdString(d.name).toHtmlEscaped());
    return QStringLiteral("<b>%1</b><br>").arg(QString::fromStdString(d.name).toHtmlEscaped()) +
           memoryEventText(*ctl_.trace(), m, memorySnapshotAt(m, t));
}

QString TimelineCanvas::counterTooltip(QPoint pos) const {
    const auto point = ctl_.counterAtPoint(pos);
    if (!point) return {};
    const CounterHover& h = point->hover;
    const QString name = QString::fromStdString(ctl_.trace()->tracks[point->row.track].name).toHtmlEscaped();
    if (!h.valid) return tr("<b>%1</b><br>no value here").arg(name);
    QString s = QStringLiteral("<b>%1</b><br>%2").arg(name, counterReadout(h, point->mode, false).toHtmlEscaped());
    s += tr("<br>sample %1 of %2: %3 at %4")
             .arg(h.sample + 1)
             .arg(ctl_.trace()->tracks[point->row.track].counter.size())
             .arg(formatCounterValue(h.sampleValue), formatDurationExact(h.sampleTime));
    if (h.hasNext) s += tr("<br>next: %1 at %2").arg(formatCounterValue(h.nextValue), formatDurationExact(h.nextTime));
    s += point->mode == CounterDrawMode::Line ? tr("<br><i>drawn as a line between samples</i>")
                                              : tr("<br><i>drawn as steps: each value holds until the next sample</i>");
    return s;
}

std::optional<QPointF> TimelineCanvas::flowAnchor(SliceRef s, bool atEnd) const {
    if (!s.valid() || s.track >= ctl_.trace()->tracks.size()) return std::nullopt;
    const Track& track = ctl_.trace()->tracks[s.track];
    const SliceColumns& c = track.slices;
    if (s.index >= c.size()) return std::nullopt;
    const double x = ctl_.headerWidth() + ctl_.axis().x(double(atEnd ? c.end(s.index) : c.start[s.index]));
    if (const LayoutRow* row = ctl_.layout().rowOfTrack(s.track)) {
        const int y = contentTop() + ctl_.layout().depthTop(*row, c.depth(s.index)) -
                      (row->pinned ? 0 : ctl_.scrollY()) + ctl_.layout().metrics().sliceRow / 2;
        return QPointF(x, y);
    }
    if (const LayoutRow* row = ctl_.layout().rowOfProcess(track.process))
        return QPointF(x, contentTop() + row->y - ctl_.scrollY() + row->height / 2.0);
    return std::nullopt;
}

void TimelineCanvas::paintFlows(QPainter& p, QSize size) {
    if (!ctl_.selectedSlice().valid()) return;
    p.setClipRect(
        QRect(ctl_.headerWidth(), contentTop(), size.width() - ctl_.headerWidth(), size.height() - contentTop()));
    const QColor color = isDarkPalette(palette()) ? QColor(120, 200, 255) : QColor(20, 90, 200);
    // An arrow leaves its source where the source starts (a launch call issues it
    // at its start) and points at the destination's start.
    for (uint32_t f : ctl_.trace()->flowsFrom(ctl_.selectedSlice())) {
        const Flow& flow = ctl_.trace()->flows[f];
        auto a = flowAnchor(flow.from, false), b = flowAnchor(flow.to, false);
        if (a && b) paintFlowArrow(p, *a, *b, color);
    }
    for (uint32_t f : ctl_.trace()->flowsTo(ctl_.selectedSlice())) {
        const Flow& flow = ctl_.trace()->flows[f];
        auto a = flowAnchor(flow.from, false), b = flowAnchor(flow.to, false);
        if (a && b) paintFlowArrow(p, *a, *b, color);
    }
    p.setClipping(false);
}

void TimelineCanvas::paintOverlays(QPainter& p, QSize size) {
    const QPalette& pal = palette();
    // Bookmarks: a dashed line through the tracks (their flags are drawn on the ruler).
    const QColor bookmarkColor = isDarkPalette(pal) ? QColor(120, 220, 140) : QColor(20, 140, 60);
    p.setPen(QPen(bookmarkColor, 1, Qt::DashLine));
    for (const Bookmark& b : ctl_.bookmarks()) {
        const double x = ctl_.headerWidth() + ctl_.axis().x(double(b.time));
        if (x >= ctl_.headerWidth() && x <= size.width())
            p.drawLine(QPointF(x, contentTop()), QPointF(x, size.height()));
    }
    // A moment picked on another page (the memory chart): a solid line through the tracks.
    if (const std::optional<TimeNs> m = ctl_.markedMoment()) {
        const double x = ctl_.headerWidth() + ctl_.axis().x(double(*m));
        if (x >= ctl_.headerWidth() && x <= size.width())
            p.fillRect(QRectF(x - 1, contentTop(), 2, size.height() - contentTop()), momentColor(pal));
    }
    // Where a dragged header would drop.
    if (const std::optional<int> y = ctl_.dropIndicatorY())
        p.fillRect(0, *y - 1, size.width(), 3, pal.color(QPalette::Highlight));
    if (ctl_.hasRange()) {
        const double x0 = ctl_.headerWidth() + ctl_.axis().x(double(ctl_.rangeBegin()));
        const double x1 = ctl_.headerWidth() + ctl_.axis().x(double(ctl_.rangeEnd()));
        QColor shade = pal.color(QPalette::Highlight);
        shade.setAlpha(40);
        const double l = std::max<double>(x0, ctl_.headerWidth()), r = std::min<double>(x1, size.width());
        if (r > l) p.fillRect(QRectF(l, contentTop(), r - l, size.height() - contentTop()), shade);
        QColor edge = pal.color(QPalette::Highlight);
        for (double x : {x0, x1})
            if (x >= ctl_.headerWidth() && x <= size.width())
                p.fillRect(QRectF(x, contentTop(), 1, size.height()), edge);
    }
    paintIdleGapLegend(p, size);
    if (ctl_.hoverX() >= ctl_.headerWidth() && ctl_.hoverX() < size.width()) {
        QColor c = pal.color(QPalette::Text);
        c.setAlpha(90);
        p.fillRect(ctl_.hoverX(), contentTop(), 1, size.height() - contentTop(), c);
    }
}

void TimelineCanvas::paintRuler(QPainter& p, QSize size) {
    const QPalette& pal = palette();
    const int h = kRulerHeight;
    p.fillRect(0, 0, size.width(), h, pal.color(QPalette::Window));
    p.fillRect(0, h - 1, size.width(), 1, pal.color(QPalette::Mid));
    const TimeAxis::Ticks ticks = ctl_.axis().ticks(110);
    QFont small = p.font();
    small.setPointSizeF(std::max(7.0, small.pointSizeF() * 0.9));
    p.setFont(small);
    p.setPen(pal.color(QPalette::Text));
    p.setClipRect(QRect(ctl_.headerWidth(), 0, size.width() - ctl_.headerWidth(), h));
    for (double t : ticks.times) {
        const int x = ctl_.headerWidth() + int(std::lround(ctl_.axis().x(t)));
        p.fillRect(x, h - 9, 1, 8, pal.color(QPalette::Text));
        p.drawText(QRect(x + 4, 0, 160, h - 4), Qt::AlignLeft | Qt::AlignVCenter,
                   formatTimeInUnit(t, ticks.unitNs, ticks.decimals));
        // Minor ticks at a fifth of the step.
        for (int k = 1; k < 5; ++k) {
            const int mx = ctl_.headerWidth() + int(std::lround(ctl_.axis().x(t + ticks.step * k / 5)));
            p.fillRect(mx, h - 5, 1, 4, pal.color(QPalette::Mid));
        }
    }
    // Bookmark flags with their labels.
    const QColor bookmarkColor = isDarkPalette(pal) ? QColor(120, 220, 140) : QColor(20, 140, 60);
    for (const Bookmark& b : ctl_.bookmarks()) {
        const int x = ctl_.headerWidth() + int(std::lround(ctl_.axis().x(double(b.time))));
        if (x < ctl_.headerWidth() || x > size.width()) continue;
        const QString label = b.label.empty() ? QStringLiteral("★") : QString::fromStdString(b.label);
        const int w = std::min(200, p.fontMetrics().horizontalAdvance(label) + 8);
        p.fillRect(x, 2, 1, h - 3, bookmarkColor);
        p.fillRect(x + 1, 2, w, 14, bookmarkColor);
        p.setPen(QColor(ColorPalette::textColorOn(bookmarkColor.rgb())));
        p.drawText(QRect(x + 4, 2, w - 4, 14), Qt::AlignVCenter | Qt::AlignLeft,
                   p.fontMetrics().elidedText(label, Qt::ElideRight, w - 6));
    }
    // The marked moment's flag: its time.
    if (const std::optional<TimeNs> m = ctl_.markedMoment()) {
        const int x = ctl_.headerWidth() + int(std::lround(ctl_.axis().x(double(*m))));
        if (x >= ctl_.headerWidth() && x <= size.width()) {
            const QColor c = momentColor(pal);
            const QString label = formatDurationExact(*m);
            const int w = p.fontMetrics().horizontalAdvance(label) + 8;
            p.fillRect(x - 1, 2, 2, h - 3, c);
            p.fillRect(x + 1, 2, w, 14, c);
            p.setPen(QColor(ColorPalette::textColorOn(c.rgb())));
            p.drawText(QRect(x + 4, 2, w - 4, 14), Qt::AlignVCenter | Qt::AlignLeft, label);
        }
    }
    p.setPen(pal.color(QPalette::Text));
    // Range label centred over the selection.
    if (ctl_.hasRange()) {
        const double x0 = ctl_.headerWidth() + ctl_.axis().x(double(ctl_.rangeBegin()));
        const double x1 = ctl_.headerWidth() + ctl_.axis().x(double(ctl_.rangeEnd()));
        const QString label = formatDuration(ctl_.rangeEnd() - ctl_.rangeBegin());
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
    if (ctl_.hoverX() >= ctl_.headerWidth())
        readout =
            tr("cursor %1")
                .arg(formatDurationExact(TimeNs(std::llround(ctl_.axis().time(ctl_.hoverX() - ctl_.headerWidth())))));
    else readout = tr("visible %1").arg(formatDuration(TimeNs(ctl_.axis().end() - ctl_.axis().begin())));
    p.drawText(QRect(8, 0, ctl_.headerWidth() - 12, h - 1), Qt::AlignVCenter | Qt::AlignLeft, readout);
    p.fillRect(ctl_.headerWidth() - 1, 0, 1, h, pal.color(QPalette::Mid));
    p.setFont(QFont());
}

void TimelineCanvas::paintMinimap(QPainter& p, QSize size) {
    const QPalette& pal = palette();
    const bool dark = isDarkPalette(pal);
    const int top = TimelineController::kRulerHeight, h = TimelineController::kMinimapHeight;
    const int left = ctl_.headerWidth(), width = size.width() - left;
    p.fillRect(0, top, size.width(), h, pal.color(QPalette::Window));
    p.fillRect(0, top + h - 1, size.width(), 1, pal.color(QPalette::Mid));
    p.fillRect(left - 1, top, 1, h, pal.color(QPalette::Mid));
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(QRect(8, top, left - 12, h - 1), Qt::AlignVCenter | Qt::AlignLeft, tr("Overview (click to move)"));
    const TimelineIndex* index = ctl_.index();
    if (!index || index->density.empty() || width <= 0) return;
    // Per pixel column the busiest bucket it covers, on a log scale so sparse phases still show.
    const std::vector<uint32_t>& d = index->density;
    uint32_t peak = 1;
    for (uint32_t v : d) peak = std::max(peak, v);
    const double logPeak = std::log1p(double(peak));
    const QColor bar = dark ? QColor(110, 160, 230) : QColor(60, 110, 190);
    std::vector<QRect> bars;  // one batched call: a fillRect per column costs more in painter overhead
    bars.reserve(size_t(width));
    for (int x = 0; x < width; ++x) {
        const size_t b0 = size_t(double(x) / width * double(d.size()));
        const size_t b1 = std::max(b0 + 1, size_t(double(x + 1) / width * double(d.size())));
        uint32_t v = 0;
        for (size_t b = b0; b < std::min(b1, d.size()); ++b) v = std::max(v, d[b]);
        if (!v) continue;
        const int bh = std::max(1, int(std::lround(std::log1p(double(v)) / logPeak * (h - 6))));
        bars.emplace_back(left + x, top + h - 3 - bh, 1, bh);
    }
    p.setPen(Qt::NoPen);
    p.setBrush(bar);
    p.drawRects(bars.data(), int(bars.size()));
    // The visible window.
    const double x0 = std::max<double>(left, ctl_.minimapX(ctl_.axis().begin()));
    const double x1 = std::min<double>(size.width(), ctl_.minimapX(ctl_.axis().end()));
    QColor shade = pal.color(QPalette::Highlight);
    shade.setAlpha(50);
    const QRectF window(x0, top + 1, std::max(2.0, x1 - x0), h - 3);
    p.fillRect(window, shade);
    p.setPen(QPen(pal.color(QPalette::Highlight), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(window);
    // Bookmarks on the overview too.
    const QColor bookmarkColor = dark ? QColor(120, 220, 140) : QColor(20, 140, 60);
    for (const Bookmark& b : ctl_.bookmarks())
        p.fillRect(QRectF(ctl_.minimapX(double(b.time)), top + 1, 1, h - 3), bookmarkColor);
}

// ---------------------------------------------------------------- input

void TimelineCanvas::resizeEvent(QResizeEvent*) { ctl_.setSize(size()); }

void TimelineCanvas::wheelEvent(QWheelEvent* e) {
    if (ctl_.wheel(e->position(), e->angleDelta(), e->modifiers())) e->accept();
}

void TimelineCanvas::mousePressEvent(QMouseEvent* e) {
    setFocus();
    ctl_.press(e->position().toPoint(), e->button(), e->modifiers());
}

void TimelineCanvas::mouseMoveEvent(QMouseEvent* e) {
    ctl_.move(e->position().toPoint(), QApplication::startDragDistance());
}

void TimelineCanvas::mouseReleaseEvent(QMouseEvent* e) { ctl_.release(e->position().toPoint(), e->button()); }

void TimelineCanvas::mouseDoubleClickEvent(QMouseEvent* e) { ctl_.doubleClick(e->position().toPoint()); }

void TimelineCanvas::keyPressEvent(QKeyEvent* e) {
    if (ctl_.key(e->key(), e->modifiers())) e->accept();
    else QWidget::keyPressEvent(e);
}

void TimelineCanvas::leaveEvent(QEvent*) { ctl_.leave(); }

void TimelineCanvas::contextMenuEvent(QContextMenuEvent* e) {
    if (!ctl_.trace()) return;
    QMenu menu(this);
    const LayoutRow* row = ctl_.rowAtPoint(e->pos());
    if (row && row->kind == LayoutRow::Kind::Track) {
        const TrackIndex t = row->track;
        menu.addAction(tr("Hide Track “%1”").arg(trackTitle(ctl_.trace()->tracks[t])), this,
                       [this, t] { ctl_.setTrackHidden(t, true); });
        const bool pinned = ctl_.trackPinned(t);
        menu.addAction(pinned ? tr("Unpin Track") : tr("Pin Track to Top"), this,
                       [this, t, pinned] { ctl_.setTrackPinned(t, !pinned); });
    }
    if (row && row->kind == LayoutRow::Kind::Derived && ctl_.derived() && row->track < ctl_.derived()->tracks.size()) {
        const std::string name = ctl_.derived()->tracks[row->track].name;
        menu.addAction(tr("Hide Track “%1”").arg(QString::fromStdString(name)), this,
                       [this, name] { ctl_.setDerivedHidden(name, true); });
        if (ctl_.derived()->tracks[row->track].source == DerivedSource::Query)
            menu.addAction(tr("Remove Query Track “%1”").arg(QString::fromStdString(name)), this,
                           [this, name] { emit queryTrackRemoveRequested(name); });
    }
    if (row && (row->kind == LayoutRow::Kind::Derived ||
                (row->kind == LayoutRow::Kind::Track && ctl_.trace()->tracks[row->track].kind == TrackKind::Counter))) {
        QMenu* draw = menu.addMenu(tr("Draw Counter As"));
        const LayoutRow r = *row;
        const std::optional<CounterDrawMode> own = ctl_.counterModeOverride(r);
        auto add = [&](const QString& text, std::optional<CounterDrawMode> mode) {
            QAction* a = draw->addAction(text, this, [this, r, mode] { ctl_.setCounterModeOverride(r, mode); });
            a->setCheckable(true);
            a->setChecked(own == mode);
        };
        add(tr("As the View Menu Says"), std::nullopt);
        add(tr("Steps (each value holds until the next sample)"), CounterDrawMode::Step);
        add(tr("Lines (straight between samples)"), CounterDrawMode::Line);
    }
    QMenu* hidden = menu.addMenu(tr("Hidden Tracks (%1)").arg(ctl_.hiddenCount()));
    fillHiddenTracksMenu(*hidden);
    hidden->setEnabled(ctl_.hiddenCount() > 0);
    menu.addSeparator();
    menu.addAction(tr("Collapse All Processes"), this, [this] { ctl_.setAllCollapsed(true); });
    menu.addAction(tr("Expand All Processes"), this, [this] { ctl_.setAllCollapsed(false); });
    menu.addSeparator();
    menu.addAction(tr("Add Bookmark Here\tM"), this, [this] { emit ctl_.bookmarkRequested(ctl_.bookmarkTime()); });
    menu.addAction(tr("Reset Track Layout"), this, [this] { ctl_.resetLayout(); });
    menu.exec(e->globalPos());
}

void TimelineCanvas::fillHiddenTracksMenu(QMenu& menu) {
    menu.clear();
    const std::vector<TrackIndex> hidden = ctl_.hiddenTracks();
    for (TrackIndex t : hidden) {
        const Track& track = ctl_.trace()->tracks[t];
        const QString process = QString::fromStdString(ctl_.trace()->processes[track.process].name);
        menu.addAction(tr("Show %1 › %2").arg(process, trackTitle(track)), this,
                       [this, t] { ctl_.setTrackHidden(t, false); });
    }
    // Derived tracks (memory) by name; one may be hidden before its analysis has delivered it.
    for (const std::string& name : ctl_.hiddenDerived())
        menu.addAction(tr("Show %1").arg(QString::fromStdString(name)), this,
                       [this, name] { ctl_.setDerivedHidden(name, false); });
    const bool none = ctl_.hiddenCount() == 0;
    if (none) menu.addAction(tr("(none: right-click a track to hide it)"))->setEnabled(false);
    menu.addSeparator();
    menu.addAction(tr("Show All Hidden Tracks"), this, [this] { ctl_.showAllTracks(); })->setEnabled(!none);
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
    if (!ctl_.trace() || pos.y() < contentTop()) return {};
    const LayoutRow* row = ctl_.rowAtPoint(pos);
    if (!row) return {};
    if (row->kind == LayoutRow::Kind::Process) {
        const Process& proc = ctl_.trace()->processes[row->process];
        return QStringLiteral("<b>%1</b><br>pid %2<br>%3")
            .arg(QString::fromStdString(proc.name).toHtmlEscaped())
            .arg(proc.pid)
            .arg(processSummary(*ctl_.trace(), proc));
    }
    if (row->kind == LayoutRow::Kind::Derived) {
        if (pos.x() < ctl_.headerWidth()) {
            const TimelineDerivedTracks* derived = ctl_.derived();
            if (derived && row->track < derived->tracks.size() &&
                derived->tracks[row->track].source == DerivedSource::Query)
                return tr("Made from a query's rows on the Query page (not a track of the file)");
            return inBytes(*row) ? tr("Derived by the memory profile from the trace's memory events (not a track of the "
                                      "file)")
                                 : tr("Derived from the stream's launch calls and device activities: HTA's queue length "
                                      "(not a track of the file)");
        }
        QString s = derivedTooltip(*row, pos.x() - ctl_.headerWidth(),
                                   pos.y() - contentTop() - ctl_.layout().viewY(*row, ctl_.scrollY()));
        if (const auto point = ctl_.counterAtPoint(pos); point && point->hover.valid && !s.isEmpty())
            s.replace(QStringLiteral("</b><br>"), QStringLiteral("</b><br>") +
                                                      counterReadout(point->hover, point->mode, inBytes(*row))
                                                          .toHtmlEscaped() +
                                                      QStringLiteral("<br>"));
        return s;
    }
    const Track& track = ctl_.trace()->tracks[row->track];
    if (pos.x() < ctl_.headerWidth()) {
        QString s = QStringLiteral("<b>%1</b><br>tid %2").arg(trackTitle(track).toHtmlEscaped()).arg(track.tid);
        if (!track.slices.empty()) s += tr("<br>%1 slices, max depth %2").arg(track.slices.size()).arg(track.maxDepth);
        if (!track.instants.empty()) s += tr("<br>%1 instants").arg(track.instants.size());
        if (!track.counter.empty()) s += tr("<br>%1 samples").arg(track.counter.size());
        if (track.overflowOf != kNoIndex) s += tr("<br>slices that partially overlap their enclosing slice");
        return s;
    }
    if (track.kind == TrackKind::Counter) return counterTooltip(pos);
    const double px = pos.x() - ctl_.headerWidth();
    const int dy = pos.y() - contentTop() - ctl_.layout().viewY(*row, ctl_.scrollY());
    if (!track.instants.empty() && dy >= ctl_.layout().metrics().trackPadding && dy < row->slicesTop)
        return instantsTooltip(track, px);
    const SliceRef hit = sliceAtPoint(pos);
    if (!hit.valid()) return idleGapTooltip(row->track, px);
    const SliceColumns& c = track.slices;
    const std::string_view name = ctl_.trace()->str(c.name[hit.index]);
    QString s = QStringLiteral("<b>%1</b><br>%2")
                    .arg(QString::fromUtf8(name.data(), qsizetype(name.size())).toHtmlEscaped(),
                         formatDuration(c.duration[hit.index]));
    const std::string_view cat = ctl_.trace()->str(c.category[hit.index]);
    if (!cat.empty()) s += QStringLiteral(" · ") + QString::fromUtf8(cat.data(), qsizetype(cat.size())).toHtmlEscaped();
    if (c.unfinished(hit.index)) s += tr("<br><i>unfinished: no end event, runs to the trace end</i>");
    // A slice under a pixel wide is drawn folded with its neighbours: say how many share the bar here.
    if (ctl_.index() && double(c.duration[hit.index]) < 2 * ctl_.axis().nsPerPx()) {
        const size_t shared = ctl_.index()
                                  ->depths.atDepth(hit.track, c.depth(hit.index))
                                  .countOverlapping(TimeNs(std::floor(ctl_.axis().time(px - 1))),
                                                    TimeNs(std::ceil(ctl_.axis().time(px + 2))));
        if (shared > 1)
            s += tr("<br>%1 slices in this bar at %2 · zoom in to see them")
                     .arg(shared)
                     .arg(formatDuration(TimeNs(std::llround(ctl_.axis().nsPerPx()))) + tr("/px"));
    }
    return s;
}

QString TimelineCanvas::idleGapTooltip(TrackIndex track, double px) const {
    const IdleGapIndex* gaps = ctl_.idleGaps();
    if (!gaps) return {};
    const IdleGap* g = gaps->at(track, TimeNs(std::llround(ctl_.axis().time(px))));
    if (!g) return {};
    QString why;
    switch (g->cause) {
    case IdleCause::HostWait: why = tr("host wait: the next launch call began after the stream's work ended"); break;
    case IdleCause::KernelWait: why = tr("kernel wait: a gap under 30 µs between launched work (launch overhead)"); break;
    case IdleCause::Other: why = tr("other: e.g. waiting on an event, or work whose launch is not in the trace"); break;
    }
    return tr("<b>Stream idle</b> %1<br>%2<br><i>HTA's idle-time attribution; Timeline › Show GPU Idle Gaps</i>")
        .arg(formatDuration(g->end - g->start), why);
}

QString TimelineCanvas::instantsTooltip(const Track& track, double px) const {
    // The instants under the cursor's marker: those within its half-width either side.
    const InstantColumns& in = track.instants;
    const TimeNs t0 = TimeNs(std::floor(ctl_.axis().time(px - 4))), t1 = TimeNs(std::ceil(ctl_.axis().time(px + 4)));
    const auto first = std::lower_bound(in.time.begin(), in.time.end(), t0);
    const auto last = std::upper_bound(first, in.time.end(), t1);
    if (first == last) return {};
    const size_t k = size_t(first - in.time.begin());
    const std::string_view name = ctl_.trace()->str(in.name[k]);
    QString s = QStringLiteral("<b>%1</b><br>instant at %2")
                    .arg(QString::fromUtf8(name.data(), qsizetype(name.size())).toHtmlEscaped(),
                         formatDurationExact(in.time[k]));  // the ruler's time, as the cursor readout
    if (last - first > 1) s += tr("<br>%1 instants here · zoom in to see them").arg(last - first);
    return s;
}

}  // namespace tracescope
