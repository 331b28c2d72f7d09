// The main window and --screenshot: tabs from the view catalog, a trace shown
// everywhere, background loading, and PNG output of the requested size.
#include "app/gui/guide_window.h"
#include "app/gui/help_texts.h"
#include "app/gui/load_progress_list.h"
#include "app/gui/main_window.h"
#include "app/gui/run_loader.h"
#include "app/gui/screenshot.h"
#include "app/gui/trace_loader.h"
#include "hand_trace.h"
#include "model/import/import.h"
#include "views/analysis_view.h"
#include "views/pod/pod_view.h"
#include "views/timeline/timeline_canvas.h"
#include "views/timeline/timeline_view.h"
#include "views/trace_selection.h"
#include "views/view_catalog.h"

#include <QDir>
#include <QDockWidget>
#include <QHelpEvent>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFragment>
#include <QTextImageFormat>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <thread>

using namespace tracescope;

namespace {

// The error message box is modal: close any that appears so the test goes on.
void closeMessageBoxes(QObject* owner) {
    auto* closer = new QTimer(owner);
    QObject::connect(closer, &QTimer::timeout, [] {
        if (QWidget* m = QApplication::activeModalWidget()) m->close();
    });
    closer->start(20);
}

}  // namespace

class MainWindowTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void tabsFollowTheCatalog() {
        MainWindow w;
        const QStringList ids = w.viewIds();
        int parts = 0;  // the tabs of a page that --view names on their own
        for (const ViewFactory& f : analysisViewFactories()) parts += int(f.parts.size());
        QCOMPARE(ids.size(), int(analysisViewFactories().size()) + 1 + parts);
        QCOMPARE(ids.front(), QString("timeline"));
        // A page's tab by its own id: the page shown, on that tab.
        QVERIFY(w.showView("roofline"));
        QVERIFY(ids.contains("xla-ops") && ids.contains("hlo-ops") && ids.contains("memory-view") && ids.contains("hlo-graph"));
        QVERIFY(w.showView("timeline"));
        QVERIFY(!w.showView("no-such-view"));
        auto trace = testing::buildHandTrace();
        w.setTrace(trace, "hand.json");
        QCOMPARE(w.trace(), trace);
        QCOMPARE(w.timeline()->canvas()->trace(), trace.get());
        QVERIFY(w.windowTitle().contains("hand.json"));
    }

    // The Details dock steps aside on analysis pages and comes back on the timeline,
    // unless the user had closed it there.
    void detailsDockFollowsTheTimeline() {
        MainWindow w;
        w.show();
        auto* dock = w.findChild<QDockWidget*>("DetailsDock");
        QVERIFY(dock);
        QVERIFY(dock->isVisible());
        const QString page = w.viewIds().at(1);
        QVERIFY(w.showView(page));
        QVERIFY(!dock->isVisible());
        QVERIFY(w.showView("timeline"));
        QVERIFY(dock->isVisible());
        dock->hide();
        QVERIFY(w.showView(page));
        QVERIFY(w.showView("timeline"));
        QVERIFY(!dock->isVisible());
    }

    // The Timeline menu (built by the timeline package) acts on the main window's timeline.
    void timelineMenuDrivesTheTimeline() {
        MainWindow w;
        w.show();
        w.setTrace(testing::buildHandTrace(), "hand.json");
        w.timeline()->waitUntilReady();
        QMenu* menu = nullptr;
        for (QAction* a : w.menuBar()->actions())
            if (a->text() == QStringLiteral("&Timeline")) menu = a->menu();
        QVERIFY(menu);
        auto trigger = [menu](const QString& text) {
            for (QAction* a : menu->actions())
                if (a->text().startsWith(text)) {
                    a->trigger();
                    return true;
                }
            return false;
        };
        TimelineController& ctl = w.timeline()->controller();
        QVERIFY(ctl.minimapVisible());
        QVERIFY(trigger(QStringLiteral("Show &Overview Strip")));
        QVERIFY(!ctl.minimapVisible());
        w.timeline()->setVisibleRange(10, 20);
        QVERIFY(trigger(QStringLiteral("Fit Whole Span")));
        QVERIFY(ctl.axis().begin() <= double(w.trace()->startNs) && ctl.axis().end() >= double(w.trace()->endNs));
        auto* tabs = w.findChild<QTabWidget*>();
        QVERIFY(w.showView(w.viewIds().at(1)));
        QVERIFY(trigger(QStringLiteral("&Find Slices")));  // brings the timeline forward
        QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(w.timeline()));
    }

    // A time picked on another page (the memory chart) brings the timeline forward, centred on it
    // and marked (tst_memory_navigation: the window's width and what Details lists).
    void showTimeCentresTheTimeline() {
        MainWindow w;
        w.show();
        auto trace = testing::buildHandTrace();
        w.setTrace(trace, "hand.json");
        QVERIFY(w.showView(w.viewIds().at(1)));
        const TimeNs t = trace->startNs + trace->spanNs() / 3;
        w.selection()->showTime(t);
        auto* tabs = w.findChild<QTabWidget*>();
        QVERIFY(tabs);
        QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(w.timeline()));
        TimelineCanvas* c = w.timeline()->canvas();
        QVERIFY(c->visibleBegin() < double(t) && double(t) < c->visibleEnd());
        QVERIFY(std::abs((c->visibleBegin() + c->visibleEnd()) / 2 - double(t)) < 1.0 + (c->visibleEnd() - c->visibleBegin()) * 0.01);
        QVERIFY(c->visibleEnd() - c->visibleBegin() < double(trace->spanNs()));
        QCOMPARE(c->controller().markedMoment(), std::optional<TimeNs>(t));  // marked, not a 1 ns range
        QVERIFY(!c->rangeSelection());
    }

    void screenshotWritesPngOfRequestedSize() {
        QTemporaryDir dir;
        ScreenshotOptions o;
        o.input = QStringLiteral(TRACESCOPE_TEST_DATA_DIR "/small_chrome_trace.json");
        o.output = dir.filePath("shot.png");
        o.size = QSize(900, 640);
        o.search = "aten";
        o.select = "aten::mm";
        QCOMPARE(runScreenshot(o), 0);
        QImage img(o.output);
        QVERIFY(!img.isNull());
        QCOMPARE(img.size(), QSize(900, 640));
        QVERIFY(QFileInfo(o.output).size() > 1000);
        // Not a blank image: the timeline drew several colours.
        QSet<QRgb> colours;
        for (int y = 0; y < img.height(); y += 7)
            for (int x = 0; x < img.width(); x += 7) colours.insert(img.pixel(x, y));
        QVERIFY(colours.size() > 10);
    }

    void screenshotErrors() {
        QTemporaryDir dir;
        ScreenshotOptions o;
        o.input = dir.filePath("missing.json");
        o.output = dir.filePath("x.png");
        QVERIFY(runScreenshot(o) != 0);
        QVERIFY(!QFileInfo::exists(o.output));
        o.input = QStringLiteral(TRACESCOPE_TEST_DATA_DIR "/small_chrome_trace.json");
        o.range = "5ms:1ms";
        QVERIFY(runScreenshot(o) != 0);
        o.range.clear();
        o.view = "no-such-view";
        QVERIFY(runScreenshot(o) != 0);
    }

    void backgroundLoadReportsErrors() {
        MainWindow w;
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        closeMessageBoxes(&w);
        QTemporaryDir dir;
        QFile f(dir.filePath("garbage.bin"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("\x01\x02not a trace at all\xff", 21);
        f.close();
        w.openPath(f.fileName());
        QVERIFY(failed.wait(10000));
        QVERIFY(!w.trace());
    }

    // A trace replaced by another is freed, with its results, on a runner thread: never on the
    // UI thread, where freeing a large one stalled the window.
    void replacedTraceFreedOffTheUiThread() {
        ImportResult r = importTrace(TRACESCOPE_TEST_DATA_DIR "/small_chrome_trace.json");
        QVERIFY2(r.ok(), r.error.c_str());
        std::atomic<bool> freed{false};
        std::atomic<bool> freedOnUi{false};
        const std::thread::id ui = std::this_thread::get_id();
        auto first = std::shared_ptr<const Trace>(r.trace.release(), [&](const Trace* t) {
            freedOnUi = std::this_thread::get_id() == ui;
            freed = true;
            delete t;
        });
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        w.setTrace(first, QStringLiteral("first.json"));
        first.reset();
        const QList<AnalysisView*> pages = w.findChildren<AnalysisView*>();
        for (const QString& id : w.viewIds()) w.showView(id);  // every page computes on it
        QVERIFY(QTest::qWaitFor([&] {
            return std::none_of(pages.begin(), pages.end(), [](AnalysisView* p) { return p->isComputing(); });
        }, 30000));
        w.setTrace(testing::buildHandTrace(), QStringLiteral("second.json"));
        QVERIFY(QTest::qWaitFor([&] { return freed.load(); }, 10000));
        QVERIFY(!freedOnUi.load());
    }

    void backgroundLoadShowsTrace() {
        MainWindow w;
        closeMessageBoxes(&w);  // should loading fail, its message box must not block the test
        QSignalSpy loaded(&w, &MainWindow::traceLoaded);
        w.openPath(QStringLiteral(TRACESCOPE_TEST_DATA_DIR "/small_chrome_trace.json"));
        QVERIFY(loaded.wait(10000));
        QVERIFY(w.trace());
        QCOMPARE(w.trace()->counts().slices, size_t(5));  // hand count: 4 on main + 1 kernel
    }

    // Help › Keyboard Shortcuts lists every menu action that has keys, once, with its menu;
    // Help › Report a Problem names the version, Qt, the platform and the open trace.
    void helpMenuIsMadeFromTheProgram() {
        MainWindow w;
        const std::vector<ShortcutRow> rows = shortcutRows(*w.menuBar());
        int withKeys = 0;
        std::function<void(QMenu*)> count = [&](QMenu* menu) {
            for (QAction* a : menu->actions()) {
                if (a->menu()) count(a->menu());
                else if (!a->isSeparator() && !a->shortcuts().isEmpty()) ++withKeys;
            }
        };
        for (QAction* a : w.menuBar()->actions())
            if (a->menu()) count(a->menu());
        QCOMPARE(int(rows.size()), withKeys);
        const QString open = QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText);
        QVERIFY(std::any_of(rows.begin(), rows.end(), [&](const ShortcutRow& r) {
            return r.menu == "File" && r.command == QStringLiteral("Open…") && r.keys == open;
        }));
        QVERIFY(std::any_of(rows.begin(), rows.end(), [](const ShortcutRow& r) { return r.command == "Reload" && r.keys.contains("F5"); }));
        QVERIFY(std::none_of(rows.begin(), rows.end(), [](const ShortcutRow& r) { return r.command.contains('&'); }));
        // The dialog shows the same rows.
        QAction* shortcuts = nullptr;
        for (QAction* a : w.menuBar()->actions())
            if (a->menu() && a->menu()->title() == "&Help")
                for (QAction* h : a->menu()->actions())
                    if (h->text().startsWith("&Keyboard Shortcuts")) shortcuts = h;
        QVERIFY(shortcuts);
        shortcuts->trigger();
        auto* table = w.findChild<QTableWidget*>("shortcutsTable");
        QVERIFY(table);
        QCOMPARE(table->rowCount(), int(rows.size()));

        QString report = problemReportText(nullptr, {});
        QVERIFY(report.contains("Qt " + QString::fromLatin1(qVersion())));
        QVERIFY(report.contains("Trace: none open"));
        QSignalSpy loaded(&w, &MainWindow::traceLoaded);
        w.openPath(QStringLiteral(TRACESCOPE_TEST_DATA_DIR "/small_chrome_trace.json"));
        QVERIFY(loaded.wait(10000));
        report = problemReportText(w.trace().get(), QStringLiteral(TRACESCOPE_TEST_DATA_DIR "/small_chrome_trace.json"));
        QVERIFY2(report.contains("Trace: small_chrome_trace.json"), qPrintable(report));
        QVERIFY2(report.contains("format chrome-json"), qPrintable(report));
        QVERIFY2(report.contains(", 5 slices,"), qPrintable(report));
    }

    // A load that fails (or is cancelled) after its preview was shown: the trace open before is
    // back on every page and the timeline, and no traceLoaded is claimed for it.
    void failedLoadAfterPreviewRestoresTheTraceBefore() {
        MainWindow w;
        closeMessageBoxes(&w);
        QSignalSpy loaded(&w, &MainWindow::traceLoaded);
        w.openPath(QStringLiteral(TRACESCOPE_TEST_DATA_DIR "/small_chrome_trace.json"));
        QVERIFY(loaded.wait(10000));
        const std::shared_ptr<const Trace> before = w.trace();
        ImportResult part = importTrace(TRACESCOPE_SHARED_DIR "/testdata/public/catapult/simple_trace.json");
        QVERIFY(part.ok());
        w.showLoadingPreview(std::shared_ptr<const Trace>(std::move(part.trace)), QStringLiteral("/tmp/other.json"), 1 << 20);
        QVERIFY(!w.trace());
        QVERIFY(w.timeline()->showsPreview());
        auto* loader = w.findChild<TraceLoader*>(QStringLiteral("traceLoader"));
        emit loader->failed(QStringLiteral("cut short"), QStringLiteral("/tmp/other.json"));
        QCOMPARE(w.trace(), before);
        QVERIFY(!w.timeline()->showsPreview());
        QCOMPARE(w.timeline()->controller().trace(), before.get());
        QCOMPARE(loaded.count(), 1);
    }

    // Help › What's This on a figure: its tooltip (the definition) when it has no text of its
    // own; a widget without either is left to Qt.
    void whatsThisShowsTheDefinition() {
        MainWindow w;
        w.show();
        QLabel figure(QStringLiteral("61.3 %"), &w);
        figure.setToolTip(QStringLiteral("Share of the step's time the device computes"));
        figure.show();
        auto whatsThat = [] {
            for (QWidget* top : QApplication::topLevelWidgets())
                if (top->isVisible() && QByteArray(top->metaObject()->className()) == "QWhatsThat") return top;
            return static_cast<QWidget*>(nullptr);
        };
        QLabel plain(QStringLiteral("no definition"), &w);
        QHelpEvent none(QEvent::WhatsThis, QPoint(2, 2), plain.mapToGlobal(QPoint(2, 2)));
        QApplication::sendEvent(&plain, &none);
        QVERIFY(!whatsThat());
        QHelpEvent ask(QEvent::WhatsThis, QPoint(2, 2), figure.mapToGlobal(QPoint(2, 2)));
        QVERIFY(QApplication::sendEvent(&figure, &ask));
        QTRY_VERIFY(whatsThat());
        bool inMenu = false;
        for (QAction* a : w.menuBar()->actions())
            if (a->menu() && a->menu()->title() == "&Help")
                for (QAction* h : a->menu()->actions()) inMenu = inMenu || h->text() == "&What's This?";
        QVERIFY(inMenu);
    }

    // Help › User Guide: every chapter compiled in opens, every picture it shows loads (scaled to
    // the page), and the dark theme gets the dark pictures.
    void userGuideShowsEveryChapterAndPicture() {
        QVERIFY(GuideWindow::available());
        GuideWindow guide;
        guide.show();
        QVERIFY(guide.browser()->document()->toPlainText().contains("TraceScope User Guide"));
        const QStringList chapters = QDir(QStringLiteral(":/guide")).entryList({QStringLiteral("*.md")});
        QVERIFY(chapters.size() >= 8);
        int pictures = 0;
        for (const QString& chapter : chapters) {
            guide.showChapter(chapter);
            const QTextDocument* doc = guide.browser()->document();
            QVERIFY2(doc->toPlainText().size() > 200, qPrintable(chapter));
            for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
                for (auto it = b.begin(); !it.atEnd(); ++it) {
                    const QTextCharFormat f = it.fragment().charFormat();
                    if (!f.isImageFormat()) continue;
                    const QString name = f.toImageFormat().name();
                    const QImage image = guide.browser()->loadResource(QTextDocument::ImageResource, QUrl(name)).value<QImage>();
                    QVERIFY2(!image.isNull(), qPrintable(chapter + ": " + name));
                    QVERIFY(image.width() <= guide.browser()->viewport()->width());
                    ++pictures;
                }
        }
        QVERIFY(pictures >= 10);
        // The dark theme's picture of the timeline: a dark background.
        QPalette dark = guide.browser()->palette();
        dark.setColor(QPalette::Base, Qt::black);
        guide.browser()->setPalette(dark);
        const QImage night = guide.browser()->loadResource(QTextDocument::ImageResource, QUrl("images/timeline-light.png")).value<QImage>();
        QVERIFY(!night.isNull());
        QVERIFY(night.pixelColor(night.width() / 2, night.height() - 3).lightness() < 128);
        dark.setColor(QPalette::Base, Qt::white);
        guide.browser()->setPalette(dark);
        const QImage day = guide.browser()->loadResource(QTextDocument::ImageResource, QUrl("images/timeline-light.png")).value<QImage>();
        QVERIFY(day.pixelColor(day.width() / 2, day.height() - 3).lightness() > 128);
    }

    // Progressive display: a large file's first part is on the timeline while the whole imports;
    // the pages wait; a slice selected and the window moved in the part stay when the whole
    // trace replaces it. The file: 400,000 slices of 10 us each 20 us apart on four threads
    // (~36 MB); the first part read is 256 KiB (16 MiB in the app), the whole is ~140 times it.
    void backgroundLoadShowsPreviewFirst() {
        QTemporaryDir dir;
        const QString path = dir.filePath("large.json");
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray text = "[";
            constexpr int kEvents = 400'000;
            for (int i = 0; i < kEvents; ++i) {
                text += QStringLiteral("%1{\"ph\":\"X\",\"name\":\"op%2\",\"cat\":\"cpu_op\",\"pid\":7,\"tid\":%3,"
                                       "\"ts\":%4,\"dur\":10}\n")
                            .arg(i ? "," : "")
                            .arg(i % 50)
                            .arg(1 + i % 4)
                            .arg(qint64(i / 4) * 20)
                            .toLatin1();
            }
            text += "]";
            f.write(text);
        }
        MainWindow w;
        w.resize(1280, 800);
        closeMessageBoxes(&w);
        auto* loader = w.findChild<TraceLoader*>(QStringLiteral("traceLoader"));
        QVERIFY(loader);
        loader->setPreviewStart(256 << 10);
        int previews = 0;
        size_t previewSlices = 0;
        bool pagesEmpty = true;
        connect(loader, &TraceLoader::previewReady, &w, [&](std::shared_ptr<const Trace> part) {
            // MainWindow's own slot ran first: the part is on the timeline, nothing else has it.
            ++previews;
            previewSlices = part->counts().slices;
            pagesEmpty = pagesEmpty && !w.trace() && w.timeline()->showsPreview();
            if (previews > 1) return;
            // The user selects the 100th slice of thread 2 and zooms to 1.5-2.5 ms.
            const Trace& t = *part;
            for (TrackIndex i = 0; i < t.tracks.size(); ++i)
                if (t.tracks[i].tid == 2 && t.tracks[i].slices.size() > 100) w.selection()->selectSlice({i, 100});
            w.timeline()->setVisibleRange(1.5e6, 2.5e6);
        });
        QSignalSpy loaded(&w, &MainWindow::traceLoaded);
        w.openPath(path);
        QVERIFY(loaded.wait(120000));
        QVERIFY2(previews >= 1, "no part of the file was shown before the whole trace");
        QVERIFY(pagesEmpty);
        QVERIFY(previewSlices > 0 && previewSlices < 400'000);
        QVERIFY(w.trace());
        QCOMPARE(w.trace()->counts().slices, size_t(400'000));
        QVERIFY(!w.timeline()->showsPreview());
        // Slice 100 of thread 2 (events 4k+1): event 401, at 100 * 20 us, named op1.
        const SliceRef kept = w.selection()->selectedSlice();
        QVERIFY(kept.valid());
        const Track& track = w.trace()->tracks[kept.track];
        QCOMPARE(track.tid, int64_t(2));
        QCOMPARE(track.slices.start[kept.index], TimeNs(2'000'000));
        QCOMPARE(w.trace()->str(track.slices.name[kept.index]), std::string_view("op1"));
        const TimeAxis& axis = w.timeline()->controller().axis();
        QCOMPARE(qRound64(axis.begin()), qint64(1'500'000));
        QCOMPARE(qRound64(axis.end()), qint64(2'500'000));
    }

    // Two rank files without a wall clock, rank 1's steps 2 ms later: the run the viewer loads
    // (the timeline's merged view) starts both ranks' ProfilerStep#5 at one time, rank 1 moved by
    // 500 - 2500 us = -2 ms, the offset the Pod page lists. Each file counts from its earliest
    // event (100 us), so both steps start at 500 - 100 = 400 us.
    void runWithoutWallClockAlignedInTimeline() {
        QTemporaryDir dir;
        for (int r = 0; r < 2; ++r) {
            QString events;
            for (int s = 0; s < 2; ++s)
                events += QString("{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#%1\",\"pid\":1,\"tid\":1,\"ts\":%2,\"dur\":9000},")
                              .arg(5 + s)
                              .arg(500 + r * 2000 + s * 10000);
            events += "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"setup\",\"pid\":1,\"tid\":2,\"ts\":100,\"dur\":50}";
            QFile f(dir.filePath(QString("rank-%1.json").arg(r)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(("{\"traceEvents\":[" + events + "]}").toUtf8());
        }
        QString error;
        LoadedRun loaded = RunLoader::load({dir.filePath("rank-0.json"), dir.filePath("rank-1.json")}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(loaded.run->workers[1].offsetNs, TimeNs(-2'000'000));
        QCOMPARE(loaded.run->workers[1].clock, WorkerClock::FirstStep);
        std::vector<TimeNs> starts;
        for (const Track& t : loaded.merged->tracks)
            for (size_t i = 0; i < t.slices.size(); ++i)
                if (loaded.merged->strings.get(t.slices.name[i]) == "ProfilerStep#5") starts.push_back(t.slices.start[i]);
        QCOMPARE(starts, (std::vector<TimeNs>{400'000, 400'000}));
    }

    // Several files loading: each file's start and end reach the window's per-file list; the
    // broken file is listed as failed (with why), the good one as done, and the rest opens.
    void eachFileProgressIsListed() {
        QTemporaryDir dir;
        QFile f(dir.filePath("rank-1.bin"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("\x01\x02not a trace at all\xff", 21);
        f.close();
        const QString good = QStringLiteral(TRACESCOPE_SHARED_DIR) + "/testdata/public/hta/sampled_rank-0.json.gz";
        MainWindow w;
        closeMessageBoxes(&w);
        auto* loader = w.findChild<RunLoader*>();
        QVERIFY(loader);
        QSignalSpy changed(loader, &RunLoader::fileStateChanged);
        QSignalSpy loaded(&w, &MainWindow::traceLoaded);
        w.openPaths({good, f.fileName()});
        QVERIFY(loaded.wait(30000));
        // Two files, each started and finished: four per-file signals, both files named.
        QCOMPARE(changed.count(), 4);
        QSet<int> files;
        for (const auto& args : changed) files.insert(args.at(0).toInt());
        QCOMPARE(files, (QSet<int>{0, 1}));
        const std::vector<FileLoadState> states = loader->fileStates();
        QCOMPARE(states.size(), size_t(2));
        QCOMPARE(states[0].stage, FileLoadState::Stage::Done);
        QCOMPARE(states[0].fraction, 1.0);
        QCOMPARE(states[1].stage, FileLoadState::Stage::Failed);
        QVERIFY(!states[1].error.isEmpty());
        LoadProgressList* list = w.loadProgressList();
        QVERIFY(list);
        QCOMPARE(list->count(), 2);
        QCOMPARE(list->item(0)->text(), QString("sampled_rank-0.json.gz — done"));
        QVERIFY2(list->item(1)->text().startsWith("rank-1.bin — failed: "), qPrintable(list->item(1)->text()));
        QCOMPARE(list->item(1)->data(Qt::UserRole).toInt(), int(FileLoadState::Stage::Failed));
        QVERIFY(!list->item(1)->icon().isNull());
        QVERIFY(w.trace());  // the good rank opened
        if (qEnvironmentVariableIsSet("TRACESCOPE_TEST_SHOTS"))
            list->grab().save(qEnvironmentVariable("TRACESCOPE_TEST_SHOTS") + "/load_progress_list.png");
    }

    // Two ranks open as one run held once (the workers' own traces let go, the view is the copy);
    // clock offsets set by hand on the Pod page make a new view with rank 1's tracks moved by
    // exactly the change, and the Pod page's step starts with them.
    void handSetOffsetsRemakeTheView() {
        const QString dir = QStringLiteral(TRACESCOPE_SHARED_DIR) + "/testdata/public/hta/";
        QString error;
        LoadedRun loaded = RunLoader::load({dir + "sampled_rank-0.json.gz", dir + "sampled_rank-1.json.gz"}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(!loaded.run->workers[0].trace && !loaded.run->workers[1].trace);
        QCOMPARE(loaded.run->loadedCount(), size_t(2));
        MainWindow w;
        w.show();
        w.setRun(loaded.run, loaded.merged, "two ranks");
        auto* pod = w.findChild<PodView*>();
        QVERIFY(pod && w.showView("pod"));
        QSignalSpy ready(pod, &AnalysisView::resultReady);
        if (!pod->result()) QVERIFY(ready.wait(30000));
        const std::vector<WorkerStep> before = pod->result()->workers[1].steps;
        const std::shared_ptr<const Trace> view = w.trace();
        const TimeNs shift = 2'000'000;
        const TrackIndex firstRank1 = loaded.run->workers[1].merged->firstTrack;
        ready.clear();
        emit pod->offsetsEdited({loaded.run->workers[0].offsetNs, loaded.run->workers[1].offsetNs + shift});
        QVERIFY(w.trace() != view);
        for (TrackIndex t = 0; t < view->tracks.size(); ++t) {
            const auto &a = view->tracks[t].slices.start, &b = w.trace()->tracks[t].slices.start;
            QCOMPARE(b.size(), a.size());
            for (size_t i = 0; i < a.size(); i += 17) QCOMPARE(b[i], a[i] + (t >= firstRank1 ? shift : 0));
        }
        if (pod->isComputing()) QVERIFY(ready.wait(30000));
        const PodResult* after = pod->result();
        QVERIFY(after);
        QCOMPARE(after->workers[1].clock, WorkerClock::Manual);
        for (size_t s = 0; s < before.size(); ++s)
            QCOMPARE(after->workers[1].steps[s].runStartNs, before[s].runStartNs + shift);
    }

    // A profile run of two hosts (TensorBoard layout) opens as a run of two workers: the Pod page
    // has both, the timeline groups each host's processes under its worker name.
    void profileRunOfTwoHostsOpensAsWorkers() {
        QTemporaryDir dir;
        const QString run = dir.filePath("plugins/profile/2024_01_01_00_00_00");
        QVERIFY(QDir().mkpath(run));
        const QString demo = QStringLiteral(TRACESCOPE_SHARED_DIR) + "/testdata/public/tfprofiler/34.83.195.179_6003.xplane.pb";
        QVERIFY(QFile::copy(demo, run + "/hostA_6003.xplane.pb"));
        QVERIFY(QFile::copy(demo, run + "/hostB_6003.xplane.pb"));
        MainWindow w;
        closeMessageBoxes(&w);
        w.show();
        QSignalSpy loaded(&w, &MainWindow::traceLoaded);
        w.openPath(dir.path());
        QVERIFY(loaded.wait(30000));
        auto* pod = w.findChild<PodView*>();
        QVERIFY(pod && w.showView("pod"));
        QSignalSpy ready(pod, &AnalysisView::resultReady);
        if (!pod->result()) QVERIFY(ready.wait(30000));
        QCOMPARE(pod->result()->workers.size(), size_t(2));
        QVERIFY(pod->result()->workers[0].loaded && pod->result()->workers[1].loaded);
        const std::string first = pod->result()->workers[0].name + ": ";
        QVERIFY2(w.trace()->processes.front().name.rfind(first, 0) == 0, w.trace()->processes.front().name.c_str());
    }
};

QTEST_MAIN(MainWindowTest)
#include "tst_main_window.moc"
