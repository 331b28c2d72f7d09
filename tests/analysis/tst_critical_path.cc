// The critical path (model/analysis/critical_path.h) on hand-built Kineto traces whose path is
// worked out by hand with HTA's rules (hta/analyzers/critical_path_analysis.py) in the comment
// beside each case. Times in the traces are µs; the expected figures are ns.
#include "model/analysis/critical_path.h"
#include "model/import/import.h"
#include "model/results/critical_path_results.h"

#include <QtTest>

#include <fstream>
#include <memory>

using namespace tracescope;

namespace {

struct Ev {
    std::string cat, name;
    int pid, tid;
    double ts, dur;
    std::string args;  // JSON members, e.g. "\"correlation\":1"
};

std::string eventJson(const Ev& e) {
    return "{\"ph\":\"X\",\"cat\":\"" + e.cat + "\",\"name\":\"" + e.name + "\",\"pid\":" + std::to_string(e.pid) +
           ",\"tid\":" + std::to_string(e.tid) + ",\"ts\":" + std::to_string(e.ts) +
           ",\"dur\":" + std::to_string(e.dur) + ",\"args\":{" + e.args + "}}";
}

// Host pid 1 tid 1, GPU pid 0 stream 7, as Kineto writes them.
Ev op(const char* name, double ts, double dur) { return {"cpu_op", name, 1, 1, ts, dur, ""}; }
Ev runtime(const char* name, double ts, double dur, int corr) {
    return {"cuda_runtime", name, 1, 1, ts, dur, "\"correlation\":" + std::to_string(corr)};
}
Ev kernel(const char* name, double ts, double dur, int corr) {
    return {"kernel", name, 0, 7, ts, dur, "\"correlation\":" + std::to_string(corr) + ",\"stream\":7,\"device\":0"};
}
Ev step(double ts, double dur, int n = 1) {
    return {"user_annotation", "ProfilerStep#" + std::to_string(n), 1, 1, ts, dur, ""};
}

class TraceFile {
public:
    TraceFile(const std::vector<Ev>& events, const std::string& extra = {}) {
        std::string json = "{\"traceEvents\":[";
        json += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{\"name\":\"python\"}},";
        json += "{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":0,\"args\":{\"labels\":\"GPU 0\"}}";
        for (const Ev& e : events) json += ",\n" + eventJson(e);
        json += extra + "]}";
        path_ = dir_.filePath("trace.json").toStdString();
        std::ofstream(path_) << json;
    }
    std::shared_ptr<const Trace> load() const {
        ImportResult r = importTrace(path_);
        if (!r.ok()) qFatal("import failed: %s", r.error.c_str());
        return std::shared_ptr<const Trace>(std::move(r.trace));
    }

private:
    QTemporaryDir dir_;
    std::string path_;
};

CriticalPathResult pathsOf(const TraceFile& f) {
    const std::shared_ptr<ResultStore> store = ResultStore::of(f.load());
    return *criticalPathsOf(*store);
}

std::vector<std::string> eventNames(const Trace& t, const CriticalPath& p) {
    std::vector<std::string> names;
    for (SliceRef s : p.events) names.emplace_back(t.str(t.tracks[s.track].slices.name[s.index]));
    return names;
}

TimeNs cat(const CriticalPath& p, CpCategory c) { return p.byCategory[size_t(c)]; }

}  // namespace

class TestCriticalPath : public QObject {
    Q_OBJECT

private slots:
    // Launch-bound: op [0,100] launches K1..K3 (5 µs each) from L1 [10,20], L2 [40,50], L3 [70,80].
    // Each kernel runs on an idle stream: launch edge Ln.begin -> Kn.begin (15 µs). The host chain
    // op.b -> L1.b (10) -> L1.e (10) -> L2.b (20) -> ... -> op.e is 100 µs; the longest route via a
    // kernel is op.b -> L3.b (70) + 15 + 5 = 90. Path: the host chain, 100 µs: cpu_op 10+20+20+20 =
    // 70 µs, runtime 3 x 10 = 30 µs; events op, L1, L2, L3.
    void launchBound() {
        TraceFile f({step(0, 100), op("aten::op", 0, 100), runtime("cudaLaunchKernel", 10, 10, 1),
                     runtime("cudaLaunchKernel", 40, 10, 2), runtime("cudaLaunchKernel", 70, 10, 3),
                     kernel("k1", 25, 5, 1), kernel("k2", 55, 5, 2), kernel("k3", 85, 5, 3)});
        const std::shared_ptr<ResultStore> store = ResultStore::of(f.load());
        const CriticalPathResult r = *criticalPathsOf(*store);
        QCOMPARE(r.paths.size(), size_t(1));
        const CriticalPath& p = r.paths[0];
        QVERIFY(!p.wholeTrace);
        QCOMPARE(p.lengthNs, TimeNs(100000));
        QCOMPARE(cat(p, CpCategory::CpuOp), TimeNs(70000));
        QCOMPARE(cat(p, CpCategory::Runtime), TimeNs(30000));
        QCOMPARE(cat(p, CpCategory::Kernel), TimeNs(0));
        QCOMPARE(p.cpuBoundNs, TimeNs(100000));
        const std::vector<std::string> want = {"aten::op", "cudaLaunchKernel", "cudaLaunchKernel", "cudaLaunchKernel"};
        QCOMPARE(eventNames(store->trace(), p), want);
        QCOMPARE(p.hostEvents, uint64_t(4));
        QCOMPARE(p.deviceActivities, uint64_t(3));
        QCOMPARE(p.graphNodes, uint64_t(14));
        QCOMPARE(p.topContributors.front().name, std::string("aten::op"));
        QCOMPARE(p.topContributors.front().ns, TimeNs(70000));
    }

    // Kernel-bound: op [0,40] launches from L1 [5,10], L2 [15,20], L3 [25,30] three 100 µs kernels
    // back to back at 12, 112, 212. K1: idle stream, launch edge L1.b (5) -> K1.b (12) = 7 µs. K2,
    // K3: the stream is busy at their launch, kernel-kernel edges of 0 µs. Path: op.b -> L1.b (5,
    // cpu_op) -> K1.b (7, launch delay) -> K1 -> K2 -> K3 (300, kernel) = 312 µs.
    void kernelBound() {
        TraceFile f({step(0, 40), op("aten::op", 0, 40), runtime("cudaLaunchKernel", 5, 5, 1),
                     runtime("cudaLaunchKernel", 15, 5, 2), runtime("cudaLaunchKernel", 25, 5, 3),
                     kernel("k1", 12, 100, 1), kernel("k2", 112, 100, 2), kernel("k3", 212, 100, 3)});
        const std::shared_ptr<ResultStore> store = ResultStore::of(f.load());
        const CriticalPath p = criticalPathsOf(*store)->paths.at(0);
        QCOMPARE(p.lengthNs, TimeNs(312000));
        QCOMPARE(cat(p, CpCategory::CpuOp), TimeNs(5000));
        QCOMPARE(cat(p, CpCategory::LaunchDelay), TimeNs(7000));
        QCOMPARE(cat(p, CpCategory::Kernel), TimeNs(300000));
        QCOMPARE(cat(p, CpCategory::KernelGap), TimeNs(0));
        QCOMPARE(p.kernelLaunchOverheadNs, TimeNs(7000));
        QCOMPARE(p.gpuComputeBoundNs, TimeNs(300000));
        const std::vector<std::string> want = {"aten::op", "cudaLaunchKernel", "k1", "k2", "k3"};
        QCOMPARE(eventNames(store->trace(), p), want);
        // The path's edges: operator, launch delay, k1, kernel-kernel, k2, kernel-kernel, k3.
        QCOMPARE(p.edges.size(), size_t(7));
        QCOMPARE(p.edges[1].type, CpEdgeType::LaunchDelay);
        QCOMPARE(p.edges[3].type, CpEdgeType::KernelKernelDelay);
    }

    // A sync that blocks on a long kernel: op [0,10] launches (L1 [2,5]) K1 [6,206];
    // cudaDeviceSynchronize [10,210] waits for it; then aten::add [212,222] launches (L2 [214,217])
    // K2 [218,220]. The sync's own span weighs 0 (HTA's blocking calls); K1's end -> the sync's end
    // (0). Path: op.b -> L1.b (2, cpu_op) -> K1.b (4, launch delay) -> K1.e (200) -> sync.e ->
    // add.b (dependency) -> L2.b (2, cpu_op) -> L2.e (3, runtime) -> add.e (5, cpu_op) = 216 µs (via
    // K2 instead: L2.b + 4 + 2 = 6 < 3 + 5). Without cuda_sync records the edge is inferred; with a
    // Context Sync record it comes from the record, the same path.
    void syncOnLongKernel_data() {
        QTest::addColumn<bool>("withRecord");
        QTest::newRow("inferred") << false;
        QTest::newRow("record") << true;
    }
    void syncOnLongKernel() {
        QFETCH(bool, withRecord);
        std::vector<Ev> events = {step(0, 222),
                                  op("aten::op", 0, 10),
                                  runtime("cudaLaunchKernel", 2, 3, 1),
                                  kernel("k1", 6, 200, 1),
                                  runtime("cudaDeviceSynchronize", 10, 200, 2),
                                  op("aten::add", 212, 10),
                                  runtime("cudaLaunchKernel", 214, 3, 3),
                                  kernel("k2", 218, 2, 3)};
        if (withRecord)
            events.push_back({"cuda_sync", "Context Sync", 0, 7, 209, 1,
                              "\"cuda_sync_kind\":\"Context Sync\",\"stream\":-1,\"correlation\":2,\"device\":0"});
        TraceFile f(events);
        const std::shared_ptr<ResultStore> store = ResultStore::of(f.load());
        const CriticalPathResult r = *criticalPathsOf(*store);
        const CriticalPath& p = r.paths.at(0);
        QCOMPARE(p.lengthNs, TimeNs(216000));
        QCOMPARE(cat(p, CpCategory::CpuOp), TimeNs(9000));
        QCOMPARE(cat(p, CpCategory::LaunchDelay), TimeNs(4000));
        QCOMPARE(cat(p, CpCategory::Kernel), TimeNs(200000));
        QCOMPARE(cat(p, CpCategory::Runtime), TimeNs(3000));
        const std::vector<std::string> want = {"aten::op",  "cudaLaunchKernel", "k1", "cudaDeviceSynchronize",
                                               "aten::add", "cudaLaunchKernel"};
        QCOMPARE(eventNames(store->trace(), p), want);
        QCOMPARE(p.syncEdgesFromRecords, uint64_t(withRecord ? 1 : 0));
        QCOMPARE(p.syncEdgesInferred, uint64_t(withRecord ? 0 : 1));
        QCOMPARE(r.syncRecords, uint64_t(withRecord ? 1 : 0));
    }

    // A CUDA graph: op [0,20] calls cudaGraphLaunch [5,15] (correlation 1), whose three kernels run
    // at 20, 52 and 84 (30 µs each) on stream 7, all naming correlation 1 (Kineto gives each graph
    // kernel its launch's correlation; one ac2g flow pair). cudaStreamSynchronize [20,120] waits for
    // the last (it ends at 114), then aten::add [121,131]. Path: op.b -> GL.b (5, cpu_op) -> G1.b
    // (15, launch delay) -> G1 (30) -> G2.b (2, gap) -> G2 (30) -> G3.b (2) -> G3 (30) -> sync.e ->
    // add.b -> add.e (10, cpu_op) = 124 µs. HTA finds no launch edge for G1 and no sync edge: its
    // path would be the three kernels alone, 94 µs, cut off from the host (HolisticTraceAnalysis#290).
    void cudaGraphLaunch() {
        TraceFile f(
            {step(0, 131), op("aten::graph_replay", 0, 20), runtime("cudaGraphLaunch", 5, 10, 1),
             kernel("g1", 20, 30, 1), kernel("g2", 52, 30, 1), kernel("g3", 84, 30, 1),
             runtime("cudaStreamSynchronize", 20, 100, 2), op("aten::add", 121, 10)},
            ",{\"ph\":\"s\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":5,\"cat\":\"ac2g\",\"name\":\"ac2g\"}"
            ",{\"ph\":\"f\",\"id\":1,\"pid\":0,\"tid\":7,\"ts\":20,\"cat\":\"ac2g\",\"name\":\"ac2g\",\"bp\":\"e\"}");
        const std::shared_ptr<ResultStore> store = ResultStore::of(f.load());
        const CriticalPath p = criticalPathsOf(*store)->paths.at(0);
        QCOMPARE(p.graphLaunchedActivities, uint64_t(3));
        QCOMPARE(p.lengthNs, TimeNs(124000));
        QCOMPARE(cat(p, CpCategory::CpuOp), TimeNs(15000));
        QCOMPARE(cat(p, CpCategory::LaunchDelay), TimeNs(15000));
        QCOMPARE(cat(p, CpCategory::Kernel), TimeNs(90000));
        QCOMPARE(cat(p, CpCategory::KernelGap), TimeNs(4000));
        const std::vector<std::string> want = {"aten::graph_replay",    "cudaGraphLaunch", "g1", "g2", "g3",
                                               "cudaStreamSynchronize", "aten::add"};
        QCOMPARE(eventNames(store->trace(), p), want);
        // HTA's rules alone: no launch edge for g1, no sync edge; the longest path is the three
        // kernels, 30 + 2 + 30 + 2 + 30 = 94 µs, cut off from the host (the host chain is 20 + 0 + 10).
        CriticalPathOptions hta;
        hta.htaRules = true;
        const CriticalPath h = criticalPathsOf(*store, hta)->paths.at(0);
        QCOMPARE(h.lengthNs, TimeNs(94000));
        const std::vector<std::string> kernelsOnly = {"g1", "g2", "g3"};
        QCOMPARE(eventNames(store->trace(), h), kernelsOnly);
        QCOMPARE(store->computations("critical-path"), uint64_t(2));
    }

    // Event-based syncs from cuda_sync records (HTA's rules): op [0,50] launches K1 on stream 7
    // (L1 [2,4], K1 [5,105]), records an event on stream 7 (cudaEventRecord [6,7], correlation 2),
    // makes stream 8 wait for it (cudaStreamWaitEvent [8,9]) and launches K2 on stream 8 (L2
    // [10,12], K2 [106,116]); then cudaEventSynchronize [60,110] waits for the event and aten::add
    // [111,131] follows. The Stream Wait Event record: K1 (the last launch onto stream 7 before the
    // record call) -> K2 (the next launch onto stream 8 from the thread), so K2 gets no launch edge
    // (its source ended after the launch). The Event Sync record: K1's end -> the sync's end. Path:
    // op.b -> L1.b (2) -> K1.b (3, launch delay) -> K1 (100) -> sync.e -> add.b -> add.e (20) = 125
    // us; via K2: 105 + 10 = 115; the host alone 50 + 20 = 70.
    void eventSyncRecords() {
        auto record = [](const char* kind, int stream, int corr, int waitStream, int recordCorr, double ts) {
            return Ev{"cuda_sync",
                      kind,
                      0,
                      stream,
                      ts,
                      0.5,
                      std::string("\"cuda_sync_kind\":\"") + kind + "\",\"stream\":" + std::to_string(stream) +
                          ",\"correlation\":" + std::to_string(corr) +
                          ",\"wait_on_stream\":" + std::to_string(waitStream) +
                          ",\"wait_on_cuda_event_record_corr_id\":" + std::to_string(recordCorr) + ",\"device\":0"};
        };
        Ev k2 = kernel("k2", 106, 10, 4);
        k2.tid = 8;
        k2.args = "\"correlation\":4,\"stream\":8,\"device\":0";
        TraceFile f({step(0, 131), op("aten::op", 0, 50), runtime("cudaLaunchKernel", 2, 2, 1), kernel("k1", 5, 100, 1),
                     runtime("cudaEventRecord", 6, 1, 2), runtime("cudaStreamWaitEvent", 8, 1, 3),
                     runtime("cudaLaunchKernel", 10, 2, 4), k2, record("Stream Wait Event", 8, 3, 7, 2, 8.5),
                     runtime("cudaEventSynchronize", 60, 50, 5), record("Event Sync", 7, 5, 7, 2, 109),
                     op("aten::add", 111, 20)});
        const std::shared_ptr<ResultStore> store = ResultStore::of(f.load());
        const CriticalPath p = criticalPathsOf(*store)->paths.at(0);
        QCOMPARE(p.lengthNs, TimeNs(125000));
        QCOMPARE(p.syncEdgesFromRecords, uint64_t(2));
        QCOMPARE(p.syncEdgesInferred, uint64_t(0));
        const std::vector<std::string> want = {"aten::op", "cudaLaunchKernel", "k1", "cudaEventSynchronize",
                                               "aten::add"};
        QCOMPARE(eventNames(store->trace(), p), want);
        QCOMPARE(cat(p, CpCategory::Kernel), TimeNs(100000));
        QCOMPARE(cat(p, CpCategory::CpuOp), TimeNs(22000));
    }

    // Linear cost: 10x the events (ops, launches, kernels, a sync and a step marker per 100 ops)
    // costs about 10x the time, not 100x (the analysis alone, after import; as tst_linear_cost).
    void linearCost() {
        auto make = [](int n) {
            std::vector<Ev> events;
            events.reserve(size_t(n) * 3 + size_t(n) / 50);
            for (int i = 0; i < n; ++i) {
                const double t = i * 10.0;
                if (i % 100 == 0) events.push_back(step(t, 1000, i / 100 + 1));
                events.push_back(op("aten::op", t, 8));
                events.push_back(runtime("cudaLaunchKernel", t + 1, 2, i + 1));
                events.push_back(kernel("k", t + 4, i % 100 == 99 ? 20 : 5, i + 1));
                if (i % 100 == 99) events.push_back(runtime("cudaDeviceSynchronize", t + 9, 16, 0));
            }
            return events;
        };
        double seconds[2] = {0, 0};
        const int sizes[2] = {10000, 100000};
        for (int k = 0; k < 2; ++k) {
            TraceFile f(make(sizes[k]));
            const std::shared_ptr<const Trace> trace = f.load();
            const ClassifiedTrace ct = classifyTrace(*trace);
            const StepsResult steps = findSteps(ct);
            QCOMPARE(steps.steps.size(), size_t(sizes[k] / 100));
            QElapsedTimer timer;
            timer.start();
            const CriticalPathResult r = computeCriticalPaths(ct, steps);
            seconds[k] = double(timer.nsecsElapsed()) / 1e9;
            QCOMPARE(r.paths.size(), steps.steps.size());
            // Each step: the last kernel (20 us) ends at 9.9 ms + 24 us into it, joined to the sync.
            QCOMPARE(r.paths[1].syncEdgesInferred, uint64_t(1));
        }
        const double ratio = seconds[1] / std::max(seconds[0], 0.01);
        qInfo("critical path: %d loops in %.3f s, %d in %.3f s (ratio %.1f)", sizes[0], seconds[0], sizes[1],
              seconds[1], ratio);
        QVERIFY2(ratio < 25, qPrintable(QString::number(ratio)));
    }

    // Bad input: a kernel that starts before its launch (clock skew) weighs 0 on its launch edge
    // and is counted; a kernel without any correlation is left out and counted; a trace with no
    // steps and no device work gives one whole-trace path of its host ops.
    void badInput() {
        TraceFile f({step(0, 50),
                     op("aten::op", 0, 50),
                     runtime("cudaLaunchKernel", 10, 5, 1),
                     kernel("early", 8, 4, 1),
                     {"kernel", "orphan", 0, 7, 30, 5, "\"stream\":7"}});
        const CriticalPathResult r = pathsOf(f);
        QCOMPARE(r.deviceWithoutLaunch, uint64_t(1));
        QCOMPARE(r.paths.at(0).negativeEdgesClamped, uint64_t(1));
        QCOMPARE(r.paths.at(0).lengthNs, TimeNs(50000));  // the op's host chain: 10 + 5 + 35
        TraceFile cpuOnly({op("aten::a", 0, 10), op("aten::b", 20, 5)});
        const CriticalPathResult c = pathsOf(cpuOnly);
        QCOMPARE(c.paths.size(), size_t(1));
        QVERIFY(c.paths[0].wholeTrace);
        // a (10) -> dependency -> b (5): 15 µs.
        QCOMPARE(c.paths[0].lengthNs, TimeNs(15000));
        TraceFile empty({});
        QCOMPARE(pathsOf(empty).paths.at(0).lengthNs, TimeNs(0));
    }
};

QTEST_GUILESS_MAIN(TestCriticalPath)
#include "tst_critical_path.moc"
