// A pie chart of named values (e.g. self time per op): the largest slices by value,
// the rest folded into "Other", with a legend that names each slice and its share.
#pragma once

#include <QString>
#include <QWidget>

#include <functional>
#include <vector>

class QChart;
class QChartView;

namespace tracescope {

struct ChartSlice {
    QString label;
    double value = 0;
    // A remainder slice stands for this many folded entries (labelled "Other (N)"); 0 = named.
    size_t folded = 0;
};

class PieChart : public QWidget {
    Q_OBJECT
public:
    explicit PieChart(const QString& title, QWidget* parent = nullptr);

    // Entries with value <= 0 are skipped; beyond `maxSlices` the rest become "Other".
    // `formatValue` turns a value into text for the legend (e.g. a duration).
    void setEntries(std::vector<ChartSlice> entries, int maxSlices = 9,
                    std::function<QString(double)> formatValue = {});
    void setTitle(const QString& title);
    // Number of slices drawn (for tests).
    int sliceCount() const;
    // Labels as drawn, in order, "Other" last when present.
    QStringList sliceLabels() const;

protected:
    void changeEvent(QEvent* e) override;

private:
    QChart* chart_ = nullptr;
    QChartView* view_ = nullptr;
};

// The slices a pie would draw: largest first, the rest summed into "Other" (pure helper, tested).
std::vector<ChartSlice> pieSlices(std::vector<ChartSlice> entries, int maxSlices);

}  // namespace tracescope
