#include "views/collectives/collective_wait_heatmap.h"

#include "views/pod/label_stride.h"
#include "views/tables/value_format.h"
#include "views/theme_colors.h"

#include <QEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace tracescope {

namespace {
constexpr int kLegendHeight = 26;
constexpr int kMaxPicture = 2048;  // picture pixels per axis, at most

// t in [0, 1]: from near the window's own background (light or dark) to deep red.
QColor lateColour(double t, bool dark) {
    t = std::clamp(t, 0.0, 1.0);
    const QColor lo = dark ? QColor(0x3c, 0x3c, 0x40) : QColor(0xf7, 0xf7, 0xf7), hi(0xb2, 0x18, 0x2b);
    return QColor::fromRgbF(lo.redF() + (hi.redF() - lo.redF()) * t, lo.greenF() + (hi.greenF() - lo.greenF()) * t,
                            lo.blueF() + (hi.blueF() - lo.blueF()) * t);
}

QString q(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

CollectiveWaitHeatmap::CollectiveWaitHeatmap(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumHeight(120);
}

void CollectiveWaitHeatmap::setData(std::shared_ptr<const RunCollectives> data) {
    data_ = std::move(data);
    earliest_.clear();
    scaleNs_ = 0;
    if (data_)
        for (const MatchedCollective& m : data_->stragglers.collectives) {
            TimeNs e = 0;
            bool first = true;
            for (size_t r = 0; r < m.calls.size(); ++r)
                if (m.calls[r] && (first || m.arrivalNs[r] < e)) e = m.arrivalNs[r], first = false;
            earliest_.push_back(e);
            scaleNs_ = std::max(scaleNs_, m.skewNs);
        }
    drawPicture();
    updateGeometry();
    update();
}

void CollectiveWaitHeatmap::drawPicture() {
    picture_ = QImage();
    if (!data_ || data_->ranks.empty() || data_->stragglers.collectives.empty()) return;
    const auto& cols = data_->stragglers.collectives;
    const size_t nr = data_->ranks.size(), nc = cols.size();
    // At most a pixel of the grid per picture pixel, so that a late rank among a thousand is not
    // lost to the scaling: each pixel is the latest of the cells it covers.
    const QRect g = grid();
    const int w = int(std::min<size_t>(nc, size_t(std::clamp(g.width(), 1, kMaxPicture)))),
              h = int(std::min<size_t>(nr, size_t(std::clamp(g.height(), 1, kMaxPicture))));
    // Per pixel the latest arrival of the cells it covers; -1: none of them made the call.
    std::vector<TimeNs> late(size_t(w) * size_t(h), -1);
    for (size_t c = 0; c < nc; ++c) {
        const size_t x = c * size_t(w) / nc;
        for (size_t r = 0; r < nr; ++r) {
            if (!cols[c].calls[r]) continue;
            TimeNs& cell = late[(r * size_t(h) / nr) * size_t(w) + x];
            cell = std::max(cell, cols[c].arrivalNs[r] - earliest_[c]);
        }
    }
    pictureDark_ = isDarkPalette(palette());
    picture_ = QImage(w, h, QImage::Format_RGB32);
    const QRgb none = palette().color(QPalette::Mid).rgb();
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const TimeNs v = late[size_t(y) * size_t(w) + size_t(x)];
            picture_.setPixel(
                x, y, v < 0 ? none : lateColour(scaleNs_ > 0 ? double(v) / double(scaleNs_) : 0, pictureDark_).rgb());
        }
}

QSize CollectiveWaitHeatmap::sizeHint() const {
    return {600, std::min(700, 60 + 14 * int(data_ ? data_->ranks.size() : 0))};
}
QSize CollectiveWaitHeatmap::minimumSizeHint() const { return {240, 120}; }

QRect CollectiveWaitHeatmap::grid() const {
    const QFontMetrics fm(font());
    int labelWidth = 0;
    if (data_)
        for (const RankCollectives& r : data_->ranks)
            labelWidth = std::max(labelWidth, fm.horizontalAdvance(q(r.name)));
    const int left = std::min(labelWidth + 10, width() / 3), top = fm.height() + 6;
    return QRect(left, top, std::max(10, width() - left - 8), std::max(10, height() - top - kLegendHeight - 6));
}

bool CollectiveWaitHeatmap::cellAt(const QPoint& p, size_t& rank, size_t& collective) const {
    const QRect g = grid();
    if (!data_ || !g.contains(p) || data_->ranks.empty() || data_->stragglers.collectives.empty()) return false;
    const size_t nr = data_->ranks.size(), nc = data_->stragglers.collectives.size();
    rank = std::min(nr - 1, size_t(double(p.y() - g.top()) * double(nr) / g.height()));
    collective = std::min(nc - 1, size_t(double(p.x() - g.left()) * double(nc) / g.width()));
    return true;
}

QString CollectiveWaitHeatmap::columnLabel(size_t c) const {
    const MatchedCollective& m = data_->stragglers.collectives[c];
    const QString which = m.seq ? tr("Seq %1").arg(*m.seq) : tr("#%1").arg(m.ordinal + 1);
    return m.group.empty() ? tr("%1 %2").arg(q(m.kind), which)
                           : tr("%1 %2, group %3").arg(q(m.kind), which, q(m.group));
}

QString CollectiveWaitHeatmap::cellText(size_t r, size_t c) const {
    if (!data_ || r >= data_->ranks.size() || c >= data_->stragglers.collectives.size()) return {};
    const MatchedCollective& m = data_->stragglers.collectives[c];
    const QString rank = q(data_->ranks[r].name), late = q(data_->ranks[m.lateRank].name);
    if (!m.calls[r]) return tr("%1, %2: %1 made no such call").arg(rank, columnLabel(c));
    return tr("%1, %2\narrived %3 after the first rank\nskew %4; last to arrive: %5, the others waited %6 for it\n"
              "click: show the call in the timeline")
        .arg(rank, columnLabel(c), formatDuration(m.arrivalNs[r] - earliest_[c]), formatDuration(m.skewNs), late,
             formatDuration(m.inducedWaitNs));
}

void CollectiveWaitHeatmap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (picture_.isNull()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No collective was found on two or more ranks"));
        return;
    }
    const QRect g = grid();
    p.drawImage(g, picture_);  // scaled without smoothing: cells stay sharp
    const size_t nr = data_->ranks.size(), nc = data_->stragglers.collectives.size();
    const double cw = double(g.width()) / double(nc), ch = double(g.height()) / double(nr);
    if (cw > 6 && ch > 6) {  // cell borders where cells are big enough to tell apart
        p.setPen(QPen(palette().color(QPalette::Window), 1));
        for (size_t c = 1; c < nc; ++c)
            p.drawLine(QPointF(g.left() + c * cw, g.top()), QPointF(g.left() + c * cw, g.bottom()));
        for (size_t r = 1; r < nr; ++r)
            p.drawLine(QPointF(g.left(), g.top() + r * ch), QPointF(g.right(), g.top() + r * ch));
    }
    // Labels: ranks on the left, collectives' numbers on top, each thinned to what fits.
    const QFontMetrics fm(font());
    p.setPen(palette().color(QPalette::Text));
    const long everyR = labelStride(ch, fm.height(), 2);
    for (size_t r = 0; r < nr; r += size_t(everyR))
        p.drawText(QRectF(0, g.top() + (double(r) + 0.5) * ch - fm.height() / 2.0, g.left() - 6, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(q(data_->ranks[r].name), Qt::ElideRight, g.left() - 6));
    const int widest = fm.horizontalAdvance(QString::number(nc));
    const long everyC = labelStride(cw, widest);
    for (size_t c = 0; c < nc; c += size_t(everyC)) {
        const double centre = g.left() + (double(c) + 0.5) * cw;
        const double left = std::clamp(centre - widest / 2.0 - 1, 0.0, std::max(0.0, double(width() - widest - 2)));
        p.drawText(QRectF(left, 0, widest + 2, g.top() - 2), Qt::AlignHCenter | Qt::AlignBottom,
                   QString::number(c + 1));
    }
    // Legend.
    const QRect legend(g.left(), g.bottom() + 8, std::min(140, g.width() / 3), 10);
    for (int x = 0; x < legend.width(); ++x)
        p.fillRect(QRect(legend.left() + x, legend.top(), 1, legend.height()),
                   lateColour(double(x) / std::max(1, legend.width() - 1), pictureDark_));
    p.drawRect(legend.adjusted(0, 0, -1, -1));
    const QRect text(legend.right() + 8, legend.top() - 4, std::max(0, width() - legend.right() - 12), 18);
    p.drawText(
        text, Qt::AlignLeft | Qt::AlignVCenter,
        fm.elidedText(tr("arrival after the first rank: 0 … %1; grey: no such call").arg(formatDuration(scaleNs_)),
                      Qt::ElideRight, text.width()));
}

void CollectiveWaitHeatmap::mouseMoveEvent(QMouseEvent* e) {
    size_t r, c;
    setCursor(cellAt(e->position().toPoint(), r, c) ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

void CollectiveWaitHeatmap::mousePressEvent(QMouseEvent* e) {
    size_t r, c;
    if (e->button() == Qt::LeftButton && cellAt(e->position().toPoint(), r, c)) emit cellClicked(int(r), int(c));
}

bool CollectiveWaitHeatmap::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        size_t r, c;
        if (cellAt(he->pos(), r, c)) QToolTip::showText(he->globalPos(), cellText(r, c), this);
        else QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

void CollectiveWaitHeatmap::resizeEvent(QResizeEvent* e) {
    drawPicture();
    QWidget::resizeEvent(e);
}

void CollectiveWaitHeatmap::changeEvent(QEvent* e) {
    // A theme switch: the picture's colours follow the window's.
    if (e->type() == QEvent::PaletteChange && isDarkPalette(palette()) != pictureDark_) drawPicture();
    QWidget::changeEvent(e);
}

}  // namespace tracescope
