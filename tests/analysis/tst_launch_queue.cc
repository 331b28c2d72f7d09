// Kernel launch statistics and queue length per stream (model/analysis/launch_stats.h,
// queue_length.h) on hand-built Kineto traces: every expected number is worked out by hand in the
// comment beside it, following HTA 0.5.0's definitions.
#include "model/analysis/kernel_stats.h"
#include "model/analysis/launch_stats.h"
#include "model/analysis/queue_length.h"
#include "model/results/launch_queue_results.h"
#include "model/results/trace_results.h"
#include "model/trace/trace_builder.h"

#include <QtTest>

#include <cmath>
#include <ctime>

using namespace tracescope;

namespace {

// Sanitizer builds run the cost test ten times smaller (they are ~10x slower; the ratio still shows).
#if defined(__SANITIZE_ADDRESS__)
constexpr int kCostScale = 10;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr int kCostScale = 10;
#else
constexpr int kCostScale = 1;
#endif
#else
constexpr int kCostScale = 1;
#endif

ArgsWriter correlation(TraceBuilder& b, int64_t id) {
    ArgsWriter w;
    w.add(b.intern("correlation"), ArgValue::integer(id));
    return w;
}

// Host thread (ns):
//  L1 cudaLaunchKernel [0, 10000) c1       -> kernel K1, stream 7, [5000, 25000)
//  L2 cudaLaunchKernel [20000, 80000) c2   -> kernel K2, stream 7, [200000, 201000)
//  L3 cudaMemcpyAsync [90000, 140000) c3   -> memcpy, stream 7, [201000, 231000)
//  L4 cudaGraphLaunch [150000, 155000) c4  -> kernel K4, stream 7, [240000, 241000)
//  L6 cuLaunchKernel [160000, 260000) c6   -> kernel K6, stream 9, [260000, 260100)
//  kernel K5, stream 7, [300000, 300100), correlation 99: no call in the trace.
std::shared_ptr<const Trace> handBuilt() {
    TraceBuilder b("chrome-json");
    const auto host = b.addProcess(ProcessKind::Host, 1, "python3");
    const auto dev = b.addProcess(ProcessKind::Device, 0, "GPU 0");
    const auto ht = b.addTrack(host, TrackKind::Thread, "main", 1);
    const auto s7 = b.addTrack(dev, TrackKind::Thread, "stream 7", 7);
    const auto s9 = b.addTrack(dev, TrackKind::Thread, "stream 9", 9);
    const StringId rt = b.intern("cuda_runtime"), drv = b.intern("cuda_driver"), kernel = b.intern("kernel");
    b.addSlice(ht, 0, 10000, b.intern("cudaLaunchKernel"), rt, correlation(b, 1));
    b.addSlice(ht, 20000, 60000, b.intern("cudaLaunchKernel"), rt, correlation(b, 2));
    b.addSlice(ht, 90000, 50000, b.intern("cudaMemcpyAsync"), rt, correlation(b, 3));
    b.addSlice(ht, 150000, 5000, b.intern("cudaGraphLaunch"), rt, correlation(b, 4));
    b.addSlice(ht, 160000, 100000, b.intern("cuLaunchKernel"), drv, correlation(b, 6));
    b.addSlice(s7, 5000, 20000, b.intern("K1"), kernel, correlation(b, 1));
    b.addSlice(s7, 200000, 1000, b.intern("K2"), kernel, correlation(b, 2));
    b.addSlice(s7, 201000, 30000, b.intern("Memcpy HtoD (Pinned -> Device)"), b.intern("gpu_memcpy"),
               correlation(b, 3));
    b.addSlice(s7, 240000, 1000, b.intern("K4"), kernel, correlation(b, 4));
    b.addSlice(s7, 300000, 100, b.intern("K5"), kernel, correlation(b, 99));
    b.addSlice(s9, 260000, 100, b.intern("K6"), kernel, correlation(b, 6));
    return b.finish();
}

const QueueLengthStream* streamOf(const QueueLengthResult& q, int64_t stream) {
    for (const QueueLengthStream& s : q.streams)
        if (s.stream == stream) return &s;
    return nullptr;
}

}  // namespace

class TestLaunchQueue : public QObject {
    Q_OBJECT

private slots:
    void launchStats() {
        std::shared_ptr<ResultStore> store = ResultStore::of(handBuilt());
        const std::shared_ptr<const LaunchStats> held = launchStatsOf(*store);
        QCOMPARE(launchStatsOf(*store).get(), held.get());  // one result, computed once
        QCOMPARE(store->computations("launch-stats"), uint64_t(1));
        const LaunchStats& s = *held;
        // Launches L1, L2, L3, L6 (cuLaunchKernel counts by default); L4 is a graph launch, K5 has no call.
        QCOMPARE(s.rows.size(), size_t(4));
        QCOMPARE(s.activities, uint64_t(6));
        QCOMPARE(s.withoutCall, uint64_t(1));
        QCOMPARE(s.otherCalls.at("cudaGraphLaunch"), uint64_t(1));
        QCOMPARE(s.byCall.at("cudaLaunchKernel"), uint64_t(2));
        QCOMPARE(s.byCall.at("cudaMemcpyAsync"), uint64_t(1));
        QCOMPARE(s.byCall.at("cuLaunchKernel"), uint64_t(1));
        // Delays: L1 5000 - 10000 < 0 -> 0; L2 200000 - 80000 = 120000; L3 201000 - 140000 = 61000;
        // L6 260000 - 260000 = 0. Sorted {0, 0, 61000, 120000}: mean 45250, median 30500,
        // p95 at rank 2.85: 61000 + 0.85 * 59000 = 111150.
        QCOMPARE(s.launchDelay.stats.mean, int64_t(45250));
        QCOMPARE(s.launchDelay.stats.median, int64_t(30500));
        QCOMPARE(s.launchDelay.p95, int64_t(111150));
        QCOMPARE(s.launchDelay.stats.max, int64_t(120000));
        QCOMPARE(s.startedBeforeCallEnd, uint64_t(1));
        QCOMPARE(s.startedBeforeCall, uint64_t(0));
        // Runtime {10000, 50000, 60000, 100000}: mean 55000, median 55000, p95 60000 + 0.85 * 40000.
        QCOMPARE(s.runtime.stats.mean, int64_t(55000));
        QCOMPARE(s.runtime.stats.median, int64_t(55000));
        QCOMPARE(s.runtime.p95, int64_t(94000));
        // Kernel {100, 1000, 20000, 30000}: mean 12775, median 10500, p95 20000 + 0.85 * 10000.
        QCOMPARE(s.kernel.stats.mean, int64_t(12775));
        QCOMPARE(s.kernel.stats.median, int64_t(10500));
        QCOMPARE(s.kernel.p95, int64_t(28500));
        // Outliers: L3's copy (30000 < 50000, the call exactly at the 50 us cut-off) is short; L2
        // (60000) and L6 (100000) are long calls (L2 is not short: its call is past the cut-off);
        // L2's delay 120000 > 100000.
        QCOMPARE(s.shortKernels, uint64_t(1));
        QCOMPARE(s.longRuntime, uint64_t(2));
        QCOMPARE(s.longLaunchDelay, uint64_t(1));
        // Histogram: 0, 0 in bin 0; 61000 in [2^15, 2^16): bin 16; 120000 in [2^16, 2^17): bin 17.
        QCOMPARE(s.launchDelay.log2Bins.size(), size_t(18));
        QCOMPARE(s.launchDelay.log2Bins[0], uint64_t(2));
        QCOMPARE(s.launchDelay.log2Bins[16], uint64_t(1));
        QCOMPARE(s.launchDelay.log2Bins[17], uint64_t(1));
    }

    void htaCallsOnly() {
        std::shared_ptr<ResultStore> store = ResultStore::of(handBuilt());
        LaunchStatsOptions o;
        o.htaCallsOnly = true;
        const std::shared_ptr<const LaunchStats> held = launchStatsOf(*store, o);
        const LaunchStats& s = *held;
        // HTA's launch statistics leave cuLaunchKernel out: L1, L2, L3. Delays {0, 61000, 120000}:
        // mean 60333.3 -> 60333, median 61000, p95 at rank 1.9: 61000 + 0.9 * 59000 = 114100.
        QCOMPARE(s.rows.size(), size_t(3));
        QCOMPARE(s.otherCalls.at("cuLaunchKernel"), uint64_t(1));
        QCOMPARE(s.launchDelay.stats.mean, int64_t(60333));
        QCOMPARE(s.launchDelay.stats.median, int64_t(61000));
        QCOMPARE(s.launchDelay.p95, int64_t(114100));
        QCOMPARE(s.longRuntime, uint64_t(1));
        QVERIFY(launchStatsOf(*store).get() != launchStatsOf(*store, o).get());  // one result per options
    }

    void queueLengthAsDerivedTracks() {
        // One counter track per stream with launches, under its device, holding the same steps.
        std::shared_ptr<ResultStore> store = ResultStore::of(handBuilt());
        const QueueLengthResult& q = *queueLengthOf(*store);
        const std::vector<DerivedCounterTrack> tracks = queueLengthCounterTracks(store->trace(), q);
        QCOMPARE(tracks.size(), q.streams.size());
        for (size_t i = 0; i < tracks.size(); ++i) {
            const QueueLengthStream& s = q.streams[i];
            QCOMPARE(tracks[i].source, DerivedSource::QueueLength);
            QCOMPARE(tracks[i].name, "Queue length · stream " + std::to_string(s.stream));
            QCOMPARE(tracks[i].process, store->trace().tracks[s.track].process);
            QCOMPARE(tracks[i].series.time, s.time);
            QCOMPARE(tracks[i].series.value, std::vector<double>(s.value.begin(), s.value.end()));
        }
    }

    void queueLength() {
        std::shared_ptr<ResultStore> store = ResultStore::of(handBuilt());
        const std::shared_ptr<const QueueLengthResult> held = queueLengthOf(*store);
        const QueueLengthResult& q = *held;
        QCOMPARE(q.streams.size(), size_t(2));
        QCOMPARE(q.launches, uint64_t(4));
        // Stream 7: +1 at 0, -1 at 5000, +1 at 20000, +1 at 90000, -1 at 200000, -1 at 201000.
        const QueueLengthStream* s7 = streamOf(q, 7);
        QVERIFY(s7);
        QCOMPARE(s7->device, int64_t(0));
        QCOMPARE(s7->launches, uint64_t(3));
        QCOMPARE(s7->time, (std::vector<TimeNs>{0, 5000, 20000, 90000, 200000, 201000}));
        QCOMPARE(s7->value, (std::vector<int32_t>{1, 0, 1, 2, 1, 0}));
        // Samples {1, 0, 1, 2, 1, 0}: mean 5/6; sorted {0, 0, 1, 1, 1, 2}: p25 at rank 1.25 = 0.25,
        // median 1, p75 at rank 3.75 = 1; std sqrt((3/36 + 50/36 + 49/36) / 5) = sqrt(17/30).
        QCOMPARE(s7->samples, uint64_t(6));
        QVERIFY(std::abs(s7->mean - 5.0 / 6) < 1e-12);
        QVERIFY(std::abs(s7->std - std::sqrt(17.0 / 30)) < 1e-12);
        QCOMPARE(s7->min, 0.0);
        QCOMPARE(s7->p25, 0.25);
        QCOMPARE(s7->median, 1.0);
        QCOMPARE(s7->p75, 1.0);
        QCOMPARE(s7->max, 2.0);
        // Time-weighted: (1 * 5000 + 1 * 70000 + 2 * 110000 + 1 * 1000) / 201000.
        QVERIFY(std::abs(s7->timeWeightedMean - 296000.0 / 201000) < 1e-12);
        QCOMPARE(s7->timeAtLimitNs, int64_t(0));  // never at 1024
        // Stream 9: the cuLaunchKernel (HTA's queue takes it): 1 from 160000 to 260000.
        const QueueLengthStream* s9 = streamOf(q, 9);
        QVERIFY(s9);
        QCOMPARE(s9->mean, 0.5);
        QCOMPARE(s9->timeWeightedMean, 1.0);

        // At a limit of 2: stream 7 is at 2 from 90000 to 200000; at 1: 5000 + 70000 + 110000 + 1000.
        QueueLengthOptions two, one;
        two.limit = 2;
        one.limit = 1;
        QCOMPARE(streamOf(*queueLengthOf(*store, two), 7)->timeAtLimitNs, int64_t(110000));
        QCOMPARE(streamOf(*queueLengthOf(*store, one), 7)->timeAtLimitNs, int64_t(186000));
        QCOMPARE(streamOf(*queueLengthOf(*store, one), 9)->timeAtLimitNs, int64_t(100000));
    }

    // Launches and starts at the same time: launches count first, and the series keeps one point
    // per time with the value after all of them.
    void ties() {
        TraceBuilder b("chrome-json");
        const auto host = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto dev = b.addProcess(ProcessKind::Device, 0, "GPU 0");
        const auto ht = b.addTrack(host, TrackKind::Thread, "main", 1);
        const auto st = b.addTrack(dev, TrackKind::Thread, "stream 7", 7);
        const StringId rt = b.intern("cuda_runtime"), kernel = b.intern("kernel");
        b.addSlice(ht, 0, 10, b.intern("cudaLaunchKernel"), rt, correlation(b, 1));
        b.addSlice(ht, 100, 10, b.intern("cudaLaunchKernel"), rt, correlation(b, 2));
        b.addSlice(st, 100, 50, b.intern("A"), kernel, correlation(b, 1));
        b.addSlice(st, 150, 50, b.intern("B"), kernel, correlation(b, 2));
        std::shared_ptr<ResultStore> store = ResultStore::of(b.finish());
        const std::shared_ptr<const QueueLengthResult> held = queueLengthOf(*store);
        const QueueLengthResult& q = *held;
        QCOMPARE(q.streams.size(), size_t(1));
        // Samples: 1 at 0; at 100 launch then start: 2, 1; at 150: 0.
        QCOMPARE(q.streams[0].samples, uint64_t(4));
        QCOMPARE(q.streams[0].max, 2.0);
        QCOMPARE(q.streams[0].time, (std::vector<TimeNs>{0, 100, 150}));
        QCOMPARE(q.streams[0].value, (std::vector<int32_t>{1, 1, 0}));
    }

    // The cost is linear: n and 10 n launches (8 streams, queues building up) take about ten times as
    // long, never a hundred. CPU time of the analyses alone, printed beside kernel stats on the same trace.
    void linearCost() {
        struct Times {
            double launch = -1, queue = -1, kernelStats = -1;
        };
        auto seconds = [](int n) {
            TraceBuilder b("chrome-json");
            const auto host = b.addProcess(ProcessKind::Host, 1, "python3");
            const auto dev = b.addProcess(ProcessKind::Device, 0, "GPU 0");
            const auto ht = b.addTrack(host, TrackKind::Thread, "main", 1);
            std::vector<TrackIndex> streams;
            for (int s = 0; s < 8; ++s) streams.push_back(b.addTrack(dev, TrackKind::Thread, "stream", 10 + s));
            const StringId rt = b.intern("cuda_runtime"), kernel = b.intern("kernel"), name = b.intern("gemm"),
                           launch = b.intern("cudaLaunchKernel");
            for (int i = 0; i < n; ++i) {
                b.addSlice(ht, TimeNs(i) * 10, 5, launch, rt, correlation(b, i));
                // Kernels run at 80 ns per stream: the queues grow.
                b.addSlice(streams[i % 8], TimeNs(i / 8) * 80 + 1000, 70, name, kernel, correlation(b, i));
            }
            std::shared_ptr<const Trace> trace = b.finish();
            const ClassifiedTrace ct = classifyTrace(*trace);
            const std::clock_t c0 = std::clock();
            const LaunchStats l = computeLaunchStats(ct);
            const std::clock_t c1 = std::clock();
            const QueueLengthResult q = computeQueueLength(ct);
            const std::clock_t c2 = std::clock();
            const KernelStatsResult k = computeKernelStats(ct);
            const std::clock_t c3 = std::clock();
            Times t;
            if (l.rows.size() != size_t(n) || q.streams.size() != 8 || k.rows.empty()) return t;
            t.launch = double(c1 - c0) / CLOCKS_PER_SEC;
            t.queue = double(c2 - c1) / CLOCKS_PER_SEC;
            t.kernelStats = double(c3 - c2) / CLOCKS_PER_SEC;
            return t;
        };
        const int n = 50000 / kCostScale;
        const Times small = seconds(n), large = seconds(10 * n);
        QVERIFY(small.launch >= 0 && large.launch >= 0);
        const double ratio = (large.launch + large.queue) / std::max(small.launch + small.queue, 0.01);
        qInfo(
            "%d launches: launch-stats %.3f s, queue %.3f s; %d: %.3f s, %.3f s (ratio %.1f); kernel stats "
            "%.3f s (launch-stats x%.2f, queue x%.2f)",
            n, small.launch, small.queue, 10 * n, large.launch, large.queue, ratio, large.kernelStats,
            large.launch / std::max(large.kernelStats, 1e-6), large.queue / std::max(large.kernelStats, 1e-6));
        QVERIFY2(ratio < 25, qPrintable(QString::number(ratio)));
    }

    // Hostile times: a launch and its kernel at the builder's limits (+-4e18 ns): the delay, the
    // queue's span and time at the limit fit, nothing wraps.
    void hostileTimes() {
        TraceBuilder b("chrome-json");
        const auto host = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto dev = b.addProcess(ProcessKind::Device, 0, "GPU 0");
        const auto ht = b.addTrack(host, TrackKind::Thread, "main", 1);
        const auto st = b.addTrack(dev, TrackKind::Thread, "stream 7", 7);
        const TimeNs edge = TraceBuilder::kMaxTimeNs;
        b.addSlice(ht, -edge, 10, b.intern("cudaLaunchKernel"), b.intern("cuda_runtime"), correlation(b, 1));
        b.addSlice(st, edge - 10, 10, b.intern("k"), b.intern("kernel"), correlation(b, 1));
        std::shared_ptr<ResultStore> store = ResultStore::of(b.finish());
        const std::shared_ptr<const LaunchStats> l = launchStatsOf(*store);
        QCOMPARE(l->rows.size(), size_t(1));
        QCOMPARE(l->launchDelay.stats.max, 2 * edge - 20);
        QueueLengthOptions one;
        one.limit = 1;
        const std::shared_ptr<const QueueLengthResult> q = queueLengthOf(*store, one);
        QCOMPARE(q->streams.size(), size_t(1));
        QCOMPARE(q->streams[0].timeAtLimitNs, 2 * edge - 10);
        QCOMPARE(q->streams[0].timeWeightedMean, 1.0);
    }

    // A CPU-only trace and one without correlation: empty results with notes, no crash.
    void missingData() {
        TraceBuilder b("chrome-json");
        const auto host = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto ht = b.addTrack(host, TrackKind::Thread, "main", 1);
        b.addSlice(ht, 0, 10, b.intern("aten::add"), b.intern("cpu_op"));
        std::shared_ptr<ResultStore> cpu = ResultStore::of(b.finish());
        QVERIFY(launchStatsOf(*cpu)->rows.empty());
        QVERIFY(!launchStatsOf(*cpu)->notes.empty());
        QVERIFY(queueLengthOf(*cpu)->streams.empty());
        QVERIFY(!queueLengthOf(*cpu)->notes.empty());

        TraceBuilder c("chrome-json");
        const auto h2 = c.addProcess(ProcessKind::Host, 1, "python3");
        const auto d2 = c.addProcess(ProcessKind::Device, 0, "GPU 0");
        c.addSlice(c.addTrack(h2, TrackKind::Thread, "main", 1), 0, 10, c.intern("cudaLaunchKernel"),
                   c.intern("cuda_runtime"));
        c.addSlice(c.addTrack(d2, TrackKind::Thread, "stream 7", 7), 20, 10, c.intern("K"), c.intern("kernel"));
        std::shared_ptr<ResultStore> cut = ResultStore::of(c.finish());
        const std::shared_ptr<const LaunchStats> held = launchStatsOf(*cut);
        const LaunchStats& s = *held;
        QVERIFY(s.rows.empty());
        QCOMPARE(s.activities, uint64_t(1));
        QCOMPARE(s.withoutCall, uint64_t(1));
        QCOMPARE(s.launchDelay.stats.count, uint64_t(0));
        QVERIFY(queueLengthOf(*cut)->streams.empty());
    }
};

QTEST_GUILESS_MAIN(TestLaunchQueue)
#include "tst_launch_queue.moc"
