#include "views/charts/chart_palette.h"
#include "views/theme_colors.h"

#include <QAbstractAxis>
#include <QAbstractSeries>
#include <QChart>
#include <QLegend>
#include <QPalette>
#include <QPieSeries>
#include <QPieSlice>

namespace tracescope {

void applyPaletteToChart(QChart* chart, const QPalette& palette) {
    if (!chart) return;
    const QColor text = palette.color(QPalette::Text);
    const bool dark = isDarkPalette(palette);
    chart->setBackgroundBrush(palette.brush(QPalette::Base));
    chart->setBackgroundPen(Qt::NoPen);
    chart->setPlotAreaBackgroundVisible(false);
    chart->setTitleBrush(text);
    chart->legend()->setLabelColor(text);
    QColor grid = text;
    grid.setAlpha(dark ? 50 : 40);
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setLinePenColor(palette.color(QPalette::Mid));
        axis->setGridLineColor(grid);
    }
    for (QAbstractSeries* s : chart->series())
        if (auto* pie = qobject_cast<QPieSeries*>(s))
            for (QPieSlice* slice : pie->slices()) {
                slice->setLabelColor(text);
                slice->setBorderColor(palette.color(QPalette::Base));
            }
}

}  // namespace tracescope
