// One viewer per session: `tracescope FILE` (the built viewer, run as a file manager would)
// hands FILE to the viewer listening and exits at once; the viewer opens it in a new window or
// its own, as File > Files From Other Launches says; with nothing listening the launch is a
// viewer of its own; a stray client's garbage is refused.
#include "app/gui/main_window.h"
#include "app/gui/single_instance.h"

#include <QApplication>
#include <QLocalSocket>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <unistd.h>

using namespace tracescope;

namespace {

// A socket name of this test run only (the user's real viewer is never asked).
QString testName(const char* what) {
    return QStringLiteral("tracescope-test-%1-%2-%3").arg(::getpid()).arg(QLatin1String(what)).arg(::getuid());
}

}  // namespace

class SingleInstanceTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // The built viewer, started with a relative path while a viewer listens: it exits 0 within
    // seconds (no window of its own) and the listener gets the absolute path.
    void secondLaunchHandsItsFileOver() {
        const QString name = testName("handoff");
        InstanceServer server;
        QVERIFY(server.listen(name));
        QSignalSpy received(&server, &InstanceServer::pathsReceived);
        QTemporaryDir dir;
        QProcess launch;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TRACESCOPE_INSTANCE_NAME"), name);
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        launch.setProcessEnvironment(env);
        launch.setWorkingDirectory(dir.path());
        launch.start(QStringLiteral(TRACESCOPE_GUI), {QStringLiteral("some trace.json")});
        QVERIFY(launch.waitForStarted());
        QVERIFY(received.wait(20000));
        QVERIFY(launch.waitForFinished(20000));
        QCOMPARE(launch.exitCode(), 0);
        QCOMPARE(received.first().first().toStringList(), QStringList{dir.filePath("some trace.json")});
    }

    void nobodyListening() {
        QVERIFY(!InstanceServer::sendToRunning({QStringLiteral("/tmp/x.json")}, testName("none"), 1000));
    }

    // Not JSON, or no absolute path in it: refused, nothing opened; the server keeps serving.
    void strayClientsAreRefused() {
        const QString name = testName("stray");
        InstanceServer server;
        QVERIFY(server.listen(name));
        QSignalSpy received(&server, &InstanceServer::pathsReceived);
        for (const QByteArray& line : {QByteArray("garbage\n"), QByteArray("{\"paths\": [\"relative.json\", 7]}\n")}) {
            QLocalSocket socket;
            socket.connectToServer(name);
            QVERIFY(socket.waitForConnected(2000));
            socket.write(line);
            QTRY_VERIFY_WITH_TIMEOUT(socket.canReadLine(), 5000);
            QCOMPARE(socket.readLine(), QByteArray("refused\n"));
        }
        QCOMPARE(received.count(), 0);
        // Still serving (a hand-over from this thread: the server answers from the event loop,
        // so the client runs in a thread of its own).
        bool sent = false;
        QThread* client = QThread::create([&] { sent = InstanceServer::sendToRunning({QStringLiteral("/abs/a.json")}, name, 5000); });
        client->start();
        QVERIFY(received.wait(5000));
        QVERIFY(client->wait(5000));
        delete client;
        QVERIFY(sent);
        QCOMPARE(received.first().first().toStringList(), QStringList{QStringLiteral("/abs/a.json")});
    }

    // An empty window takes the files itself; one with a trace opens a new window unless the
    // setting says this window.
    void handedOverFilesOpenWhereTheSettingSays() {
        MainWindow window;
        setHandOffTarget(HandOffTarget::NewWindow);
        const QString file = QStringLiteral(TRACESCOPE_TEST_DATA_DIR "/small_chrome_trace.json");
        QSignalSpy loaded(&window, &MainWindow::traceLoaded);
        QCOMPARE(openHandedOver(window, {file}), &window);  // empty: no second window
        QVERIFY(loaded.wait(10000));
        MainWindow* second = openHandedOver(window, {file});
        QVERIFY(second != &window);
        QVERIFY(second->testAttribute(Qt::WA_DeleteOnClose));
        QSignalSpy secondLoaded(second, &MainWindow::traceLoaded);
        QVERIFY(secondLoaded.wait(10000));
        QCOMPARE(second->trace()->counts().slices, size_t(5));
        second->close();
        setHandOffTarget(HandOffTarget::ThisWindow);
        QCOMPARE(handOffTarget(), HandOffTarget::ThisWindow);
        QCOMPARE(openHandedOver(window, {file}), &window);
        setHandOffTarget(HandOffTarget::NewWindow);
    }
};

QTEST_MAIN(SingleInstanceTest)
#include "tst_single_instance.moc"
