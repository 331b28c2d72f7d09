// The capture client's pieces without a server: address parsing, the Profile request
// (reference/capture.md a.10), which failures are retried and how they read, where a
// reply's data is, and the plane scan behind the "no device plane" note.
#include "model/capture/capture_errors.h"
#include "model/capture/handle_reply.h"
#include "model/capture/profile_request.h"
#include "model/capture/reply_data.h"
#include "model/capture/save_profile.h"
#include "model/capture/server_address.h"
#include "model/capture/xspace_planes.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <regex>

using namespace tracescope::capture;
namespace fs = std::filesystem;

namespace {

std::vector<ServerAddress> parseOk(const std::string& text) {
    std::vector<ServerAddress> out;
    std::string error;
    if (!parseServerAddresses(text, out, error)) qWarning("%s: %s", text.c_str(), error.c_str());
    return out;
}

std::string parseError(const std::string& text) {
    std::vector<ServerAddress> out;
    std::string error;
    if (parseServerAddresses(text, out, error)) return "(accepted)";
    return error;
}

}  // namespace

class CaptureUnitsTest : public QObject {
    Q_OBJECT
private slots:
    void parsesEverySpelling() {
        const auto list = parseOk(" localhost:9999 , grpc://10.0.0.2:6009,[::1]:50051,GRPC://[fe80::1]:1,host-a.example:65535,");
        QCOMPARE(list.size(), size_t(5));
        QCOMPARE(list[0].host, std::string("localhost"));
        QCOMPARE(list[0].port, 9999);
        QCOMPARE(list[0].target(), std::string("localhost:9999"));
        QCOMPARE(list[0].fileStem(), std::string("localhost_9999"));
        QCOMPARE(list[1].host, std::string("10.0.0.2"));
        QCOMPARE(list[1].target(), std::string("10.0.0.2:6009"));
        QCOMPARE(list[1].fileStem(), std::string("10.0.0.2_6009"));
        QCOMPARE(list[2].host, std::string("::1"));
        QCOMPARE(list[2].port, 50051);
        QCOMPARE(list[2].target(), std::string("[::1]:50051"));
        QCOMPARE(list[2].fileStem(), std::string("__1_50051"));
        QCOMPARE(list[3].host, std::string("fe80::1"));
        QCOMPARE(list[4].port, 65535);
        QVERIFY(parseOk("").empty());
        QVERIFY(parseOk(" , ").empty());
        QCOMPARE(parseOk("grpc://localhost:6009/").size(), size_t(1));
    }

    void namesTheBadEntry_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no port") << "localhost:1,myhost" << "missing port in 'myhost'";
        QTest::newRow("empty port") << "myhost:" << "missing port in 'myhost:'";
        QTest::newRow("port text") << "myhost:abc" << "invalid port 'abc' in 'myhost:abc'";
        QTest::newRow("port 0") << "myhost:0" << "invalid port '0'";
        QTest::newRow("port too big") << "myhost:65536" << "invalid port '65536'";
        QTest::newRow("no host") << ":9999" << "missing host in ':9999'";
        QTest::newRow("v6 without brackets") << "::1:9999" << "needs brackets";
        QTest::newRow("v6 no port") << "[::1]" << "missing port in '[::1]'";
        QTest::newRow("v6 unclosed") << "[::1:9999" << "missing ']'";
        QTest::newRow("v6 junk") << "[::1]x9999" << "unexpected text after ']'";
        QTest::newRow("http") << "http://localhost:6006" << "unsupported scheme in 'http://localhost:6006'";
        QTest::newRow("path") << "grpc://host/x:1" << "invalid host";
        QTest::newRow("twice") << "a:1, a:1" << "'a:1' is listed twice";
    }

    void namesTheBadEntry() {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const std::string error = parseError(text.toStdString());
        QVERIFY2(error.find(expected.toStdString()) != std::string::npos, error.c_str());
    }

    void sessionIdIsLocalTime() {
        std::tm tm{};
        tm.tm_year = 2026 - 1900;
        tm.tm_mon = 0;
        tm.tm_mday = 2;
        tm.tm_hour = 3;
        tm.tm_min = 4;
        tm.tm_sec = 5;
        tm.tm_isdst = -1;
        const auto t = std::chrono::system_clock::from_time_t(std::mktime(&tm));
        QCOMPARE(makeSessionId(t), std::string("2026_01_02_03_04_05"));
    }

    // reference/capture.md a.10, item 2.
    void requestHasTheRecommendedFields() {
        QTemporaryDir dir;
        CaptureOptions options;
        options.durationMs = 2500;
        options.hostTracerLevel = 3;
        options.deviceTracerLevel = 0;
        options.pythonTracerLevel = 1;
        options.logdir = dir.path().toStdString() + "/logs/../logs";
        ServerAddress server{"::1", 9012};
        const tensorflow::ProfileRequest r = buildProfileRequest(options, server, "2026_01_02_03_04_05", 1234567);
        QCOMPARE(r.duration_ms(), uint64_t(2500));
        QCOMPARE(r.opts().duration_ms(), uint64_t(2500));
        QCOMPARE(r.opts().version(), 1u);
        QVERIFY(r.emit_xspace());
        QCOMPARE(r.opts().host_tracer_level(), 3u);
        QCOMPARE(r.opts().device_tracer_level(), 0u);
        QCOMPARE(r.opts().python_tracer_level(), 1u);
        QVERIFY(r.opts().include_dataset_ops());
        QCOMPARE(r.opts().start_timestamp_ns(), uint64_t(1234567));
        QCOMPARE(r.session_id(), std::string("2026_01_02_03_04_05"));
        QCOMPARE(r.opts().session_id(), r.session_id());
        QCOMPARE(r.host_name(), std::string("[::1]:9012"));
        QCOMPARE(r.repository_root(), dir.path().toStdString() + "/logs/plugins/profile");
        QCOMPARE(r.tools_size(), 1);
        QCOMPARE(r.tools(0), std::string("xplane.pb"));
        QVERIFY(r.opts().advanced_configuration().empty());
        QCOMPARE(r.opts().device_type(), tensorflow::ProfileOptions::UNSPECIFIED);

        // A relative logdir is sent absolute: the server resolves it in its own folder.
        options.logdir = "relative/dir";
        const auto rel = buildProfileRequest(options, server, "s", 1);
        QVERIFY(fs::path(rel.repository_root()).is_absolute());
        QCOMPARE(rel.repository_root(), (fs::current_path() / "relative/dir/plugins/profile").string());
    }

    void deadlineCoversDelayAndCollection() {
        CaptureOptions options;
        options.durationMs = 1000;
        QCOMPARE(attemptTimeout(options), std::chrono::milliseconds(60000));
        options.durationMs = 45000;
        options.delayMs = 5000;
        QCOMPARE(attemptTimeout(options), std::chrono::milliseconds(95000));
        const uint64_t before = startTimestampNs(0);
        const uint64_t later = startTimestampNs(1500);
        QVERIFY(later >= before + 1'500'000'000ull);
        QVERIFY(later < before + 1'600'000'000ull);
    }

    void retriesWhatTslRetries() {
        QVERIFY(isRetryable(grpc::Status(grpc::StatusCode::UNAVAILABLE, "x")));
        QVERIFY(isRetryable(grpc::Status(grpc::StatusCode::ALREADY_EXISTS, "x")));
        QVERIFY(isRetryable(grpc::Status(grpc::StatusCode::UNKNOWN, "Stream removed")));
        QVERIFY(!isRetryable(grpc::Status(grpc::StatusCode::UNKNOWN, "other")));
        QVERIFY(!isRetryable(grpc::Status(grpc::StatusCode::INTERNAL, "Another profiling session active.")));
        QVERIFY(!isRetryable(grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED, "")));

        const auto another = describeProfileFailure(
            grpc::Status(grpc::StatusCode::INTERNAL, "Another profiling session active."), "h:1", {});
        QVERIFY2(another.find("already being profiled by another session") != std::string::npos, another.c_str());
        const auto timeout =
            describeProfileFailure(grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED, "Deadline Exceeded"), "h:1",
                                   std::chrono::milliseconds(61500));
        QVERIFY2(timeout.find("timed out") != std::string::npos && timeout.find("61.5 s") != std::string::npos,
                 timeout.c_str());
    }

    // The three server generations (reference/capture.md a.4).
    void findsTheDataInEachGeneration() {
        tensorflow::ProfileRequest request;
        request.set_repository_root("/logs/plugins/profile");
        request.set_session_id("2026_01_02_03_04_05");
        request.set_host_name("10.0.0.2:6009");

        tensorflow::ProfileResponse emitted;
        emitted.set_xspace("XS");
        emitted.add_tool_data()->set_name("xplane.pb");
        ReplyData d = takeReplyData(emitted, request);
        QCOMPARE(d.source, ReplyData::Source::XSpace);
        QCOMPARE(d.bytes, std::string("XS"));

        tensorflow::ProfileResponse tools;
        auto* other = tools.add_tool_data();
        other->set_name("trace.json.gz");
        other->set_data("json");
        auto* xplane = tools.add_tool_data();
        xplane->set_name("xplane.pb");
        xplane->set_data("XP");
        d = takeReplyData(tools, request);
        QCOMPARE(d.source, ReplyData::Source::ToolData);
        QCOMPARE(d.bytes, std::string("XP"));

        tensorflow::ProfileResponse written;
        written.set_empty_trace(false);
        d = takeReplyData(written, request);
        QCOMPARE(d.source, ReplyData::Source::ServerFile);
        QCOMPARE(d.serverPath, std::string("/logs/plugins/profile/2026_01_02_03_04_05/10.0.0.2_6009.xplane.pb"));

        tensorflow::ProfileResponse empty;
        empty.set_empty_trace(true);
        empty.set_xspace("planes without events");
        QCOMPARE(takeReplyData(empty, request).source, ReplyData::Source::Empty);
    }

    void scansPlaneNames() {
        const std::string file = std::string(TRACESCOPE_SHARED_DIR) + "/testdata/gpu/jax0.11.2_h100_steady_emit_xspace.xplane.pb";
        std::string bytes, error;
        QVERIFY(readWholeFile(file, bytes, error));
        std::vector<std::string> names;
        QVERIFY2(xspacePlaneNames(bytes, names, error), error.c_str());
        // From tests/data/xspace_expected_counts.json (count_xspace.py).
        const std::vector<std::string> expected = {"/host:__ScopeRangeCallStack__", "/device:GPU:0", "/host:CPU",
                                                   "Task Environment"};
        QCOMPARE(names, expected);
        QVERIFY(hasDevicePlane(names));
        QVERIFY(!hasDevicePlane({"/host:CPU", "Task Environment"}));
        QVERIFY(!xspacePlaneNames(std::string("\x0a\xff\x01", 3), names, error));
    }

    void savesAtomically() {
        QTemporaryDir dir;
        const std::string runDir = dir.path().toStdString() + "/plugins/profile/run";
        const std::string path = profileFilePath(runDir, "localhost_9999");
        QCOMPARE(path, runDir + "/localhost_9999.xplane.pb");
        std::string error;
        // Cancelled just before the rename: nothing there, not even the temporary file.
        QVERIFY(!saveProfileFile(path, "abc", [] { return false; }, error));
        QVERIFY(!fs::exists(path));
        QVERIFY(fs::is_empty(runDir));
        removeDirIfEmpty(runDir);
        QVERIFY(!fs::exists(runDir));
        QVERIFY(saveProfileFile(path, "abc", {}, error));
        std::string back;
        QVERIFY(readWholeFile(path, back, error));
        QCOMPARE(back, std::string("abc"));
        QCOMPARE(std::distance(fs::directory_iterator(runDir), fs::directory_iterator()), std::ptrdiff_t(1));
    }

    // What the worker does with a reply's data. A server that wrote the file itself names a
    // path in our run folder: a regular file there is taken over (renamed to our stem), a FIFO
    // put there is refused at once (reading it would wait forever), a missing one is reported
    // with the server's path.
    void savesReplyData() {
        QTemporaryDir dir;
        const std::string runDir = dir.path().toStdString() + "/run";
        fs::create_directories(runDir);
        const std::string ours = profileFilePath(runDir, "__1_6009");

        ReplyData emitted;
        emitted.source = ReplyData::Source::XSpace;
        emitted.bytes = "not an xspace";
        HandledReply h = saveReplyData(emitted, ours, 1, {});
        QCOMPARE(h.outcome, HandledReply::Outcome::Saved);
        QVERIFY2(h.message.find("does not read as an XSpace") != std::string::npos, h.message.c_str());
        std::string back, error;
        QVERIFY(readWholeFile(ours, back, error));
        QCOMPARE(back, std::string("not an xspace"));
        fs::remove(ours);

        ReplyData cancelled = emitted;
        cancelled.bytes = "x";
        QCOMPARE(saveReplyData(cancelled, ours, 1, [] { return false; }).outcome, HandledReply::Outcome::Cancelled);
        QVERIFY(!fs::exists(ours));

        ReplyData written;
        written.source = ReplyData::Source::ServerFile;
        written.serverPath = runDir + "/[__1]_6009.xplane.pb";
        std::ofstream(written.serverPath, std::ios::binary) << "XP";
        h = saveReplyData(written, ours, 0, {});
        QCOMPARE(h.outcome, HandledReply::Outcome::Saved);
        QCOMPARE(h.savedPath, ours);
        QVERIFY(!fs::exists(written.serverPath));
        QVERIFY(readWholeFile(ours, back, error));
        QCOMPARE(back, std::string("XP"));

        ReplyData fifo;
        fifo.source = ReplyData::Source::ServerFile;
        fifo.serverPath = runDir + "/fifo.xplane.pb";
        QCOMPARE(::mkfifo(fifo.serverPath.c_str(), 0600), 0);
        h = saveReplyData(fifo, profileFilePath(runDir, "other"), 0, {});
        QCOMPARE(h.outcome, HandledReply::Outcome::Failed);
        QCOMPARE(h.serverPath, fifo.serverPath);
        QVERIFY2(h.message.find("not a regular file") != std::string::npos, h.message.c_str());

        ReplyData missing;
        missing.source = ReplyData::Source::ServerFile;
        missing.serverPath = runDir + "/elsewhere.xplane.pb";
        h = saveReplyData(missing, profileFilePath(runDir, "other"), 0, {});
        QCOMPARE(h.outcome, HandledReply::Outcome::Failed);
        QVERIFY2(h.message.find("not readable from here") != std::string::npos, h.message.c_str());
    }
};

QTEST_GUILESS_MAIN(CaptureUnitsTest)
#include "tst_capture_units.moc"
