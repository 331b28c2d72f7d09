// Counter tracks as area charts (declared in track_painter.h).
#include "views/timeline/track_painter.h"

#include "model/trace/gallop.h"
#include "views/tables/value_format.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace tracescope {

QString formatCounterValue(double v) {
    const double a = std::fabs(v);
    struct S {
        double scale;
        const char* suffix;
    };
    for (S s : {S{1e12, "T"}, S{1e9, "G"}, S{1e6, "M"}, S{1e3, "k"}}) {
        if (a >= s.scale) return QString::number(v / s.scale, 'g', 3) + QLatin1String(s.suffix);
    }
    return QString::number(v, 'g', 4);
}

void paintCounter(const TrackPaintContext& ctx, TrackIndex t, int top, int height) {
    const Track& track = ctx.trace->tracks[t];
    paintCounterSeries(ctx, track.counter, ctx.index->counters[t], track.name, top, height, false);
}

void paintCounterSeries(const TrackPaintContext& ctx, const CounterSeries& s, const CounterRangeIndex& range,
                        const std::string& name, int top, int height, bool bytes) {
    const Trace& trace = *ctx.trace;
    if (s.empty() || range.size() != s.size()) return;
    QPainter& p = *ctx.painter;
    const TimeAxis& axis = *ctx.axis;

    const double lo = std::min(0.0, range.globalMin());
    double hi = std::max(0.0, range.globalMax());
    if (hi <= lo) hi = lo + 1;
    const int plotTop = top + 3, plotBottom = top + height - 3;
    auto yOf = [&](double v) {
        return int(std::lround(plotBottom - (std::clamp(v, lo, hi) - lo) / (hi - lo) * (plotBottom - plotTop)));
    };
    const int baseY = yOf(0);
    QColor line = ColorPalette::colorFor(SliceKind::Other, name, ctx.palette->dark());
    line = line.darker(ctx.palette->dark() ? 90 : 140);
    QColor area = line;
    area.setAlpha(110);

    // Walk pixel columns; a sample run that spans many columns is drawn as one rect.
    const int width = axis.width();
    const double traceEnd = double(trace.endNs);
    int x = std::max(0, int(std::floor(axis.x(double(s.time.front())))));
    const int xEnd = std::min(width, int(std::ceil(axis.x(traceEnd))) + 1);
    // Columns go left to right, so each search gallops on from the previous
    // column's samples instead of bisecting the whole series.
    auto searchFrom = s.time.begin();
    std::vector<QRect> areaRects, lineRects;
    while (x < xEnd) {
        const double t0 = axis.time(x), t1 = axis.time(x + 1);
        // Last sample at or before t0 (the value carried into the column).
        auto after = gallopUpperBound(searchFrom, s.time.end(), TimeNs(std::floor(t0)));
        size_t first = after == s.time.begin() ? 0 : size_t(after - s.time.begin()) - 1;
        searchFrom = s.time.begin() + ptrdiff_t(first);
        const size_t endIdx = size_t(gallopLowerBound(searchFrom, s.time.end(), TimeNs(std::ceil(t1))) - s.time.begin());
        double mn, mx;
        int runEnd = x + 1;
        if (endIdx <= first + 1) {
            // No new sample in this column: the value holds until the next sample.
            mn = mx = s.value[first];
            if (!std::isfinite(mn)) mn = mx = 0;
            const double next = first + 1 < s.size() ? double(s.time[first + 1]) : traceEnd;
            runEnd = std::clamp(int(std::floor(axis.x(next))), x + 1, xEnd);
        } else if (!range.minMax(first, endIdx, mn, mx)) {
            ++x;
            continue;
        }
        const int yMax = yOf(mx), yMin = yOf(mn);
        areaRects.emplace_back(x + int(ctx.left), std::min(yMax, baseY), runEnd - x, std::abs(baseY - yMax));
        lineRects.emplace_back(x + int(ctx.left), std::min(yMax, yMin), runEnd - x, std::max(1, std::abs(yMin - yMax) + 1));
        x = runEnd;
    }
    // Two batched calls: zoomed out, every column is a run of its own, and a
    // fillRect per column costs more in painter overhead than in pixels.
    p.setPen(Qt::NoPen);
    p.setBrush(area);
    p.drawRects(areaRects.data(), int(areaRects.size()));
    p.setBrush(line);
    p.drawRects(lineRects.data(), int(lineRects.size()));
    p.setBrush(Qt::NoBrush);
    // Scale labels: the top and (when negative values exist) the bottom of the range.
    p.setPen(ctx.text);
    QFont f = p.font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    p.save();
    p.setFont(f);
    p.drawText(QRect(int(ctx.left) + 4, top + 1, 200, 14), Qt::AlignLeft | Qt::AlignTop,
               QStringLiteral("max %1").arg(bytes ? formatBytes(int64_t(range.globalMax())) : formatCounterValue(range.globalMax())));
    if (range.globalMin() < 0)
        p.drawText(QRect(int(ctx.left) + 4, top + height - 15, 200, 14), Qt::AlignLeft | Qt::AlignBottom,
                   QStringLiteral("min %1").arg(formatCounterValue(range.globalMin())));
    p.restore();
}

}  // namespace tracescope
