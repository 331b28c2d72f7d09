// File > Capture Profile against a real JAX profiler server (jax.profiler.start_server):
// the dialog's row goes to "saved", the capture opens in the main window with the server's
// host plane and its jitted steps, and File > Runs lists it. Skipped (exit 77) without the
// peers' Python with JAX; fails under CI=true (see jax_server_process.h).
#include "jax_server_process.h"

#include "app/gui/main_window.h"
#include "views/capture/capture_dialog.h"

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
using namespace tracescope::capture::testing;

class CaptureDialogJaxTest : public QObject {
    Q_OBJECT
    QProcess server_;
    int port_ = 0;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("TraceScopeTest");
        QCoreApplication::setApplicationName("tst_capture_dialog_jax");
        QSettings().clear();
        port_ = freePort();
        QVERIFY(port_ > 0);
        QByteArray output;
        const bool ready = startJaxServer(server_, port_, 120, output);
        QVERIFY2(ready, output.constData());
    }

    void cleanupTestCase() {
        server_.kill();
        server_.waitForFinished(10000);
    }

    void captureOpensInTheMainWindow() {
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        window.showCaptureDialog();
        auto* dialog = window.findChild<CaptureDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        QTemporaryDir logdir;
        dialog->setAddresses(QString("localhost:%1").arg(port_));
        dialog->findChild<QSpinBox*>("durationMs")->setValue(1000);
        dialog->findChild<QLineEdit*>("logdir")->setText(logdir.path());
        QSignalSpy loaded(&window, &MainWindow::traceLoaded);
        dialog->startCapture();
        QVERIFY(loaded.wait(60000));

        auto* table = dialog->findChild<QTableWidget*>();
        QVERIFY(table && table->item(0, 1));
        QCOMPARE(table->item(0, 1)->text(), QString("saved"));
        // A CPU-only JAX program has no device plane: the row says so instead of a silent
        // host-only capture.
        QVERIFY2(table->item(0, 4)->text().contains("no /device:* plane"), qPrintable(table->item(0, 4)->text()));

        const std::shared_ptr<const Trace> trace = window.trace();
        QVERIFY(trace);
        QCOMPARE(trace->format, std::string("xspace"));
        bool hostPlane = false;
        for (const Process& p : trace->processes) hostPlane |= p.name == "/host:CPU";
        QVERIFY(hostPlane);
        // The server's loop runs each step in a StepTraceAnnotation named "train".
        bool sawStep = false;
        for (const Track& t : trace->tracks)
            for (StringId name : t.slices.name) sawStep |= trace->str(name) == "train";
        QVERIFY(sawStep);

        QMenu* runs = nullptr;
        for (QMenu* m : window.menuBar()->findChildren<QMenu*>())
            if (m->title().remove('&') == "Runs") runs = m;
        QVERIFY(runs && runs->isEnabled());
        QCOMPARE(runs->actions().size(), 1);
        const QString shots = qEnvironmentVariable("TRACESCOPE_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            window.grab().save(shots + "/capture_jax_main_window.png");
            dialog->grab().save(shots + "/capture_jax_dialog.png");
        }
    }
};

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (const int skip = skipWithoutJax()) return skip;
    CaptureDialogJaxTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_capture_dialog_jax.moc"
