// The analysis views the main window offers as tabs (besides the timeline).
#pragma once

#include "views/trace_view.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace tracescope {

struct ViewFactory {
    QString id;     // used by --view (e.g. "op-stats")
    QString title;  // tab title
    std::function<TraceView*(QWidget* parent)> create;
    QStringList parts = {};  // ids --view also takes for the view's tabs (TraceView::partIds)
};

// In tab order. Each analysis view adds itself here.
std::vector<ViewFactory> analysisViewFactories();

}  // namespace tracescope
