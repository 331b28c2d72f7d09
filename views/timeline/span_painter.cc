#include "model/query/span_lanes.h"
#include "views/timeline/track_painter.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace tracescope {

void paintSpanLanes(const TrackPaintContext& ctx, const DerivedSpans& spans, int top, int padding, int areaWidth) {
    QPainter& p = *ctx.painter;
    const TimeAxis& axis = *ctx.axis;
    const int left = int(ctx.left);
    const int h = ctx.rowHeight - 1;
    const QFontMetrics fm(p.font());
    // The window as whole ns, one pixel wider on each side (a box ending in the first pixel shows).
    const TimeNs t0 = TimeNs(std::floor(axis.time(-1))), t1 = TimeNs(std::ceil(axis.time(areaWidth + 1)));
    for (size_t lane = 0; lane < spans.lanes.size(); ++lane) {
        const DerivedSpans::Lane& l = spans.lanes[lane];
        const int y = top + padding + int(lane) * ctx.rowHeight;
        const auto [first, last] = spansInWindow(l, t0, t1);
        int drawnTo = INT32_MIN;  // boxes inside a pixel already drawn are not drawn again
        for (size_t i = first; i < last; ++i) {
            if (l.end[i] < t0) continue;
            const double x0 = std::max(-1.0, axis.x(double(l.start[i])));
            const double x1 = std::min(double(areaWidth) + 1, axis.x(double(l.end[i])));
            const int px0 = int(std::floor(x0)), px1 = std::max(px0 + 1, int(std::ceil(x1)));
            if (px1 <= drawnTo) continue;
            // Coloured per box drawn (at most a few per pixel column), not per name: a result may
            // hold millions of distinct names.
            const std::string& name = spans.names[l.name[i]];
            const QColor color = ColorPalette::colorFor(SliceKind::Other, name, ctx.palette->dark());
            const QRect rect(left + std::max(px0, drawnTo), y, px1 - std::max(px0, drawnTo), h);
            p.fillRect(rect, color);
            drawnTo = px1;
            if (rect.width() > 24) {
                const QRect textRect = rect.adjusted(3, 0, -3, 0);
                const QString label = fm.elidedText(QString::fromStdString(name), Qt::ElideRight, textRect.width());
                if (!label.isEmpty()) {
                    p.setPen(QColor(ColorPalette::textColorOn(color.rgb())));
                    p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft, label);
                }
            }
        }
    }
}

}  // namespace tracescope
