// File > Launch & Capture… offscreen: the dialog runs fake_cuda_program under the real agent,
// shows live record counts, saves the run and asks to open it; Stop ends the capture early.
#include "views/capture/launch_dialog.h"
#include "tests/cupti/fake_scenario.h"

#include <QDir>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace tracescope;

class LaunchDialogTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("TRACESCOPE_CUPTI_AGENT", CUPTI_AGENT);
    }

    void formErrors() {
        LaunchDialog dialog;
        dialog.setCommand(QString());
        capture::LaunchOptions o;
        QString error;
        QVERIFY(!dialog.readOptions(o, error));
        QVERIFY(error.contains("program"));
        dialog.setCommand(QStringLiteral("%1 run 1").arg(FAKE_CUDA_PROGRAM));
        dialog.setLogdir(QStringLiteral("/tmp/x"));
        QVERIFY(dialog.readOptions(o, error));
        QCOMPARE(o.command.size(), size_t(3));
        QCOMPARE(o.command[1], std::string("run"));
        QVERIFY(o.kinds.find("kernel") == 0);
    }

    void runsSavesAndOpens() {
        QTemporaryDir dir;
        LaunchDialog dialog;
        dialog.setCommand(QStringLiteral("%1 run 6").arg(FAKE_CUDA_PROGRAM));
        dialog.setLogdir(dir.path());
        QSignalSpy finished(&dialog, &LaunchDialog::launchFinished);
        QSignalSpy open(&dialog, &LaunchDialog::openRequested);
        dialog.startLaunch();
        QVERIFY(dialog.running());
        QTRY_VERIFY_WITH_TIMEOUT(dialog.statusText().contains("records received") &&
                                     !dialog.statusText().contains(" 0 records"),
                                 10000);
        QVERIFY(finished.wait(30000));
        const auto result = finished.at(0).at(0).value<capture::LaunchResult>();
        QVERIFY(result.captureOk());
        QCOMPARE(result.processes[0].records, fake::scenarioCounts(6).records());
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.at(0).at(0).toString(), dir.path());
        const QString runDir = open.at(0).at(1).toString();
        QCOMPARE(QDir(runDir).entryList({"*.xplane.pb"}).size(), 1);
        QVERIFY(dialog.statusText().contains("exited with status 0"));
    }

    void stopEndsTheCapture() {
        QTemporaryDir dir;
        LaunchDialog dialog;
        dialog.setCommand(QStringLiteral("%1 run 100").arg(FAKE_CUDA_PROGRAM));  // 15 s unless stopped
        dialog.setLogdir(dir.path());
        QSignalSpy finished(&dialog, &LaunchDialog::launchFinished);
        dialog.startLaunch();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.statusText().contains("records received") &&
                                     !dialog.statusText().contains(" 0 records"),
                                 10000);
        dialog.stopLaunch();
        QVERIFY(finished.wait(10000));
        const auto result = finished.at(0).at(0).value<capture::LaunchResult>();
        QCOMPARE(result.termSignal, int(SIGTERM));
        QVERIFY(result.captureOk());
        QVERIFY(result.processes[0].records > 0);
        QVERIFY(result.processes[0].records < fake::scenarioCounts(100).records());
    }
};

QTEST_MAIN(LaunchDialogTest)
#include "tst_launch_dialog.moc"
