// Flow arrows (declared in track_painter.h).
#include "views/timeline/track_painter.h"

#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace tracescope {

void paintFlowArrow(QPainter& p, QPointF from, QPointF to, const QColor& color) {
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    QPen pen(color, 1.6);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    // A horizontal-tangent curve reads as "time flows right" even for steep arrows.
    const double dx = std::max(30.0, std::fabs(to.x() - from.x()) / 2);
    QPainterPath path(from);
    path.cubicTo(from + QPointF(dx, 0), to - QPointF(dx, 0), to);
    p.drawPath(path);
    // Arrow head along the curve's final direction (horizontal).
    p.setBrush(color);
    p.setPen(Qt::NoPen);
    const QPointF head[3] = {to, to + QPointF(-8, -4), to + QPointF(-8, 4)};
    p.drawPolygon(head, 3);
    p.setBrush(color);
    p.drawEllipse(from, 2.5, 2.5);
    p.restore();
}

}  // namespace tracescope
