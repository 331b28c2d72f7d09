// The main window: File / View / Timeline / Help menus, a tab per view (Timeline first, then the
// analysis views), a details dock, a status bar with the trace summary, and background loading
// with progress and cancel. It wires the parts together and shows what a load produced; the
// parts own their concerns: LoadController (what opening a path means, the loads, the status
// bar), CaptureLaunch (the capture dialogs), DetailsDock (where Details sits), RecentFiles and
// the Help and View option menus.
#pragma once

#include "model/import/workers.h"
#include "model/trace/trace.h"

#include <QMainWindow>
#include <QStringList>

#include <memory>
#include <utility>
#include <vector>

class QAction;
class QTabWidget;

namespace tracescope {
struct SummaryRun;

class CaptureLaunch;
class DetailsDock;
class LoadController;
class LoadProgressList;
class RecentFiles;
enum class NotOneJobChoice : int;
class CompareView;
class PodView;
class StepMarkerChoice;
struct LoadedRun;
class DetailsPanel;
class TimelineView;
class TraceLoader;
class TraceSelection;
class TraceView;
class WarningBanner;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;
    // Window geometry and dock layout from the last session (not used for screenshots).
    void restoreSettings();
    // Says once, in a message box that does not block, what is wrong with the settings file.
    void showSettingsWarning(const QString& text);

    // Starts a background load (the UI stays live; progress shows in the status bar).
    void openPath(const QString& path);
    // Opens a run just captured under `logdir`; File > Runs lists the logdir's runs.
    void openCapturedRun(const QString& logdir, const QString& runDir);
    // File > Capture Profile… (created on first use, kept for its state and history).
    void showCaptureDialog();
    // File > Launch & Capture… (our CUPTI agent; created on first use).
    void showLaunchDialog();
    // Shows an already loaded trace (used after a background load and by --screenshot).
    void setTrace(std::shared_ptr<const Trace> trace, const QString& path);
    // Several workers' files (or a folder of them) as one run, loaded in the background.
    void openPaths(const QStringList& paths);
    // Shows a loaded multi-worker run: its merged view on every page, the run on the Pod page.
    void setRun(std::shared_ptr<const MultiWorkerRun> run, std::shared_ptr<const Trace> merged, const QString& label);
    // Files loaded together that are not one job (RunLoader::notOneJob), as the user chose: each
    // in a window of its own (this one shows the first), the first compared with the second,
    // merged anyway (in the background, then setRun), or nothing.
    void openNotOneJob(std::shared_ptr<MultiWorkerRun> run, NotOneJobChoice choice, const QString& label);
    // A run read from its ranks' summaries (summaryPaths): the Pod and Collectives pages from them,
    // the other pages empty; a rank chosen there opens its trace in a window of its own. False,
    // with a message, when none could be read.
    bool openSummaries(const std::vector<std::string>& summaryPaths, const QString& label);
    // The Compare page's second trace (File > Compare with…).
    void setCompareTrace(std::shared_ptr<const Trace> trace, const QString& path);
    // Help › Keyboard Shortcuts: every menu action's keys, in a dialog of this window.
    void showShortcuts();
    // The window as it is while `path` loads and `part` (its first `textBytes` of events) is on
    // the timeline: --screenshot --preview.
    void showLoadingPreview(std::shared_ptr<const Trace> part, const QString& path, quint64 textBytes);
    std::shared_ptr<const Trace> trace() const { return trace_; }

    TimelineView* timeline() const { return timeline_; }
    DetailsPanel* details() const { return details_; }
    TraceSelection* selection() const { return selection_; }
    // The step marker the step-based pages use (reset to automatic when another trace opens).
    StepMarkerChoice* stepMarker() const { return stepMarker_; }
    // Makes the tab with this id current ("timeline" or an analysis view id); false if unknown.
    bool showView(const QString& id);
    QStringList viewIds() const;
    bool loading() const;
    // The per-file list of a multi-file load (in the status bar's "Files" popup).
    LoadProgressList* loadProgressList() const;
    // The banner above the pages (visible while the trace is cut or damaged).
    WarningBanner* warningBanner() const { return banner_; }

signals:
    void traceLoaded();
    void loadFailed(QString message);

protected:
    void closeEvent(QCloseEvent*) override;
    void dragEnterEvent(QDragEnterEvent*) override;
    void dropEvent(QDropEvent*) override;

private:
    std::shared_ptr<const Trace> trace_;
    QString path_;
    TraceSelection* selection_;
    StepMarkerChoice* stepMarker_;
    QTabWidget* tabs_;
    WarningBanner* banner_;
    TimelineView* timeline_;
    std::vector<std::pair<QString, TraceView*>> views_;  // id -> view, Timeline first
    DetailsPanel* details_;
    DetailsDock* detailsDock_;
    LoadController* load_;
    TraceLoader* compareLoader_;
    CaptureLaunch* captureLaunch_;
    RecentFiles* recent_ = nullptr;
    std::shared_ptr<const MultiWorkerRun> run_;  // the open run when several workers are open
    std::shared_ptr<const SummaryRun> summaryRun_;  // the open run when it is its ranks' summaries
    QString runLabel_;
    QAction* reloadAction_ = nullptr;

    // Connects what the loaders produce to the window (a trace, a run, a preview, an error).
    void connectLoads();
    // Connects the pages that send the user elsewhere (a worker's range, a rank's trace, a query track).
    void connectPages();
    void buildMenus();
    void openRankTrace(const QString& tracePath, const QString& worker);
    PodView* podView() const;
    CompareView* compareView() const;
    void openDialog(bool folder);
    // Progressive display: a part of the file being loaded on the timeline (TraceLoader's
    // previews) until the whole trace is in; endPreview when the load fails or is cancelled.
    void showPreview(std::shared_ptr<const Trace> part, const QString& path, quint64 textBytes);
    void endPreview();
    // setTrace without traceLoaded: also the way back to the trace a failed preview replaced.
    void applyTrace(std::shared_ptr<const Trace> trace, const QString& path);
    void presentPreview(std::shared_ptr<const Trace> part, const QString& path, quint64 textBytes, double fraction);
    QString previewNote(double fraction) const;
    std::shared_ptr<const Trace> preview_;
    quint64 previewBytes_ = 0;
    std::pair<std::shared_ptr<const Trace>, QString> beforePreview_;  // the trace and path a preview replaced
    // The status bar shows the open trace (or, when none, nothing).
    void updateSummary();
};

}  // namespace tracescope
