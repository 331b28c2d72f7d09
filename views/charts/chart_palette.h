// Qt Charts draw with their own light theme whatever the window's palette; Qt
// 6.4 has no colour-scheme API. This paints a chart's background, title,
// legend and axes from the widget palette instead (series colours stay), so
// charts follow a dark window.
#pragma once

class QChart;
class QPalette;

namespace tracescope {

void applyPaletteToChart(QChart* chart, const QPalette& palette);

}  // namespace tracescope
