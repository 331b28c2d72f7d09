// Where the Details panel sits: a dock under the pages, compact (its one-line hint) while
// nothing is selected and back to the height it last had once something is. It belongs to the
// timeline: on an analysis page (tables and charts that need the height) it steps aside, and
// comes back as it was left.
#pragma once

#include <QObject>

class QAction;
class QDockWidget;
class QMainWindow;
class QTabWidget;
class QWidget;

namespace tracescope {

class DetailsPanel;

class DetailsDock : public QObject {
    Q_OBJECT
public:
    // Docks `details` at the bottom of `window`; `timeline` is the page of `tabs` it belongs to.
    DetailsDock(QMainWindow* window, DetailsPanel* details, QTabWidget* tabs, QWidget* timeline);

    // Shows the dock (something was put into the panel).
    void reveal();
    // Before the window saves its layout: the dock as the user left it on the timeline.
    void restoreForSaving();
    // View › Details.
    QAction* toggleAction() const;

private:
    QMainWindow* window_;
    DetailsPanel* details_;
    QDockWidget* dock_;
    bool hiddenForPage_ = false;  // hidden because an analysis page is showing
    int expandedHeight_ = 210;    // the dock's height when it last showed something
};

}  // namespace tracescope
