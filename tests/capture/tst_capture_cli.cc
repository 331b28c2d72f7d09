// `tracescope-cli capture` as a script sees it: the files written on stdout, one per
// line; per-server failures on stderr; exit 0 only when every server saved, 1 with a
// one-line summary naming the failed servers, 2 for bad arguments.
#include "tests/capture/test_profiler_server.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace tracescope::capture::testing;
using Reply = TestProfilerServer::Reply;
namespace fs = std::filesystem;

namespace {

struct Run {
    int exitCode = -1;
    bool finished = false;
    std::string out, err;
    qint64 ms = 0;
};

Run runCli(const QStringList& args) {
    QElapsedTimer timer;
    timer.start();
    QProcess p;
    p.start(QStringLiteral(TRACESCOPE_CLI), QStringList{"capture"} + args);
    Run r;
    r.finished = p.waitForFinished(60000);
    r.ms = timer.elapsed();
    if (!r.finished) {
        p.kill();
        p.waitForFinished(5000);
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput().toStdString();
    r.err = p.readAllStandardError().toStdString();
    return r;
}

TestProfilerServer::Config serving(Reply reply, const std::string& xspace) {
    TestProfilerServer::Config c;
    c.reply = reply;
    c.xspace = xspace;
    return c;
}

QString q(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

class CaptureCliTest : public QObject {
    Q_OBJECT
private slots:
    void savesAndPrintsThePath() {
        const std::string bytes = readFileBytes(steadyCapturePath());
        TestProfilerServer server(serving(Reply::EmitXSpace, bytes));
        QTemporaryDir dir;
        const Run r = runCli({q("grpc://" + server.address()), "--duration-ms", "100", "--logdir", dir.path(),
                              "--retries", "1", "--host-level", "3", "--device-level", "1", "--python-level", "1",
                              "--delay-ms", "50"});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, r.err.c_str());
        QCOMPARE(std::count(r.out.begin(), r.out.end(), '\n'), std::ptrdiff_t(1));
        const std::string path = r.out.substr(0, r.out.size() - 1);
        QVERIFY2(fs::path(path).filename() == "127.0.0.1_" + std::to_string(server.port()) + ".xplane.pb", path.c_str());
        QCOMPARE(fs::path(path).parent_path().parent_path().string(), dir.path().toStdString() + "/plugins/profile");
        QCOMPARE(readFileBytes(path), bytes);
        const auto seen = server.seen();
        QCOMPARE(seen.profiles.size(), size_t(1));
        QCOMPARE(seen.profiles[0].opts().host_tracer_level(), 3u);
        QCOMPARE(seen.profiles[0].opts().python_tracer_level(), 1u);
        QCOMPARE(seen.profiles[0].opts().duration_ms(), uint64_t(100));
        QVERIFY2(r.err.empty(), r.err.c_str());
    }

    void oneServerFailing() {
        TestProfilerServer good(serving(Reply::EmitXSpace, readFileBytes(warmupCapturePath())));
        TestProfilerServer busy(serving(Reply::AnotherSession, {}));
        QTemporaryDir dir;
        const Run r = runCli({q(good.address() + "," + busy.address()), "--duration-ms", "100", "--logdir", dir.path()});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(std::count(r.out.begin(), r.out.end(), '\n'), std::ptrdiff_t(1));  // the good one's file
        QVERIFY(fs::exists(r.out.substr(0, r.out.size() - 1)));
        QVERIFY2(r.err.find(busy.address() + ": failed: ") != std::string::npos, r.err.c_str());
        QVERIFY2(r.err.find("already being profiled by another session") != std::string::npos, r.err.c_str());
        QVERIFY2(r.err.find("capture failed on 1 of 2 server(s): " + busy.address()) != std::string::npos, r.err.c_str());
    }

    void nothingListening() {
        int port = 0;
        {
            TestProfilerServer gone(serving(Reply::EmitXSpace, {}));
            port = gone.port();
        }
        QTemporaryDir dir;
        const Run r = runCli({q("localhost:" + std::to_string(port)), "--duration-ms", "1000", "--logdir", dir.path()});
        qInfo("closed port via the CLI: exit after %lld ms", (long long)r.ms);
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.empty());
        QVERIFY2(r.err.find("nothing listening at localhost:" + std::to_string(port)) != std::string::npos, r.err.c_str());
        QVERIFY(r.ms < 10000);
        QVERIFY(!fs::exists(dir.path().toStdString() + "/plugins/profile") ||
                fs::is_empty(dir.path().toStdString() + "/plugins/profile"));
    }

    void badArguments_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no logdir") << QStringList{"localhost:1", "--duration-ms", "10"} << "usage:";
        QTest::newRow("no duration") << QStringList{"localhost:1", "--logdir", "/tmp/x"} << "usage:";
        QTest::newRow("no address") << QStringList{"--duration-ms", "10", "--logdir", "/tmp/x"} << "usage:";
        QTest::newRow("bad port") << QStringList{"localhost:99999", "--duration-ms", "10", "--logdir", "/tmp/x"}
                                  << "invalid port '99999'";
        QTest::newRow("missing port") << QStringList{"myhost", "--duration-ms", "10", "--logdir", "/tmp/x"}
                                      << "missing port in 'myhost'";
        QTest::newRow("bad number") << QStringList{"localhost:1", "--duration-ms", "1s", "--logdir", "/tmp/x"}
                                    << "--duration-ms expects a non-negative integer";
        QTest::newRow("zero duration") << QStringList{"localhost:1", "--duration-ms", "0", "--logdir", "/tmp/x"}
                                       << "at least 1";
        QTest::newRow("unknown option") << QStringList{"localhost:1", "--duration-ms", "10", "--logdir", "/tmp/x", "--port", "3"}
                                        << "unknown option '--port'";
    }

    void badArguments() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = runCli(args);
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.find(message.toStdString()) != std::string::npos, r.err.c_str());
    }
};

QTEST_GUILESS_MAIN(CaptureCliTest)
#include "tst_capture_cli.moc"
