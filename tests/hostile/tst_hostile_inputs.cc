// Hostile inputs with a fixed expected outcome each (see issue 12): special files refused at
// once, pipes and standard input read once by the CLI, leading whitespace of any length,
// times near the int64 limits, 10^7 nested arrays, 100k threads, and the hostile XSpace /
// RunMetadata files of tests/data/hostile. No case may crash, hang or use unbounded memory.
#include "import_test_support.h"

#include "model/analysis/input_pipeline.h"
#include "model/analysis/tf_data.h"
#include "model/analysis/kernel_stats.h"
#include "model/analysis/op_stats.h"
#include "model/analysis/overview.h"
#include "model/analysis/scope_tree.h"
#include "model/analysis/torch_ops.h"
#include "model/export/chrome_json_writer.h"
#include "model/import/logdir.h"
#include "model/trace/trace_builder.h"
#include "tests/gzip_text.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace tracescope;
using namespace tracescope::testsupport;
namespace fs = std::filesystem;

namespace {

bool writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    return bool(out);
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}


const std::string kTwoSlices =
    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":5},"
    "{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":1}]";

struct Run {
    int exitCode = -1;
    bool finished = false;
    std::string out, err;
};

// Runs the CLI; `stdinFile` (if any) is its standard input.
Run runCli(const QStringList& args, const QString& stdinFile = {}, int ms = 60000) {
    QProcess p;
    if (!stdinFile.isEmpty()) p.setStandardInputFile(stdinFile);
    p.start(QStringLiteral(TRACESCOPE_CLI), args);
    Run r;
    r.finished = p.waitForFinished(ms);
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

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

class HostileInputsTest : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    std::string path(const std::string& name) { return tmp_.filePath(QString::fromStdString(name)).toStdString(); }

private slots:
    void initTestCase() { QVERIFY(tmp_.isValid()); }

    // A FIFO, a character device and a socket given to importTrace as the GUI does (no
    // streams): refused at once with what they are, never opened (opening a FIFO would wait
    // for a writer forever).
    void specialFilesRefusedAtOnce_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("error");
        QTest::newRow("fifo") << "fifo" << "FIFO";
        QTest::newRow("character device") << "chardev" << "character device";
        QTest::newRow("socket") << "socket" << "socket";
    }
    void specialFilesRefusedAtOnce() {
        QFETCH(QString, kind);
        QFETCH(QString, error);
        std::string p;
        int sock = -1;
        if (kind == "fifo") {
            p = path("special.fifo");
            QCOMPARE(mkfifo(p.c_str(), 0600), 0);
        } else if (kind == "chardev") {
            p = "/dev/zero";
        } else {
            p = path("special.sock");
            sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
            sockaddr_un addr{};
            addr.sun_family = AF_UNIX;
            if (p.size() >= sizeof(addr.sun_path)) QSKIP("temporary path too long for a socket");
            std::strcpy(addr.sun_path, p.c_str());
            QCOMPARE(::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
        }
        const auto t0 = std::chrono::steady_clock::now();
        std::string detectError;
        QCOMPARE(detectFormat(p, &detectError), TraceFormat::Unknown);
        QVERIFY2(containsNoCase(detectError, error.toStdString()), detectError.c_str());
        ImportResult r = importWithDeadline(p, 10);
        QVERIFY(!r.ok());
        QVERIFY2(containsNoCase(r.error, error.toStdString()) && containsNoCase(r.error, "not opened"), r.error.c_str());
        QVERIFY2(secondsSince(t0) < 2, "refusal was not immediate");
        if (sock >= 0) ::close(sock);
    }

    // A run folder holding a FIFO named like a profile beside a real one: the scan skips the
    // FIFO (it is not a regular file) and opens the real one; a run with only a FIFO is no run.
    void specialFilesInLogdirSkipped() {
        const fs::path root = path("logdir");
        const fs::path run = root / "plugins/profile/2024_01_02_03_04_05";
        const fs::path onlyFifo = root / "plugins/profile/2025_01_01_00_00_00";
        fs::create_directories(run);
        fs::create_directories(onlyFifo);
        fs::copy_file(repoTestData("peers/tf_data_slow_map.xplane.pb"), run / "good.xplane.pb");
        QCOMPARE(mkfifo((run / "evil.xplane.pb").c_str(), 0600), 0);
        QCOMPARE(mkfifo((onlyFifo / "host.xplane.pb").c_str(), 0600), 0);
        const auto t0 = std::chrono::steady_clock::now();
        const std::vector<RunInfo> runs = listRuns(root.string());
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].hosts, std::vector<std::string>{"good"});
        ImportResult r = importWithDeadline(root.string(), 20);
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(r.trace->counts().slices > 0);
        ImportResult none = importWithDeadline(onlyFifo.string(), 10);
        QVERIFY(!none.ok());
        QVERIFY2(secondsSince(t0) < 10, "the folder scan waited on a FIFO");
    }

    // The CLI reads "-" (standard input) and an explicit FIFO once, as a stream: plain JSON,
    // gzip JSON and XSpace bytes all detect and load as from a file.
    void cliReadsStdinAndFifo_data() {
        QTest::addColumn<QString>("how");
        QTest::addColumn<QString>("content");
        for (const char* how : {"stdin", "fifo"}) {
            QTest::newRow((std::string(how) + " json").c_str()) << how << "json";
            QTest::newRow((std::string(how) + " gzip").c_str()) << how << "gzip";
            QTest::newRow((std::string(how) + " xspace").c_str()) << how << "xspace";
        }
    }
    void cliReadsStdinAndFifo() {
        QFETCH(QString, how);
        QFETCH(QString, content);
        std::string bytes;
        if (content == "json") bytes = std::string(100000, '\n') + kTwoSlices;
        else if (content == "gzip") bytes = gzipText(kTwoSlices);
        else bytes = readFile(repoTestData("peers/tf_data_slow_map.xplane.pb"));
        const std::string file = path("stream-src-" + content.toStdString());
        QVERIFY(writeFile(file, bytes));
        // What the same bytes give from a regular file.
        const Run fromFile = runCli({"info", QString::fromStdString(file), "--json"});
        QVERIFY2(fromFile.exitCode == 0, fromFile.err.c_str());
        const auto want = QJsonDocument::fromJson(QByteArray::fromStdString(fromFile.out)).object();
        Run got;
        if (how == "stdin") {
            got = runCli({"info", "-", "--json"}, QString::fromStdString(file));
        } else {
            const std::string fifo = path("stream-" + content.toStdString() + ".fifo");
            QCOMPARE(mkfifo(fifo.c_str(), 0600), 0);
            std::thread writer([&] {
                std::ofstream out(fifo, std::ios::binary);  // blocks until the CLI opens it
                out.write(bytes.data(), std::streamsize(bytes.size()));
            });
            got = runCli({"info", QString::fromStdString(fifo), "--json"});
            if (!got.finished) {  // unblock the writer
                std::ifstream drain(fifo, std::ios::binary);
            }
            writer.join();
        }
        QVERIFY2(got.finished, "the CLI did not finish");
        QVERIFY2(got.exitCode == 0, got.err.c_str());
        const auto j = QJsonDocument::fromJson(QByteArray::fromStdString(got.out)).object();
        for (const char* key : {"format", "slices", "instants", "tracks", "span_ns", "flows"})
            QVERIFY2(j.value(key) == want.value(key), key);
        QVERIFY(j.value("slices").toInteger() > 0);
    }

    // A stream that is not a trace ends as soon as its head says so, even an endless one.
    void cliEndlessNonTraceStream() {
        const auto t0 = std::chrono::steady_clock::now();
        const Run r = runCli({"info", "/dev/zero"}, {}, 20000);
        QVERIFY2(r.finished, "tracescope-cli info /dev/zero did not finish");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(containsNoCase(r.err, "not a trace"), r.err.c_str());
        QVERIFY(secondsSince(t0) < 20);
    }

    // Leading whitespace of any length before the JSON (here up to 10 MB, plain and gzip):
    // the file is still a trace, with both of its events.
    void leadingWhitespace_data() {
        QTest::addColumn<int>("spaces");
        QTest::addColumn<bool>("gzip");
        for (int n : {1, 65535, 65536, 70000, 1 << 20, 10 << 20}) {
            QTest::newRow(("plain " + std::to_string(n)).c_str()) << n << false;
            QTest::newRow(("gzip " + std::to_string(n)).c_str()) << n << true;
        }
    }
    void leadingWhitespace() {
        QFETCH(int, spaces);
        QFETCH(bool, gzip);
        std::string text;
        for (int i = 0; i < spaces; ++i) text += " \n\t\r"[i % 4];
        text += kTwoSlices;
        const std::string p = path("ws-" + std::to_string(spaces) + (gzip ? ".json.gz" : ".json"));
        QVERIFY(writeFile(p, gzip ? gzipText(text) : text));
        QCOMPARE(detectFormat(p), TraceFormat::ChromeJson);
        ImportResult r = importWithDeadline(p, 30);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.trace->counts().slices, size_t(2));
    }

    // Only whitespace: not a trace (a clear error), whatever its length.
    void onlyWhitespace() {
        const std::string p = path("blank.json");
        QVERIFY(writeFile(p, std::string(200000, ' ')));
        ImportResult r = importWithDeadline(p, 10);
        QVERIFY(!r.ok());
        QVERIFY2(containsNoCase(r.error, "whitespace"), r.error.c_str());
    }

    // Times near the int64 limits (Chrome µs that are ±9.2e18 ns, ends beyond int64, XSpace
    // ps offsets and durations of INT64_MAX): a usable trace whose span is never negative,
    // with the clamped events reported.
    void extremeTimestamps_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("warning");
        QTest::newRow("chrome ts and dur near int64") << "hostile/extreme_ts.json" << "clamped";
        QTest::newRow("chrome only ends beyond int64") << "hostile/end_beyond_int64.json" << "clamped";
        QTest::newRow("xspace extreme line and ps") << "hostile/extreme.xplane.pb" << "clamped";
    }
    void extremeTimestamps() {
        QFETCH(QString, file);
        QFETCH(QString, warning);
        ImportResult r = importWithDeadline(repoTestData(file.toStdString()), 20);
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace& t = *r.trace;
        QVERIFY2(t.spanNs() >= 0, std::to_string(t.spanNs()).c_str());
        QVERIFY(t.counts().slices > 0);
        for (const Track& track : t.tracks)
            for (size_t i = 0; i < track.slices.size(); ++i) {
                QVERIFY(track.slices.duration[i] >= 0);
                QVERIFY(track.slices.start[i] >= t.startNs);
                QVERIFY(track.slices.start[i] + track.slices.duration[i] <= t.endNs);
            }
        QVERIFY2(anyWarningContains(t, warning.toStdString()), joinWarnings(t).c_str());
    }

    // Durations near 4e15 us on several threads: every analysis sums them without wrapping
    // (sums saturate at INT64_MAX), so no total is negative. (Found by fuzz_analyses: signed
    // overflow in the op stats totals.)
    void hugeDurationSumsSaturate() {
        ImportResult r = importWithDeadline(repoTestData("hostile/huge_durations_sum.json"), 20);
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace& t = *r.trace;
        const OpStatsResult ops = computeOpStats(t);
        QVERIFY(!ops.rows.empty());
        for (const OpStatsRow& row : ops.rows) {
            QVERIFY(row.totalNs >= 0);
            QVERIFY(row.selfNs >= 0);
        }
        QVERIFY(ops.hostTotalSelfNs >= 0 && ops.deviceTotalSelfNs >= 0);
        const auto big = std::find_if(ops.rows.begin(), ops.rows.end(), [](const OpStatsRow& r) { return r.name == "big"; });
        QVERIFY(big != ops.rows.end());
        QCOMPARE(big->totalNs, std::numeric_limits<TimeNs>::max());  // 4 x 3.9e18 ns: saturated
        for (const TorchOpRow& row : computeTorchOps(t).rows) QVERIFY(row.cpuTotalNs >= 0 && row.selfCpuNs >= 0);
        for (const KernelStatsRow& row : computeKernelStats(t).rows) QVERIFY(row.totalNs >= 0);
        (void)computeOverview(t);
        (void)computeInputPipeline(t);
        (void)computeTfData(t);
        (void)computeScopeTree(t);
        ChromeJsonWriteResult written;
        const std::string json = chromeJsonString(t, &written);
        QVERIFY(written.ok);
    }

    // The builder itself: the full int64 range in, a span that fits out.
    void builderClampsToRepresentableRange() {
        TraceBuilder b("test");
        const ProcessIndex p = b.addProcess(ProcessKind::Host, 1, "p");
        const TrackIndex t = b.addTrack(p, TrackKind::Thread, "t", 1);
        b.addSlice(t, INT64_MIN, 10, b.intern("min"), kEmptyString);
        b.addSlice(t, INT64_MAX - 5, INT64_MAX, b.intern("max"), kEmptyString);
        b.addInstant(t, INT64_MAX, b.intern("i"), kEmptyString);
        std::unique_ptr<Trace> trace = b.finish();
        QVERIFY(trace);
        QVERIFY(trace->spanNs() > 0);
        QCOMPARE(trace->spanNs(), 2 * TraceBuilder::kMaxTimeNs);
        QVERIFY2(anyWarningContains(*trace, "clamped"), joinWarnings(*trace).c_str());
    }

    // 10^7 '[' (10 MB): a clear error about the nesting, no stack overflow, bounded memory.
    void tenMillionNestedArrays() {
        const std::string p = path("nested.json");
        QVERIFY(writeFile(p, std::string(10000000, '[') + std::string(10000000, ']')));
        const bool canMeasure = resetPeakRss();
        const long long before = peakRssBytes();
        ImportResult r = importWithDeadline(p, 30);
        QVERIFY(!r.ok());
        QVERIFY2(containsNoCase(r.error, "nested deeper"), r.error.c_str());
        if (canMeasure) {
            const long long grown = peakRssBytes() - before;
            QVERIFY2(grown < (256ll << 20), std::to_string(grown).c_str());
        }
    }

    // 100,000 threads with one slice each (and names for half of them): every thread a track.
    // (The import used to order each process's tracks in time quadratic in their number.)
    void hundredThousandThreads() {
        const int n = 100000;
        std::string text = "[";
        for (int i = 0; i < n; ++i) {
            text += "{\"ph\":\"X\",\"name\":\"op\",\"pid\":1,\"tid\":" + std::to_string(i) + ",\"ts\":" +
                    std::to_string(i) + ",\"dur\":1},";
            if (i % 2 == 0)
                text += "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":" + std::to_string(i) +
                        ",\"args\":{\"name\":\"thread " + std::to_string(i) + "\"}},";
        }
        text += "{\"ph\":\"i\",\"name\":\"end\",\"s\":\"g\",\"ts\":0}]";
        const std::string p = path("threads.json");
        QVERIFY(writeFile(p, text));
        ImportResult r = importWithDeadline(p, 120);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.trace->counts().slices, size_t(n));
        QVERIFY(r.trace->counts().tracks >= size_t(n));
    }

    // A staircase of 100,000 slices on one thread, slice i = [i, i + 100000) us: each starts
    // inside every earlier one and ends after it, so no two nest and all overlap at t = 100000:
    // the thread's own lane keeps slice 0 and each other slice needs an overflow lane of its
    // own (99,999). Filling lanes one after the other took O(n^2) (over 5 minutes here); now
    // well under the deadline.
    void staircaseOfPartialOverlaps() {
        const int n = 100000;
        std::string text = "[";
        for (int i = 0; i < n; ++i)
            text += std::string(i ? "," : "") + "{\"ph\":\"X\",\"name\":\"s\",\"pid\":1,\"tid\":1,\"ts\":" +
                    std::to_string(i) + ",\"dur\":" + std::to_string(n) + "}";
        text += "]";
        const std::string p = path("staircase.json");
        QVERIFY(writeFile(p, text));
        const auto t0 = std::chrono::steady_clock::now();
        ImportResult r = importWithDeadline(p, 60);
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY2(secondsSince(t0) < 30, std::to_string(secondsSince(t0)).c_str());
        QCOMPARE(r.trace->counts().slices, size_t(n));
        size_t lanes = 0;
        for (const Track& t : r.trace->tracks) {
            if (t.kind != TrackKind::Thread) continue;
            lanes += t.overflowOf != kNoIndex;
            QCOMPARE(t.slices.size(), size_t(1));
            QCOMPARE(t.maxDepth, uint32_t(1));
        }
        QCOMPARE(lanes, size_t(n - 1));
    }

    // 50 waves, one after the other, of a 100-slice staircase: 100 lanes at once, reused by
    // every wave (the lanes past the first 64 too): 99 overflow lanes of 50 slices each.
    void staircaseWavesReuseLanes() {
        std::string text = "[";
        for (int w = 0; w < 50; ++w)
            for (int i = 0; i < 100; ++i)
                text += std::string(w || i ? "," : "") + "{\"ph\":\"X\",\"name\":\"s\",\"pid\":1,\"tid\":1,\"ts\":" +
                        std::to_string(w * 1000 + i) + ",\"dur\":100}";
        text += "]";
        const std::string p = path("staircase_waves.json");
        QVERIFY(writeFile(p, text));
        ImportResult r = importWithDeadline(p, 60);
        QVERIFY2(r.ok(), r.error.c_str());
        size_t lanes = 0;
        for (const Track& t : r.trace->tracks) {
            if (t.kind != TrackKind::Thread) continue;
            lanes += t.overflowOf != kNoIndex;
            QCOMPARE(t.slices.size(), size_t(50));
        }
        QCOMPARE(lanes, size_t(99));
    }

    // Files under tests/data/hostile/ that are not Chrome JSON (the Chrome ones are checked by
    // tst_chrome_hostile): each with its outcome.
    void binaryHostileFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("text");  // error substring, or a warning substring ("" = none checked)
        // Line timestamp 2^62 ns, a duration of INT64_MAX ps: clamped, reported, span 0 (not negative).
        QTest::newRow("xspace times near int64") << "extreme.xplane.pb" << true << "clamped";
        // Cut inside the second plane: the first plane loads, with a truncation warning.
        QTest::newRow("xspace cut in a plane") << "cut.xplane.pb" << true << "truncated";
        // Cut inside a node record: the complete one loads, the cut one is dropped and said so.
        QTest::newRow("run metadata cut in a node") << "cut_run_metadata.pb" << true << "truncated";
        // A plane whose length prefix claims 10 GB in a 30-byte file: nothing allocated for it.
        QTest::newRow("xspace plane claiming 10 GB") << "claimed_10gb_plane.xplane.pb" << false << "no complete plane";
        // A plane name claiming 2 GB: not taken for an XSpace at all.
        QTest::newRow("xspace name claiming 2 GB") << "name_field_2gb.xplane.pb" << false << "not a trace";
        // A good plane, then one claiming 2 GB: the first loads, the rest is reported cut.
        QTest::newRow("xspace second plane claiming 2 GB") << "second_plane_2gb.xplane.pb" << true << "truncated";
        // Found by fuzz_run_metadata: allocation records of ~INT64_MAX bytes overflowed the
        // allocator's running sum (signed overflow); it saturates now. Damaged records are skipped.
        QTest::newRow("fuzz: allocator sum overflow") << "fuzz_allocator_sum_overflow.pb" << true << "corrupted";
        // Found by fuzz_agent_records: a CUPTI agent record stream whose copy lies ~2e17 ns
        // from the capture overflowed the XSpace's ps offsets (signed overflow). Such records
        // are skipped and counted now; the stream's damaged tail is reported.
        QTest::newRow("fuzz: agent records far in time") << "fuzz_agent_records_far_times.tscupti" << true
                                                         << "implausible times";
    }
    // Found by fuzz_analyses under ASan: an XSpace whose host events form CPU-only step groups;
    // the step breakdown read each host event's op type through a view of a destroyed temporary
    // (heap use after free). It keeps a copy now: the overview has steps and a host-side time,
    // and the sanitizer build (which runs this test) sees no bad read.
    void fuzzStepTypeUseAfterFree() {
        ImportResult r = importWithDeadline(repoTestData("hostile/fuzz_step_type_use_after_free.xplane.pb"), 20);
        QVERIFY2(r.ok(), r.error.c_str());
        const Overview o = computeOverview(classifyTrace(*r.trace));
        QVERIFY(!o.steps.steps.empty());
        QVERIFY(o.categories[size_t(StepCategory::HostCompute)].ns.mean > 0);
    }

    void binaryHostileFiles() {
        QFETCH(QString, file);
        QFETCH(bool, ok);
        QFETCH(QString, text);
        ImportResult r = importWithDeadline(repoTestData("hostile/" + file.toStdString()), 20);
        if (!ok) {
            QVERIFY(!r.ok());
            QVERIFY2(containsNoCase(r.error, text.toStdString()), r.error.c_str());
            return;
        }
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(r.trace->spanNs() >= 0);
        if (!text.isEmpty()) QVERIFY2(anyWarningContains(*r.trace, text.toStdString()), joinWarnings(*r.trace).c_str());
    }
};

QTEST_GUILESS_MAIN(HostileInputsTest)
#include "tst_hostile_inputs.moc"
