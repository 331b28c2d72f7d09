#include "views/xla/roofline_chart.h"

#include "views/charts/chart_palette.h"
#include "views/tables/value_format.h"
#include "views/wrapping_label.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace tracescope {

namespace {

QString pointText(const RooflinePoint& p) {
    return QObject::tr("<b>%1</b><br>%2 · %3<br>%4 FLOP/byte, %5 GFLOP/s (attainable %6, %7 efficient)<br>"
                       "device time %8, %9 side of the ridge")
        .arg(QString::fromStdString(p.name).toHtmlEscaped(), QString::fromStdString(p.program).toHtmlEscaped(),
             QString::fromStdString(p.category).toHtmlEscaped(), QString::number(p.intensity, 'g', 4),
             QString::number(p.flopsPerSecond / 1e9, 'g', 5), QString::number(p.attainable / 1e9, 'g', 5),
             formatPercent(100.0 * p.efficiency), formatDuration(p.timeNs),
             QString::fromLatin1(rooflineRegionName(p.region)));
}

}  // namespace

RooflineChart::RooflineChart(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    chart_ = new QChart();
    chart_->legend()->setAlignment(Qt::AlignBottom);
    view_ = new QChartView(chart_, this);
    view_->setRenderHint(QPainter::Antialiasing);
    layout->addWidget(view_, 1);
    empty_ = new WrappingLabel(this);
    empty_->setAlignment(Qt::AlignCenter);
    empty_->hide();
    layout->addWidget(empty_, 1);
    applyPaletteToChart(chart_, palette());
}

void RooflineChart::clear() {
    chart_->removeAllSeries();
    for (QAbstractAxis* a : chart_->axes()) {
        chart_->removeAxis(a);
        delete a;
    }
    points_ = 0;
}

void RooflineChart::setRoofline(const RooflineResult& r) {
    clear();
    const double peak = r.peaks.peakFlopsPerSecond / 1e9;  // GFLOP/s
    const double bandwidth = r.peaks.peakHbmBytesPerSecond / 1e9;  // GB/s: GFLOP/s per FLOP/byte
    // Qt Charts draws every marker as an item: tens of thousands take seconds and hide each other,
    // so the chart shows the ops with the most time (r.ops is longest first) and says so.
    std::vector<const RooflinePoint*> points;
    size_t costedOps = 0;
    for (const RooflinePoint& p : r.ops)
        if (p.intensity > 0 && p.flopsPerSecond > 0 && ++costedOps <= kMaxOpPoints) points.push_back(&p);
    for (const RooflinePoint& p : r.programs)
        if (p.intensity > 0 && p.flopsPerSecond > 0) points.push_back(&p);
    if (points.empty() || peak <= 0 || bandwidth <= 0) {
        view_->hide();
        empty_->setText(points.empty() ? tr("No HLO op with a known cost ran on the device.")
                                       : tr("The device's peak FLOP rate or memory bandwidth is not known: no roofline."));
        empty_->show();
        return;
    }
    empty_->hide();
    view_->show();
    // The axes span the points and the ridge, with room around them (whole decades).
    double xMin = r.peaks.ridgePoint(), xMax = r.peaks.ridgePoint(), yMin = peak, yMax = peak;
    for (const RooflinePoint* p : points) {
        xMin = std::min(xMin, p->intensity);
        xMax = std::max(xMax, p->intensity);
        yMin = std::min(yMin, p->flopsPerSecond / 1e9);
        yMax = std::max(yMax, p->flopsPerSecond / 1e9);
    }
    xMin = std::pow(10, std::floor(std::log10(xMin)));
    xMax = std::pow(10, std::ceil(std::log10(xMax)) + 0.0001);
    yMin = std::pow(10, std::floor(std::log10(yMin)));
    yMax = std::pow(10, std::ceil(std::log10(yMax * 1.5)));

    auto* x = new QLogValueAxis();
    x->setTitleText(tr("Operational intensity (FLOP/byte)"));
    x->setLabelFormat(QStringLiteral("%g"));
    x->setRange(xMin, xMax);
    auto* y = new QLogValueAxis();
    y->setTitleText(tr("Attained GFLOP/s"));
    y->setLabelFormat(QStringLiteral("%g"));
    y->setRange(yMin, yMax);
    chart_->addAxis(x, Qt::AlignBottom);
    chart_->addAxis(y, Qt::AlignLeft);

    auto* roof = new QLineSeries();
    roof->setName(tr("Ceilings: %1 GB/s, %2 GFLOP/s (ridge %3 FLOP/byte)")
                      .arg(QString::number(bandwidth, 'f', 0), QString::number(peak, 'f', 0),
                           QString::number(r.peaks.ridgePoint(), 'f', 1)));
    const double ridge = r.peaks.ridgePoint();
    roof->append(xMin, std::max(yMin, xMin * bandwidth));
    roof->append(ridge, peak);
    roof->append(xMax, peak);
    QPen pen(palette().color(QPalette::Text));
    pen.setWidthF(1.6);
    roof->setPen(pen);
    chart_->addSeries(roof);
    roof->attachAxis(x);
    roof->attachAxis(y);

    auto addScatter = [&](const QString& name, const QColor& color, QScatterSeries::MarkerShape shape,
                          auto accept) {
        auto* s = new QScatterSeries();
        s->setName(name);
        s->setColor(color);
        // No outline: Qt computes each marker's shape through a path stroker when it has a pen,
        // which was most of the cost of showing 2,000 markers.
        s->setPen(Qt::NoPen);
        s->setMarkerShape(shape);
        s->setMarkerSize(shape == QScatterSeries::MarkerShapeRectangle ? 12 : 9);
        std::vector<const RooflinePoint*> mine;
        for (const RooflinePoint* p : points)
            if (accept(*p)) {
                s->append(p->intensity, p->flopsPerSecond / 1e9);
                mine.push_back(p);
            }
        points_ += int(mine.size());
        if (mine.empty()) {
            delete s;
            return;
        }
        chart_->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
        // The series reports the hovered point itself: the op drawn there.
        connect(s, &QScatterSeries::hovered, this, [this, mine](const QPointF& point, bool state) {
            if (!state) {
                QToolTip::hideText();
                return;
            }
            for (const RooflinePoint* p : mine)
                if (p->intensity == point.x() && p->flopsPerSecond / 1e9 == point.y()) {
                    QToolTip::showText(QCursor::pos(), pointText(*p), view_);
                    return;
                }
        });
    };
    chart_->setTitle(costedOps > kMaxOpPoints
                         ? tr("The %1 ops with the most device time, of %2 with a known cost").arg(kMaxOpPoints).arg(costedOps)
                         : QString());
    addScatter(tr("Ops, memory side"), QColor(0x1f, 0x77, 0xb4), QScatterSeries::MarkerShapeCircle,
               [](const RooflinePoint& p) { return p.category != "program" && p.region == RooflineRegion::Memory; });
    addScatter(tr("Ops, compute side"), QColor(0xd6, 0x27, 0x28), QScatterSeries::MarkerShapeCircle,
               [](const RooflinePoint& p) { return p.category != "program" && p.region != RooflineRegion::Memory; });
    addScatter(tr("Programs"), QColor(0x2c, 0xa0, 0x2c), QScatterSeries::MarkerShapeRectangle,
               [](const RooflinePoint& p) { return p.category == "program"; });
    applyPaletteToChart(chart_, palette());
}

void RooflineChart::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) applyPaletteToChart(chart_, palette());
}

}  // namespace tracescope
