// A stacked column chart: one column per category (e.g. a step), one stacked
// series per component (e.g. "Device compute", "Input"). Values are in one unit
// the caller names (the step-time breakdown uses milliseconds).
#pragma once

#include <QColor>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

class QChart;
class QChartView;

namespace tracescope {

struct StackedSeries {
    QString name;
    std::vector<double> values;  // one per category
    QColor color;                // invalid = the chart theme's next colour
};

class StackedColumnChart : public QWidget {
    Q_OBJECT
public:
    explicit StackedColumnChart(const QString& title, QWidget* parent = nullptr);

    // Series that are zero everywhere are left out of the chart and the legend.
    // With many categories the axis names the first and last; past 300, consecutive
    // categories share a column, which shows their mean (the title says how many).
    void setData(const QStringList& categories, const std::vector<StackedSeries>& series, const QString& valueAxisTitle);
    int seriesCount() const;
    // The category axis title ("Step" unless set; e.g. "Worker"), used by the next setData.
    void setCategoryAxisTitle(const QString& title) { axisTitle_ = title; }
    // Where the legend goes (bottom unless set): a narrow chart puts it on the right, one entry per line,
    // where the names are not cut short.
    void setLegendAlignment(Qt::Alignment alignment);

signals:
    // The mouse entered (true) or left (false) a column; a column was clicked. `index` is the
    // column's (first) category.
    void columnHovered(int index, bool entered);
    void columnClicked(int index);

protected:
    void changeEvent(QEvent* e) override;

private:
    QString title_;
    QString axisTitle_;
    QChart* chart_ = nullptr;
    QChartView* view_ = nullptr;
    std::vector<int> columnStart_;  // a column's first category; one past the last at the end
};

}  // namespace tracescope
