#include "app/gui/details_dock.h"

#include "views/details/details_panel.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QTabWidget>

#include <algorithm>

namespace tracescope {

DetailsDock::DetailsDock(QMainWindow* window, DetailsPanel* details, QTabWidget* tabs, QWidget* timeline)
    : QObject(window), window_(window), details_(details) {
    dock_ = new QDockWidget(tr("Details"), window);
    dock_->setObjectName(QStringLiteral("DetailsDock"));
    dock_->setWidget(details);
    window->addDockWidget(Qt::BottomDockWidgetArea, dock_);
    window->resizeDocks({dock_}, {details->compactHeight()}, Qt::Vertical);
    connect(details, &DetailsPanel::emptyChanged, this, [this](bool empty) {
        if (dock_->isFloating()) return;
        if (empty) {
            if (dock_->height() > 2 * details_->compactHeight()) expandedHeight_ = dock_->height();
            window_->resizeDocks({dock_}, {details_->compactHeight()}, Qt::Vertical);
        } else {
            window_->resizeDocks({dock_}, {std::max(expandedHeight_, 180)}, Qt::Vertical);
        }
    });
    connect(tabs, &QTabWidget::currentChanged, this, [this, tabs, timeline] {
        const bool onTimeline = tabs->currentWidget() == timeline;
        if (onTimeline && hiddenForPage_) dock_->show();
        if (!onTimeline && !dock_->isHidden() && !dock_->isFloating()) {
            dock_->hide();
            hiddenForPage_ = true;
        } else if (onTimeline) {
            hiddenForPage_ = false;
        }
    });
}

void DetailsDock::reveal() { dock_->show(); }

void DetailsDock::restoreForSaving() {
    if (hiddenForPage_) dock_->show();
}

QAction* DetailsDock::toggleAction() const { return dock_->toggleViewAction(); }

}  // namespace tracescope
