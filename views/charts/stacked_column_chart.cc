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

namespace {

// Qt Charts makes a graphics item per bar: 3,000 steps of 5 components took ~190 ms of the UI
// thread to show the chart and as long to delete it. Past this many categories, consecutive
// ones share a column (their mean), which no screen could draw apart anyway.
constexpr int kMaxColumns = 300;

}  // namespace

void StackedColumnChart::setData(const QStringList& allCategories, const std::vector<StackedSeries>& series,
                                 const QString& valueAxisTitle) {
    chart_->removeAllSeries();
    for (QAbstractAxis* axis : chart_->axes()) {
        chart_->removeAxis(axis);
        delete axis;
    }
    // Column c shows categories [columnStart_[c], columnStart_[c + 1]).
    const int perColumn = std::max(1, (int(allCategories.size()) + kMaxColumns - 1) / kMaxColumns);
    columnStart_.clear();
    QStringList categories;
    for (int first = 0; first < allCategories.size(); first += perColumn) {
        const int last = std::min(int(allCategories.size()), first + perColumn) - 1;
        columnStart_.push_back(first);
        categories << (first == last ? allCategories[first] : allCategories[first] + QStringLiteral("–") + allCategories[last]);
    }
    columnStart_.push_back(int(allCategories.size()));
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
        for (int c = 0; c < categories.size(); ++c) {
            double sum = 0;
            for (int i = columnStart_[size_t(c)]; i < columnStart_[size_t(c) + 1]; ++i)
                sum += size_t(i) < s.values.size() ? s.values[size_t(i)] : 0.0;
            const double v = sum / (columnStart_[size_t(c) + 1] - columnStart_[size_t(c)]);
            *set << v;
            totals[size_t(c)] += v;
        }
        bars->append(set);
    }
    for (double t : totals) maxTotal = std::max(maxTotal, t);
    bars->setBarWidth(categories.size() > 60 ? 1.0 : 0.8);
    connect(bars, &QStackedBarSeries::hovered, this, [this](bool status, int index, QBarSet*) {
        emit columnHovered(columnStart_.at(size_t(index)), status);
    });
    connect(bars, &QStackedBarSeries::clicked, this,
            [this](int index, QBarSet*) { emit columnClicked(columnStart_.at(size_t(index))); });
    chart_->addSeries(bars);

    // Up to ~40 columns every label fits (rotated past 12); beyond that the labels
    // would be elided to "…", so the axis names the first and last column instead. Such an
    // axis is a value axis without labels: a category axis lays out (and elides, through a
    // rich-text document each) every hidden label on each resize, ~300 ms for 300 columns.
    const bool dense = categories.size() > 40;
    const QString axisName = axisTitle_.isEmpty() ? tr("Step") : axisTitle_;
    QAbstractAxis* x = nullptr;
    if (dense) {
        auto* positions = new QValueAxis;
        positions->setRange(-0.5, double(categories.size()) - 0.5);
        x = positions;
    } else {
        auto* named = new QBarCategoryAxis;
        named->append(categories);
        named->setLabelsAngle(categories.size() > 12 ? -60 : 0);
        x = named;
    }
    x->setLabelsVisible(!dense);
    x->setGridLineVisible(!dense);
    // Qt Charts elides the axis title when the labels are hidden: the range goes in the chart title.
    x->setTitleText(axisName);
    x->setTitleVisible(!dense);
    QString title = title_;
    if (dense)
        title = tr("%1 — %2s %3 … %4").arg(title_, axisName.toLower(), allCategories.first(), allCategories.last());
    if (perColumn > 1) title += tr(" (mean of %1 per column)").arg(perColumn);
    chart_->setTitle(title);
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
