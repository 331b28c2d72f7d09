#include "app/gui/main_window.h"

#include "app/gui/guide_window.h"
#include "app/gui/help_texts.h"
#include "app/gui/load_progress_list.h"
#include "app/gui/not_one_job_dialog.h"
#include "app/gui/run_loader.h"
#include "app/gui/single_instance.h"
#include "app/gui/theme.h"
#include "app/gui/trace_loader.h"
#include "app/gui/warning_banner.h"
#include "app/gui/whats_this.h"
#include "model/import/logdir.h"
#include "model/query/slice_queries.h"
#include "model/results/result_store.h"
#include "model/results/summary_run.h"
#include "model/trace/merge_workers.h"
#include "model/trace/trace_builder.h"
#include "views/analysis_view.h"
#include "views/capture/capture_dialog.h"
#include "views/capture/launch_dialog.h"
#include "views/collectives/collectives_view.h"
#include "views/details/details_panel.h"
#include "views/name_style.h"
#include "views/pod/compare_view.h"
#include "views/pod/pod_view.h"
#include "views/query/query_view.h"
#include "views/step_marker_choice.h"
#include "views/timeline/counter_style.h"
#include "views/timeline/time_format.h"
#include "views/timeline/timeline_menu.h"
#include "views/timeline/timeline_view.h"
#include "views/trace_selection.h"
#include "views/view_catalog.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWhatsThis>
#include <QWidgetAction>

#include <utility>

namespace tracescope {

namespace {

constexpr int kMaxRecent = 10;
const char* kRecentKey = "recentFiles";

QString countText(size_t n) {
    if (n >= 10'000'000) return QString::number(double(n) / 1e6, 'f', 0) + QStringLiteral("M");
    if (n >= 1'000'000) return QString::number(double(n) / 1e6, 'f', 1) + QStringLiteral("M");
    if (n >= 10'000) return QString::number(double(n) / 1e3, 'f', 0) + QStringLiteral("k");
    return QString::number(n);
}

}  // namespace

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
    // Selecting or highlighting from another tab brings the timeline forward.
    connect(selection_, &TraceSelection::slicesHighlighted, this, [this] { tabs_->setCurrentWidget(timeline_); });
    // A moment picked on another page (the memory chart): the timeline (which centres on it and
    // marks it) comes forward, with Details (where the page lists what it knows of that moment).
    connect(selection_, &TraceSelection::timeRequested, this, [this] {
        if (timeline_->controller().trace()) tabs_->setCurrentWidget(timeline_);
    });

    details_ = new DetailsPanel(this);
    details_->setSelection(selection_);
    detailsDock_ = new QDockWidget(tr("Details"), this);
    detailsDock_->setObjectName(QStringLiteral("DetailsDock"));
    detailsDock_->setWidget(details_);
    addDockWidget(Qt::BottomDockWidgetArea, detailsDock_);
    // Compact while nothing is selected (a one-line hint); back to the height it had once something is.
    resizeDocks({detailsDock_}, {details_->compactHeight()}, Qt::Vertical);
    connect(details_, &DetailsPanel::emptyChanged, this, [this](bool empty) {
        if (detailsDock_->isFloating()) return;
        if (empty) {
            if (detailsDock_->height() > 2 * details_->compactHeight()) detailsExpandedHeight_ = detailsDock_->height();
            resizeDocks({detailsDock_}, {details_->compactHeight()}, Qt::Vertical);
        } else {
            resizeDocks({detailsDock_}, {std::max(detailsExpandedHeight_, 180)}, Qt::Vertical);
        }
    });
    connect(timeline_, &TimelineView::memoryPointSelected, this, [this](const QString& html) {
        details_->showText(html);
        detailsDock_->show();
    });
    connect(timeline_, &TimelineView::rangeSelected, this, [this](qint64 b, qint64 e) {
        details_->showRange(b, e);
        detailsDock_->show();
    });
    // The Details dock belongs to the timeline: the analysis pages are tables and charts
    // that need the height, so it steps aside there and comes back as it was left.
    connect(tabs_, &QTabWidget::currentChanged, this, [this] {
        const bool onTimeline = tabs_->currentWidget() == timeline_;
        if (onTimeline && detailsHiddenForPage_) detailsDock_->show();
        if (!onTimeline && !detailsDock_->isHidden() && !detailsDock_->isFloating()) {
            detailsDock_->hide();
            detailsHiddenForPage_ = true;
        } else if (onTimeline) {
            detailsHiddenForPage_ = false;
        }
    });

    loader_ = new TraceLoader(this);
    loader_->setObjectName(QStringLiteral("traceLoader"));
    connect(loader_, &TraceLoader::loaded, this, [this](std::shared_ptr<const Trace> trace, QString path) {
        setLoadingUi(false);
        run_.reset();
        summaryRun_.reset();
        setTrace(std::move(trace), path);
        addRecent(path);
    });
    connect(loader_, &TraceLoader::previewReady, this, &MainWindow::showPreview);
    connect(loader_, &TraceLoader::failed, this, [this](QString message, QString path) {
        endPreview();
        setLoadingUi(false);
        updateSummary();  // the previous trace (if any) stays open
        emit loadFailed(message);
        QMessageBox::critical(this, tr("Could not open trace"),
                              tr("<b>%1</b><br><br>%2").arg(path.toHtmlEscaped(), message.toHtmlEscaped()));
    });
    connect(loader_, &TraceLoader::cancelled, this, [this](QString path) {
        endPreview();
        setLoadingUi(false);
        updateSummary();
    });

    // Several workers as one run; the Compare page's second trace.
    runLoader_ = new RunLoader(this);
    connect(runLoader_, &RunLoader::loaded, this, [this](LoadedRun r, QString label) {
        setLoadingUi(false);
        setRun(std::move(r.run), std::move(r.merged), label);
    });
    connect(runLoader_, &RunLoader::failed, this, [this](QString message, QString label) {
        setLoadingUi(false);
        updateSummary();
        emit loadFailed(message);
        QMessageBox::critical(this, tr("Could not open the workers"),
                              tr("<b>%1</b><br><br>%2").arg(label.toHtmlEscaped(), message.toHtmlEscaped()));
    });
    connect(runLoader_, &RunLoader::cancelled, this, [this] {
        setLoadingUi(false);
        updateSummary();
    });
    // Files that are not one job are not merged without asking.
    connect(runLoader_, &RunLoader::notOneJob, this, [this](QString reason, QString label) {
        setLoadingUi(false);
        updateSummary();
        std::shared_ptr<MultiWorkerRun> run = runLoader_->takePendingRun();
        if (!run) return;
        openNotOneJob(run, askNotOneJob(this, reason, int(run->loadedCount())), label);
    });
    compareLoader_ = new TraceLoader(this);
    compareLoader_->setPreviews(false);  // the Compare page waits for the whole trace
    connect(compareLoader_, &TraceLoader::loaded, this,
            [this](std::shared_ptr<const Trace> trace, QString path) { setCompareTrace(std::move(trace), path); });
    connect(compareLoader_, &TraceLoader::failed, this, [this](QString message, QString path) {
        QMessageBox::critical(this, tr("Could not open the trace to compare with"),
                              tr("<b>%1</b><br><br>%2").arg(path.toHtmlEscaped(), message.toHtmlEscaped()));
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

    buildMenus();
    buildStatusBar();
    resize(1500, 950);
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
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
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
    runsMenu_ = file->addMenu(tr("R&uns"));
    runsMenu_->setObjectName(QStringLiteral("runsMenu"));
    runsMenu_->setToolTipsVisible(true);
    runsMenu_->setToolTip(
        tr("The profile runs of the opened folder: a TensorBoard logdir's runs, a PyTorch profiler folder's cycles"));
    runsMenu_->setEnabled(false);
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
    // Short C++ / kernel names (no return type, namespaces or parameters) in the timeline and tables.
    QAction* shortNames = view->addAction(tr("&Short Names"));
    shortNames->setCheckable(true);
    shortNames->setToolTip(
        tr("Show C++ and kernel names without return type, namespaces and parameter list; "
           "tooltips, Details and CSV keep the full name"));
    const bool shortWanted = QSettings().value(QStringLiteral("view/shortNames"), true).toBool();
    NameStyleSetting::instance().setStyle(shortWanted ? NameStyle::Short : NameStyle::Full);
    shortNames->setChecked(shortWanted);
    connect(shortNames, &QAction::toggled, this, [](bool on) {
        QSettings().setValue(QStringLiteral("view/shortNames"), on);
        NameStyleSetting::instance().setStyle(on ? NameStyle::Short : NameStyle::Full);
    });
    // Counter tracks as steps or lines: as their data is (model/query/counter_layout.h), or all one way.
    QMenu* counters = view->addMenu(tr("&Counters"));
    auto* counterGroup = new QActionGroup(counters);
    const QString savedCounters = QSettings().value(QStringLiteral("view/counters"), QStringLiteral("auto")).toString();
    for (const auto& [key, text] :
         {std::pair{"auto", tr("As the &Data Is (steps for held values, lines for measurements)")},
          std::pair{"step", tr("All as &Steps")}, std::pair{"line", tr("All as &Lines")}}) {
        QAction* a = counters->addAction(text);
        a->setCheckable(true);
        counterGroup->addAction(a);
        const QString k = QString::fromLatin1(key);
        auto apply = [k] {
            CounterStyleSetting::instance().setMode(k == QLatin1String("step")   ? std::optional(CounterDrawMode::Step)
                                                    : k == QLatin1String("line") ? std::optional(CounterDrawMode::Line)
                                                                                 : std::nullopt);
        };
        if (k == savedCounters) {
            a->setChecked(true);
            apply();
        }
        connect(a, &QAction::triggered, this, [k, apply] {
            QSettings().setValue(QStringLiteral("view/counters"), k);
            apply();
        });
    }
    addThemeMenu(view);  // System, Light, Dark (app/gui/theme.h)
    QAction* toggleDetails = detailsDock_->toggleViewAction();
    toggleDetails->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    view->addAction(toggleDetails);

    QMenu* tl = menuBar()->addMenu(tr("&Timeline"));
    fillTimelineMenu(tl, timeline_, [this] { tabs_->setCurrentWidget(timeline_); });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* guide = help->addAction(tr("&User Guide"), this, [this] {
        auto* window = new GuideWindow(this);
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->show();
    });
    guide->setShortcut(QKeySequence::HelpContents);
    guide->setEnabled(GuideWindow::available());
    QAction* controls = help->addAction(tr("&Timeline Controls\t?"), this, [this] {
        QMessageBox::information(this, tr("Timeline controls"), timelineControlsText());
    });
    timeline_->setControlsAction(controls);  // '?' on the timeline
    help->addAction(tr("&Keyboard Shortcuts…"), this, [this] { showShortcuts(); });
    // What's This (Shift+F1), then a click on a figure: its definition (a tooltip's text, or a
    // table column's meaning).
    QAction* whatsThis = QWhatsThis::createAction(help);
    whatsThis->setText(tr("&What's This?"));
    help->addAction(whatsThis);
    if (!qApp->findChild<WhatsThisFromToolTip*>(QString(), Qt::FindDirectChildrenOnly))  // one per application
        qApp->installEventFilter(new WhatsThisFromToolTip(qApp));
    help->addAction(tr("&Report a Problem…"), this, [this] {
        const QString text = problemReportText(trace_.get(), path_);
        QGuiApplication::clipboard()->setText(text);
        QMessageBox::information(this, tr("Report a problem"),
                                 tr("<p>Copied to the clipboard, for your report:</p><pre>%1</pre>").arg(text.toHtmlEscaped()));
    });
    help->addSeparator();
    help->addAction(tr("&About TraceScope"), this, [this] {
        QMessageBox::about(this, tr("About TraceScope"),
                           tr("<b>TraceScope %1</b><br>A desktop viewer for ML profiles: XSpace (.xplane.pb), "
                              "Chrome trace JSON and TF1 RunMetadata.")
                               .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::showShortcuts() {
    auto* dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Keyboard shortcuts"));
    auto* layout = new QVBoxLayout(dialog);
    const std::vector<ShortcutRow> rows = shortcutRows(*menuBar());
    auto* table = new QTableWidget(int(rows.size()), 3, dialog);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setHorizontalHeaderLabels({tr("Menu"), tr("Command"), tr("Keys")});
    for (int r = 0; r < int(rows.size()); ++r) {
        const ShortcutRow& row = rows[size_t(r)];
        int c = 0;
        for (const QString& text : {row.menu, row.command, row.keys}) table->setItem(r, c++, new QTableWidgetItem(text));
    }
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->resizeColumnsToContents();
    layout->addWidget(table);
    layout->addWidget(new QLabel(tr("On the timeline itself (zoom, pan, select, bookmarks): Help › Timeline Controls, or ? there."), dialog));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog->resize(640, 520);
    dialog->show();
}

void MainWindow::buildStatusBar() {
    fileLabel_ = new QLabel(this);
    summaryLabel_ = new QLabel(this);
    warningLabel_ = new QLabel(this);
    warningLabel_->setTextFormat(Qt::RichText);
    warningLabel_->hide();
    connect(warningLabel_, &QLabel::linkActivated, this, [this] {
        if (trace_) showImportWarnings(this, *trace_);
    });
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(260);
    progress_->setTextVisible(true);
    cancel_ = new QPushButton(tr("Cancel"), this);
    connect(cancel_, &QPushButton::clicked, loader_, &TraceLoader::cancel);
    connect(cancel_, &QPushButton::clicked, runLoader_, &RunLoader::cancel);
    // Several files loading: each file's share and state (a broken one marked) in a popup.
    filesButton_ = new QToolButton(this);
    filesButton_->setText(tr("Files"));
    filesButton_->setToolTip(tr("Each file being loaded, its progress and state"));
    filesButton_->setPopupMode(QToolButton::InstantPopup);
    auto* filesMenu = new QMenu(filesButton_);
    fileList_ = new LoadProgressList(filesMenu);
    auto* listAction = new QWidgetAction(filesMenu);
    listAction->setDefaultWidget(fileList_);
    filesMenu->addAction(listAction);
    filesButton_->setMenu(filesMenu);
    connect(runLoader_, &RunLoader::fileStateChanged, this, &MainWindow::updateFileList);
    statusBar()->addWidget(fileLabel_);
    statusBar()->addWidget(summaryLabel_, 1);
    statusBar()->addPermanentWidget(warningLabel_);
    statusBar()->addPermanentWidget(filesButton_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    progressTimer_ = new QTimer(this);
    progressTimer_->setInterval(50);
    connect(progressTimer_, &QTimer::timeout, this, [this] {
        const bool many = runLoader_->busy();
        if (many) updateFileList();
        const double f = many ? runLoader_->fraction() : loader_->fraction();
        if (f > 0) {
            progress_->setRange(0, 1000);
            progress_->setValue(int(f * 1000));
            progress_->setFormat(many ? QStringLiteral("%1 %2, %p%").arg(tr("Loading"), runLoader_->filesText())
                                      : QStringLiteral("%1 %p%").arg(tr("Loading")));
        }
        if (timeline_->showsPreview()) timeline_->setLoadingNote(previewNote(f));
    });
    setLoadingUi(false);
}

void MainWindow::updateFileList() {
    const std::vector<FileLoadState> states = runLoader_->fileStates();
    fileList_->setStates(states);
    QStringList lines;
    for (const FileLoadState& f : states) lines << LoadProgressList::lineOf(f).toHtmlEscaped();
    progress_->setToolTip(lines.join(QStringLiteral("<br>")));
    filesButton_->setVisible(runLoader_->busy() && states.size() > 1);
}

void MainWindow::setLoadingUi(bool loading) {
    if (!loading) {
        filesButton_->setVisible(false);
        progress_->setToolTip({});
    }
    progress_->setVisible(loading);
    cancel_->setVisible(loading);
    if (loading) {
        progress_->setRange(0, 0);  // busy until the importer reports bytes
        progressTimer_->start();
    } else {
        progressTimer_->stop();
    }
}

bool MainWindow::loading() const { return loader_->busy() || runLoader_->busy(); }

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

namespace {
std::vector<std::string> summariesIn(const QStringList& paths) {
    std::vector<std::string> p;
    for (const QString& x : paths) p.push_back(x.toStdString());
    return summaryPaths(p);
}
}  // namespace

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
    runsFolder_.clear();
    rebuildRunsMenu({});
    // The pages take a trace: an empty one stands in, named by the run.
    TraceBuilder empty("rank summaries");
    setTrace(std::shared_ptr<const Trace>(empty.finish()), label);
    path_.clear();
    reloadAction_->setEnabled(false);
    setWindowTitle(tr("%1 — TraceScope").arg(label));
    fileLabel_->setText(tr("<b>%1</b> (%2 rank summaries)")
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

void MainWindow::openPaths(const QStringList& paths) {
    if (const std::vector<std::string> summaries = summariesIn(paths); !summaries.empty()) {
        openSummaries(summaries, runLabel(paths));
        return;
    }
    if (paths.size() == 1 && !QFileInfo(paths.front()).isDir()) {
        openPath(paths.front());
        return;
    }
    runsFolder_.clear();
    rebuildRunsMenu({});
    fileLabel_->setText(tr("Loading %1 …").arg(runLabel(paths)));
    setLoadingUi(true);
    runLoader_->start(paths);
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
    fileLabel_->setText(QStringLiteral("<b>%1</b>").arg(label.toHtmlEscaped()));
}

void MainWindow::openNotOneJob(std::shared_ptr<MultiWorkerRun> run, NotOneJobChoice choice, const QString& label) {
    std::vector<const WorkerTrace*> loaded;
    for (const WorkerTrace& w : run->workers)
        if (w.trace) loaded.push_back(&w);
    if (choice == NotOneJobChoice::Merge) {
        fileLabel_->setText(tr("Merging %1 …").arg(label));
        setLoadingUi(true);
        runLoader_->merge(std::move(run), label);
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

void MainWindow::openPath(const QString& path) {
    if (const std::vector<std::string> summaries = summariesIn({path}); !summaries.empty()) {
        openSummaries(summaries, QFileInfo(path).fileName());
        return;
    }
    QString target = path;
    if (QFileInfo(path).isDir()) {
        // A logdir or profile folder: list its runs and open the newest (listRuns sorts newest first).
        const std::vector<RunInfo> runs = listRuns(path.toStdString());
        // A folder of several workers' trace files (rank-0.json.gz, rank-1.json.gz…): one run.
        if (runs.empty() && expandWorkerPaths({path.toStdString()}).size() > 1) {
            openPaths({path});
            return;
        }
        runsFolder_ = runs.empty() ? QString() : path;
        if (!runs.empty()) {
            openListedRun(runs.front());
            return;
        }
    } else {
        runsFolder_.clear();
    }
    rebuildRunsMenu(target);
    startLoad(target);
}

void MainWindow::startLoad(const QString& target) {
    fileLabel_->setText(tr("Loading %1 …").arg(QFileInfo(target).fileName()));
    setLoadingUi(true);
    // A profile run of several hosts: each host is a worker of one run (its own clock offset, the Pod page).
    if (QFileInfo(target).isDir() && expandWorkerPaths({target.toStdString()}).size() > 1) runLoader_->start({target});
    else loader_->start(target);
}

void MainWindow::openCapturedRun(const QString& logdir, const QString& runDir) {
    runsFolder_ = logdir;
    rebuildRunsMenu(runDir);
    startLoad(runDir);
}

void MainWindow::showCaptureDialog() {
    if (!captureDialog_) {
        captureDialog_ = new CaptureDialog(this);
        connect(captureDialog_, &CaptureDialog::openRequested, this, &MainWindow::openCapturedRun);
    }
    captureDialog_->show();
    captureDialog_->raise();
    captureDialog_->activateWindow();
}

void MainWindow::showLaunchDialog() {
    if (!launchDialog_) {
        launchDialog_ = new LaunchDialog(this);
        connect(launchDialog_, &LaunchDialog::openRequested, this, &MainWindow::openCapturedRun);
    }
    launchDialog_->show();
    launchDialog_->raise();
    launchDialog_->activateWindow();
}

namespace {

// What a Runs menu entry stands for: an XSpace run by its folder; a PyTorch cycle (its folder
// holds every cycle) by its first file.
QString runKey(const RunInfo& run) {
    return QString::fromStdString(run.kind == RunKind::TorchCycle && !run.files.empty() ? run.files.front() : run.path);
}

// "cycle 2 · 2023-11-14 22:15:00 UTC  (host_1, host_2)"; a long list of workers is shortened.
QString runMenuText(const RunInfo& run) {
    QStringList hosts;
    for (size_t i = 0; i < run.hosts.size() && i < 4; ++i) hosts << QString::fromStdString(run.hosts[i]);
    if (run.hosts.size() > 4) hosts << QObject::tr("%n more", nullptr, int(run.hosts.size() - 4));
    QString name = QString::fromStdString(run.name);
    if (run.kind == RunKind::TorchCycle && run.timeFromName)
        name +=
            QStringLiteral(" · ") +
            QDateTime::fromSecsSinceEpoch(run.timeSeconds, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) +
            QStringLiteral(" UTC");
    return QStringLiteral("%1  (%2)").arg(name, hosts.join(QStringLiteral(", ")));
}

}  // namespace

void MainWindow::openListedRun(const RunInfo& run) {
    rebuildRunsMenu(runKey(run));
    if (run.kind != RunKind::TorchCycle) {
        startLoad(QString::fromStdString(run.path));
        return;
    }
    // A PyTorch cycle: its one worker's file, or its workers together as one run (the Pod page).
    QStringList files;
    for (const std::string& f : run.files) files << QString::fromStdString(f);
    if (files.size() == 1) {
        startLoad(files.front());
        return;
    }
    // Named by its folder and cycle ("profiler — cycle 2"): its files' names say less.
    const QString label =
        tr("%1 — %2").arg(QFileInfo(QString::fromStdString(run.path)).fileName(), QString::fromStdString(run.name));
    fileLabel_->setText(tr("Loading %1 …").arg(label));
    setLoadingUi(true);
    runLoader_->start(files, label);
}

void MainWindow::rebuildRunsMenu(const QString& current) {
    runsMenu_->clear();
    const std::vector<RunInfo> runs =
        runsFolder_.isEmpty() ? std::vector<RunInfo>{} : listRuns(runsFolder_.toStdString());
    runsMenu_->setEnabled(!runs.empty());
    for (const RunInfo& run : runs) {
        const QString key = runKey(run);
        QAction* a = runsMenu_->addAction(runMenuText(run), this, [this, run] { openListedRun(run); });
        a->setCheckable(true);
        // By path, not QFileInfo's ==: that follows links, and two cycles may link one file.
        a->setChecked(QDir::cleanPath(QFileInfo(key).absoluteFilePath()) ==
                      QDir::cleanPath(QFileInfo(current).absoluteFilePath()));
        QStringList files;
        for (const std::string& f : run.files) files << QString::fromStdString(f);
        a->setToolTip(files.join(QLatin1Char('\n')));
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
    if (!loader_->busy() || path != loader_->path() || !part) return;
    presentPreview(std::move(part), path, textBytes, loader_->fraction());
}

void MainWindow::showLoadingPreview(std::shared_ptr<const Trace> part, const QString& path, quint64 textBytes) {
    fileLabel_->setText(tr("Loading %1 …").arg(QFileInfo(path).fileName()));
    setLoadingUi(true);
    progressTimer_->stop();  // nothing is loading: the bar shows the part's share of the file
    const double fraction = std::min(1.0, double(textBytes) / double(std::max<qint64>(1, QFileInfo(path).size())));
    progress_->setRange(0, 1000);
    progress_->setValue(int(fraction * 1000));
    progress_->setFormat(QStringLiteral("%1 %p%").arg(tr("Loading")));
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
        warningLabel_->hide();
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
    updateSummary();
    // Import warnings stay visible, not a transient message: a banner when data is missing,
    // and always a status-bar link that lists them (the list also in its tooltip).
    banner_->setTrace(trace_.get());
    QStringList warnings;
    if (trace_)
        for (const ImportWarning& w : trace_->warnings)
            warnings << QString::fromStdString(warningText(w)).toHtmlEscaped();
    warningLabel_->setVisible(!warnings.isEmpty());
    warningLabel_->setText(
        QStringLiteral("<a href=\"warnings\">%1</a>").arg(tr("⚠ %n import warning(s)", nullptr, int(warnings.size()))));
    warningLabel_->setToolTip(warnings.join(QStringLiteral("<br>")));
    if (carried.valid()) selection_->selectSlice(carried);
    for (auto& [store, old] : replaced) ResultStore::releaseElsewhere(std::move(store), std::move(old));
}

void MainWindow::updateSummary() {
    if (!trace_) {
        fileLabel_->clear();
        summaryLabel_->clear();
        return;
    }
    const TraceCounts c = trace_->counts();
    fileLabel_->setText(QStringLiteral("<b>%1</b>").arg(QFileInfo(path_).fileName().toHtmlEscaped()));
    fileLabel_->setToolTip(path_);
    QStringList parts;
    parts << tr("span %1").arg(formatDuration(trace_->spanNs()));
    parts << tr("%1 processes, %2 tracks").arg(c.processes).arg(c.tracks);
    parts << tr("%1 slices").arg(countText(c.slices));
    if (c.asyncSlices) parts << tr("%1 async").arg(countText(c.asyncSlices));
    if (c.instants) parts << tr("%1 instants").arg(countText(c.instants));
    if (c.counterTracks) parts << tr("%1 counters (%2 samples)").arg(c.counterTracks).arg(countText(c.counterSamples));
    if (c.flows) parts << tr("%1 flows").arg(countText(c.flows));
    parts << QString::fromStdString(trace_->format);
    summaryLabel_->setText(parts.join(QStringLiteral("  ·  ")));
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

void MainWindow::addRecent(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    recent.removeAll(abs);
    recent.prepend(abs);
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue(kRecentKey, recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    for (const QString& path : recent) {
        QAction* a = recentMenu_->addAction(QFileInfo(path).fileName(), this, [this, path] { openPath(path); });
        a->setToolTip(path);
        a->setStatusTip(path);
    }
    if (recent.isEmpty()) recentMenu_->addAction(tr("(none)"))->setEnabled(false);
    else {
        recentMenu_->addSeparator();
        recentMenu_->addAction(tr("Clear Menu"), this, [this] {
            QSettings().remove(kRecentKey);
            rebuildRecentMenu();
        });
    }
}

void MainWindow::closeEvent(QCloseEvent* e) {
    loader_->cancel();
    if (detailsHiddenForPage_) detailsDock_->show();  // saved as the user left it on the timeline
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
