// Counter tracks as area charts (declared in track_painter.h), drawn from the
// counter layout step (model/query/counter_layout.h): step runs or a polyline.
#include "views/timeline/track_painter.h"

#include "views/tables/value_format.h"
#include "views/timeline/time_format.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace tracescope {

namespace {

// The plot's pixel rows: 3 px of padding above and below.
struct Plot {
    int top = 0, bottom = 0;
    int y(const CounterScale& s, double v) const { return int(std::lround(bottom - s.fraction(v) * (bottom - top))); }
    double yf(const CounterScale& s, double v) const { return bottom - s.fraction(v) * (bottom - top); }
};

QString formatReading(double v, bool bytes) {
    return bytes && std::isfinite(v) && std::fabs(v) < 9.2e18 ? formatBytes(int64_t(v)) : formatCounterValue(v);
}

}  // namespace

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

QString counterReadout(const CounterHover& h, CounterDrawMode mode, bool bytes) {
    if (!h.valid) return {};
    if (h.columnSamples > 1)
        return QStringLiteral("%1 samples in this pixel: %2 … %3")
            .arg(h.columnSamples)
            .arg(formatReading(h.columnMin, bytes), formatReading(h.columnMax, bytes));
    if (mode == CounterDrawMode::Line && h.hasNext && h.time != h.sampleTime)
        return QStringLiteral("%1 on the line from %2 to %3")
            .arg(formatReading(h.value, bytes), formatDurationExact(h.sampleTime), formatDurationExact(h.nextTime));
    return QStringLiteral("%1 since %2").arg(formatReading(h.value, bytes), formatDurationExact(h.sampleTime));
}

void paintCounterFrame(const TrackPaintContext& ctx, const CounterFrame& frame, const CounterRangeIndex& range,
                       const std::string& name, int top, int height, bool bytes) {
    QPainter& p = *ctx.painter;
    const CounterScale& scale = frame.scale;
    const Plot plot{top + 3, top + height - 3};
    const int baseY = plot.y(scale, 0);
    QColor line = ColorPalette::colorFor(SliceKind::Other, name, ctx.palette->dark());
    line = line.darker(ctx.palette->dark() ? 90 : 140);
    QColor area = line;
    area.setAlpha(110);
    const int left = int(ctx.left);

    if (frame.mode == CounterDrawMode::Step) {
        // Batched rects: zoomed out, every column is a run of its own, and a
        // fillRect per column costs more in painter overhead than in pixels.
        std::vector<QRect> areaRects, lineRects;
        areaRects.reserve(frame.runs.size());
        lineRects.reserve(frame.runs.size() * 2);
        for (size_t k = 0; k < frame.runs.size(); ++k) {
            const CounterRun& r = frame.runs[k];
            const int yMax = plot.y(scale, r.max), yMin = plot.y(scale, r.min);
            areaRects.emplace_back(left + r.x0, std::min(yMax, baseY), r.x1 - r.x0, std::abs(baseY - yMax));
            lineRects.emplace_back(left + r.x0, std::min(yMax, yMin), r.x1 - r.x0, std::max(1, std::abs(yMin - yMax) + 1));
            // The riser from the previous run's value to this one's.
            if (k > 0 && frame.runs[k - 1].x1 == r.x0) {
                const CounterRun& prev = frame.runs[k - 1];
                const int y0 = plot.y(scale, std::max(prev.max, r.max)), y1 = plot.y(scale, std::min(prev.min, r.min));
                if (y1 - y0 > 0) lineRects.emplace_back(left + r.x0, y0, 1, y1 - y0 + 1);
            }
        }
        p.setPen(Qt::NoPen);
        p.setBrush(area);
        p.drawRects(areaRects.data(), int(areaRects.size()));
        p.setBrush(line);
        p.drawRects(lineRects.data(), int(lineRects.size()));
        p.setBrush(Qt::NoBrush);
    } else if (frame.line.size() == 1) {
        // One sample in view and nothing to join it to: a dot.
        const CounterVertex& v = frame.line.front();
        p.fillRect(QRectF(left + v.x - 1.5, plot.yf(scale, v.value) - 1.5, 3, 3), line);
    } else if (!frame.line.empty()) {
        // In chunks of a few dozen vertices: Qt's raster engine strokes and fills one
        // long polyline far more slowly than many short ones (a fit-all frame of a
        // dense counter has up to four vertices per pixel column).
        constexpr size_t kChunk = 48;
        std::vector<QPointF> pts;
        pts.reserve(frame.line.size());
        for (const CounterVertex& v : frame.line) pts.emplace_back(left + v.x, plot.yf(scale, v.value));
        p.setPen(Qt::NoPen);
        p.setBrush(area);
        QPointF poly[kChunk + 3];
        for (size_t b = 0; b + 1 < pts.size(); b += kChunk) {
            const size_t e = std::min(pts.size(), b + kChunk + 1);  // chunks share their end vertex
            std::copy(pts.begin() + ptrdiff_t(b), pts.begin() + ptrdiff_t(e), poly);
            poly[e - b] = QPointF(pts[e - 1].x(), baseY);
            poly[e - b + 1] = QPointF(pts[b].x(), baseY);
            p.drawPolygon(poly, int(e - b + 2));
        }
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(line, 0));
        for (size_t b = 0; b + 1 < pts.size(); b += kChunk)
            p.drawPolyline(pts.data() + b, int(std::min(pts.size(), b + kChunk + 1) - b));
    }

    // Scale labels: the top and (when negative values exist) the bottom of the range.
    p.setPen(ctx.text);
    QFont f = p.font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    p.save();
    p.setFont(f);
    p.drawText(QRect(left + 4, top + 1, 200, 14), Qt::AlignLeft | Qt::AlignTop,
               QStringLiteral("max %1").arg(formatReading(range.globalMax(), bytes)));
    if (range.globalMin() < 0)
        p.drawText(QRect(left + 4, top + height - 15, 200, 14), Qt::AlignLeft | Qt::AlignBottom,
                   QStringLiteral("min %1").arg(formatReading(range.globalMin(), bytes)));
    p.restore();
}

void paintCounterHover(const TrackPaintContext& ctx, const CounterHover& hover, const CounterScale& scale,
                       CounterDrawMode mode, double x, int top, int height, int areaRight, bool bytes) {
    if (!hover.valid) return;
    QPainter& p = *ctx.painter;
    const Plot plot{top + 3, top + height - 3};
    const double cx = ctx.left + x;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    // Zoomed out, the cursor's column spans several samples: mark their extent.
    if (hover.columnSamples > 1)
        p.fillRect(QRectF(cx - 1, plot.yf(scale, hover.columnMax), 3,
                          std::max(1.0, plot.yf(scale, hover.columnMin) - plot.yf(scale, hover.columnMax))),
                   ctx.accent);
    // Step: the held segment from its sample to the cursor.
    if (mode == CounterDrawMode::Step && hover.columnSamples <= 1) {
        const double sx = std::max(ctx.left, ctx.left + ctx.axis->x(double(hover.sampleTime)));
        p.setPen(QPen(ctx.accent, 2));
        p.drawLine(QPointF(sx, plot.yf(scale, hover.value)), QPointF(cx, plot.yf(scale, hover.value)));
    }
    const QPointF dot(cx, plot.yf(scale, hover.value));
    p.setPen(QPen(ctx.background, 1.5));
    p.setBrush(ctx.accent);
    p.drawEllipse(dot, 4, 4);
    p.setRenderHint(QPainter::Antialiasing, false);

    // The readout beside the marker, flipped left near the right edge.
    QFont f = p.font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    p.setFont(f);
    const QString text = counterReadout(hover, mode, bytes);
    const QFontMetrics fm(f);
    const int w = fm.horizontalAdvance(text) + 10, h = fm.height() + 2;
    int bx = int(cx) + 10;
    if (bx + w > areaRight - 2) bx = int(cx) - 10 - w;
    const int by = std::clamp(int(dot.y()) - h / 2, top + 1, top + height - h - 1);
    QColor box = ctx.background;
    box.setAlpha(230);
    p.fillRect(QRect(bx, by, w, h), box);
    p.setPen(ctx.accent);
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRect(bx, by, w - 1, h - 1));
    p.setPen(ctx.text);
    p.drawText(QRect(bx + 5, by, w - 10, h), Qt::AlignVCenter | Qt::AlignLeft, text);
    p.restore();
}

}  // namespace tracescope
