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

#include <ctime>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <thread>
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

int64_t realtimeNs() {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
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
// The first process's capture, read back and summarized; empty when there is none or it cannot
// be read (the caller's counts then fail).
checks::Summary firstCaptureSummary(const LaunchResult& r) {
    if (!r.captureOk() || r.processes.empty()) return {};
    ImportResult imported = importXSpace(r.processes[0].savedPath);
    return imported.ok() ? checks::summarize(*imported.trace) : checks::Summary{};
}

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
    // cudaEventRecord: the API call on the host, the point on stream 7 where the event was recorded.
    QCOMPARE(s.slice("cudaEventRecord"), size_t(expected.cudaEvents));
    QCOMPARE(s.instant("cudaEventRecord"), size_t(expected.cudaEvents));
    QCOMPARE(s.slice("cudaStreamCreateWithPriority"), size_t(expected.streams));
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
        const int64_t launchedAt = realtimeNs();
        const LaunchResult r = session.run();
        const int64_t endedAt = realtimeNs();
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
        QCOMPARE(p.stats.cudaEvents, fake::scenarioCounts(3).cudaEvents);
        QCOMPARE(p.stats.streams, uint64_t(1));
        // The stream's creation on its API call; the events' ids on stream 7 (5, 6, 7 in the scenario).
        ImportResult imported = importXSpace(p.savedPath);
        const Trace& trace = *imported.trace;
        bool sawStream = false;
        std::vector<std::string> eventIds;
        for (const Track& t : trace.tracks) {
            for (size_t i = 0; i < t.slices.size(); ++i)
                if (trace.str(t.slices.name[i]) == "cudaStreamCreateWithPriority") {
                    auto args = checks::args(trace, t, t.slices.args[i]);
                    QCOMPARE(args["stream_id"], std::string("13"));
                    QCOMPARE(args["stream_priority"], std::string("-1"));
                    QCOMPARE(args["stream_flags"], std::string("non_blocking"));
                    sawStream = true;
                }
            for (size_t i = 0; i < t.instants.size(); ++i)
                if (trace.str(t.instants.name[i]) == "cudaEventRecord") {
                    QVERIFY(t.name.rfind("Stream #7", 0) == 0);
                    eventIds.push_back(checks::args(trace, t, t.instants.args[i])["cuda_event_id"]);
                }
        }
        QVERIFY(sawStream);
        QCOMPARE(eventIds, (std::vector<std::string>{"5", "6", "7"}));
        // The trace's wall clock (the fake's times are CLOCK_REALTIME, as CUPTI's): the whole
        // capture lies between the launch and the exit (it lay ~56 years later when the lines
        // were absolute beside profile_start_time).
        QVERIFY(trace.originUnixNs.has_value());
        QVERIFY(*trace.originUnixNs >= launchedAt);
        QVERIFY(*trace.originUnixNs + trace.endNs <= endedAt);
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

    void durationEndsTheWindowNotTheProgram() {
        // Batches at about 0, 150, 300, 450 ms; the window closes at 260 ms: the agent is
        // told to stop (it disables collection, flushes and answers), the capture is saved
        // with batches 0 and 1, and the program runs on to its own exit status.
        QTemporaryDir dir;
        LaunchOptions o = options(dir, {"run", "4", "3"});
        o.durationMs = 260;
        LaunchSession session(o);
        const LaunchResult r = session.run();
        QCOMPARE(r.exitStatus, 3);
        QVERIFY(r.captureOk());
        QCOMPARE(r.processes[0].stats.kernels, fake::scenarioCounts(2).kernels);
        // Nothing reached the viewer after the agent's answer: collection really stopped.
        QCOMPARE(r.processes[0].recordsAfterWindow, uint64_t(0));
        for (const auto& e : fs::directory_iterator(r.runDir)) QVERIFY(e.path().extension() != ".tscupti");
    }

    void stopSavesWhileTheProgramRuns() {
        // The dialog's Stop: stop() at 260 ms saves the capture while the program still runs
        // (onCaptureSaved), later batches are not collected, and the exit status is the
        // program's own (6 batches, then exit 7).
        QTemporaryDir dir;
        LaunchOptions o = options(dir, {"run", "6", "7"});
        bool savedWhileRunning = false;
        std::string savedFile;
        int64_t pid = 0;
        o.onCaptureSaved = [&](const LaunchResult& r) {
            savedWhileRunning = !r.exited && r.pid > 0 && ::kill(pid_t(r.pid), 0) == 0;
            if (!r.processes.empty()) savedFile = r.processes[0].savedPath;
            pid = r.pid;
        };
        LaunchSession session(o);
        std::thread stopper([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(260));
            session.stop();
        });
        const LaunchResult r = session.run();
        stopper.join();
        QVERIFY(savedWhileRunning);
        QCOMPARE(pid, r.pid);
        QCOMPARE(r.exitStatus, 7);
        QVERIFY(r.captureOk());
        QCOMPARE(r.processes[0].savedPath, savedFile);
        QCOMPARE(r.processes[0].stats.kernels, fake::scenarioCounts(2).kernels);
        QCOMPARE(r.processes[0].recordsAfterWindow, uint64_t(0));
        checkCapture(savedFile, 2);
        // Saved while the process lived on: no Bye yet, and no "crashed" warning either.
        QVERIFY2(r.processes[0].problems.empty(), r.processes[0].problems.empty() ? "" : r.processes[0].problems[0].c_str());
        ImportResult imported = importXSpace(savedFile);
        QVERIFY(!checks::summarize(*imported.trace).hasWarningContaining("crashed"));
    }

    void restartOpensASecondWindow() {
        // Stop at 260 ms, Start again once saved plus 300 ms, Stop 300 ms later: two runs,
        // each with records, fewer kernels together than the program's 8 batches (the
        // batches between the windows are not collected), the program's own exit status.
        QTemporaryDir dir;
        LaunchOptions o = options(dir, {"run", "8", "2"});
        std::mutex m;
        std::vector<LaunchResult> saves;
        o.onCaptureSaved = [&](const LaunchResult& r) {
            std::lock_guard<std::mutex> lock(m);
            saves.push_back(r);
        };
        LaunchSession session(o);
        auto savedCount = [&] {
            std::lock_guard<std::mutex> lock(m);
            return saves.size();
        };
        std::thread driver([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(260));
            session.stop();
            while (savedCount() < 1) std::this_thread::sleep_for(std::chrono::milliseconds(10));
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            session.restart();
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            session.stop();
        });
        const LaunchResult r = session.run();
        driver.join();
        QCOMPARE(r.exitStatus, 2);
        QCOMPARE(saves.size(), size_t(2));
        QVERIFY(saves[0].runDir != saves[1].runDir);
        QCOMPARE(r.runDir, saves[1].runDir);
        QCOMPARE(saves[0].processes[0].stats.kernels, fake::scenarioCounts(2).kernels);
        const uint64_t second = saves[1].processes[0].stats.kernels;
        QVERIFY(second >= 1);
        QVERIFY(saves[0].processes[0].stats.kernels + second < fake::scenarioCounts(8).kernels);
        QVERIFY(QFileInfo::exists(QString::fromStdString(saves[0].processes[0].savedPath)));
        QVERIFY(QFileInfo::exists(QString::fromStdString(saves[1].processes[0].savedPath)));
        QCOMPARE(r.processes[0].recordsAfterWindow, uint64_t(0));
    }

    void startReopensTheWindow() {
        // The agent alone on our listener: Stop after batch 1 (about 150 ms), Start 400 ms
        // later. No record falls between the agent's two answers; records come before and
        // after; fewer than all 8 batches were collected.
        agent::AgentListener listener;
        std::string error;
        QVERIFY2(listener.start({}, error), error.c_str());
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("CUDA_INJECTION64_PATH", CUPTI_AGENT);
        env.insert("TRACESCOPE_AGENT_SOCKET", QString::fromStdString(listener.path()));
        env.insert("TRACESCOPE_AGENT_FLUSH_MS", "100");
        p.setProcessEnvironment(env);
        p.start(FAKE_CUDA_PROGRAM, {"run", "8"});
        QVERIFY(p.waitForStarted());
        QThread::msleep(220);
        listener.sendControl(agent::kControlStop);
        QTRY_COMPARE_WITH_TIMEOUT(listener.awaitingStop(), size_t(0), 2000);
        QThread::msleep(400);
        listener.sendControl(agent::kControlStart);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(listener.openConnections(), size_t(0), 3000);
        listener.stop();
        std::vector<agent::CollectedProcess> got = listener.take();
        QCOMPARE(got.size(), size_t(1));
        const agent::AgentRecords& rec = got[0].records;
        QVERIFY(rec.hasBye);
        QCOMPARE(rec.windows.size(), size_t(2));
        QCOMPARE(rec.windows[0].state, uint32_t(agent::kWindowStopped));
        QCOMPARE(rec.windows[1].state, uint32_t(agent::kWindowStarted));
        const int64_t stopped = rec.windows[0].timestampNs, started = rec.windows[1].timestampNs;
        QVERIFY(started - stopped > 300'000'000);
        size_t before = 0, between = 0, after = 0;
        for (const agent::KernelEntry& k : rec.kernels) {
            if (k.r.startNs < stopped) ++before;
            else if (k.r.startNs > started) ++after;
            else ++between;
        }
        QVERIFY(before > 0);
        QCOMPARE(between, size_t(0));
        QVERIFY(after > 0);
        QVERIFY(rec.kernels.size() < fake::scenarioCounts(8).kernels);
        // The Bye counts what was sent, the Window frames what had been sent at Stop and Start.
        QCOMPARE(rec.bye.recordsSent, rec.activityCount());
        QCOMPARE(rec.windows[0].recordsSent, rec.windows[1].recordsSent);
    }

    void earlyNvtxRangesBeforeCuda() {
        // "early": an NVTX range and a mark before cuInit. CUDA's injection alone could not see
        // them (NVTX picks its tool at its first call); launch names the agent as NVTX's tool
        // from the start (it forwards to its libcupti), so they are recorded.
        QTemporaryDir dir;
        LaunchOptions plain = options(dir, {"early", "1"});
        const checks::Summary s0 = firstCaptureSummary(LaunchSession(plain).run());
        QCOMPARE(s0.slice("early"), size_t(1));
        QCOMPARE(s0.instant("early mark"), size_t(1));
        QCOMPARE(s0.slice("step"), size_t(1));

        // An NVTX tool the caller's environment names is kept: then only CUDA's injection starts
        // the agent, after the early range.
        LaunchOptions otherTool = plain;
        otherTool.environment = {{"NVTX_INJECTION64_PATH", "/nonexistent/libother_nvtx_tool.so"}};
        const checks::Summary sOther = firstCaptureSummary(LaunchSession(otherTool).run());
        QCOMPARE(sOther.slice("early"), size_t(0));
        QCOMPARE(sOther.slice("step"), size_t(1));  // the batch's own NVTX records still arrive

        // Early-NVTX mode names the agent even over the caller's tool, and preloads it.
        LaunchOptions early = otherTool;
        early.earlyNvtx = true;
        const LaunchResult r1 = LaunchSession(early).run();
        QCOMPARE(r1.processes.size(), size_t(1));
        QVERIFY2(r1.processes[0].problems.empty(), r1.processes[0].problems.empty() ? "" : r1.processes[0].problems[0].c_str());
        checkCapture(r1.processes[0].savedPath, 1);
        const checks::Summary s1 = firstCaptureSummary(r1);
        QCOMPARE(s1.slice("early"), size_t(1));
        QCOMPARE(s1.instant("early mark"), size_t(1));
        QCOMPARE(s1.slice("step"), size_t(1));

        // A wrapper in front (env) gets the preload too but never starts an agent: one process.
        LaunchOptions wrapped = early;
        wrapped.command = {"/usr/bin/env", FAKE_CUDA_PROGRAM, "early", "1", "4"};
        const LaunchResult r3 = LaunchSession(wrapped).run();
        QCOMPARE(r3.exitStatus, 4);
        QCOMPARE(r3.processes.size(), size_t(1));
        QVERIFY(r3.processes[0].problems.empty());
        QCOMPARE(firstCaptureSummary(r3).slice("early"), size_t(1));
    }

    void threadNamesFromTheAgent() {
        // "threads": batch 0 from the main thread named fake-main, batch 1 from worker-1.
        QTemporaryDir dir;
        const LaunchResult r = LaunchSession(options(dir, {"threads"})).run();
        QCOMPARE(r.exitStatus, 0);
        QVERIFY(r.captureOk());
        ImportResult imported = importXSpace(r.processes[0].savedPath);
        QVERIFY(imported.ok());
        const tracescope::Track* main = checks::track(*imported.trace, "fake-main (");
        const tracescope::Track* worker = checks::track(*imported.trace, "worker-1 (");
        QVERIFY(main && worker);
        QVERIFY(main != worker);
        // batch 0: 4 API calls; batch 1: 5 (the graph launch) on the worker's line
        QCOMPARE(main->slices.size() >= 4, true);
        QVERIFY(worker->name.size() > std::string("worker-1 (").size() + 1);
        // At most one name with a budget of one thread.
        LaunchOptions o = options(dir, {"threads"});
        o.environment = {{"TRACESCOPE_AGENT_MAX_THREADS", "1"}};
        const LaunchResult one = LaunchSession(o).run();
        ImportResult i1 = importXSpace(one.processes[0].savedPath);
        QVERIFY(checks::track(*i1.trace, "fake-main ("));
        QVERIFY(!checks::track(*i1.trace, "worker-1 ("));
        QVERIFY(checks::track(*i1.trace, "Host Threads/"));
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

    void programOutputShownAndSavedWithTheRun() {
        // 20,000 lines (about 330 KB) are more than a pipe holds: the session must keep reading
        // while the program runs, or the program would block on its writes.
        QTemporaryDir dir;
        LaunchOptions o = options(dir, {"run", "1"});
        o.environment.emplace_back("FAKE_OUTPUT_LINES", "20000");
        o.captureOutput = true;
        std::string live;
        o.onOutput = [&live](std::string_view piece) { live.append(piece); };
        const LaunchResult r = LaunchSession(o).run();
        QVERIFY(r.captureOk());
        std::string expected;
        for (int i = 0; i < 20000; ++i) expected += "stdout line " + std::to_string(i) + "\n";
        expected += "stderr line\n";
        QCOMPARE(live.size(), expected.size());
        QVERIFY(live == expected);
        QCOMPARE(r.outputPath, (fs::path(r.runDir) / "program_output.txt").string());
        std::ifstream saved(r.outputPath, std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(saved)), std::istreambuf_iterator<char>());
        QVERIFY(text == expected);

        // Without captureOutput the program writes to ours, and nothing is saved.
        QTemporaryDir plainDir;
        LaunchOptions plain = options(plainDir, {"run", "1"});
        const LaunchResult p = LaunchSession(plain).run();
        QVERIFY(p.captureOk());
        QVERIFY(p.outputPath.empty());
        QVERIFY(!fs::exists(fs::path(p.runDir) / "program_output.txt"));
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

    void agentExportsOnlyItsEntryPoints() {
        // The agent lives inside other programs: its dynamic symbol table holds only the two
        // entry points (no C++ runtime, no helpers), and it needs no Qt, protobuf or gRPC.
        QProcess nm;
        nm.start("nm", {"-D", "--defined-only", CUPTI_AGENT});
        if (!nm.waitForStarted(5000)) QSKIP("nm (binutils) is not installed");
        QVERIFY(nm.waitForFinished(30000));
        QCOMPARE(nm.exitCode(), 0);
        QStringList names;
        for (const QString& line : QString::fromUtf8(nm.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts))
            names << line.section(' ', -1);
        names.sort();
        QCOMPARE(names, (QStringList{"InitializeInjection", "InitializeInjectionNvtx2"}));
        QProcess readelf;
        readelf.start("readelf", {"-d", CUPTI_AGENT});
        if (!readelf.waitForStarted(5000)) QSKIP("readelf (binutils) is not installed");
        QVERIFY(readelf.waitForFinished(30000));
        const QString dynamic = QString::fromUtf8(readelf.readAllStandardOutput());
        QVERIFY(dynamic.contains("[libcupti.so.13]"));
        for (const char* forbidden : {"Qt", "protobuf", "grpc", "absl", "libstdc++"})
            QVERIFY2(!dynamic.contains(forbidden), forbidden);
    }

    // launch names a missing CUPTI when the agent never loaded: found as ld.so(8) looks, through
    // LD_LIBRARY_PATH, ldconfig's cache (paths that still exist) and the default folders, without
    // loading the library.
    void cuptiLookupFollowsTheLoader() {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        const std::string name = "libcupti.so.13";
        std::filesystem::create_directories(root + "/a");
        std::filesystem::create_directories(root + "/b");
        std::ofstream(root + "/b/" + name) << "x";
        const std::string noCache = root + "/no-cache";
        QVERIFY(!capture::libraryFindable(name, "", noCache, {}));
        QVERIFY(!capture::libraryFindable(name, root + "/a", noCache, {}));
        QVERIFY(capture::libraryFindable(name, root + "/a:" + root + "/b", noCache, {}));
        QVERIFY(capture::libraryFindable(name, "", noCache, {root + "/a", root + "/b"}));
        QVERIFY(!capture::libraryFindable("libcupti.so.1", root + "/b", noCache, {}));  // the whole name
        QVERIFY(!capture::libraryFindable(name, root + "/b/" + name, noCache, {}));    // a folder, not the file
        // A cache: a header, then NUL-terminated keys and paths, as glibc writes them.
        const auto writeCache = [&](const std::string& path) {
            std::string bytes = std::string("glibc-ld.so.cache1.1") + std::string(12, '\x01');
            const std::vector<std::string> strings = {name, "libz.so.1", path, "/usr/lib/libz.so.1"};
            for (const std::string& s : strings) {
                bytes += s;
                bytes.push_back('\0');
            }
            std::ofstream(root + "/cache", std::ios::binary) << bytes;
        };
        writeCache(root + "/b/" + name);
        QVERIFY(capture::libraryFindable(name, "", root + "/cache", {}));
        writeCache(root + "/a/" + name);  // a stale entry: the file is gone
        QVERIFY(!capture::libraryFindable(name, "", root + "/cache", {}));
        writeCache("");  // only the key, no path
        QVERIFY(!capture::libraryFindable(name, "", root + "/cache", {}));
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
        // --duration-ms: the window's records only, nothing after it, the program's status.
        CliRun window = runCli(common + QStringList{"--duration-ms", "260", "--json", "--", FAKE_CUDA_PROGRAM, "run", "4", "3"});
        QCOMPARE(window.status, 3);
        QVERIFY2(window.out.contains(QString("\"kernels\": %1,").arg(fake::scenarioCounts(2).kernels)), qPrintable(window.out));
        QVERIFY(window.out.contains("\"records_after_window\": 0,"));
        // --early-nvtx: the range pushed before CUDA is there (2 ranges: early and step).
        CliRun early = runCli(common + QStringList{"--early-nvtx", "--json", "--", FAKE_CUDA_PROGRAM, "early", "1"});
        QCOMPARE(early.status, 0);
        QVERIFY2(early.out.contains("\"nvtx_ranges\": 2,"), qPrintable(early.out));
    }
};

QTEST_GUILESS_MAIN(CuptiAgentTest)
#include "tst_cupti_agent.moc"
