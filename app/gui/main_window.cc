#include "app/gui/main_window.h"

#include "app/gui/capture_launch.h"
#include "app/gui/details_dock.h"
#include "app/gui/help_menu.h"
#include "app/gui/help_texts.h"
#include "app/gui/load_controller.h"
#include "app/gui/load_status.h"
#include "app/gui/not_one_job_dialog.h"
#include "app/gui/recent_files.h"
#include "app/gui/run_loader.h"
#include "app/gui/single_instance.h"
#include "app/gui/theme.h"
#include "app/gui/trace_loader.h"
#include "app/gui/view_options_menu.h"
#include "app/gui/warning_banner.h"
#include "model/query/slice_queries.h"
#include "model/results/result_store.h"
#include "model/results/summary_run.h"
#include "model/trace/merge_workers.h"
#include "model/trace/trace_builder.h"
#include "views/analysis_view.h"
#include "views/collectives/collectives_view.h"
#include "views/details/details_panel.h"
#include "views/pod/compare_view.h"
#include "views/pod/pod_view.h"
#include "views/query/query_view.h"
#include "views/step_marker_choice.h"
#include "views/timeline/timeline_menu.h"
#include "views/timeline/timeline_view.h"
#include "views/trace_selection.h"
#include "views/view_catalog.h"

#include <QAction>
#include <QActionGroup>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QTabWidget>
#include <QVBoxLayout>

#include <utility>

namespace tracescope {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("TraceScope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/tracescope.svg")));
    setAcceptDrops(true);
    setObjectName(QStringLiteral("MainWindow"));

    selection_ = new TraceSelection(this);
    stepMarker_ = new StepMarkerChoice(this);
    tabs_ = new QTabWidget(this);
    tabs_->setDocumentMode(true);
    timeline_ = new TimelineView(tabs_);
    timeline_->setSelection(selection_);
    tabs_->addTab(timeline_, tr("Timeline"));
    views_.emplace_back(QStringLiteral("timeline"), timeline_);
    for (const ViewFactory& f : analysisViewFactories()) {
        TraceView* view = f.create(tabs_);
        if (!view) continue;
        view->setSelection(selection_);
        view->setStepMarkerChoice(stepMarker_);
        tabs_->addTab(view, f.title);
        views_.emplace_back(f.id, view);
    }
    // A cut or damaged file: the banner sits above every page, not inside one.
    banner_ = new WarningBanner(this);
    connect(banner_, &WarningBanner::warningsRequested, this, [this] {
        if (trace_) showImportWarnings(this, *trace_);
    });
    auto* central = new QWidget(this);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(banner_);
    centralLayout->addWidget(tabs_, 1);
    setCentralWidget(central);

    details_ = new DetailsPanel(this);
    details_->setSelection(selection_);
    detailsDock_ = new DetailsDock(this, details_, tabs_, timeline_);
    connect(timeline_, &TimelineView::memoryPointSelected, this, [this](const QString& html) {
        details_->showText(html);
        detailsDock_->reveal();
    });
    connect(timeline_, &TimelineView::rangeSelected, this, [this](qint64 b, qint64 e) {
        details_->showRange(b, e);
        detailsDock_->reveal();
    });

    load_ = new LoadController(this);
    compareLoader_ = new TraceLoader(this);
    compareLoader_->setPreviews(false);  // the Compare page waits for the whole trace
    captureLaunch_ = new CaptureLaunch(this);
    connect(captureLaunch_, &CaptureLaunch::openRequested, this, &MainWindow::openCapturedRun);
    connectLoads();
    connectPages();
    buildMenus();
    resize(1500, 950);
}

void MainWindow::connectLoads() {
    TraceLoader* loader = load_->traceLoader();
    connect(loader, &TraceLoader::loaded, this, [this](std::shared_ptr<const Trace> trace, QString path) {
        run_.reset();
        summaryRun_.reset();
        setTrace(std::move(trace), path);
        if (recent_) recent_->add(path);
    });
    connect(loader, &TraceLoader::previewReady, this, &MainWindow::showPreview);
    connect(loader, &TraceLoader::failed, this, [this](QString message, QString path) {
        endPreview();
        updateSummary();  // the previous trace (if any) stays open
        emit loadFailed(message);
        QMessageBox::critical(this, tr("Could not open trace"),
                              tr("<b>%1</b><br><br>%2").arg(path.toHtmlEscaped(), message.toHtmlEscaped()));
    });
    connect(loader, &TraceLoader::cancelled, this, [this] {
        endPreview();
        updateSummary();
    });
    // The timeline's "Loading N %" note follows the bytes read.
    connect(load_->status(), &LoadStatus::progressed, this, [this](double fraction) {
        if (timeline_->showsPreview()) timeline_->setLoadingNote(previewNote(fraction));
    });
    connect(load_->status(), &LoadStatus::warningsRequested, this, [this] {
        if (trace_) showImportWarnings(this, *trace_);
    });
    connect(load_, &LoadController::summariesChosen, this,
            [this](std::vector<std::string> paths, QString label) { openSummaries(paths, label); });

    // Several workers as one run.
    RunLoader* runLoader = load_->runLoader();
    connect(runLoader, &RunLoader::loaded, this,
            [this](LoadedRun r, QString label) { setRun(std::move(r.run), std::move(r.merged), label); });
    connect(runLoader, &RunLoader::failed, this, [this](QString message, QString label) {
        updateSummary();
        emit loadFailed(message);
        QMessageBox::critical(this, tr("Could not open the workers"),
                              tr("<b>%1</b><br><br>%2").arg(label.toHtmlEscaped(), message.toHtmlEscaped()));
    });
    connect(runLoader, &RunLoader::cancelled, this, &MainWindow::updateSummary);
    // Files that are not one job are not merged without asking.
    connect(runLoader, &RunLoader::notOneJob, this, [this, runLoader](QString reason, QString label) {
        updateSummary();
        std::shared_ptr<MultiWorkerRun> run = runLoader->takePendingRun();
        if (!run) return;
        openNotOneJob(run, askNotOneJob(this, reason, int(run->loadedCount())), label);
    });

    // The Compare page's second trace.
    connect(compareLoader_, &TraceLoader::loaded, this,
            [this](std::shared_ptr<const Trace> trace, QString path) { setCompareTrace(std::move(trace), path); });
    connect(compareLoader_, &TraceLoader::failed, this, [this](QString message, QString path) {
        QMessageBox::critical(this, tr("Could not open the trace to compare with"),
                              tr("<b>%1</b><br><br>%2").arg(path.toHtmlEscaped(), message.toHtmlEscaped()));
    });
}

void MainWindow::connectPages() {
    // Selecting or highlighting from another tab brings the timeline forward.
    connect(selection_, &TraceSelection::slicesHighlighted, this, [this] { tabs_->setCurrentWidget(timeline_); });
    // A moment picked on another page (the memory chart): the timeline (which centres on it and
    // marks it) comes forward, with Details (where the page lists what it knows of that moment).
    connect(selection_, &TraceSelection::timeRequested, this, [this] {
        if (timeline_->controller().trace()) tabs_->setCurrentWidget(timeline_);
    });
    // "Add as track" on the Query page: the track joins the timeline, which is shown.
    for (const auto& [id, view] : views_)
        if (auto* query = qobject_cast<QueryView*>(view)) {
            connect(query, &QueryView::trackRequested, this, [this](DerivedCounterTrack track) {
                timeline_->addQueryTrack(std::move(track));
                tabs_->setCurrentWidget(timeline_);
            });
            // The page lists the timeline's query tracks; its Remove takes one off.
            connect(timeline_, &TimelineView::queryTracksChanged, query,
                    [this, query] { query->setQueryTracks(timeline_->queryTracks()); });
            connect(query, &QueryView::trackRemovalRequested, this,
                    [this](QString name) { timeline_->removeQueryTrack(name.toStdString()); });
        }
    // The Pod and Collectives pages show a worker's step or call: its tracks over that time.
    const auto showWorkerRange = [this](QString prefix, qint64 begin, qint64 end) {
        timeline_->trackFilterBox()->setText(prefix);
        const double pad = double(end - begin) * 0.02;
        timeline_->setVisibleRange(double(begin) - pad, double(end) + pad);
        tabs_->setCurrentWidget(timeline_);
    };
    if (PodView* pod = podView()) {
        connect(pod, &PodView::openInTimeline, this, showWorkerRange);
        connect(pod, &PodView::openRankTrace, this, &MainWindow::openRankTrace);
    }
    for (const auto& [id, view] : views_)
        if (auto* collectives = qobject_cast<CollectivesView*>(view)) {
            connect(collectives, &CollectivesView::openInTimeline, this, showWorkerRange);
            connect(collectives, &CollectivesView::openRankTrace, this, &MainWindow::openRankTrace);
        }
    // Offsets set by hand: a new merged view is made from the current one (which stays unchanged
    // for whoever still holds it) with the workers moved.
    if (PodView* pod = podView())
        connect(pod, &PodView::offsetsEdited, this, [this](std::vector<qint64> offsets) {
            if (!run_ || !trace_ || offsets.size() != run_->workers.size()) return;
            auto edited = std::make_shared<MultiWorkerRun>(*run_);
            std::shared_ptr<const Trace> merged = remergeWorkers(*trace_, *edited, {offsets.begin(), offsets.end()});
            setRun(std::move(edited), std::move(merged), runLabel_);
            showView(QStringLiteral("pod"));
        });
}

void MainWindow::restoreSettings() {
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::showSettingsWarning(const QString& text) {
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Settings"), text, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("settingsWarning"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::NonModal);
    box->show();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"), this, [this] { openDialog(false); });
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &Folder…"), this, [this] { openDialog(true); })
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    recent_ = new RecentFiles(file->addMenu(tr("Open &Recent")));
    connect(recent_, &RecentFiles::openRequested, this, &MainWindow::openPath);
    // A trace opened from the file manager or a shell while this viewer runs (single_instance).
    QMenu* handOff = file->addMenu(tr("Files From Other &Launches"));
    handOff->setToolTipsVisible(true);
    auto* handOffGroup = new QActionGroup(handOff);
    for (const auto& choice : {std::pair{HandOffTarget::NewWindow, tr("Open in a &New Window")},
                               std::pair{HandOffTarget::ThisWindow, tr("Open in &This Window")}}) {
        const HandOffTarget target = choice.first;  // a plain variable: lambdas capture it (clang 14)
        QAction* a = handOff->addAction(choice.second, this, [target] { setHandOffTarget(target); });
        a->setCheckable(true);
        a->setChecked(handOffTarget() == target);
        a->setToolTip(tr("Where a trace opens when you double-click it, or run tracescope FILE, while this viewer runs"));
        handOffGroup->addAction(a);
    }
    reloadAction_ = file->addAction(tr("Re&load"), this, [this] {
        if (!path_.isEmpty()) openPath(path_);
    });
    reloadAction_->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)});
    reloadAction_->setEnabled(false);
    load_->setRunsMenu(file->addMenu(tr("R&uns")));
    QAction* compareWith = file->addAction(tr("Compare &with…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Compare with a trace"), QSettings().value(QStringLiteral("lastDir")).toString(),
            tr("Traces (*.xplane.pb *.pb *.json *.json.gz *.gz *.trace);;All files (*)"));
        if (!path.isEmpty()) compareLoader_->start(path);
    });
    compareWith->setObjectName(QStringLiteral("compareWithAction"));
    compareWith->setToolTip(tr("Compare the open trace with another run: step time, ops and kernels with deltas"));
    // The Compare page's empty state offers the same choice.
    if (CompareView* c = compareView()) connect(c, &CompareView::openCompareRequested, compareWith, &QAction::trigger);
    file->addSeparator();
    QAction* capture = file->addAction(tr("&Capture Profile…"), this, &MainWindow::showCaptureDialog);
    file->addAction(tr("&Launch && Capture…"), this, &MainWindow::showLaunchDialog);
    capture->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    capture->setToolTip(tr("Capture from TensorFlow / JAX profiler servers (ProfilerService)"));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setMenuRole(QAction::QuitRole);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (size_t i = 0; i < views_.size(); ++i) {
        QAction* a = view->addAction(tabs_->tabText(int(i)), this, [this, i] { tabs_->setCurrentIndex(int(i)); });
        if (i < 9) a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + int(i))));
    }
    view->addSeparator();
    addViewOptions(view);  // Short Names, Counters (app/gui/view_options_menu.h)
    addThemeMenu(view);    // System, Light, Dark (app/gui/theme.h)
    QAction* toggleDetails = detailsDock_->toggleAction();
    toggleDetails->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    view->addAction(toggleDetails);

    QMenu* tl = menuBar()->addMenu(tr("&Timeline"));
    fillTimelineMenu(tl, timeline_, [this] { tabs_->setCurrentWidget(timeline_); });

    addHelpMenu(this, timeline_, [this] { return problemReportText(trace_.get(), path_); });
}

void MainWindow::showShortcuts() { showShortcutsDialog(this, *menuBar()); }

void MainWindow::showCaptureDialog() { captureLaunch_->showCaptureDialog(); }

void MainWindow::showLaunchDialog() { captureLaunch_->showLaunchDialog(); }

void MainWindow::openPath(const QString& path) { load_->open(path); }

void MainWindow::openPaths(const QStringList& paths) { load_->openAll(paths); }

void MainWindow::openCapturedRun(const QString& logdir, const QString& runDir) { load_->openCaptured(logdir, runDir); }

bool MainWindow::loading() const { return load_->busy(); }

LoadProgressList* MainWindow::loadProgressList() const { return load_->status()->fileList(); }

void MainWindow::updateSummary() { load_->status()->showTrace(trace_.get(), path_); }

PodView* MainWindow::podView() const {
    for (const auto& [id, view] : views_)
        if (auto* p = qobject_cast<PodView*>(view)) return p;
    return nullptr;
}

CompareView* MainWindow::compareView() const {
    for (const auto& [id, view] : views_)
        if (auto* c = qobject_cast<CompareView*>(view)) return c;
    return nullptr;
}

bool MainWindow::openSummaries(const std::vector<std::string>& summaryPaths, const QString& label) {
    // Kilobytes a rank: read here, a thousand ranks in well under a second.
    QGuiApplication::setOverrideCursor(Qt::WaitCursor);
    auto summaries = std::make_shared<const SummaryRun>(loadSummaryRun(summaryPaths));
    QGuiApplication::restoreOverrideCursor();
    if (summaries->ranks.empty()) {
        QStringList why;
        for (const std::string& w : summaries->warnings) why << QString::fromStdString(w).toHtmlEscaped();
        emit loadFailed(tr("no rank summary could be read"));
        QMessageBox::critical(this, tr("Could not open the rank summaries"),
                              tr("<b>%1</b><br><br>No rank summary could be read.<br>%2")
                                  .arg(label.toHtmlEscaped(), why.mid(0, 20).join("<br>")));
        return false;
    }
    run_.reset();
    summaryRun_ = std::move(summaries);
    load_->forgetRuns();
    // The pages take a trace: an empty one stands in, named by the run.
    TraceBuilder empty("rank summaries");
    setTrace(std::shared_ptr<const Trace>(empty.finish()), label);
    path_.clear();
    reloadAction_->setEnabled(false);
    setWindowTitle(tr("%1 — TraceScope").arg(label));
    load_->status()->setFileText(tr("<b>%1</b> (%2 rank summaries)")
                                     .arg(label.toHtmlEscaped(), QString::number(summaryRun_->ranks.size())));
    if (PodView* pod = podView()) tabs_->setCurrentWidget(pod);
    return true;
}

void MainWindow::openRankTrace(const QString& tracePath, const QString& worker) {
    if (tracePath.isEmpty() || !QFileInfo::exists(tracePath)) {
        QMessageBox::information(
            this, tr("Open %1's trace").arg(worker),
            tracePath.isEmpty()
                ? tr("The summaries do not name %1's trace (only tracescope-pod's index.json does): open it with "
                     "File › Open.").arg(worker.toHtmlEscaped())
                : tr("%1's trace, %2, is not on this machine: open it with File › Open.")
                      .arg(worker.toHtmlEscaped(), tracePath.toHtmlEscaped()));
        return;
    }
    auto* other = new MainWindow;
    other->setAttribute(Qt::WA_DeleteOnClose);
    other->resize(size());
    other->move(pos() + QPoint(32, 32));
    other->show();
    other->openPath(tracePath);
}

void MainWindow::setRun(std::shared_ptr<const MultiWorkerRun> run, std::shared_ptr<const Trace> merged,
                        const QString& label) {
    run_ = std::move(run);
    summaryRun_.reset();
    runLabel_ = label;
    setTrace(std::move(merged), label);
    path_.clear();  // a run has no one file to reload
    reloadAction_->setEnabled(false);
    setWindowTitle(tr("%1 — TraceScope").arg(label));
    load_->status()->setFileText(QStringLiteral("<b>%1</b>").arg(label.toHtmlEscaped()));
}

void MainWindow::openNotOneJob(std::shared_ptr<MultiWorkerRun> run, NotOneJobChoice choice, const QString& label) {
    std::vector<const WorkerTrace*> loaded;
    for (const WorkerTrace& w : run->workers)
        if (w.trace) loaded.push_back(&w);
    if (choice == NotOneJobChoice::Merge) {
        load_->merge(std::move(run), label);
        return;
    }
    if (loaded.empty() || choice == NotOneJobChoice::Cancel) return;
    auto show = [](MainWindow* w, const WorkerTrace& worker) {
        w->run_.reset();
        w->summaryRun_.reset();
        w->setTrace(worker.trace, QString::fromStdString(worker.path));
    };
    show(this, *loaded.front());
    if (choice == NotOneJobChoice::Compare && loaded.size() > 1) {
        setCompareTrace(loaded[1]->trace, QString::fromStdString(loaded[1]->path));
        return;
    }
    // Separately: the others each in a window of its own, cascaded from this one.
    for (size_t i = 1; i < loaded.size(); ++i) {
        auto* other = new MainWindow;
        other->setAttribute(Qt::WA_DeleteOnClose);
        other->resize(size());
        other->move(pos() + QPoint(32, 32) * int(i));
        other->show();
        show(other, *loaded[i]);
    }
}

void MainWindow::setCompareTrace(std::shared_ptr<const Trace> trace, const QString& path) {
    if (CompareView* c = compareView()) {
        c->setCompareTrace(std::move(trace), QFileInfo(path).fileName());
        tabs_->setCurrentWidget(c);
    }
}

QString MainWindow::previewNote(double fraction) const {
    const double mib = double(previewBytes_) / double(1 << 20);
    const int decimals = mib < 1 ? 1 : 0;
    // An XSpace's preview holds the same share of every line, as the file orders its events
    // (model/import/import_preview.h).
    const QString part = preview_ && preview_->format == "xspace"
                             ? tr("%1 MiB of the file's events, the first of every track").arg(mib, 0, 'f', decimals)
                             : tr("the events of the file's first %1 MiB").arg(mib, 0, 'f', decimals);
    return tr("<b>Loading %1%</b> — the timeline shows %2: zoom, pan and select meanwhile. The rest and the "
              "analysis pages follow when the import ends.")
        .arg(int(fraction * 100))
        .arg(part);
}

void MainWindow::showPreview(std::shared_ptr<const Trace> part, const QString& path, quint64 textBytes) {
    const TraceLoader* loader = load_->traceLoader();
    if (!loader->busy() || path != loader->path() || !part) return;
    presentPreview(std::move(part), path, textBytes, loader->fraction());
}

void MainWindow::showLoadingPreview(std::shared_ptr<const Trace> part, const QString& path, quint64 textBytes) {
    const double fraction = std::min(1.0, double(textBytes) / double(std::max<qint64>(1, QFileInfo(path).size())));
    load_->status()->startLoading(QFileInfo(path).fileName());
    load_->status()->showFixedProgress(fraction);
    presentPreview(std::move(part), path, textBytes, fraction);
}

void MainWindow::presentPreview(std::shared_ptr<const Trace> part, const QString& path, quint64 textBytes,
                                double fraction) {
    const SliceRef selected = selection_->selectedSlice();
    const std::shared_ptr<const Trace> before = preview_;
    if (!before) {
        // The trace open before leaves the pages: none shows it beside another file's timeline.
        // They wait for the whole trace; it comes back if the load fails or is cancelled.
        beforePreview_ = {std::exchange(trace_, nullptr), path_};
        const QString name = QFileInfo(path).fileName();
        for (auto& [id, view] : views_)
            if (auto* page = qobject_cast<AnalysisView*>(view)) page->setLoading(name);
            else if (view != timeline_) view->setTrace(nullptr);
        banner_->setTrace(nullptr);
        load_->status()->clearSummary();
    }
    preview_ = std::move(part);
    previewBytes_ = textBytes;
    selection_->selectSlice({});
    details_->setTrace(preview_);
    timeline_->setLayoutSource({});  // the file's saved layout applies to the whole trace
    timeline_->setPreviewTrace(preview_, previewNote(fraction));
    if (before && selected.valid()) selection_->selectSlice(correspondingSlice(*before, selected, *preview_));
}

void MainWindow::endPreview() {
    if (!preview_) return;
    preview_.reset();
    auto [trace, path] = std::exchange(beforePreview_, {});
    applyTrace(std::move(trace), path);  // the trace open before, if any, on every page again
}

void MainWindow::setTrace(std::shared_ptr<const Trace> trace, const QString& path) {
    applyTrace(std::move(trace), path);
    emit traceLoaded();
}

void MainWindow::applyTrace(std::shared_ptr<const Trace> trace, const QString& path) {
    // Another trace: automatic steps, and its own remembered "all steps" choice.
    if (path != path_) stepMarker_->setTracePath(path);
    // A slice selected in the preview stays selected in the whole trace.
    const SliceRef carried = preview_ && trace ? correspondingSlice(*preview_, selection_->selectedSlice(), *trace)
                                               : SliceRef{};
    // The traces this one replaces, with their results, are freed off the UI thread once every
    // page has let go (their stores taken now, while the pages still hold them).
    std::vector<std::pair<std::shared_ptr<ResultStore>, std::shared_ptr<const Trace>>> replaced;
    for (std::shared_ptr<const Trace> old : {std::exchange(preview_, nullptr), std::exchange(beforePreview_, {}).first, trace_})
        if (old && old != trace) replaced.emplace_back(ResultStore::existing(old.get()), std::move(old));
    trace_ = std::move(trace);
    path_ = path;
    selection_->selectSlice({});
    details_->setTrace(trace_);
    if (PodView* pod = podView()) {
        pod->setRun(run_);
        pod->setSummaryRun(summaryRun_);
    }
    for (const auto& [id, view] : views_)
        if (auto* collectives = qobject_cast<CollectivesView*>(view)) {
            collectives->setRun(run_);
            collectives->setSummaryRun(summaryRun_);
        }
    timeline_->setLayoutSource(path);
    for (auto& [id, view] : views_) view->setTrace(trace_);
    reloadAction_->setEnabled(!path.isEmpty());
    setWindowTitle(path.isEmpty() ? tr("TraceScope") : tr("%1 — TraceScope").arg(QFileInfo(path).fileName()));
    // Import warnings stay visible, not a transient message: a banner when data is missing,
    // and always a status-bar link that lists them.
    updateSummary();
    banner_->setTrace(trace_.get());
    if (carried.valid()) selection_->selectSlice(carried);
    for (auto& [store, old] : replaced) ResultStore::releaseElsewhere(std::move(store), std::move(old));
}

bool MainWindow::showView(const QString& id) {
    for (size_t i = 0; i < views_.size(); ++i) {
        if (views_[i].first == id || views_[i].second->partIds().contains(id)) {
            tabs_->setCurrentIndex(int(i));
            views_[i].second->showPart(id);
            return true;
        }
    }
    return false;
}

QStringList MainWindow::viewIds() const {
    QStringList ids;
    for (const auto& [id, view] : views_) ids << id << view->partIds();
    return ids;
}

void MainWindow::openDialog(bool folder) {
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("lastDir")).toString();
    // Several files chosen together are the workers of one run.
    const QStringList paths =
        folder ? QStringList{QFileDialog::getExistingDirectory(this, tr("Open a profile folder"), dir)}
               : QFileDialog::getOpenFileNames(
                     this, tr("Open a trace (several files: the workers of one run)"), dir,
                     tr("Traces (*.xplane.pb *.pb *.json *.json.gz *.gz *.trace);;All files (*)"));
    if (paths.isEmpty() || paths.front().isEmpty()) return;
    settings.setValue(QStringLiteral("lastDir"), QFileInfo(paths.front()).absolutePath());
    if (paths.size() == 1) openPath(paths.front());
    else openPaths(paths);
}

void MainWindow::closeEvent(QCloseEvent* e) {
    load_->cancel();
    detailsDock_->restoreForSaving();  // saved as the user left it on the timeline
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    e->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls() && e->mimeData()->urls().front().isLocalFile()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    const auto urls = e->mimeData()->urls();
    if (urls.isEmpty() || !urls.front().isLocalFile()) return;
    QStringList paths;
    for (const QUrl& u : urls)
        if (u.isLocalFile()) paths << u.toLocalFile();
    if (paths.size() > 1) openPaths(paths);  // several files dropped together: one run
    else openPath(paths.front());
    e->acceptProposedAction();
}

}  // namespace tracescope
