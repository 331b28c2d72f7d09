// The Timeline tab: a search bar over the timeline canvas with a vertical
// scroll bar. Asks the trace's result store for the timeline index (at the job runner's
// highest priority, holding background analyses until it is there: the first picture waits
// on nothing else) and then for the memory tracks; runs searches off the UI thread; wires the
// canvas to the shared TraceSelection.
#pragma once

#include "model/query/slice_search.h"
#include "model/results/result_store.h"
#include "views/result_delivery.h"
#include "views/timeline/timeline_controller.h"
#include "views/trace_view.h"

#include <QFutureWatcher>

#include <atomic>
#include <memory>

class QAction;
class QCheckBox;
class QLabel;
class QLineEdit;
class QScrollBar;
class QToolButton;

namespace tracescope {

class TimelineCanvas;

// The timeline package's face to the rest of the viewer: pages, the main window and --screenshot
// go through this view and its controller; only views/timeline/ (and tests) touch the canvas.
class TimelineView : public TraceView {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    void setTrace(std::shared_ptr<const Trace> trace) override;
    // A part of a trace still importing (progressive display): drawn, zoomed and selected in
    // like a trace, without the derived tracks; the next trace (a larger part, or the whole)
    // keeps the window the user moved to, in the file's clock. `note` is shown above the
    // canvas until the whole trace arrives (setLoadingNote updates it).
    void setPreviewTrace(std::shared_ptr<const Trace> trace, const QString& note);
    bool showsPreview() const { return preview_; }
    void setLoadingNote(const QString& note);
    // The note above the tracks: the part of a file shown while it loads, or the derived tracks
    // left out for lack of memory; empty when there is none.
    QString note() const;
    // The file the next trace comes from: its layout (order, pins, hidden, collapsed) and
    // bookmarks are saved per file (canonical path, size and modification time) and
    // restored when it opens again. Empty: nothing is saved.
    void setLayoutSource(const QString& path);
    // Off for renders that must not depend on (or change) what a user saved: --screenshot.
    void setLayoutPersistence(bool enabled) { persistLayouts_ = enabled; }
    // Asks for a label and adds a bookmark at `time` (M on the timeline).
    void addBookmarkInteractively(qint64 time);
    void setSelection(TraceSelection* selection) override;

    // The drawing widget (views/timeline/ and tests only: include timeline_canvas.h).
    TimelineCanvas* canvas() const { return canvas_; }
    // The view's state: layout, tracks, bookmarks, the visible window, selection.
    TimelineController& controller();
    const TimelineController& controller() const;
    QLineEdit* trackFilterBox() const { return trackFilter_; }
    // Blocks until the index, the memory tracks and a pending search are ready (or failed):
    // for tests and --screenshot.
    void waitUntilReady();
    bool isReady() const;

    // The visible time window, in the trace's ns (clamped and redrawn by the controller).
    void setVisibleRange(double beginNs, double endNs);
    // Selects a slice on the canvas and scrolls its track into view (the shared selection is
    // the caller's: TraceSelection).
    void revealSlice(SliceRef slice);
    int headerWidth() const;
    void setHeaderWidth(int width);
    // The same scale and start as `other`, its times moved by shiftNs (Compare's two runs).
    void followWindowOf(const TimelineView& other, double shiftNs);
    // Help > Timeline Controls: '?' on the canvas triggers it.
    void setControlsAction(QAction* action);
    // A query's result as a counter track (the Query page's "Add as track"), shown after the
    // derived tracks under its process; one of the same name is replaced. Saved with the layout
    // (as its SQL, run again when the file opens).
    void addQueryTrack(DerivedCounterTrack track);
    const std::vector<DerivedCounterTrack>& queryTracks() const { return queryTracks_; }
    // Removes the query track named `name` (the canvas's context menu).
    void removeQueryTrack(const std::string& name);

    // Search (Ctrl+F): substring, or a regex when the "regex" box is ticked.
    void setSearchText(const QString& text, bool regex = false);
    const std::vector<SliceRef>& searchMatches() const { return matches_; }
    int currentMatch() const { return current_; }
    void nextMatch();
    void previousMatch();
    void focusSearch();

signals:
    void ready();
    void viewChanged();  // the visible window or the scroll position moved
    void rangeSelected(qint64 begin, qint64 end);
    void rangeCleared();
    // A point of a derived memory track was clicked: the event there, as rich text for Details.
    void memoryPointSelected(const QString& html);
    // Query tracks were added, replaced or removed (queryTracks()).
    void queryTracksChanged();

private:
    TimelineCanvas* canvas_;
    QScrollBar* vscroll_;
    QLineEdit* search_;
    QLineEdit* trackFilter_ = nullptr;
    QCheckBox* regex_;
    QLabel* matchLabel_;
    QLabel* loadingNote_;
    bool preview_ = false;  // trace_ is a part of a trace still importing
    QToolButton* prev_;
    QToolButton* next_;
    std::shared_ptr<const Trace> trace_;
    QString layoutKey_;  // settings key of the current file's layout; empty: not saved
    bool restoringLayout_ = false;
    bool persistLayouts_ = true;
    void saveLayout();

    std::shared_ptr<ResultDelivery> delivery_;
    // The derived tracks as the store made them, and the queries' tracks shown after them.
    std::shared_ptr<const TimelineDerivedTracks> storeDerived_;
    std::vector<DerivedCounterTrack> queryTracks_;
    std::vector<SavedQueryTrack> savedQueryTracks_;  // the saved layout's, until they run again
    void showDerived();
    ResultRequest indexRequest_, derivedRequest_, idleGapsRequest_, overlapRequest_;
    unsigned generation_ = 0;  // drops what arrives for an earlier trace
    bool indexPending_ = false, derivedPending_ = false, idleGapsPending_ = false, overlapPending_ = false;
    bool holdsBackground_ = false;  // background analyses wait for the first picture
    void releaseBackground();
    void indexArrived(std::shared_ptr<const TimelineIndex> index);
    QFutureWatcher<std::shared_ptr<SliceSearchResult>> searchWatcher_;
    std::shared_ptr<std::atomic<bool>> searchCancel_;
    std::vector<SliceRef> matches_;
    int current_ = -1;
    bool publishing_ = false;  // set while we publish a selection, to ignore its echo

    void startSearch();
    void searchFinished();
    void goToMatch(int i);
    void syncScrollBar();
    void publishSelection(SliceRef s);
    void updateMatchLabel(const QString& error = {});
};

}  // namespace tracescope
