// File > Launch & Capture… offscreen: the dialog runs fake_cuda_program under the real agent,
// shows live record counts, saves the run and asks to open it; Stop ends the capture window
// while the program runs on, Start opens a new one, Terminate ends the program.
#include "views/capture/launch_dialog.h"
#include "tests/cupti/fake_scenario.h"

#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QScopeGuard>
#include <QRegularExpression>
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
        QVERIFY(!o.earlyNvtx);
        QCheckBox* early = nullptr;
        for (QCheckBox* c : dialog.findChildren<QCheckBox*>())
            if (c->text().contains("another NVTX tool")) early = c;
        QVERIFY(early);
        early->setChecked(true);
        QVERIFY(dialog.readOptions(o, error));
        QVERIFY(o.earlyNvtx);
        early->setChecked(false);  // not saved into the next tests' settings
    }

    void runsSavesAndOpens() {
        QTemporaryDir dir;
        LaunchDialog dialog;
        dialog.setCommand(QStringLiteral("%1 run 6").arg(FAKE_CUDA_PROGRAM));
        dialog.setLogdir(dir.path());
        qputenv("FAKE_OUTPUT_LINES", "2");  // the program inherits our environment
        const auto unset = qScopeGuard([] { qunsetenv("FAKE_OUTPUT_LINES"); });
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
        // The program's stdout and stderr in the pane, and saved with the run.
        QTRY_VERIFY_WITH_TIMEOUT(dialog.outputText().contains("stderr line"), 5000);
        QCOMPARE(dialog.outputText(), QStringLiteral("stdout line 0\nstdout line 1\nstderr line\n"));
        QFile saved(QDir(runDir).filePath("program_output.txt"));
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QCOMPARE(saved.readAll(), QByteArray("stdout line 0\nstdout line 1\nstderr line\n"));
        QVERIFY(dialog.statusText().contains("program_output.txt"));
    }

    // "… 1,234 records received …" -> 1234 (the status line's running total).
    static qulonglong recordsReceived(const QString& status) {
        const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("([\\d.,\\s]+) records received")).match(status);
        QString digits = m.captured(1);
        digits.remove(QRegularExpression(QStringLiteral("\\D")));
        return digits.toULongLong();
    }

    void stopEndsTheCaptureNotTheProgram() {
        QTemporaryDir dir;
        LaunchDialog dialog;
        dialog.setCommand(QStringLiteral("%1 run 100").arg(FAKE_CUDA_PROGRAM));  // 15 s unless ended
        dialog.setLogdir(dir.path());
        QSignalSpy finished(&dialog, &LaunchDialog::launchFinished);
        QSignalSpy open(&dialog, &LaunchDialog::openRequested);
        dialog.startLaunch();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.statusText().contains("records received") &&
                                     !dialog.statusText().contains(" 0 records"),
                                 10000);
        dialog.stopLaunch();
        // Saved and offered for opening while the program still runs.
        QVERIFY(open.wait(10000));
        QVERIFY(dialog.running());
        QVERIFY(finished.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(dialog.statusText().contains("no longer recording"), 5000);
        QVERIFY(dialog.statusText().contains("Saved in"));
        const QString runDir = open.at(0).at(1).toString();
        QCOMPARE(QDir(runDir).entryList({"*.xplane.pb"}).size(), 1);
        // Start again while the program runs: a second window, saved in a run folder of its own.
        dialog.startLaunch();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.statusText().contains("records received"), 5000);
        // The count is the session's running total: the new window has records once it grows.
        // (Stopping before that saves an empty window, which is not offered for opening.)
        const qulonglong before = recordsReceived(dialog.statusText());
        QTRY_VERIFY_WITH_TIMEOUT(recordsReceived(dialog.statusText()) > before, 10000);
        dialog.stopLaunch();
        QVERIFY(open.wait(10000));
        QCOMPARE(open.size(), 2);
        const QString secondRun = open.at(1).at(1).toString();
        QVERIFY(secondRun != runDir);
        QCOMPARE(QDir(secondRun).entryList({"*.xplane.pb"}).size(), 1);
        dialog.terminateProgram();
        QVERIFY(finished.wait(10000));
        const auto result = finished.at(0).at(0).value<capture::LaunchResult>();
        QCOMPARE(result.termSignal, int(SIGTERM));
        QVERIFY(result.captureOk());
        QVERIFY(result.processes[0].records > 0);
        QVERIFY(result.processes[0].records < fake::scenarioCounts(100).records());
        QCOMPARE(result.processes[0].recordsAfterWindow, uint64_t(0));
        QCOMPARE(open.size(), 2);  // not offered again at the program's end
        QVERIFY(dialog.statusText().contains("killed by signal"));
    }
};

QTEST_MAIN(LaunchDialogTest)
#include "tst_launch_dialog.moc"
