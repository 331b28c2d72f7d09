// Slices, folded runs and instant markers of one frame row (declared in track_painter.h).
#include "views/timeline/track_painter.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace tracescope {

namespace {

QColor blend(QColor a, const QColor& b, double t) {
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

}  // namespace

const QString& NameCache::get(const Trace& trace, StringId id) {
    auto it = names_.find(id);
    if (it == names_.end()) {
        std::string_view s = trace.str(id);
        if (shortNames_)
            if (auto sh = shortNames_->find(id); sh != shortNames_->end()) s = sh->second;
        it = names_.insert(id, QString::fromUtf8(s.data(), qsizetype(s.size())));
    }
    return it.value();
}

void paintFrameRow(const TrackPaintContext& ctx, const FrameLayout& frame, const FrameRow& row) {
    QPainter& p = *ctx.painter;
    const Trace& trace = *ctx.trace;
    const int left = int(ctx.left);
    const int h = ctx.rowHeight - 1;  // 1 px gap between levels
    const bool highlighting = frame.highlighting;
    if (row.boxEnd > row.boxBegin) {
        const TrackIndex t = frame.boxes[row.boxBegin].track;
        const SliceColumns& c = trace.tracks[t].slices;
        const bool onDevice = ctx.index->onDevice[t];
        const QFontMetrics fm(p.font());
        for (uint32_t i = row.boxBegin; i < row.boxEnd; ++i) {
            const FrameBox& b = frame.boxes[i];
            const QRect rect(left + b.x0, ctx.top + b.y, b.x1 - b.x0, h);
            QColor fill(ctx.palette->sliceColor(trace, c.name[b.slice], c.category[b.slice], onDevice));
            if (b.folded()) {
                // Folded runs are drawn desaturated: "many small slices here, zoom in".
                fill = blend(fill, QColor(128, 128, 128), 0.45);
                if (highlighting && !b.match()) fill = blend(fill, ctx.background, 0.6);
                p.fillRect(rect, fill);
                if (b.match()) p.fillRect(rect.x(), rect.y() + h - 3, rect.width(), 3, ctx.accent);
                continue;
            }
            if (highlighting && !b.match()) fill = blend(fill, ctx.background, 0.7);
            p.fillRect(rect, fill);
            if (c.unfinished(b.slice)) p.fillRect(rect, QBrush(QColor(0, 0, 0, 90), Qt::BDiagPattern));
            if (b.label()) {
                const QRect textRect = rect.adjusted(3, 0, -3, 0);
                const QString label = fm.elidedText(ctx.names->get(trace, c.name[b.slice]), Qt::ElideRight, textRect.width());
                if (!label.isEmpty()) {
                    p.setPen(QColor(ColorPalette::textColorOn(fill.rgb())));
                    p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft, label);
                }
            }
        }
        // Outlines last so neighbours do not paint over them.
        for (uint32_t i = row.boxBegin; i < row.boxEnd; ++i) {
            const FrameBox& b = frame.boxes[i];
            if (b.folded() || !(b.selected() || b.match())) continue;
            const QRectF rect(left + b.x0, ctx.top + b.y, b.x1 - b.x0, h);
            p.setPen(QPen(b.selected() ? ctx.text : ctx.accent, b.selected() ? 2.0 : 1.5));
            p.setBrush(Qt::NoBrush);
            p.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5));
        }
    }
    if (row.instantEnd > row.instantBegin) {
        // Thin ticks; a merged run is one bar from its first to its last tick.
        for (uint32_t i = row.instantBegin; i < row.instantEnd; ++i) {
            const FrameInstants& r = frame.instants[i];
            const QColor color = QColor::fromRgba(ctx.palette->instantColor(trace, r.name));
            const int x0 = int(std::floor(ctx.left + r.x0)), x1 = int(std::floor(ctx.left + r.x1));
            p.fillRect(x0, ctx.top + r.y, x1 - x0 + 1, r.size, color);
        }
    }
}

}  // namespace tracescope
