// Launch & Capture end to end without a GPU: the real agent (libtracescope_cupti.so) is
// injected into fake_cuda_program (which calls InitializeInjection as the CUDA driver does
// and delivers fake_scenario.h's CUPTI 13 buffers through the fake libcupti.so.13), streams
// over the Unix socket to LaunchSession, which saves XSpaces that our importer opens. Also
// the fallback file, a crash mid-run, child processes, the agent's refusals (another
// profiler, an old driver, another CUPTI) and tracescope-cli launch with its exit statuses.
#include "model/capture/agent/record_decoder.h"
#include "model/capture/agent/records_to_xspace.h"
#include "model/capture/launch_session.h"
#include "model/capture/save_profile.h"
#include "model/import/import.h"
#include "tests/cupti/capture_checks.h"
#include "tests/cupti/fake_scenario.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <filesystem>
#include <unistd.h>

using namespace tracescope;
using namespace tracescope::capture;
namespace fs = std::filesystem;

namespace {

LaunchOptions options(const QTemporaryDir& dir, std::vector<std::string> args) {
    LaunchOptions o;
    o.command = {FAKE_CUDA_PROGRAM};
    for (auto& a : args) o.command.push_back(a);
    o.logdir = dir.path().toStdString();
    o.agentPath = CUPTI_AGENT;
    o.flushMs = 100;
    return o;
}

std::string hostname() {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    return host;
}

bool anyContains(const std::vector<std::string>& texts, const std::string& part) {
    for (const std::string& t : texts)
        if (t.find(part) != std::string::npos) return true;
    return false;
}

// The capture of one process matches `batches` batches of the scenario exactly.
void checkCapture(const std::string& path, int batches) {
    ImportResult result = importXSpace(path);
    QVERIFY2(result.ok(), result.error.c_str());
    const checks::Summary s = checks::summarize(*result.trace);
    const fake::Counts expected = fake::scenarioCounts(batches);
    QCOMPARE(s.slice(fake::kKernelDemangled), size_t(expected.kernels));
    QCOMPARE(s.slice("MemcpyH2D"), size_t(expected.memcpys));
    QCOMPARE(s.slice("Memset 3"), size_t(expected.memsets));
    QCOMPARE(s.slice("cuStreamSynchronize"), size_t(expected.syncs));
    QCOMPARE(s.slice("step"), size_t(expected.nvtxRanges));
    QCOMPARE(s.instant("tick"), size_t(expected.nvtxMarks));
    QCOMPARE(s.instant("MemoryAllocation"), size_t(expected.allocations));
    QCOMPARE(s.instant("MemoryDeallocation"), size_t(expected.frees));
    QCOMPARE(s.flows, size_t(3 * batches + expected.graphKernels));
    QVERIFY(s.hasTrack("Stream #7(Compute,MemcpyH2D)"));
}

struct CliRun {
    int status = -1;
    QString out, err;
};

CliRun runCli(const QStringList& args) {
    QProcess p;
    p.start(TRACESCOPE_CLI, args);
    p.waitForFinished(60000);
    CliRun r;
    r.status = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

}  // namespace

class CuptiAgentTest : public QObject {
    Q_OBJECT
private slots:
    void streamsAndSaves() {
        QTemporaryDir dir;
        LaunchSession session(options(dir, {"run", "3"}));
        const LaunchResult r = session.run();
        QVERIFY2(r.started, r.startError.c_str());
        QVERIFY(r.exited);
        QCOMPARE(r.exitStatus, 0);
        QVERIFY(r.captureOk());
        QCOMPARE(r.processes.size(), size_t(1));
        const LaunchedProcess& p = r.processes[0];
        QVERIFY2(p.problems.empty(), p.problems.empty() ? "" : p.problems[0].c_str());
        QCOMPARE(p.pid, r.pid);
        QCOMPARE(p.records, fake::scenarioCounts(3).records());
        QCOMPARE(p.stats.outsideWindow, uint64_t(0));  // every GPU time lies between the launch and the exit
        // The TensorBoard layout: <logdir>/plugins/profile/<run>/<host>.<pid>.xplane.pb
        const fs::path saved(p.savedPath);
        QCOMPARE(saved.filename().string(), hostname() + "." + std::to_string(r.pid) + ".xplane.pb");
        QCOMPARE(saved.parent_path().parent_path().string(), (fs::path(dir.path().toStdString()) / "plugins" / "profile").string());
        QCOMPARE(saved.parent_path().filename().string().size(), size_t(19));  // YYYY_MM_DD_HH_MM_SS
        checkCapture(p.savedPath, 3);
        for (const auto& e : fs::directory_iterator(saved.parent_path())) QVERIFY(e.path().extension() != ".tscupti");
    }

    void exitStatusAndDroppedRecords() {
        QTemporaryDir dir;
        LaunchSession session(options(dir, {"dropped", "1"}));
        const LaunchResult r = session.run();
        QCOMPARE(r.exitStatus, 0);
        QVERIFY(r.captureOk());
        QCOMPARE(r.processes[0].stats.droppedRecords, uint64_t(5));
        ImportResult imported = importXSpace(r.processes[0].savedPath);
        QVERIFY(imported.ok());
        QVERIFY(checks::summarize(*imported.trace).hasWarningContaining("Detected GPU events dropped on"));

        LaunchSession withStatus(options(dir, {"run", "1", "5"}));
        const LaunchResult s = withStatus.run();
        QCOMPARE(s.exitStatus, 5);
        QVERIFY(s.captureOk());
    }

    void crashLosesAtMostOneFlushInterval() {
        QTemporaryDir dir;
        LaunchSession session(options(dir, {"crash", "2"}));
        const LaunchResult r = session.run();
        QVERIFY(r.exited);
        QCOMPARE(r.termSignal, int(SIGSEGV));
        QCOMPARE(r.exitStatus, 128 + SIGSEGV);
        QVERIFY(r.captureOk());
        // Batches 0 and 1 were flushed; batch 2 was delivered right before the crash.
        QCOMPARE(r.processes[0].records, fake::scenarioCounts(2).records());
        QVERIFY(anyContains(r.processes[0].problems, "without the agent's final flush"));
        checkCapture(r.processes[0].savedPath, 2);
        ImportResult imported = importXSpace(r.processes[0].savedPath);
        QVERIFY(checks::summarize(*imported.trace).hasWarningContaining("crashed or was killed"));
    }

    void fallbackFileWhenNoViewerListens() {
        QTemporaryDir dir;
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("CUDA_INJECTION64_PATH", CUPTI_AGENT);
        env.insert("TRACESCOPE_AGENT_SOCKET", dir.filePath("nobody-listens.sock"));
        env.insert("TRACESCOPE_AGENT_FALLBACK", dir.path());
        env.insert("TRACESCOPE_AGENT_FLUSH_MS", "100");
        p.setProcessEnvironment(env);
        p.start(FAKE_CUDA_PROGRAM, {"run", "2"});
        QVERIFY(p.waitForStarted());
        const qint64 pid = p.processId();
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        const std::string file = dir.filePath(QString::fromStdString(hostname()) + "." + QString::number(pid) +
                                              ".tscupti").toStdString();
        std::string bytes, error;
        QVERIFY2(readWholeFile(file, bytes, error), (file + ": " + error).c_str());
        agent::DecodeResult d = agent::decodeRecordStream(bytes);
        QVERIFY2(d.error.empty(), d.error.c_str());
        QVERIFY(d.records.hasHello && d.records.hasBye);
        QCOMPARE(d.records.hello.pid, int64_t(pid));
        QCOMPARE(d.records.activityCount(), fake::scenarioCounts(2).records());
        QCOMPARE(d.records.bye.recordsSent, fake::scenarioCounts(2).records());
        const std::string xplane = dir.filePath("fallback.xplane.pb").toStdString();
        QVERIFY(saveProfileFile(xplane, agent::recordsToXSpaceBytes(d.records), {}, error));
        checkCapture(xplane, 2);
        // The viewer opens the fallback file itself, whatever its name, and a cut copy with a warning.
        QCOMPARE(detectFormat(file), TraceFormat::AgentRecords);
        ImportResult opened = importTrace(file);
        QVERIFY2(opened.ok(), opened.error.c_str());
        QCOMPARE(checks::summarize(*opened.trace).slice(fake::kKernelDemangled), size_t(fake::scenarioCounts(2).kernels));
        const std::string cut = dir.filePath("cut.bin").toStdString();
        QVERIFY(saveProfileFile(cut, std::string_view(bytes).substr(0, bytes.size() - 10), {}, error));
        ImportResult partial = importTrace(cut);
        QVERIFY2(partial.ok(), partial.error.c_str());
        QVERIFY(!partial.trace->warnings.empty());
        QCOMPARE(checks::summarize(*partial.trace).slice(fake::kKernelDemangled), size_t(fake::scenarioCounts(2).kernels));
    }

    void memoryBudgetDropsAndCounts() {
        // 1000 batches in one CUPTI buffer translate to more than the 1 MiB budget: the agent
        // drops that buffer's records and counts them; the next batch gets through.
        QTemporaryDir dir;
        LaunchOptions o = options(dir, {"flood", "1000"});
        o.environment = {{"TRACESCOPE_AGENT_BUDGET_MB", "1"}};
        const LaunchResult r = LaunchSession(o).run();
        QCOMPARE(r.exitStatus, 0);
        QVERIFY(r.captureOk());
        const uint64_t flooded = fake::scenarioCounts(1000).records();
        QCOMPARE(r.processes[0].stats.droppedRecords, flooded);
        QCOMPARE(r.processes[0].records, fake::scenarioCounts(1001).records() - flooded);
        ImportResult imported = importXSpace(r.processes[0].savedPath);
        QVERIFY(imported.ok());
        QVERIFY(checks::summarize(*imported.trace)
                    .hasWarningContaining("agent memory budget full: " + std::to_string(flooded)));
    }

    void captureWindowThenViewerGone() {
        // Batches at about 0, 150, 300, 450 ms; the window closes at 260 ms, the listener
        // with it, and the agent falls back to a file that the session discards.
        QTemporaryDir dir;
        LaunchOptions o = options(dir, {"run", "4"});
        o.durationMs = 260;
        LaunchSession session(o);
        const LaunchResult r = session.run();
        QCOMPARE(r.exitStatus, 0);
        QVERIFY(r.captureOk());
        QCOMPARE(r.processes[0].stats.kernels, fake::scenarioCounts(2).kernels);
        for (const auto& e : fs::directory_iterator(r.runDir)) QVERIFY(e.path().extension() != ".tscupti");
    }

    void childProcessesReportAsTheirOwn() {
        QTemporaryDir dir;
        LaunchSession session(options(dir, {"spawn", "2"}));
        const LaunchResult r = session.run();
        QCOMPARE(r.exitStatus, 0);
        QCOMPARE(r.processes.size(), size_t(2));
        QVERIFY(r.processes[0].pid != r.processes[1].pid);
        for (const LaunchedProcess& p : r.processes) {
            QVERIFY(!p.savedPath.empty());
            QCOMPARE(p.records, fake::scenarioCounts(2).records());
            checkCapture(p.savedPath, 2);
        }
    }

    void anotherProfilerIsReported() {
        QTemporaryDir dir;
        LaunchOptions o = options(dir, {"run", "1"});
        o.environment = {{"FAKE_CUPTI_SUBSCRIBER", "Nsight Systems"}};
        const LaunchResult r = LaunchSession(o).run();
        QCOMPARE(r.exitStatus, 0);
        QVERIFY(!r.captureOk());
        QVERIFY(anyContains(r.problems, "another profiler already holds CUPTI"));
        QVERIFY(anyContains(r.problems, "Nsight Systems"));
        QVERIFY(r.savedFiles().empty());
    }

    void oldDriverAndOtherCuptiAreReported() {
        QTemporaryDir dir;
        LaunchOptions o = options(dir, {"run", "1"});
        o.environment = {{"FAKE_CUDA_DRIVER_VERSION", "12040"}};
        const LaunchResult r = LaunchSession(o).run();
        QVERIFY(!r.captureOk());
        QVERIFY(anyContains(r.problems, "supports CUDA 12.4 but CUPTI 13 needs a CUDA 13 driver"));
        o.environment = {{"FAKE_CUPTI_VERSION", "120800"}};
        const LaunchResult v = LaunchSession(o).run();
        QVERIFY(!v.captureOk());
        QVERIFY(anyContains(v.problems, "is not the one the TraceScope agent was built for"));
    }

    void agentNeverLoaded() {
        QTemporaryDir dir;
        const LaunchResult r = LaunchSession(options(dir, {"nocuda", "0"})).run();
        QVERIFY(r.started && r.exited);
        QCOMPARE(r.exitStatus, 0);
        QVERIFY(!r.captureOk());
        QVERIFY(anyContains(r.problems, "never loaded"));
        QVERIFY(!fs::exists(r.runDir));  // no empty run folder left behind
    }

    void startErrors() {
        QTemporaryDir dir;
        LaunchOptions o = options(dir, {});
        o.command = {dir.filePath("no-such-program").toStdString()};
        LaunchResult r = LaunchSession(o).run();
        QVERIFY(!r.started);
        QVERIFY(r.startError.find("program not found") != std::string::npos);
        o.command = {"tracescope-no-such-program-on-path"};
        r = LaunchSession(o).run();
        QVERIFY(r.startError.find("not found on PATH") != std::string::npos);
        o = options(dir, {"run", "1"});
        o.agentPath = dir.filePath("missing.so").toStdString();
        r = LaunchSession(o).run();
        QVERIFY(!r.started);
        QVERIFY(r.startError.find("libtracescope_cupti.so") != std::string::npos);
    }

    void cli() {
        QTemporaryDir dir;
        const QStringList common = {"launch", "--out", dir.path(), "--agent", CUPTI_AGENT, "--flush-ms", "100"};
        CliRun ok = runCli(common + QStringList{"--", FAKE_CUDA_PROGRAM, "run", "1", "3"});
        QCOMPARE(ok.status, 3);  // the program's own status
        const QStringList files = ok.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(files.size(), 1);
        QVERIFY(files[0].endsWith(".xplane.pb"));
        QVERIFY(files[0].startsWith(dir.path() + "/plugins/profile/"));
        checkCapture(files[0].toStdString(), 1);

        CliRun json = runCli({"launch", "--logdir", dir.path(), "--agent", CUPTI_AGENT, "--json", "--", FAKE_CUDA_PROGRAM,
                              "run", "2"});
        QCOMPARE(json.status, 0);
        QVERIFY(json.out.contains("\"capture_ok\": true"));
        QVERIFY(json.out.contains(QString("\"kernels\": %1").arg(fake::scenarioCounts(2).kernels)));

        CliRun none = runCli(common + QStringList{"--", FAKE_CUDA_PROGRAM, "nocuda", "0"});
        QCOMPARE(none.status, 1);  // the program succeeded, the capture did not
        QVERIFY(none.err.contains("never loaded"));
        CliRun noneFailed = runCli(common + QStringList{"--", FAKE_CUDA_PROGRAM, "nocuda", "4"});
        QCOMPARE(noneFailed.status, 4);

        CliRun crash = runCli(common + QStringList{"--", FAKE_CUDA_PROGRAM, "crash", "1"});
        QCOMPARE(crash.status, 128 + SIGSEGV);
        QVERIFY(crash.err.contains("signal"));

        CliRun missing = runCli(common + QStringList{"--", dir.filePath("nope")});
        QCOMPARE(missing.status, 127);
        QVERIFY(missing.err.contains("program not found"));
        CliRun usage = runCli({"launch", "--out", dir.path()});
        QCOMPARE(usage.status, 2);
        CliRun badKind = runCli(common + QStringList{"--kinds", "kernel,bogus", "--", FAKE_CUDA_PROGRAM, "run", "1"});
        QCOMPARE(badKind.status, 2);
        QVERIFY(badKind.err.contains("bogus"));
        // --kinds reaches the agent: with kernels only, copies and API calls are not recorded.
        CliRun kernelsOnly = runCli(common + QStringList{"--kinds", "kernel", "--json", "--", FAKE_CUDA_PROGRAM, "run", "1"});
        QCOMPARE(kernelsOnly.status, 0);
        QVERIFY2(kernelsOnly.out.contains("\"kernels\": 1,"), qPrintable(kernelsOnly.out));
        QVERIFY(kernelsOnly.out.contains("\"memcpys\": 0,"));
        QVERIFY(kernelsOnly.out.contains("\"api_calls\": 0,"));
    }
};

QTEST_GUILESS_MAIN(CuptiAgentTest)
#include "tst_cupti_agent.moc"
