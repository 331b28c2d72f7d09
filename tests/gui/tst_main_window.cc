// The main window and --screenshot: tabs from the view catalog, a trace shown
// everywhere, background loading, and PNG output of the requested size.
#include "app/gui/main_window.h"
#include "app/gui/screenshot.h"
#include "hand_trace.h"
#include "views/timeline/timeline_view.h"
#include "views/view_catalog.h"

#include <QDockWidget>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

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
        QCOMPARE(ids.size(), int(analysisViewFactories().size()) + 1);
        QCOMPARE(ids.front(), QString("timeline"));
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

    // A time picked on another page (the memory chart) brings the timeline forward, centred on it.
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
        QVERIFY(c->rangeSelection() && c->rangeSelection()->first == t);
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

    void backgroundLoadShowsTrace() {
        MainWindow w;
        closeMessageBoxes(&w);  // should loading fail, its message box must not block the test
        QSignalSpy loaded(&w, &MainWindow::traceLoaded);
        w.openPath(QStringLiteral(TRACESCOPE_TEST_DATA_DIR "/small_chrome_trace.json"));
        QVERIFY(loaded.wait(10000));
        QVERIFY(w.trace());
        QCOMPARE(w.trace()->counts().slices, size_t(5));  // hand count: 4 on main + 1 kernel
    }
};

QTEST_MAIN(MainWindowTest)
#include "tst_main_window.moc"
