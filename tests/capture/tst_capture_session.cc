// CaptureSession against our in-process profiler server: every server generation, retries,
// Stop / Cancel, every failure message, several workers, IPv6. The saved files are opened
// with the importer and checked against counts computed independently
// (tests/data/xspace_expected_counts.json, from tests/tools/count_xspace.py).
#include "model/capture/capture_session.h"
#include "model/import/import.h"
#include "tests/capture/test_profiler_server.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

using namespace tracescope;
using namespace tracescope::capture;
using namespace tracescope::capture::testing;
namespace fs = std::filesystem;
using Reply = TestProfilerServer::Reply;
using ms = std::chrono::milliseconds;

namespace {

struct Captured {
    CaptureResult result;
    ms elapsed{0};
    ms afterDuring{0};  // from `during` to the end of run()
    std::vector<std::pair<size_t, WorkerStatus>> progress;
};

// Runs a capture; `during` (if any) runs on this thread once every worker is profiling
// and `afterMs` more have passed.
Captured runCapture(const CaptureOptions& options, const std::function<void(CaptureSession&)>& during = {},
                 int afterMs = 0) {
    Captured out;
    std::mutex mutex;
    std::condition_variable cv;
    std::vector<bool> profiling(options.servers.size(), false);
    CaptureSession session(options, [&](size_t i, const WorkerStatus& s) {
        std::lock_guard lock(mutex);
        out.progress.emplace_back(i, s);
        if (s.state == WorkerState::Profiling) profiling[i] = true;
        cv.notify_all();
    });
    const auto start = std::chrono::steady_clock::now();
    auto duringAt = start;
    std::thread runner([&] { out.result = session.run(); });
    if (during) {
        std::unique_lock lock(mutex);
        cv.wait_for(lock, std::chrono::seconds(10),
                    [&] { return std::all_of(profiling.begin(), profiling.end(), [](bool b) { return b; }); });
        lock.unlock();
        std::this_thread::sleep_for(ms(afterMs));
        duringAt = std::chrono::steady_clock::now();
        during(session);
    }
    runner.join();
    const auto end = std::chrono::steady_clock::now();
    out.elapsed = std::chrono::duration_cast<ms>(end - start);
    out.afterDuring = std::chrono::duration_cast<ms>(end - duringAt);
    return out;
}

CaptureOptions optionsFor(const std::vector<const TestProfilerServer*>& servers, const QTemporaryDir& dir) {
    CaptureOptions o;
    std::string list;
    for (const TestProfilerServer* s : servers) list += (list.empty() ? "" : ",") + s->address();
    std::string error;
    if (!parseServerAddresses(list, o.servers, error)) qFatal("%s", error.c_str());
    o.durationMs = 100;
    o.retries = 0;
    o.retryPauseMs = 20;
    o.logdir = dir.path().toStdString();
    return o;
}

TestProfilerServer::Config serving(Reply reply, const std::string& xspace) {
    TestProfilerServer::Config c;
    c.reply = reply;
    c.xspace = xspace;
    return c;
}

nlohmann::json expectedCounts(const std::string& file) {
    std::ifstream in(std::string(TRACESCOPE_SOURCE_DIR) + "/tests/data/xspace_expected_counts.json");
    return nlohmann::json::parse(in)["./gpu/" + file];
}

// Nothing but final files in the run folder (no temporary or partial files).
std::vector<std::string> filesIn(const std::string& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::string describe(const CaptureResult& r) {
    std::string text;
    for (const WorkerStatus& w : r.workers)
        text += w.server.target() + " " + workerStateName(w.state) + " (attempt " + std::to_string(w.attempt) +
                "): " + w.message + " " + w.savedPath + "\n";
    return text;
}

#define VERIFY_STATE(worker, expected)                                                       \
    QVERIFY2((worker).state == (expected), (std::string("state ") + workerStateName((worker).state) + ": " + \
                                            (worker).message).c_str())

}  // namespace

class CaptureSessionTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QVERIFY2(fs::exists(steadyCapturePath()), "shared test data missing (TRACESCOPE_SHARED_DIR)");
    }

    // The current generation: the XSpace comes back in the reply and is saved as
    // TensorBoard lays it out; the request carries every a.10 field.
    void emitXSpace() {
        const std::string bytes = readFileBytes(steadyCapturePath());
        TestProfilerServer server(serving(Reply::EmitXSpace, bytes));
        QVERIFY(server.ok());
        QTemporaryDir dir;
        CaptureOptions options = optionsFor({&server}, dir);
        options.durationMs = 150;
        options.hostTracerLevel = 3;
        options.pythonTracerLevel = 1;
        const auto before = std::chrono::system_clock::now();
        const Captured c = runCapture(options);
        qInfo("round trip of a 150 ms capture (%zu bytes): %lld ms", bytes.size(), (long long)c.elapsed.count());

        QCOMPARE(c.result.workers.size(), size_t(1));
        const WorkerStatus& w = c.result.workers[0];
        VERIFY_STATE(w, WorkerState::Saved);
        QVERIFY2(w.message.empty(), w.message.c_str());
        QCOMPARE(w.attempt, 1);
        QVERIFY(std::regex_match(c.result.sessionId, std::regex(R"(\d{4}_\d\d_\d\d_\d\d_\d\d_\d\d)")));
        const std::string runDir = dir.path().toStdString() + "/plugins/profile/" + c.result.sessionId;
        QCOMPARE(c.result.runDir, runDir);
        const std::string expectedPath = runDir + "/127.0.0.1_" + std::to_string(server.port()) + ".xplane.pb";
        QCOMPARE(w.savedPath, expectedPath);
        QCOMPARE(c.result.savedFiles(), std::vector<std::string>{expectedPath});
        QVERIFY(c.result.anySaved());
        QCOMPARE(readFileBytes(expectedPath), bytes);
        QCOMPARE(filesIn(runDir).size(), size_t(1));

        // The request, as the server received it (reference/capture.md a.10).
        const auto seen = server.seen();
        QCOMPARE(seen.profiles.size(), size_t(1));
        const tensorflow::ProfileRequest& r = seen.profiles[0];
        QVERIFY(r.emit_xspace());
        QCOMPARE(r.opts().version(), 1u);
        QCOMPARE(r.duration_ms(), uint64_t(150));
        QCOMPARE(r.opts().duration_ms(), uint64_t(150));
        QCOMPARE(r.opts().host_tracer_level(), 3u);
        QCOMPARE(r.opts().device_tracer_level(), 1u);
        QCOMPARE(r.opts().python_tracer_level(), 1u);
        QVERIFY(r.opts().include_dataset_ops());
        QCOMPARE(r.session_id(), c.result.sessionId);
        QCOMPARE(r.opts().session_id(), c.result.sessionId);
        QCOMPARE(r.host_name(), server.address());
        QCOMPARE(r.repository_root(), dir.path().toStdString() + "/plugins/profile");
        QCOMPARE(r.tools_size(), 1);
        QCOMPARE(r.tools(0), std::string("xplane.pb"));
        QVERIFY(r.opts().advanced_configuration().empty());
        QVERIFY(r.opts().GetReflection()->GetUnknownFields(r.opts()).empty());  // nothing like field 11
        const auto startNs = std::chrono::nanoseconds(r.opts().start_timestamp_ns());
        QVERIFY(std::chrono::system_clock::time_point(std::chrono::duration_cast<std::chrono::system_clock::duration>(startNs)) >= before - std::chrono::seconds(1));
        QCOMPARE(seen.traced.size(), size_t(1));
        QVERIFY(seen.traced[0] >= ms(150));

        // Progress: connecting, profiling (with its start time), receiving, saved.
        std::vector<WorkerState> states;
        for (const auto& [i, s] : c.progress) {
            if (states.empty() || states.back() != s.state) states.push_back(s.state);
            if (s.state == WorkerState::Profiling) QVERIFY(s.profilingSinceMs > 0);
        }
        const std::vector<WorkerState> expectedStates = {WorkerState::Connecting, WorkerState::Profiling,
                                                         WorkerState::Receiving, WorkerState::Saved};
        QVERIFY(states == expectedStates);

        // The saved file opens as any TensorBoard run does, with the planes of the real reply.
        ImportResult imported = importTrace(expectedPath);
        QVERIFY2(imported.ok(), imported.error.c_str());
        const nlohmann::json expected = expectedCounts("jax0.11.2_h100_steady_emit_xspace.xplane.pb");
        std::vector<std::string> names;
        for (const Process& p : imported.trace->processes) names.push_back(p.name);
        QVERIFY(std::find(names.begin(), names.end(), "/device:GPU:0") != names.end());
        QVERIFY(std::find(names.begin(), names.end(), "/host:CPU") != names.end());
        QCOMPARE(imported.trace->counts().slices, expected["duration_gt0"].get<size_t>());
        // The run folder opens too (File > Runs / a logdir).
        ImportResult logdir = importTrace(dir.path().toStdString());
        QVERIFY2(logdir.ok(), logdir.error.c_str());
    }

    // The TF 2.2 era: the XSpace in tool_data "xplane.pb".
    void toolData() {
        const std::string bytes = readFileBytes(warmupCapturePath());
        TestProfilerServer server(serving(Reply::ToolData, bytes));
        QTemporaryDir dir;
        const Captured c = runCapture(optionsFor({&server}, dir));
        const WorkerStatus& w = c.result.workers[0];
        VERIFY_STATE(w, WorkerState::Saved);
        QCOMPARE(readFileBytes(w.savedPath), bytes);
        ImportResult imported = importTrace(w.savedPath);
        QVERIFY2(imported.ok(), imported.error.c_str());
        QCOMPARE(imported.trace->counts().slices,
                 expectedCounts("jax0.11.2_h100_warmup_emit_xspace.xplane.pb")["duration_gt0"].get<size_t>());
    }

    // Servers between: they write <repository_root>/<session>/<host>.xplane.pb themselves.
    // On this machine that is our own run folder, so the file is found there.
    void serverWritesTheFile() {
        const std::string bytes = readFileBytes(steadyCapturePath());
        TestProfilerServer server(serving(Reply::WriteFile, bytes));
        QTemporaryDir dir;
        const Captured c = runCapture(optionsFor({&server}, dir));
        const WorkerStatus& w = c.result.workers[0];
        VERIFY_STATE(w, WorkerState::Saved);
        QCOMPARE(w.savedPath, c.result.runDir + "/127.0.0.1_" + std::to_string(server.port()) + ".xplane.pb");
        QCOMPARE(readFileBytes(w.savedPath), bytes);
        QCOMPARE(filesIn(c.result.runDir).size(), size_t(1));
    }

    // The same over IPv6: the server names its file after "[::1]:port"; we keep our name.
    void serverWritesTheFileIPv6() {
        const std::string bytes = readFileBytes(warmupCapturePath());
        TestProfilerServer server(serving(Reply::WriteFile, bytes), "::1");
        if (!server.ok()) QSKIP("no IPv6 loopback here");
        QTemporaryDir dir;
        const Captured c = runCapture(optionsFor({&server}, dir));
        const WorkerStatus& w = c.result.workers[0];
        VERIFY_STATE(w, WorkerState::Saved);
        QCOMPARE(filesIn(c.result.runDir), std::vector<std::string>{"__1_" + std::to_string(server.port()) + ".xplane.pb"});
        QCOMPARE(readFileBytes(w.savedPath), bytes);
    }

    void serverFileNotReachable() {
        TestProfilerServer server(serving(Reply::WriteFileRemote, {}));
        QTemporaryDir dir;
        const Captured c = runCapture(optionsFor({&server}, dir));
        const WorkerStatus& w = c.result.workers[0];
        VERIFY_STATE(w, WorkerState::Failed);
        const std::string onServer = c.result.runDir + "/127.0.0.1_" + std::to_string(server.port()) + ".xplane.pb";
        QCOMPARE(w.serverPath, onServer);
        QVERIFY2(w.message.find(onServer) != std::string::npos, w.message.c_str());
        QVERIFY2(w.message.find("not readable from here") != std::string::npos, w.message.c_str());
        QVERIFY(!fs::exists(c.result.runDir));
    }

    void ipv6AndGrpcScheme() {
        const std::string bytes = readFileBytes(warmupCapturePath());
        TestProfilerServer v6(serving(Reply::EmitXSpace, bytes), "::1");
        if (!v6.ok()) QSKIP("no IPv6 loopback here");
        TestProfilerServer v4(serving(Reply::EmitXSpace, bytes));
        QTemporaryDir dir;
        CaptureOptions options = optionsFor({}, dir);
        std::string error;
        const std::string list = "grpc://[::1]:" + std::to_string(v6.port()) + ", grpc://localhost:" + std::to_string(v4.port());
        QVERIFY2(parseServerAddresses(list, options.servers, error), error.c_str());
        const Captured c = runCapture(options);
        QVERIFY2(c.result.savedFiles().size() == 2, describe(c.result).c_str());
        QCOMPARE(c.result.workers[0].savedPath, c.result.runDir + "/__1_" + std::to_string(v6.port()) + ".xplane.pb");
        QCOMPARE(c.result.workers[1].savedPath, c.result.runDir + "/localhost_" + std::to_string(v4.port()) + ".xplane.pb");
        QCOMPARE(v6.seen().profiles.at(0).host_name(), "[::1]:" + std::to_string(v6.port()));
        QCOMPARE(v4.seen().profiles.at(0).host_name(), "localhost:" + std::to_string(v4.port()));
        // One session for all workers.
        QCOMPARE(v6.seen().profiles.at(0).session_id(), v4.seen().profiles.at(0).session_id());
    }

    void retriesAfterUnavailable() {
        TestProfilerServer::Config config = serving(Reply::EmitXSpace, readFileBytes(warmupCapturePath()));
        config.failFirst = 2;
        TestProfilerServer server(config);
        QTemporaryDir dir;
        CaptureOptions options = optionsFor({&server}, dir);
        options.retries = 3;
        const Captured c = runCapture(options);
        const WorkerStatus& w = c.result.workers[0];
        VERIFY_STATE(w, WorkerState::Saved);
        QCOMPARE(w.attempt, 3);
        QCOMPARE(server.seen().profiles.size(), size_t(3));
        // The retries were shown while they happened.
        bool sawRetrying = false;
        for (const auto& [i, s] : c.progress) sawRetrying |= s.message.find("retrying") != std::string::npos;
        QVERIFY(sawRetrying);
        // Each attempt recomputes its start time.
        const auto seen = server.seen();
        QVERIFY(seen.profiles[2].opts().start_timestamp_ns() > seen.profiles[0].opts().start_timestamp_ns());
    }

    void retriesStreamRemovedNotOtherUnknown() {
        TestProfilerServer::Config config = serving(Reply::EmitXSpace, readFileBytes(warmupCapturePath()));
        config.failFirst = 1;
        config.failCode = grpc::StatusCode::UNKNOWN;
        config.failMessage = "Stream removed";
        TestProfilerServer removed(config);
        config.failMessage = "something else";
        TestProfilerServer other(config);
        QTemporaryDir dir;
        CaptureOptions options = optionsFor({&removed, &other}, dir);
        options.retries = 2;
        const Captured c = runCapture(options);
        VERIFY_STATE(c.result.workers[0], WorkerState::Saved);
        QCOMPARE(removed.seen().profiles.size(), size_t(2));
        VERIFY_STATE(c.result.workers[1], WorkerState::Failed);
        QCOMPARE(other.seen().profiles.size(), size_t(1));
        QVERIFY2(c.result.workers[1].message.find("something else") != std::string::npos, c.result.workers[1].message.c_str());
    }

    void unavailableAfterAllRetries() {
        TestProfilerServer::Config config = serving(Reply::EmitXSpace, {});
        config.failFirst = 100;
        TestProfilerServer server(config);
        QTemporaryDir dir;
        CaptureOptions options = optionsFor({&server}, dir);
        options.retries = 2;
        const Captured c = runCapture(options);
        const WorkerStatus& w = c.result.workers[0];
        VERIFY_STATE(w, WorkerState::Failed);
        QCOMPARE(server.seen().profiles.size(), size_t(3));
        QVERIFY2(w.message.find("unavailable") != std::string::npos && w.message.find("after 3 attempts") != std::string::npos,
                 w.message.c_str());
    }

    void emptyTraceRetriedThenSaved() {
        TestProfilerServer::Config config = serving(Reply::EmitXSpace, readFileBytes(warmupCapturePath()));
        config.emptyFirst = 1;
        TestProfilerServer server(config);
        QTemporaryDir dir;
        CaptureOptions options = optionsFor({&server}, dir);
        options.retries = 1;
        const Captured c = runCapture(options);
        VERIFY_STATE(c.result.workers[0], WorkerState::Saved);
        QCOMPARE(c.result.workers[0].attempt, 2);
    }

    void emptyTraceAfterAllRetries() {
        TestProfilerServer server(serving(Reply::Empty, {}));
        QTemporaryDir dir;
        CaptureOptions options = optionsFor({&server}, dir);
        options.retries = 2;
        const Captured c = runCapture(options);
        const WorkerStatus& w = c.result.workers[0];
        VERIFY_STATE(w, WorkerState::Failed);
        QCOMPARE(server.seen().profiles.size(), size_t(3));
        QVERIFY2(w.message.find("empty trace") != std::string::npos && w.message.find("3 attempts") != std::string::npos,
                 w.message.c_str());
        QVERIFY(!fs::exists(c.result.runDir));
    }

    void anotherSessionActive() {
        TestProfilerServer server(serving(Reply::AnotherSession, {}));
        QTemporaryDir dir;
        CaptureOptions options = optionsFor({&server}, dir);
        options.retries = 3;
        const Captured c = runCapture(options);
        const WorkerStatus& w = c.result.workers[0];
        VERIFY_STATE(w, WorkerState::Failed);
        QVERIFY2(w.message.find("already being profiled by another session") != std::string::npos, w.message.c_str());
        QCOMPARE(server.seen().profiles.size(), size_t(1));  // INTERNAL: not retried (as TSL)
    }

    // A real server runs one session at a time: two captures at once collide.
    void secondConcurrentCaptureIsRefused() {
        TestProfilerServer server(serving(Reply::EmitXSpace, readFileBytes(warmupCapturePath())));
        QTemporaryDir dir1, dir2;
        CaptureOptions first = optionsFor({&server}, dir1);
        first.durationMs = 1500;
        Captured a;
        std::thread t([&] { a = runCapture(first); });
        QTRY_VERIFY_WITH_TIMEOUT(server.seen().profiles.size() == 1, 5000);
        std::this_thread::sleep_for(ms(100));
        const Captured b = runCapture(optionsFor({&server}, dir2));
        t.join();
        VERIFY_STATE(a.result.workers[0], WorkerState::Saved);
        VERIFY_STATE(b.result.workers[0], WorkerState::Failed);
        QVERIFY2(b.result.workers[0].message.find("already being profiled") != std::string::npos,
                 b.result.workers[0].message.c_str());
    }

    void deadlineExceeded() {
        TestProfilerServer::Config config = serving(Reply::EmitXSpace, readFileBytes(warmupCapturePath()));
        config.collectTime = ms(5000);
        TestProfilerServer server(config);
        QTemporaryDir dir;
        CaptureOptions options = optionsFor({&server}, dir);
        options.minDeadlineMs = 400;
        options.retries = 2;
        const Captured c = runCapture(options);
        const WorkerStatus& w = c.result.workers[0];
        VERIFY_STATE(w, WorkerState::Failed);
        QVERIFY2(w.message.find("timed out") != std::string::npos, w.message.c_str());
        QVERIFY2(w.message.find("0.4 s") != std::string::npos, w.message.c_str());
        QCOMPARE(server.seen().profiles.size(), size_t(1));  // not retried
        QVERIFY(c.elapsed < ms(3000));
        QVERIFY(!fs::exists(c.result.runDir));
    }

    // Stop: Terminate(session_id) ends a long capture early and the data is kept.
    void stopEndsALongCaptureEarly() {
        const std::string bytes = readFileBytes(steadyCapturePath());
        TestProfilerServer a(serving(Reply::EmitXSpace, bytes));
        TestProfilerServer b(serving(Reply::EmitXSpace, bytes));
        QTemporaryDir dir;
        CaptureOptions options = optionsFor({&a, &b}, dir);
        options.durationMs = 30000;
        const Captured c = runCapture(options, [](CaptureSession& s) { s.stop(); }, 300);
        qInfo("30 s capture, Stop after 300 ms of profiling: run() returned %lld ms after stop() (%lld ms in all)",
              (long long)c.afterDuring.count(), (long long)c.elapsed.count());
        QVERIFY2(c.result.savedFiles().size() == 2, describe(c.result).c_str());
        QVERIFY(c.elapsed < ms(5000));
        for (const TestProfilerServer* s : {&a, &b}) {
            const auto seen = s->seen();
            QVERIFY(!seen.terminates.empty());
            QCOMPARE(seen.terminates.front(), c.result.sessionId);
            QCOMPARE(seen.traced.size(), size_t(1));
            QVERIFY(seen.traced[0] < ms(5000));
        }
        QCOMPARE(readFileBytes(c.result.workers[0].savedPath), bytes);
    }

    // Stop during a delay (before the server starts tracing): the Terminate sent then may be
    // lost, so it is sent again while the call is in flight.
    void stopDuringTheDelay() {
        TestProfilerServer server(serving(Reply::EmitXSpace, readFileBytes(warmupCapturePath())));
        QTemporaryDir dir;
        CaptureOptions options = optionsFor({&server}, dir);
        options.durationMs = 30000;
        options.delayMs = 1200;
        const Captured c = runCapture(options, [](CaptureSession& s) { s.stop(); }, 100);
        VERIFY_STATE(c.result.workers[0], WorkerState::Saved);
        QVERIFY(c.elapsed < ms(5000));
        const auto seen = server.seen();
        QVERIFY(seen.terminates.size() >= 3);  // two during the delay (lost), one that stopped it
        QVERIFY(seen.traced.at(0) < ms(2000));
    }

    // Cancel: the call is aborted at once, no file and no run folder are left.
    void cancelLeavesNothing() {
        TestProfilerServer a(serving(Reply::EmitXSpace, readFileBytes(steadyCapturePath())));
        TestProfilerServer b(serving(Reply::WriteFile, readFileBytes(steadyCapturePath())));
        QTemporaryDir dir;
        CaptureOptions options = optionsFor({&a, &b}, dir);
        options.durationMs = 30000;
        const Captured c = runCapture(options, [](CaptureSession& s) { s.cancel(); }, 200);
        qInfo("cancel: run() returned %lld ms after cancel()", (long long)c.afterDuring.count());
        QVERIFY(c.elapsed < ms(3000));
        for (const WorkerStatus& w : c.result.workers) {
            VERIFY_STATE(w, WorkerState::Cancelled);
            QVERIFY(w.savedPath.empty());
        }
        QVERIFY(c.result.savedFiles().empty());
        QVERIFY(!fs::exists(c.result.runDir));
        QTRY_COMPARE_WITH_TIMEOUT(a.seen().cancelled, 1, 2000);  // the server saw the cancel
        QTRY_COMPARE_WITH_TIMEOUT(b.seen().cancelled, 1, 2000);
        std::error_code ec;
        for (const auto& e : fs::recursive_directory_iterator(dir.path().toStdString(), ec))
            QVERIFY2(!e.is_regular_file(), e.path().c_str());
    }

    // Cancel right after the data came back, while saving: nothing is kept either.
    void cancelAfterSaving() {
        TestProfilerServer server(serving(Reply::EmitXSpace, readFileBytes(steadyCapturePath())));
        QTemporaryDir dir;
        CaptureOptions options = optionsFor({&server}, dir);
        std::atomic<bool> cancelled{false};
        CaptureSession* session = nullptr;
        CaptureSession s(options, [&](size_t, const WorkerStatus& w) {
            if (w.state == WorkerState::Saved && !cancelled.exchange(true)) session->cancel();
        });
        session = &s;
        const CaptureResult r = s.run();
        QVERIFY(cancelled);
        VERIFY_STATE(r.workers[0], WorkerState::Cancelled);
        QVERIFY(!fs::exists(r.runDir));
    }

    void closedPortFailsInSeconds() {
        int port = 0;
        {
            TestProfilerServer gone(serving(Reply::EmitXSpace, {}));
            port = gone.port();
        }
        QTemporaryDir dir;
        CaptureOptions options;
        std::string error;
        QVERIFY(parseServerAddresses("127.0.0.1:" + std::to_string(port), options.servers, error));
        options.logdir = dir.path().toStdString();
        options.retries = 3;
        const Captured c = runCapture(options);
        qInfo("closed port: failed after %lld ms", (long long)c.elapsed.count());
        const WorkerStatus& w = c.result.workers[0];
        VERIFY_STATE(w, WorkerState::Failed);
        QVERIFY2(w.message.find("nothing listening at 127.0.0.1:" + std::to_string(port)) != std::string::npos,
                 w.message.c_str());
        QVERIFY(c.elapsed < ms(10000));
        QCOMPARE(w.attempt, 1);  // a refused connection is not retried
        QVERIFY(!fs::exists(c.result.runDir));
    }

    // A port that accepts TCP but never answers (a firewall that drops, a hung program):
    // the connect timeout ends it, not the Profile deadline.
    void silentPortFailsInSeconds() {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof addr;
        QVERIFY(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
        QVERIFY(::listen(fd, 4) == 0);  // the kernel completes handshakes; nobody reads
        QVERIFY(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
        const int port = ntohs(addr.sin_port);
        QTemporaryDir dir;
        CaptureOptions options;
        options.servers = {ServerAddress{"127.0.0.1", port}};
        options.logdir = dir.path().toStdString();
        options.connectTimeoutMs = 600;
        options.retries = 3;
        const Captured c = runCapture(options);
        ::close(fd);
        const WorkerStatus& w = c.result.workers[0];
        VERIFY_STATE(w, WorkerState::Failed);
        QVERIFY2(w.message.find("nothing answered at 127.0.0.1:" + std::to_string(port) + " within 0.6 s") !=
                     std::string::npos,
                 w.message.c_str());
        QVERIFY(c.elapsed < ms(3000));
    }

    void severalWorkersOneFailing() {
        const std::string bytes = readFileBytes(steadyCapturePath());
        TestProfilerServer a(serving(Reply::EmitXSpace, bytes));
        TestProfilerServer busy(serving(Reply::AnotherSession, {}));
        TestProfilerServer b(serving(Reply::ToolData, readFileBytes(warmupCapturePath())));
        QTemporaryDir dir;
        const Captured c = runCapture(optionsFor({&a, &busy, &b}, dir));
        QCOMPARE(c.result.workers.size(), size_t(3));
        VERIFY_STATE(c.result.workers[0], WorkerState::Saved);
        VERIFY_STATE(c.result.workers[1], WorkerState::Failed);
        VERIFY_STATE(c.result.workers[2], WorkerState::Saved);
        QCOMPARE(c.result.savedFiles().size(), size_t(2));
        QCOMPARE(filesIn(c.result.runDir).size(), size_t(2));
        // All workers ran in parallel with one session id.
        QCOMPARE(a.seen().profiles.at(0).session_id(), b.seen().profiles.at(0).session_id());
        // The run opens as one multi-worker trace.
        ImportResult run = importTrace(c.result.runDir);
        QVERIFY2(run.ok(), run.error.c_str());
    }

    void parallelNotSequential() {
        const std::string bytes = readFileBytes(warmupCapturePath());
        TestProfilerServer a(serving(Reply::EmitXSpace, bytes)), b(serving(Reply::EmitXSpace, bytes)),
            d(serving(Reply::EmitXSpace, bytes));
        QTemporaryDir dir;
        CaptureOptions options = optionsFor({&a, &b, &d}, dir);
        options.durationMs = 1000;
        const Captured c = runCapture(options);
        QCOMPARE(c.result.savedFiles().size(), size_t(3));
        QVERIFY(c.elapsed < ms(2500));  // three 1 s captures, not 3 s
    }

    void delayIsCarriedAsStartTime() {
        TestProfilerServer server(serving(Reply::EmitXSpace, readFileBytes(warmupCapturePath())));
        QTemporaryDir dir;
        CaptureOptions options = optionsFor({&server}, dir);
        options.delayMs = 400;
        const auto before = std::chrono::system_clock::now();
        const Captured c = runCapture(options);
        VERIFY_STATE(c.result.workers[0], WorkerState::Saved);
        QVERIFY(c.elapsed >= ms(500));  // delay + duration
        const auto start = std::chrono::nanoseconds(server.seen().profiles.at(0).opts().start_timestamp_ns());
        const auto expected = std::chrono::duration_cast<std::chrono::nanoseconds>((before + ms(400)).time_since_epoch());
        QVERIFY(start >= expected);
        QVERIFY(start < expected + ms(500));
    }

    void noDevicePlaneNote() {
        TestProfilerServer server(serving(Reply::EmitXSpace, hostOnlyXSpace()));
        QTemporaryDir dir;
        const Captured c = runCapture(optionsFor({&server}, dir));
        const WorkerStatus& w = c.result.workers[0];
        VERIFY_STATE(w, WorkerState::Saved);  // saved all the same
        QVERIFY2(w.message.find("no /device:* plane") != std::string::npos, w.message.c_str());
        ImportResult imported = importTrace(w.savedPath);
        QVERIFY2(imported.ok(), imported.error.c_str());
        QCOMPARE(imported.trace->counts().slices, size_t(2));

        // No note when no device tracing was asked for.
        QTemporaryDir dir2;
        CaptureOptions options = optionsFor({&server}, dir2);
        options.deviceTracerLevel = 0;
        const Captured quiet = runCapture(options);
        VERIFY_STATE(quiet.result.workers[0], WorkerState::Saved);
        QVERIFY2(quiet.result.workers[0].message.empty(), quiet.result.workers[0].message.c_str());
    }

    void invalidOptions() {
        CaptureOptions options;
        options.servers = {ServerAddress{"127.0.0.1", 1}};
        const Captured c = runCapture(options);  // no logdir
        VERIFY_STATE(c.result.workers[0], WorkerState::Failed);
        QVERIFY2(c.result.workers[0].message.find("log directory") != std::string::npos,
                 c.result.workers[0].message.c_str());
    }
};

QTEST_GUILESS_MAIN(CaptureSessionTest)
#include "tst_capture_session.moc"
