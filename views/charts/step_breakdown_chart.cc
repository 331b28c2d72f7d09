#include "views/charts/step_breakdown_chart.h"

#include "views/charts/stacked_column_chart.h"

#include <QObject>

namespace tracescope {

void showStepBreakdown(StackedColumnChart* chart, const std::vector<StepBreakdown>& steps) {
    QStringList categories;
    for (const StepBreakdown& s : steps) categories << QString::number(s.step.number);
    std::vector<StackedSeries> series;
    for (size_t c = 0; c < kStepCategoryCount; ++c) {
        StackedSeries one{QString::fromUtf8(stepCategoryName(StepCategory(c))), {}};
        for (const StepBreakdown& s : steps) one.values.push_back(double(s.ns[c]) / 1e6);
        series.push_back(std::move(one));
    }
    chart->setData(categories, series, QObject::tr("Step time (ms)"));
}

}  // namespace tracescope
