#include "views/pod/straggler_heatmap.h"

#include "views/pod/label_stride.h"
#include "views/tables/value_format.h"
#include "views/timeline/color_palette.h"
#include "views/theme_colors.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace tracescope {

namespace {
constexpr int kLegendHeight = 26;
constexpr double kFullRed = 0.5;  // +50% over the median is the deepest colour

// ratio = duration / median - 1. The scale starts near the window's own background
// (light or dark, following the palette) so a dark window has no white block in it.
QColor lagColour(double ratio, bool dark) {
    const double t = std::clamp(ratio / kFullRed, 0.0, 1.0);
    const QColor lo = dark ? QColor(0x3c, 0x3c, 0x40) : QColor(0xf7, 0xf7, 0xf7), hi(0xb2, 0x18, 0x2b);
    return QColor::fromRgbF(lo.redF() + (hi.redF() - lo.redF()) * t, lo.greenF() + (hi.greenF() - lo.greenF()) * t,
                            lo.blueF() + (hi.blueF() - lo.blueF()) * t);
}
}  // namespace

StragglerHeatmap::StragglerHeatmap(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumHeight(120);
}

void StragglerHeatmap::setData(HeatmapData data) {
    data_ = std::move(data);
    updateGeometry();
    update();
}

QSize StragglerHeatmap::sizeHint() const { return {600, std::min(700, 60 + 14 * int(data_.workers.size()))}; }
QSize StragglerHeatmap::minimumSizeHint() const { return {240, 120}; }

QRect StragglerHeatmap::grid() const {
    const QFontMetrics fm(font());
    int labelWidth = 0;
    for (const QString& w : data_.workers) labelWidth = std::max(labelWidth, fm.horizontalAdvance(w));
    const int left = std::min(labelWidth + 10, width() / 3), top = fm.height() + 6;
    return QRect(left, top, std::max(10, width() - left - 8), std::max(10, height() - top - kLegendHeight - 6));
}

bool StragglerHeatmap::cellAt(const QPoint& p, int& worker, int& step) const {
    const QRect g = grid();
    if (!g.contains(p) || data_.workers.isEmpty() || data_.steps.isEmpty()) return false;
    worker = std::min(int(data_.workers.size()) - 1, int((p.y() - g.top()) * data_.workers.size() / g.height()));
    step = std::min(int(data_.steps.size()) - 1, int((p.x() - g.left()) * data_.steps.size() / g.width()));
    return true;
}

QString StragglerHeatmap::cellText(int w, int s) const {
    const auto& d = data_.durations[size_t(w)][size_t(s)];
    if (!d) return tr("%1, step %2: no such step").arg(data_.workers[w], data_.steps[s]);
    const qint64 median = data_.medians[size_t(s)];
    const qint64 lag = *d - median;
    return tr("%1, step %2: %3\nmedian worker %4, %5%6 (%7)\nclick: open in the timeline")
        .arg(data_.workers[w], data_.steps[s], formatDuration(*d), formatDuration(median), lag >= 0 ? "+" : "−",
             formatDuration(std::abs(lag)),
             median > 0 ? formatPercent(100.0 * double(lag) / double(median)) : QStringLiteral("-"));
}

void StragglerHeatmap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (data_.workers.isEmpty() || data_.steps.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No steps"));
        return;
    }
    const QRect g = grid();
    const bool dark = isDarkPalette(palette());
    const int nw = int(data_.workers.size()), ns = int(data_.steps.size());
    const double cw = double(g.width()) / ns, ch = double(g.height()) / nw;
    for (int w = 0; w < nw; ++w)
        for (int s = 0; s < ns; ++s) {
            const QRectF cell(g.left() + s * cw, g.top() + w * ch, cw, ch);
            const auto& d = data_.durations[size_t(w)][size_t(s)];
            const qint64 median = data_.medians[size_t(s)];
            if (!d) p.fillRect(cell, QBrush(palette().color(QPalette::Mid), Qt::BDiagPattern));
            else p.fillRect(cell, lagColour(median > 0 ? double(*d - median) / double(median) : 0, dark));
            if (cw > 6 && ch > 6) {
                p.setPen(QPen(palette().color(QPalette::Window), 1));
                p.drawRect(cell);
            }
            // Room for the numbers: the step time and how far over the median.
            if (d && cw > 90 && ch > 2.2 * fontMetrics().height()) {
                const double ratio = median > 0 ? double(*d - median) / double(median) : 0;
                p.setPen(QColor(ColorPalette::textColorOn(lagColour(ratio, dark).rgb())));
                p.drawText(cell, Qt::AlignCenter,
                           QStringLiteral("%1\n%2%3").arg(formatDuration(*d), ratio >= 0 ? "+" : "−",
                                                          formatPercent(std::abs(ratio) * 100)));
            }
        }
    // Labels: workers on the left (every n-th when rows are thin), steps on top.
    const QFontMetrics fm(font());
    p.setPen(palette().color(QPalette::Text));
    // Thinned to what fits (cells can be narrower than a pixel: 500 steps in 300 px), each label
    // centred on its row or column and kept inside the widget.
    const long everyW = labelStride(ch, fm.height(), 2);
    for (long w = 0; w < nw; w += everyW)
        p.drawText(QRectF(0, g.top() + (double(w) + 0.5) * ch - fm.height() / 2.0, g.left() - 6, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, fm.elidedText(data_.workers[w], Qt::ElideRight, g.left() - 6));
    int widest = 0;
    for (const QString& s : data_.steps) widest = std::max(widest, fm.horizontalAdvance(s));
    const long everyS = labelStride(cw, widest);
    for (long s = 0; s < ns; s += everyS) {
        const double centre = g.left() + (double(s) + 0.5) * cw;
        const double left = std::clamp(centre - widest / 2.0 - 1, 0.0, std::max(0.0, double(width() - widest - 2)));
        p.drawText(QRectF(left, 0, widest + 2, g.top() - 2), Qt::AlignHCenter | Qt::AlignBottom, data_.steps[s]);
    }
    // Legend.
    const QRect legend(g.left(), g.bottom() + 8, std::min(140, g.width() / 3), 10);
    for (int x = 0; x < legend.width(); ++x)
        p.fillRect(QRect(legend.left() + x, legend.top(), 1, legend.height()),
                   lagColour(kFullRed * x / std::max(1, legend.width() - 1), dark));
    p.setPen(palette().color(QPalette::Text));
    p.drawRect(legend.adjusted(0, 0, -1, -1));
    const QRect text(legend.right() + 8, legend.top() - 4, std::max(0, width() - legend.right() - 12), 18);
    p.drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(tr("step time over the median worker: 0 … +50%"), Qt::ElideRight, text.width()));
}

void StragglerHeatmap::mouseMoveEvent(QMouseEvent* e) {
    int w, s;
    setCursor(cellAt(e->position().toPoint(), w, s) ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

void StragglerHeatmap::mousePressEvent(QMouseEvent* e) {
    int w, s;
    if (e->button() == Qt::LeftButton && cellAt(e->position().toPoint(), w, s)) emit cellClicked(w, s);
}

bool StragglerHeatmap::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        int w, s;
        if (cellAt(he->pos(), w, s)) QToolTip::showText(he->globalPos(), cellText(w, s), this);
        else QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

}  // namespace tracescope
