#include "views/charts/step_breakdown_chart.h"

#include "views/charts/stacked_column_chart.h"

#include <QObject>

namespace tracescope {

// One fixed colour per category, so the same category looks the same on every page and
// trace (the chart leaves out empty categories, which would shift theme colours).
QColor categoryColour(StepCategory c) {
    switch (c) {
    case StepCategory::DeviceCompute: return QColor(0x4e79a7);
    case StepCategory::DeviceToDevice: return QColor(0x76b7b2);
    case StepCategory::DeviceCollectives: return QColor(0xb07aa1);
    case StepCategory::HostCompute: return QColor(0x59a14f);
    case StepCategory::KernelLaunch: return QColor(0xf28e2b);
    case StepCategory::Input: return QColor(0xe15759);
    case StepCategory::Output: return QColor(0x9c755f);
    case StepCategory::Compilation: return QColor(0xedc948);
    case StepCategory::Other: return QColor(0xbab0ac);
    case StepCategory::Count: break;
    }
    return {};
}

void showStepBreakdown(StackedColumnChart* chart, const std::vector<StepBreakdown>& steps, const StepSet* set) {
    QStringList categories;
    for (size_t i = 0; i < steps.size(); ++i) {
        const QString number = QString::number(steps[i].step.number);
        categories << (set && !set->contains(i) ? QStringLiteral("(%1)").arg(number) : number);
    }
    std::vector<StackedSeries> series;
    for (size_t c = 0; c < kStepCategoryCount; ++c) {
        StackedSeries one{QString::fromUtf8(stepCategoryName(StepCategory(c))), {}, categoryColour(StepCategory(c))};
        for (const StepBreakdown& s : steps) one.values.push_back(double(s.ns[c]) / 1e6);
        series.push_back(std::move(one));
    }
    chart->setData(categories, series, QObject::tr("Step time (ms)"));
}

}  // namespace tracescope
