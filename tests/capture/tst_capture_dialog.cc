// The Capture Profile dialog, offscreen, against the in-process profiler server: the form's
// defaults and validation, progress to "saved", Stop, Cancel, and the capture opening in the
// main window with File > Runs. With TRACESCOPE_SCREENSHOT_DIR set it also saves a PNG of the
// dialog in each state, to look at.
#include "test_profiler_server.h"

#include "app/gui/main_window.h"
#include "views/capture/capture_dialog.h"

#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace tracescope;
using namespace tracescope::capture;
using namespace tracescope::capture::testing;

namespace {

void snapshot(QWidget& w, const QString& name) {
    const QString dir = qEnvironmentVariable("TRACESCOPE_SCREENSHOT_DIR");
    if (!dir.isEmpty()) w.grab().save(dir + "/" + name + ".png");
}

QString cell(CaptureDialog& d, int row, int column) {
    auto* table = d.findChild<QTableWidget*>();
    return table && table->item(row, column) ? table->item(row, column)->text() : QString();
}

// The dialog with a fresh logdir and a short capture of `address`.
struct Dialog {
    QTemporaryDir logdir;
    CaptureDialog dialog;
    explicit Dialog(const QString& address, int durationMs) {
        dialog.setAddresses(address);
        dialog.findChild<QSpinBox*>("durationMs")->setValue(durationMs);
        dialog.findChild<QLineEdit*>("logdir")->setText(logdir.path());
        dialog.resize(820, 460);
        dialog.show();
    }
};

}  // namespace

class TestCaptureDialog : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);  // settings and the default logdir in a test location
        QCoreApplication::setOrganizationName("TraceScopeTest");
        QCoreApplication::setApplicationName("tst_capture_dialog");
        QSettings().clear();  // the defaults, not what an earlier run left
    }

    // TensorBoard's defaults, and a bad address refused with a message.
    void formDefaultsAndValidation() {
        CaptureDialog d;
        CaptureOptions o;
        QString error;
        d.setAddresses("localhost:9999");
        QVERIFY(d.readOptions(o, error));
        QCOMPARE(o.durationMs, uint64_t(1000));
        QCOMPARE(o.retries, 3);
        QCOMPARE(o.hostTracerLevel, 2u);
        QCOMPARE(o.deviceTracerLevel, 1u);
        QCOMPARE(o.pythonTracerLevel, 0u);
        QCOMPARE(o.delayMs, uint64_t(0));
        QVERIFY(QString::fromStdString(o.logdir).endsWith("captures"));
        d.setAddresses("grpc://a:1, [::1]:2");
        QVERIFY(d.readOptions(o, error));
        QCOMPARE(o.servers.size(), size_t(2));
        d.setAddresses("localhost");
        QVERIFY(!d.readOptions(o, error));
        QVERIFY(!error.isEmpty());
        d.resize(820, 460);
        d.show();
        snapshot(d, "capture_dialog_form");
        d.startCapture();  // refused: the message shows, nothing runs
        QVERIFY(!d.running());
        bool shown = false;
        for (QLabel* l : d.findChildren<QLabel*>()) shown = shown || (l->isVisible() && l->text() == error);
        QVERIFY(shown);
    }

    // A capture runs to "saved", shows per-server progress, and asks to open the run.
    void captureSavesAndAsksToOpen() {
        TestProfilerServer::Config config;
        config.xspace = readFileBytes(steadyCapturePath());
        config.collectTime = std::chrono::milliseconds(300);
        TestProfilerServer server(config);
        QVERIFY(server.ok());
        Dialog f(QString::fromStdString(server.address()), 800);
        QSignalSpy finished(&f.dialog, &CaptureDialog::captureFinished);
        QSignalSpy open(&f.dialog, &CaptureDialog::openRequested);
        f.dialog.startCapture();
        QVERIFY(f.dialog.running());
        QTRY_COMPARE_WITH_TIMEOUT(cell(f.dialog, 0, 1), QString("profiling"), 5000);
        QTest::qWait(400);
        snapshot(f.dialog, "capture_dialog_profiling");
        QVERIFY(finished.wait(20000));
        const auto result = finished[0][0].value<CaptureResult>();
        QCOMPARE(result.savedFiles().size(), size_t(1));
        QVERIFY(QFileInfo::exists(QString::fromStdString(result.savedFiles()[0])));
        QCOMPARE(cell(f.dialog, 0, 1), QString("saved"));
        QVERIFY(cell(f.dialog, 0, 4).contains(".xplane.pb"));
        QCOMPARE(open.size(), 1);
        QCOMPARE(open[0][0].toString(), f.logdir.path());
        QCOMPARE(open[0][1].toString(), QString::fromStdString(result.runDir));
        QVERIFY(!f.dialog.running());
        snapshot(f.dialog, "capture_dialog_saved");
    }

    // Two servers, one of them busy with another session: one saved, one failed with the reason.
    void oneServerFailing() {
        TestProfilerServer::Config good;
        good.xspace = readFileBytes(steadyCapturePath());
        TestProfilerServer::Config busy = good;
        busy.reply = TestProfilerServer::Reply::AnotherSession;
        TestProfilerServer a(good), b(busy);
        QVERIFY(a.ok() && b.ok());
        Dialog f(QString::fromStdString(a.address() + "," + b.address()), 300);
        QSignalSpy finished(&f.dialog, &CaptureDialog::captureFinished);
        f.dialog.startCapture();
        QVERIFY(finished.wait(20000));
        QCOMPARE(cell(f.dialog, 0, 1), QString("saved"));
        QCOMPARE(cell(f.dialog, 1, 1), QString("failed"));
        QVERIFY(cell(f.dialog, 1, 4).contains("already being profiled"));
        snapshot(f.dialog, "capture_dialog_one_failed");
    }

    // Stop ends a 60 s capture early and keeps the data; Cancel leaves nothing.
    void stopAndCancel() {
        TestProfilerServer::Config config;
        config.xspace = readFileBytes(steadyCapturePath());
        TestProfilerServer server(config);
        {
            Dialog f(QString::fromStdString(server.address()), 60000);
            QSignalSpy finished(&f.dialog, &CaptureDialog::captureFinished);
            f.dialog.startCapture();
            QTRY_COMPARE_WITH_TIMEOUT(cell(f.dialog, 0, 1), QString("profiling"), 5000);
            QElapsedTimer timer;
            timer.start();
            f.dialog.stopCapture();
            QVERIFY(finished.wait(20000));
            QVERIFY(timer.elapsed() < 10000);
            QCOMPARE(finished[0][0].value<CaptureResult>().savedFiles().size(), size_t(1));
        }
        {
            Dialog f(QString::fromStdString(server.address()), 60000);
            QSignalSpy finished(&f.dialog, &CaptureDialog::captureFinished);
            f.dialog.startCapture();
            QTRY_COMPARE_WITH_TIMEOUT(cell(f.dialog, 0, 1), QString("profiling"), 5000);
            f.dialog.cancelCapture();
            QVERIFY(finished.wait(20000));
            const auto result = finished[0][0].value<CaptureResult>();
            QVERIFY(result.savedFiles().empty());
            QCOMPARE(cell(f.dialog, 0, 1), QString("cancelled"));
            const QDir runs(f.logdir.path() + "/plugins/profile");
            QVERIFY(!runs.exists() || runs.entryList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot).isEmpty());
        }
    }

    // File > Capture Profile… opens the dialog; a finished capture opens in the window and
    // File > Runs lists it.
    void captureOpensInTheMainWindow() {
        TestProfilerServer::Config config;
        config.xspace = readFileBytes(steadyCapturePath());
        TestProfilerServer server(config);
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        window.showCaptureDialog();
        auto* dialog = window.findChild<CaptureDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        QTemporaryDir logdir;
        dialog->setAddresses(QString::fromStdString(server.address()));
        dialog->findChild<QSpinBox*>("durationMs")->setValue(300);
        dialog->findChild<QLineEdit*>("logdir")->setText(logdir.path());
        QSignalSpy loaded(&window, &MainWindow::traceLoaded);
        dialog->startCapture();
        QVERIFY(loaded.wait(30000));
        QVERIFY(window.trace());
        QCOMPARE(window.trace()->format, std::string("xspace"));
        QMenu* runs = nullptr;
        for (QMenu* m : window.menuBar()->findChildren<QMenu*>())
            if (m->title().remove('&') == "Runs") runs = m;
        QVERIFY(runs && runs->isEnabled());
        QCOMPARE(runs->actions().size(), 1);
    }
};

QTEST_MAIN(TestCaptureDialog)
#include "tst_capture_dialog.moc"
