// Capture from a real JAX profiler server (jax.profiler.start_server, the TSL
// ProfilerService) running a jitted loop on the CPU: the reply's XSpace is saved and opens,
// Stop ends a long capture early, a second capture at once is told the program is already
// being profiled. Needs the peers' Python environment with JAX (tests/peers/setup.sh makes
// BUILD/peers-venv; TRACESCOPE_PEERS_PYTHON overrides the interpreter); without it the test
// exits 77, which CTest reports as skipped; under CI=true it fails instead, since CI must
// make that environment (as the other peer tests do).
#include "jax_server_process.h"

#include "model/capture/capture_session.h"
#include "model/import/import.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <thread>

using namespace tracescope;
using namespace tracescope::capture;
using namespace tracescope::capture::testing;

class CaptureJaxTest : public QObject {
    Q_OBJECT
    QProcess server_;
    int port_ = 0;

    CaptureOptions options(const QTemporaryDir& dir, uint64_t durationMs) const {
        CaptureOptions o;
        o.servers = {ServerAddress{"localhost", port_}};
        o.durationMs = durationMs;
        o.logdir = dir.path().toStdString();
        return o;
    }

private slots:
    void initTestCase() {
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

    void captureOpens() {
        QTemporaryDir dir;
        CaptureSession session(options(dir, 1000));
        QElapsedTimer timer;
        timer.start();
        const CaptureResult r = session.run();
        qInfo("real JAX server, 1 s capture: %lld ms round trip", (long long)timer.elapsed());
        QCOMPARE(r.workers.size(), size_t(1));
        const WorkerStatus& w = r.workers[0];
        QVERIFY2(w.state == WorkerState::Saved, w.message.c_str());
        // On the CPU there is no device plane: the note says so and the file is still saved.
        QVERIFY2(w.message.find("no /device:* plane") != std::string::npos, w.message.c_str());
        ImportResult imported = importTrace(w.savedPath);
        QVERIFY2(imported.ok(), imported.error.c_str());
        bool host = false;
        for (const Process& p : imported.trace->processes) host |= p.name == "/host:CPU";
        QVERIFY(host);
        QVERIFY(imported.trace->counts().slices > 0);
        qInfo("%zu slices, %lld bytes", imported.trace->counts().slices,
              (long long)QFileInfo(QString::fromStdString(w.savedPath)).size());
    }

    void stopEndsEarly() {
        QTemporaryDir dir;
        CaptureSession session(options(dir, 30000));
        QElapsedTimer timer;
        timer.start();
        std::thread stopper([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(1500));
            session.stop();
        });
        const CaptureResult r = session.run();
        stopper.join();
        qInfo("real JAX server, 30 s capture stopped at 1.5 s: %lld ms", (long long)timer.elapsed());
        QVERIFY2(r.workers[0].state == WorkerState::Saved, r.workers[0].message.c_str());
        QVERIFY(timer.elapsed() < 10000);
    }

    void secondCaptureIsRefused() {
        QTemporaryDir dir1, dir2;
        CaptureSession first(options(dir1, 2000));
        CaptureResult a;
        std::thread t([&] { a = first.run(); });
        std::this_thread::sleep_for(std::chrono::milliseconds(700));
        CaptureSession second(options(dir2, 500));
        const CaptureResult b = second.run();
        t.join();
        QVERIFY2(a.workers[0].state == WorkerState::Saved, a.workers[0].message.c_str());
        QVERIFY(b.workers[0].state == WorkerState::Failed);
        QVERIFY2(b.workers[0].message.find("already being profiled") != std::string::npos, b.workers[0].message.c_str());
    }
};

int main(int argc, char** argv) {
    if (const int skip = skipWithoutJax()) return skip;
    CaptureJaxTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_capture_jax.moc"
