// Slices and instants of one track (declared in track_painter.h).
#include "views/timeline/track_painter.h"

#include "model/trace/gallop.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace tracescope {

namespace {

constexpr int kMinLabelWidth = 28;  // px: narrower slices get no text
constexpr double kFoldWidth = 2.0;  // px: narrower slices fold into bars
constexpr int kFoldJump = 3;        // px: a fold absorbs slices starting this close to it
constexpr double kMarkerMergeGap = 2.0;  // px: instant markers this close merge (their zigzag would not show)

QColor blend(QColor a, const QColor& b, double t) {
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

}  // namespace

bool TimelineHighlight::contains(const Trace& trace, SliceRef s) const {
    if (!nameMatches.empty()) {
        const StringId name = trace.tracks[s.track].slices.name[s.index];
        if (name < nameMatches.size() && nameMatches[name]) return true;
    }
    return !refs.empty() && refs.count(key(s));
}

const QString& NameCache::get(const Trace& trace, StringId id) {
    auto it = names_.find(id);
    if (it == names_.end()) {
        const std::string_view s = trace.str(id);
        it = names_.insert(id, QString::fromUtf8(s.data(), qsizetype(s.size())));
    }
    return it.value();
}

void paintSliceTrack(const TrackPaintContext& ctx, TrackIndex t, int top, uint32_t firstDepth, uint32_t endDepth) {
    QPainter& p = *ctx.painter;
    const Trace& trace = *ctx.trace;
    const SliceColumns& c = trace.tracks[t].slices;
    const SliceDepthIndex& index = ctx.index->depths;
    const TimeAxis& axis = *ctx.axis;
    const bool onDevice = ctx.index->onDevice[t];
    const bool highlighting = ctx.highlight && ctx.highlight->active();
    const double right = ctx.left + axis.width();
    const QFontMetrics fm(p.font());
    const int h = ctx.rowHeight - 1;  // 1 px gap between levels
    endDepth = std::min(endDepth, index.depthCount(t));

    struct Outline {
        QRectF rect;
        bool selected;
    };
    std::vector<Outline> outlines;

    for (uint32_t d = firstDepth; d < endDepth; ++d) {
        const SliceDepthIndex::Level level = index.atDepth(t, d);
        const int y = top + int(d) * ctx.rowHeight;
        // An open fold: pixel columns [foldX0, foldX1) holding only narrow slices.
        int foldX0 = 0, foldX1 = -1;
        QRgb foldRgb = 0;
        bool foldMatch = false;  // a member we looked at is highlighted (we never scan them all)
        auto flushFold = [&] {
            if (foldX1 <= foldX0) return;
            // Folded runs are drawn desaturated: "many small slices here, zoom in".
            QColor fc = blend(QColor(foldRgb), QColor(128, 128, 128), 0.45);
            if (highlighting && !foldMatch) fc = blend(fc, ctx.background, 0.6);
            p.fillRect(foldX0, y, foldX1 - foldX0, h, fc);
            if (foldMatch) p.fillRect(foldX0, y + h - 3, foldX1 - foldX0, 3, ctx.accent);
            foldX1 = -1;
            foldMatch = false;
        };
        // A slice at least kFoldWidth px wide: its own box, seam, label and outline.
        auto drawSlice = [&](uint32_t k, double x0, double x1) {
            const SliceRef ref{t, k};
            const int ix0 = int(std::floor(std::max(x0, ctx.left - 2)));
            const int ix1 = int(std::ceil(std::min(x1, right + 2)));
            // Leave a 1 px seam between neighbours that are wide enough to spare it.
            const int w = (ix1 - ix0) >= 4 ? ix1 - ix0 - 1 : ix1 - ix0;
            const QRect rect(ix0, y, w, h);
            QColor fill(ctx.palette->sliceColor(trace, c.name[k], c.category[k], onDevice));
            const bool match = highlighting && ctx.highlight->contains(trace, ref);
            if (highlighting && !match) fill = blend(fill, ctx.background, 0.7);
            p.fillRect(rect, fill);
            if (c.unfinished(k)) p.fillRect(rect, QBrush(QColor(0, 0, 0, 90), Qt::BDiagPattern));
            const bool selected = ref == ctx.selected;
            if (selected || match) outlines.push_back({QRectF(rect), selected});
            if (w >= kMinLabelWidth) {
                const QRect textRect = rect.adjusted(3, 0, -3, 0);
                const QString label = fm.elidedText(ctx.names->get(trace, c.name[k]), Qt::ElideRight, textRect.width());
                if (!label.isEmpty()) {
                    p.setPen(QColor(ColorPalette::textColorOn(fill.rgb())));
                    p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft, label);
                }
            }
        };
        // Zoomed out far enough that a pixel spans a whole bucket of a coarse level:
        // walk the buckets instead of the slices, so the cost does not grow with the
        // trace. A bucket counts as a match when its longest slice does (a sample,
        // as the exact path's folds are).
        const SliceDepthMipmap::Level coarse = ctx.index->coarse.levelFor(t, d, axis.nsPerPx());
        if (coarse.valid()) {
            const double pxPerNs = 1.0 / axis.nsPerPx();
            size_t b = coarse.bucketOf(TimeNs(std::floor(axis.begin())));
            const size_t bEnd = std::min(coarse.size(), coarse.bucketOf(TimeNs(std::ceil(axis.end()))) + 1);
            // A covered bucket whose longest slice lasts at most narrowMax + 1 bucket
            // widths is under kFoldWidth px: narrow without a look at the event columns.
            const int narrowMax =
                std::min(254, int(std::floor(kFoldWidth / (double(coarse.width) * pxPerNs))) - 1);
            auto narrow = [&](size_t bucket) { return int(coarse.widths[bucket]) <= narrowMax; };
            auto bucketMatches = [&](size_t bucket) {
                if (!highlighting) return false;
                const TimelineHighlight& hl = *ctx.highlight;
                const StringId name = coarse.names[bucket];
                if (name < hl.nameMatches.size() && hl.nameMatches[name]) return true;
                return !hl.refs.empty() && hl.refs.count(TimelineHighlight::key({t, coarse.rep[bucket]})) > 0;
            };
            while (b < bEnd) {
                const uint32_t k = coarse.rep[b];
                if (k == SliceDepthMipmap::kNone) {
                    ++b;
                    continue;
                }
                if (!narrow(b)) {
                    const double x0 = ctx.left + axis.x(double(c.start[k]));
                    const double x1 = ctx.left + axis.x(double(c.end(k)));
                    if (x1 - x0 >= kFoldWidth) {
                        flushFold();
                        drawSlice(k, x0, x1);
                        // Continue after it; the bucket holding its end may hold narrow
                        // slices after it, less than a pixel wide together.
                        b = std::max(b + 1, coarse.bucketOf(c.end(k)));
                        if (b < coarse.size() && coarse.rep[b] == k) ++b;
                        continue;
                    }
                }
                // Narrow: this bucket and the covered narrow ones right after it join the
                // open fold (bridging a one-column gap, as the exact path's kFoldJump-column
                // jumps do) or start a new one. The run is found from the level alone.
                // A fold is marked as a match when any bucket in it matches, as on the exact path.
                bool match = bucketMatches(b);
                size_t e = b + 1;
                while (e < bEnd && coarse.rep[e] != SliceDepthMipmap::kNone && narrow(e)) {
                    if (highlighting && !match) match = bucketMatches(e);
                    ++e;
                }
                const int col0 = int(std::floor(std::max(ctx.left + axis.x(double(coarse.bucketStart(b))), ctx.left - 2)));
                const int col1 = std::max(col0 + 1, int(std::ceil(ctx.left + axis.x(double(coarse.bucketStart(e))))));
                if (foldX1 >= 0 && col0 <= foldX1 + 1) {
                    foldX1 = std::max(foldX1, col1);
                } else {
                    flushFold();
                    foldX0 = col0;
                    foldX1 = col1;
                    foldRgb = ctx.palette->sliceColor(trace, c.name[k], c.category[k], onDevice);
                }
                foldMatch = foldMatch || match;
                b = e;
            }
            flushFold();
            continue;
        }
        size_t i = level.firstEndingAfter(TimeNs(std::floor(axis.begin())));
        const double windowEnd = axis.end();
        while (i < level.size()) {
            const uint32_t k = level[i];
            const double start = double(c.start[k]);
            if (start >= windowEnd) break;
            const double x0 = ctx.left + axis.x(start);
            const double x1 = ctx.left + axis.x(start + double(c.duration[k]));
            if (x1 - x0 < kFoldWidth) {
                // Narrow: fold every slice starting in this pixel column into the bar, then jump.
                const int col = int(std::floor(x0));
                if (foldX1 >= 0 && col <= foldX1) {
                    foldX1 = std::max(foldX1, col + 1);
                } else {
                    flushFold();
                    foldX0 = col;
                    foldX1 = col + 1;
                    foldRgb = ctx.palette->sliceColor(trace, c.name[k], c.category[k], onDevice);
                }
                // Absorb every slice starting within the next kFoldJump columns (gaps that
                // small do not show at this zoom anyway): one search per kFoldJump pixels.
                const TimeNs nextColumn = TimeNs(std::ceil(axis.time(double(col + kFoldJump) - ctx.left)));
                if (highlighting) foldMatch = foldMatch || ctx.highlight->contains(trace, {t, k});
                TimeNs absorbedEnd = -1;
                const TimeNs slack = TimeNs(std::ceil(axis.nsPerPx()));
                const size_t j = std::max(i + 1, level.skipStartingBefore(nextColumn, slack, i + 1, &absorbedEnd));
                if (absorbedEnd >= 0) {
                    // Skipped by whole blocks: every absorbed slice ends by absorbedEnd (< 1 px past the jump).
                    foldX1 = std::max(foldX1, int(std::ceil(ctx.left + axis.x(double(absorbedEnd)))));
                    i = j;
                    continue;
                }
                // The last slice absorbed may reach further (same-depth slices never
                // overlap, so only that one can): draw it if wide, else extend the bar over it.
                const uint32_t last = level[j - 1];
                if (highlighting)
                    foldMatch = foldMatch || ctx.highlight->contains(trace, {t, last});
                const double lastX0 = ctx.left + axis.x(double(c.start[last]));
                const double lastX1 = ctx.left + axis.x(double(c.end(last)));
                if (j - 1 > i && lastX1 - lastX0 >= kFoldWidth) {
                    foldX1 = std::max(foldX1, int(std::ceil(lastX0)));
                    i = j - 1;
                } else {
                    foldX1 = std::max(foldX1, int(std::ceil(std::max(lastX0 + 1, lastX1))));
                    i = j;
                }
                continue;
            }
            flushFold();
            ++i;
            drawSlice(k, x0, x1);
        }
        flushFold();
    }
    // Outlines last so neighbours do not paint over them.
    for (const Outline& o : outlines) {
        QPen pen(o.selected ? ctx.text : ctx.accent, o.selected ? 2.0 : 1.5);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawRect(o.rect.adjusted(0.5, 0.5, -0.5, -0.5));
    }
}

void paintInstants(const TrackPaintContext& ctx, TrackIndex t, int top, int height) {
    QPainter& p = *ctx.painter;
    const Trace& trace = *ctx.trace;
    const InstantColumns& in = trace.tracks[t].instants;
    if (in.empty()) return;
    const TimeAxis& axis = *ctx.axis;
    const double w = axis.width();
    const double size = std::min(height, 7);  // the marker strip above a thread's slices
    const double half = size / 2;
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(Qt::NoPen);
    // A run of markers closer than kMarkerMergeGap is drawn as one shape, the
    // union of their triangles: a trapezoid from the first to the last.
    double runX0 = 0, runX1 = -1;
    QRgb runRgb = 0;
    auto flushRun = [&] {
        if (runX1 < runX0) return;
        p.setBrush(QColor::fromRgba(runRgb));
        const QPointF shape[4] = {{runX0 - half, double(top)}, {runX1 + half, double(top)},
                                  {runX1, double(top) + size}, {runX0, double(top) + size}};
        p.drawPolygon(shape, runX1 > runX0 ? 4 : 3);
        runX1 = -1;
    };
    // One marker per pixel column that holds at least one instant: a galloping
    // search from the last one finds the next column's first instant.
    auto it = std::lower_bound(in.time.begin(), in.time.end(), TimeNs(std::floor(axis.begin())));
    while (it != in.time.end()) {
        const double x = axis.x(double(*it));
        if (x > w) break;
        const double cx = ctx.left + std::floor(x) + 0.5;
        if (runX1 >= 0 && cx - runX1 <= kMarkerMergeGap) {
            runX1 = cx;
        } else {
            flushRun();
            runX0 = runX1 = cx;
            runRgb = ctx.palette->instantColor(trace, in.name[size_t(it - in.time.begin())]);
        }
        const TimeNs nextColumn = TimeNs(std::ceil(axis.time(std::floor(x) + 1)));
        it = gallopLowerBound(it + 1, in.time.end(), nextColumn);
    }
    flushRun();
    p.setRenderHint(QPainter::Antialiasing, false);
}

}  // namespace tracescope
