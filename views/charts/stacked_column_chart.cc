#include "views/charts/stacked_column_chart.h"

#include "views/charts/chart_palette.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QEvent>
#include <QChartView>
#include <QStackedBarSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>

namespace tracescope {

StackedColumnChart::StackedColumnChart(const QString& title, QWidget* parent) : QWidget(parent) {
    chart_ = new QChart;
    title_ = title;
    chart_->setTitle(title);
    QFont titleFont = chart_->titleFont();
    titleFont.setBold(true);
    chart_->setTitleFont(titleFont);
    chart_->legend()->setAlignment(Qt::AlignBottom);
    chart_->legend()->setShowToolTips(true);  // an elided name shows whole on hover
    chart_->setMargins(QMargins(4, 4, 4, 4));
    chart_->setBackgroundRoundness(0);
    view_ = new QChartView(chart_, this);
    view_->setRenderHint(QPainter::Antialiasing);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view_);
    setMinimumSize(400, 260);
    applyPaletteToChart(chart_, palette());
}

void StackedColumnChart::setLegendAlignment(Qt::Alignment alignment) { chart_->legend()->setAlignment(alignment); }

void StackedColumnChart::changeEvent(QEvent* e) {
    if (e->type() == QEvent::PaletteChange) applyPaletteToChart(chart_, palette());
    QWidget::changeEvent(e);
}

void StackedColumnChart::setData(const QStringList& categories, const std::vector<StackedSeries>& series,
                                 const QString& valueAxisTitle) {
    chart_->removeAllSeries();
    for (QAbstractAxis* axis : chart_->axes()) {
        chart_->removeAxis(axis);
        delete axis;
    }
    auto* bars = new QStackedBarSeries;
    double maxTotal = 0;
    std::vector<double> totals(size_t(categories.size()), 0.0);
    for (const StackedSeries& s : series) {
        bool any = std::any_of(s.values.begin(), s.values.end(), [](double v) { return v > 0; });
        if (!any) continue;
        auto* set = new QBarSet(s.name);
        if (s.color.isValid()) {
            set->setColor(s.color);
            set->setBorderColor(categories.size() > 40 ? s.color : s.color.darker(115));  // thin bars: no outline
        }
        for (int i = 0; i < categories.size(); ++i) {
            double v = size_t(i) < s.values.size() ? s.values[size_t(i)] : 0.0;
            *set << v;
            totals[size_t(i)] += v;
        }
        bars->append(set);
    }
    for (double t : totals) maxTotal = std::max(maxTotal, t);
    bars->setBarWidth(categories.size() > 60 ? 1.0 : 0.8);
    connect(bars, &QStackedBarSeries::hovered, this, [this](bool status, int index, QBarSet*) {
        emit columnHovered(index, status);
    });
    connect(bars, &QStackedBarSeries::clicked, this, [this](int index, QBarSet*) { emit columnClicked(index); });
    chart_->addSeries(bars);

    // Up to ~40 columns every label fits (rotated past 12); beyond that the labels
    // would be elided to "…", so the axis names the first and last column instead.
    auto* x = new QBarCategoryAxis;
    x->append(categories);
    const bool dense = categories.size() > 40;
    x->setLabelsVisible(!dense);
    x->setGridLineVisible(!dense);
    // Qt Charts elides the axis title when the labels are hidden: the range goes in the chart title.
    x->setTitleText(axisTitle_.isEmpty() ? tr("Step") : axisTitle_);
    x->setTitleVisible(!dense);
    chart_->setTitle(dense ? tr("%1 — %2 %3 … %4")
                                 .arg(title_, (axisTitle_.isEmpty() ? tr("Step") : axisTitle_).toLower() + "s",
                                      categories.first(), categories.last())
                           : title_);
    x->setLabelsAngle(categories.size() > 12 ? -60 : 0);
    auto* y = new QValueAxis;
    y->setRange(0, maxTotal > 0 ? maxTotal * 1.05 : 1.0);
    y->setLabelFormat(QStringLiteral("%.3g"));
    y->setTitleText(valueAxisTitle);
    y->applyNiceNumbers();
    chart_->addAxis(x, Qt::AlignBottom);
    chart_->addAxis(y, Qt::AlignLeft);
    bars->attachAxis(x);
    bars->attachAxis(y);
    applyPaletteToChart(chart_, palette());  // the new axes
}

int StackedColumnChart::seriesCount() const {
    const auto series = chart_->series();
    if (series.isEmpty()) return 0;
    return static_cast<QStackedBarSeries*>(series.first())->count();
}

}  // namespace tracescope
