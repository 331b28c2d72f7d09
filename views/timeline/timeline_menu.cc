#include "views/timeline/timeline_menu.h"

#include "model/query/user_layout.h"
#include "views/timeline/time_format.h"
#include "views/timeline/timeline_canvas.h"
#include "views/timeline/timeline_view.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>

namespace tracescope {

void fillTimelineMenu(QMenu* menu, TimelineView* timeline, std::function<void()> bringForward) {
    menu->addAction(QObject::tr("&Find Slices…"), timeline,
                    [timeline, bringForward] {
                        bringForward();
                        timeline->focusSearch();
                    })
        ->setShortcut(QKeySequence::Find);
    menu->addAction(QObject::tr("Find &Next"), timeline, &TimelineView::nextMatch)->setShortcut(QKeySequence::FindNext);
    menu->addAction(QObject::tr("Find &Previous"), timeline, &TimelineView::previousMatch)
        ->setShortcut(QKeySequence::FindPrevious);
    menu->addSeparator();
    menu->addAction(QObject::tr("&Collapse All Processes"), timeline,
                    [timeline] { timeline->controller().setAllCollapsed(true); });
    menu->addAction(QObject::tr("&Expand All Processes"), timeline,
                    [timeline] { timeline->controller().setAllCollapsed(false); });
    // The hidden tracks, to bring back one by one or all at once.
    QMenu* hiddenTracks = menu->addMenu(QObject::tr("&Hidden Tracks"));
    hiddenTracks->addAction(QObject::tr("(none)"))->setEnabled(false);  // filled when opened
    QObject::connect(hiddenTracks, &QMenu::aboutToShow, timeline, [timeline, hiddenTracks] {
        if (timeline->controller().trace()) timeline->canvas()->fillHiddenTracksMenu(*hiddenTracks);
    });
    menu->addSeparator();
    // Single-key navigation (W/A/S/D, F, 0) lives on the canvas itself so it never steals typing in the search box.
    menu->addAction(QObject::tr("Fit All\t0 / Home"), timeline, [timeline] { timeline->controller().fitAll(); })
        ->setToolTip(QObject::tr("The span with data: long empty margins left by a few stray events are left out"));
    menu->addAction(QObject::tr("Fit Whole Span\tShift+Home"), timeline,
                    [timeline] { timeline->controller().fitWholeSpan(); });
    menu->addAction(QObject::tr("Zoom to Selection\tF"), timeline,
                    [timeline] { timeline->controller().zoomToSelection(); });
    menu->addAction(QObject::tr("Clear Range Selection\tEsc"), timeline,
                    [timeline] { timeline->controller().clearRangeSelection(); });
    menu->addSeparator();
    menu->addAction(QObject::tr("Add &Bookmark\tM"), timeline,
                    [timeline] { timeline->addBookmarkInteractively(timeline->controller().bookmarkTime()); });
    // The bookmarks list: each entry jumps to its bookmark.
    QMenu* bookmarks = menu->addMenu(QObject::tr("Bookmar&ks"));
    QObject::connect(bookmarks, &QMenu::aboutToShow, timeline, [timeline, bookmarks, bringForward] {
        bookmarks->clear();
        TimelineController& ctl = timeline->controller();
        const Trace* trace = ctl.trace();
        for (size_t i = 0; i < ctl.bookmarks().size(); ++i) {
            const Bookmark& b = ctl.bookmarks()[i];
            const QString at = trace ? formatDurationExact(b.time - trace->startNs) : QString();
            bookmarks->addAction(QObject::tr("%1  (%2)").arg(QString::fromStdString(b.label), at), timeline,
                                 [timeline, i, bringForward] {
                                     bringForward();
                                     timeline->controller().goToBookmark(i);
                                 });
        }
        if (ctl.bookmarks().empty())
            bookmarks->addAction(QObject::tr("(none: press M on the timeline)"))->setEnabled(false);
        bookmarks->addSeparator();
        QAction* exportAction = bookmarks->addAction(QObject::tr("Export Bookmarks…"), timeline, [timeline] {
            TimelineController& c = timeline->controller();
            if (!c.trace()) return;
            const QString file =
                QFileDialog::getSaveFileName(timeline, QObject::tr("Export Bookmarks"),
                                             QStringLiteral("bookmarks.json"), QObject::tr("JSON (*.json)"));
            if (file.isEmpty()) return;
            QFile out(file);
            if (!out.open(QIODevice::WriteOnly) ||
                out.write(QByteArray::fromStdString(bookmarksJson(c.bookmarks(), *c.trace()))) < 0)
                QMessageBox::warning(timeline, QObject::tr("Export Bookmarks"),
                                     QObject::tr("Could not write %1: %2").arg(file, out.errorString()));
        });
        exportAction->setEnabled(!ctl.bookmarks().empty());
        bookmarks
            ->addAction(QObject::tr("Remove All Bookmarks"), timeline,
                        [timeline] { timeline->controller().clearBookmarks(); })
            ->setEnabled(!ctl.bookmarks().empty());
    });
    // HTA's idle-time attribution on each stream's row (GPU traces), with a legend.
    QAction* idle = menu->addAction(QObject::tr("Show GPU &Idle Gaps"));
    idle->setCheckable(true);
    idle->setChecked(timeline->controller().idleGapsShown());
    QObject::connect(idle, &QAction::toggled, timeline,
                     [timeline](bool on) { timeline->controller().setIdleGapsShown(on); });
    // HTA's communication/compute overlap: the part of each NCCL kernel that compute ran beside.
    QAction* overlap = menu->addAction(QObject::tr("Show &Overlapped Communication"));
    overlap->setCheckable(true);
    overlap->setChecked(timeline->controller().commOverlapShown());
    QObject::connect(overlap, &QAction::toggled, timeline,
                     [timeline](bool on) { timeline->controller().setCommOverlapShown(on); });
    QAction* minimap = menu->addAction(QObject::tr("Show &Overview Strip"));
    minimap->setCheckable(true);
    minimap->setChecked(true);
    QObject::connect(minimap, &QAction::toggled, timeline,
                     [timeline](bool on) { timeline->controller().setMinimapVisible(on); });
    menu->addAction(QObject::tr("&Reset Track Layout"), timeline, [timeline] { timeline->controller().resetLayout(); });
}

QString timelineControlsText() {
    return QObject::tr(
        "<table>"
        "<tr><td><b>Ctrl+wheel</b>, <b>W</b> / <b>S</b></td><td>zoom in / out at the cursor</td></tr>"
        "<tr><td><b>Wheel</b></td><td>scroll tracks up / down</td></tr>"
        "<tr><td><b>Shift+wheel</b>, <b>A</b> / <b>D</b>, drag</td><td>pan in time</td></tr>"
        "<tr><td><b>Click</b></td><td>select a slice (details below, flow arrows drawn)</td></tr>"
        "<tr><td><b>Double-click</b>, <b>F</b></td><td>zoom to the selected slice or range</td></tr>"
        "<tr><td><b>Shift+drag</b></td><td>select a time range: aggregate of the slices starting in it</td></tr>"
        "<tr><td><b>0</b>, <b>Home</b></td><td>fit the span with data (long empty margins left out)</td></tr>"
        "<tr><td><b>Shift+Home</b></td><td>fit the whole span</td></tr>"
        "<tr><td><b>Ctrl+F</b>, <b>Enter</b> / <b>Shift+Enter</b></td><td>find slices, next / previous "
        "match</td></tr>"
        "<tr><td><b>Esc</b></td><td>clear the selection</td></tr>"
        "<tr><td>Filter box</td><td>show only tracks whose name or process name contains the text</td></tr>"
        "<tr><td><b>Right-click</b> a track</td><td>hide or pin it; show hidden tracks; collapse / expand all; "
        "reset the layout</td></tr>"
        "<tr><td><b>Click</b> a process header</td><td>collapse / expand it</td></tr>"
        "<tr><td><b>Drag</b> a track name or process header</td><td>move it (tracks within their "
        "process)</td></tr>"
        "<tr><td><b>M</b></td><td>bookmark the selection or the cursor (Timeline &gt; Bookmarks lists "
        "them)</td></tr>"
        "<tr><td>Overview strip</td><td>event density of the whole trace; click or drag to move there</td></tr>"
        "<tr><td><b>Hover</b> a counter track</td><td>its value at the cursor (and the sample it comes "
        "from)</td></tr>"
        "<tr><td><b>Right-click</b> a counter track</td><td>draw it as steps or lines (View &gt; Counters: all "
        "of them)</td></tr>"
        "<tr><td><b>?</b></td><td>this list</td></tr></table>");
}

}  // namespace tracescope
