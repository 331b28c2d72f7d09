// HTA's temporal and idle-time breakdowns (model/analysis/gpu_utilization.h) on hand-built traces:
// every expected number is worked out by hand in the comment beside it.
#include "model/analysis/gpu_utilization.h"
#include "model/analysis/kernel_stats.h"
#include "model/query/idle_gap_index.h"
#include "model/results/gpu_util_results.h"
#include "model/trace/trace_builder.h"

#include <QtTest>

#include <algorithm>
#include <ctime>
#include <limits>

using namespace tracescope;

namespace {

ArgsWriter deviceArgs(TraceBuilder& b, int64_t correlation, int64_t stream) {
    ArgsWriter w;
    if (correlation >= 0) w.add(b.intern("correlation"), ArgValue::integer(correlation));
    w.add(b.intern("device"), ArgValue::integer(0));
    w.add(b.intern("stream"), ArgValue::integer(stream));
    return w;
}

ArgsWriter correlation(TraceBuilder& b, int64_t id) {
    ArgsWriter w;
    w.add(b.intern("correlation"), ArgValue::integer(id));
    return w;
}

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

const StreamIdle* findStream(const GpuUtilization& g, int64_t id) {
    for (const StreamIdle& s : g.streams)
        if (s.stream == id) return &s;
    return nullptr;
}

}  // namespace

class TestGpuUtilization : public QObject {
    Q_OBJECT

private slots:
    // HTA's name rule (hta/utils/utils.py: get_kernel_type, is_compute_kernel).
    void computeNames() {
        QVERIFY(isComputeKernelName("void gemm_kernel<float>(float*)"));
        QVERIFY(!isComputeKernelName("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)"));
        QVERIFY(!isComputeKernelName("ncclKernel_AllGather_RING_LL_Sum_int8_t"));
        QVERIFY(isComputeKernelName("ncclHelper"));  // ^nccl.*Kernel needs "Kernel" after "nccl"
        QVERIFY(!isComputeKernelName("Memcpy HtoD (Pageable -> Device)"));
        QVERIFY(!isComputeKernelName("Memset (Device)"));
        QVERIFY(isComputeKernelName("myMemset"));                 // "Memset" counts only at the start
        QVERIFY(!isComputeKernelName("void copy<MemcpyTag>()"));  // "Memcpy" anywhere
        QVERIFY(!isComputeKernelName("SyncBatchNormReduce"));     // "Sync" anywhere
        QVERIFY(!isComputeKernelName("dma_transfer"));
        QCOMPARE(std::string(idleCauseName(IdleCause::HostWait)), std::string("host_wait"));
        QCOMPARE(std::string(idleCauseName(IdleCause::KernelWait)), std::string("kernel_wait"));
        QCOMPARE(std::string(idleCauseName(IdleCause::Other)), std::string("other"));
    }

    // Kineto, GPU 0, streams 7 and 8. Host launches (correlation): c1 [0,10), c2 [20,30), c3 [500,510),
    // c4 cudaMemcpyAsync [40,50), c5 cudaMemsetAsync [45,46).
    // Stream 7: gemm [100,300) c1, relu [310,400) c2, gemm [520,600) c3, memcpy [100000,100100) c4.
    // Stream 8: memset [350,450) c5, an NCCL kernel [450,700) without a launch.
    void kineto() {
        TraceBuilder b("chrome-json");
        const auto host = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto dev = b.addProcess(ProcessKind::Device, 0, "GPU 0");
        const auto ht = b.addTrack(host, TrackKind::Thread, "main", 1);
        const auto s7 = b.addTrack(dev, TrackKind::Thread, "stream 7", 7);
        const auto s8 = b.addTrack(dev, TrackKind::Thread, "stream 8", 8);
        const StringId rt = b.intern("cuda_runtime"), kernel = b.intern("kernel");
        b.addSlice(ht, 0, 10, b.intern("cudaLaunchKernel"), rt, correlation(b, 1));
        b.addSlice(ht, 20, 10, b.intern("cudaLaunchKernel"), rt, correlation(b, 2));
        b.addSlice(ht, 40, 10, b.intern("cudaMemcpyAsync"), rt, correlation(b, 4));
        b.addSlice(ht, 500, 10, b.intern("cudaLaunchKernel"), rt, correlation(b, 3));
        const auto memsetCall = b.addTrack(host, TrackKind::Thread, "other", 2);
        b.addSlice(memsetCall, 45, 1, b.intern("cudaMemsetAsync"), rt, correlation(b, 5));
        b.addSlice(s7, 100, 200, b.intern("gemm"), kernel, deviceArgs(b, 1, 7));
        b.addSlice(s7, 310, 90, b.intern("relu"), kernel, deviceArgs(b, 2, 7));
        b.addSlice(s7, 520, 80, b.intern("gemm"), kernel, deviceArgs(b, 3, 7));
        b.addSlice(s7, 100000, 100, b.intern("Memcpy HtoD (Pinned -> Device)"), b.intern("gpu_memcpy"),
                   deviceArgs(b, 4, 7));
        b.addSlice(s8, 350, 100, b.intern("Memset (Device)"), b.intern("gpu_memset"), deviceArgs(b, 5, 8));
        b.addSlice(s8, 450, 250, b.intern("ncclDevKernel_AllReduce_Sum_f32_RING_LL"), kernel, deviceArgs(b, -1, 8));
        std::shared_ptr<const Trace> trace = b.finish();
        QVERIFY(trace);

        std::shared_ptr<ResultStore> store = ResultStore::of(trace);
        const std::shared_ptr<const GpuUtilizationResult> held = gpuUtilizationOf(*store);
        QCOMPARE(gpuUtilizationOf(*store).get(), held.get());  // one result, computed once
        QCOMPARE(store->computations("gpu-util"), uint64_t(1));
        const GpuUtilizationResult& r = *held;
        QCOMPARE(r.kernelWaitThresholdNs, TimeNs(30000));
        QCOMPARE(r.gpus.size(), size_t(1));
        const GpuUtilization& g = r.gpus[0];
        QCOMPARE(g.device, int64_t(0));
        QCOMPARE(g.kernels, uint64_t(4));
        QCOMPARE(g.computeKernels, uint64_t(3));
        QCOMPARE(g.memcpys, uint64_t(1));
        QCOMPARE(g.memsets, uint64_t(1));

        // Window [100, 100100): 100,000 ns. Busy: [100,300) 200 + [310,700) 390 (relu, memset, NCCL,
        // gemm) + [100000,100100) 100 = 690, so idle 99,310. Compute: gemm 200 + relu 90 + gemm 80 = 370.
        // Non-compute: 100,000 - 99,310 - 370 = 320 ([400,520) memset and NCCL, [600,700) NCCL, the copy).
        QCOMPARE(g.windowStart, TimeNs(100));
        QCOMPARE(g.windowEnd, TimeNs(100100));
        QCOMPARE(g.activeNs(), TimeNs(100000));
        QCOMPARE(g.idleNs, TimeNs(99310));
        QCOMPARE(g.computeNs, TimeNs(370));
        QCOMPARE(g.nonComputeNs, TimeNs(320));
        QCOMPARE(g.percentOfWindow(g.idleNs), 99.31);

        // Stream 7: 300 -> 310 (relu launched at 20, before 300; 10 ns < 30 us): kernel wait 10;
        // 400 -> 520 (gemm launched at 500, after 400): host wait 120; 600 -> 100000 (copy asked at 40,
        // 99,400 ns >= 30 us): other.
        const StreamIdle* st7 = findStream(g, 7);
        QVERIFY(st7);
        QCOMPARE(st7->activities, uint64_t(4));
        QCOMPARE(st7->idle.of(IdleCause::HostWait), TimeNs(120));
        QCOMPARE(st7->idle.of(IdleCause::KernelWait), TimeNs(10));
        QCOMPARE(st7->idle.of(IdleCause::Other), TimeNs(99400));
        QCOMPARE(st7->gaps.size(), size_t(3));
        QCOMPARE(st7->gaps[1].start, TimeNs(400));
        QCOMPARE(st7->gaps[1].end, TimeNs(520));
        QCOMPARE(st7->gaps[1].cause, IdleCause::HostWait);
        QCOMPARE(st7->firstStart, TimeNs(100));
        QCOMPARE(st7->lastEnd, TimeNs(100100));
        QCOMPARE(st7->tracks.size(), size_t(1));
        QCOMPARE(st7->tracks[0], s7);
        // Stream 8: the NCCL kernel starts as the memset ends: no gap; it has no launch.
        const StreamIdle* st8 = findStream(g, 8);
        QVERIFY(st8);
        QCOMPARE(st8->idle.total(), TimeNs(0));
        QVERIFY(st8->gaps.empty());
        QCOMPARE(st8->withoutLaunch, uint64_t(1));
        // The GPU: the streams' sums.
        QCOMPARE(g.idle.of(IdleCause::HostWait), TimeNs(120));
        QCOMPARE(g.idle.of(IdleCause::Other), TimeNs(99400));
        QCOMPARE(g.idle.gaps[size_t(IdleCause::KernelWait)], uint64_t(1));
        QCOMPARE(g.withoutLaunch, uint64_t(1));
        QCOMPARE(r.notes.size(), size_t(1));  // the activity without a launch
    }

    // One stream (9) whose kernels overlap (a nested one and a partly overlapping one, which the
    // importer puts on an overflow lane), a launch recorded after its kernel started (clock skew),
    // and HTA's threshold at its edge. Launches: c1 [5,6) (after its kernel's start, 0), c2..c6 at 1.
    // Kernels: [0,100) c1, [50,80) c2, [90,150) c3, [200,210) c4 launched at 160, [30210,30220) c5,
    // [60219,60230) c6.
    void overlapAndThreshold() {
        TraceBuilder b("chrome-json");
        const auto host = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto dev = b.addProcess(ProcessKind::Device, 0, "GPU 0");
        const auto ht = b.addTrack(host, TrackKind::Thread, "main", 1);
        const auto s9 = b.addTrack(dev, TrackKind::Thread, "stream 9", 9);
        const StringId rt = b.intern("cuda_runtime"), kernel = b.intern("kernel"), k = b.intern("k");
        b.addSlice(ht, 1, 1, b.intern("cudaLaunchKernel"), rt, correlation(b, 2));
        b.addSlice(ht, 2, 1, b.intern("cudaLaunchKernel"), rt, correlation(b, 3));
        b.addSlice(ht, 3, 1, b.intern("cudaLaunchKernel"), rt, correlation(b, 5));
        b.addSlice(ht, 4, 1, b.intern("cudaLaunchKernel"), rt, correlation(b, 6));
        b.addSlice(ht, 5, 1, b.intern("cudaLaunchKernel"), rt, correlation(b, 1));
        b.addSlice(ht, 160, 1, b.intern("cudaLaunchKernel"), rt, correlation(b, 4));
        b.addSlice(s9, 0, 100, k, kernel, deviceArgs(b, 1, 9));
        b.addSlice(s9, 50, 30, k, kernel, deviceArgs(b, 2, 9));
        b.addSlice(s9, 90, 60, k, kernel, deviceArgs(b, 3, 9));
        b.addSlice(s9, 200, 10, k, kernel, deviceArgs(b, 4, 9));
        b.addSlice(s9, 30210, 10, k, kernel, deviceArgs(b, 5, 9));
        b.addSlice(s9, 60219, 11, k, kernel, deviceArgs(b, 6, 9));
        std::shared_ptr<const Trace> trace = b.finish();
        QVERIFY(trace);
        const GpuUtilizationResult r = computeGpuUtilization(classifyTrace(*trace));
        QCOMPARE(r.gpus.size(), size_t(1));
        const GpuUtilization& g = r.gpus[0];
        QCOMPARE(g.streams.size(), size_t(1));  // the overflow lane is stream 9 too
        const StreamIdle& s = g.streams[0];
        QCOMPARE(s.stream, int64_t(9));
        QCOMPARE(s.tracks.size(), size_t(2));
        QCOMPARE(s.activities, uint64_t(6));
        // [50,80) and [90,150) start before the stream's work (until 100) ended: no gap, counted.
        QCOMPARE(s.overlapping, uint64_t(2));
        // 150 -> 200: launched at 160, after 150: host wait 50. 210 -> 30210: 30,000 ns, launched at 3:
        // not under the threshold, other. 30220 -> 60219: 29,999 ns, launched at 4: kernel wait.
        QCOMPARE(s.idle.of(IdleCause::HostWait), TimeNs(50));
        QCOMPARE(s.idle.of(IdleCause::Other), TimeNs(30000));
        QCOMPARE(s.idle.of(IdleCause::KernelWait), TimeNs(29999));
        QCOMPARE(s.gaps.size(), size_t(3));
        QCOMPARE(s.gaps[0].start, TimeNs(150));
        QCOMPARE(s.gaps[0].end, TimeNs(200));
        // Window [0, 60230); busy 150 + 10 + 10 + 11 = 181; idle 60,049; all compute.
        QCOMPARE(g.activeNs(), TimeNs(60230));
        QCOMPARE(g.idleNs, TimeNs(60049));
        QCOMPARE(g.computeNs, TimeNs(181));
        QCOMPARE(g.nonComputeNs, TimeNs(0));
        // The first kernel starts at 0, its launch at 5: clock skew, counted and noted.
        QCOMPARE(g.launchedAfterStart, uint64_t(1));
        QCOMPARE(r.notes.size(), size_t(2));  // skew and overlap
        // A threshold of 0: the 29,999 ns gap becomes other too.
        GpuUtilizationOptions zero;
        zero.kernelWaitThresholdNs = 0;
        const GpuUtilizationResult r0 = computeGpuUtilization(classifyTrace(*trace), zero);
        QCOMPARE(r0.gpus[0].idle.of(IdleCause::Other), TimeNs(59999));
        QCOMPARE(r0.gpus[0].idle.of(IdleCause::KernelWait), TimeNs(0));
    }

    // XSpace: the GPU index from the plane name, the stream from the line id, launches by
    // correlation_id; two GPUs stay apart.
    void xspace() {
        TraceBuilder b("xspace");
        const auto host = b.addProcess(ProcessKind::Host, 1, "/host:CPU");
        const auto gpu1 = b.addProcess(ProcessKind::Device, 3, "/device:GPU:1");
        const auto gpu0 = b.addProcess(ProcessKind::Device, 2, "/device:GPU:0");
        const auto ht = b.addTrack(host, TrackKind::Thread, "python3", 1);
        const auto l14 = b.addTrack(gpu1, TrackKind::Thread, "Stream #14(Compute)", 14);
        const auto l20 = b.addTrack(gpu0, TrackKind::Thread, "Stream #20(Compute)", 20);
        auto corr = [&](int64_t id) {
            ArgsWriter w;
            w.add(b.intern("correlation_id"), ArgValue::integer(id));
            return w;
        };
        const StringId cat = b.intern("host");
        b.addSlice(ht, 0, 10, b.intern("gemm"), cat, corr(1));
        b.addSlice(ht, 150, 10, b.intern("MemcpyH2D"), cat, corr(2));
        b.addSlice(ht, 170, 10, b.intern("gemm"), cat, corr(3));
        b.addSlice(l14, 20, 100, b.intern("gemm"), b.intern("kernel"), corr(1));
        // 120 -> 200: the copy was asked at 150, after 120: host wait 80.
        b.addSlice(l14, 200, 50, b.intern("MemcpyH2D"), b.intern("memcpy"), corr(2));
        b.addSlice(l20, 190, 10, b.intern("gemm"), b.intern("kernel"), corr(3));
        std::shared_ptr<const Trace> trace = b.finish();
        QVERIFY(trace);
        const GpuUtilizationResult r = computeGpuUtilization(classifyTrace(*trace));
        QCOMPARE(r.gpus.size(), size_t(2));
        QCOMPARE(r.gpus[0].device, int64_t(0));  // by device index
        QCOMPARE(r.gpus[0].streams[0].stream, int64_t(20));
        QCOMPARE(r.gpus[0].activeNs(), TimeNs(10));
        const GpuUtilization& g = r.gpus[1];
        QCOMPARE(g.device, int64_t(1));
        QCOMPARE(g.streams.size(), size_t(1));
        QCOMPARE(g.streams[0].stream, int64_t(14));
        QCOMPARE(g.memcpys, uint64_t(1));
        // Window [20, 250): 230; busy 150; idle 80; compute 100; non-compute the copy's 50.
        QCOMPARE(g.activeNs(), TimeNs(230));
        QCOMPARE(g.idleNs, TimeNs(80));
        QCOMPARE(g.computeNs, TimeNs(100));
        QCOMPARE(g.nonComputeNs, TimeNs(50));
        QCOMPARE(g.idle.of(IdleCause::HostWait), TimeNs(80));
        QCOMPARE(g.withoutLaunch, uint64_t(0));
        QVERIFY(r.notes.empty());
    }

    // The cost is linear: n and 10·n kernels (each with its launch, spread over 16 streams, some
    // overlapping on their stream) take about ten times as long, never a hundred. CPU time of the
    // analysis alone (the trace and its classification are built first).
    void linearCost() {
        auto seconds = [](int n) {
            TraceBuilder b("chrome-json");
            const auto host = b.addProcess(ProcessKind::Host, 1, "python3");
            const auto dev = b.addProcess(ProcessKind::Device, 0, "GPU 0");
            const auto ht = b.addTrack(host, TrackKind::Thread, "main", 1);
            std::vector<TrackIndex> streams;
            for (int s = 0; s < 16; ++s) streams.push_back(b.addTrack(dev, TrackKind::Thread, "stream", 100 + s));
            const StringId rt = b.intern("cuda_runtime"), kernel = b.intern("kernel"),
                           launch = b.intern("cudaLaunchKernel");
            const StringId names[2] = {b.intern("gemm"), b.intern("ncclDevKernel_AllReduce")};
            for (int i = 0; i < n; ++i) {
                b.addSlice(ht, TimeNs(i) * 100, 10, launch, rt, correlation(b, i));
                // Every 7th kernel starts inside the previous one of its stream.
                const TimeNs start = TimeNs(i) * 100 + 50 + (i % 7 == 0 ? -1500 : 0);
                b.addSlice(streams[i % 16], std::max<TimeNs>(start, 0), 90 + i % 5, names[i % 3 == 0], kernel,
                           deviceArgs(b, i, 100 + i % 16));
            }
            std::shared_ptr<const Trace> trace = b.finish();
            const ClassifiedTrace ct = classifyTrace(*trace);
            const std::clock_t c0 = std::clock();
            const GpuUtilizationResult r = computeGpuUtilization(ct);
            const std::clock_t c1 = std::clock();
            const KernelStatsResult k = computeKernelStats(ct);
            const std::clock_t c2 = std::clock();
            if (r.gpus.size() != 1 || r.gpus[0].kernels != uint64_t(n) || k.rows.empty())
                return std::pair<double, double>(-1, -1);
            return std::pair<double, double>(double(c1 - c0) / CLOCKS_PER_SEC, double(c2 - c1) / CLOCKS_PER_SEC);
        };
        const int n = 100000 / kCostScale;
        const auto [small, smallKernelStats] = seconds(n);
        const auto [large, largeKernelStats] = seconds(10 * n);
        QVERIFY(small >= 0 && large >= 0);
        const double ratio = large / std::max(small, 0.02);
        // Beside kernel stats on the same trace (the yardstick; printed, as shared machines make
        // single timings noise).
        qInfo("gpu-util: %d kernels in %.3f s, %d in %.3f s (ratio %.1f); kernel stats %.3f s (x%.2f)", n, small,
              10 * n, large, ratio, largeKernelStats, large / std::max(largeKernelStats, 1e-6));
        QVERIFY2(ratio < 25, qPrintable(QString::number(ratio)));
    }

    // Hostile times: two streams each idle for almost the whole representable span (kernels at the
    // builder's limits, +-4e18 ns): each stream's gap fits, the GPU's sum saturates, nothing wraps.
    void hostileTimes() {
        TraceBuilder b("chrome-json");
        const auto dev = b.addProcess(ProcessKind::Device, 0, "GPU 0");
        const TimeNs edge = TraceBuilder::kMaxTimeNs;
        for (int64_t stream : {1, 2}) {
            const auto st = b.addTrack(dev, TrackKind::Thread, "stream", stream);
            b.addSlice(st, -edge, 10, b.intern("k"), b.intern("kernel"), deviceArgs(b, -1, stream));
            b.addSlice(st, edge - 10, 10, b.intern("k"), b.intern("kernel"), deviceArgs(b, -1, stream));
        }
        std::shared_ptr<const Trace> trace = b.finish();
        QVERIFY(trace);
        const GpuUtilizationResult r = computeGpuUtilization(classifyTrace(*trace));
        QCOMPARE(r.gpus.size(), size_t(1));
        const GpuUtilization& g = r.gpus[0];
        QCOMPARE(g.streams[0].idle.of(IdleCause::Other), 2 * edge - 20);
        QCOMPARE(g.idle.of(IdleCause::Other), std::numeric_limits<TimeNs>::max());
        QCOMPARE(g.idle.total(), std::numeric_limits<TimeNs>::max());
        QCOMPARE(g.activeNs(), 2 * edge);
        QCOMPARE(g.idleNs, 2 * edge - 20);
    }

    // A CPU-only trace: no GPU, a note that says so, nothing divides by zero.
    void cpuOnly() {
        TraceBuilder b("chrome-json");
        const auto host = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto ht = b.addTrack(host, TrackKind::Thread, "main", 1);
        b.addSlice(ht, 0, 100, b.intern("aten::add"), b.intern("cpu_op"));
        std::shared_ptr<const Trace> trace = b.finish();
        const GpuUtilizationResult r = computeGpuUtilization(classifyTrace(*trace));
        QVERIFY(r.gpus.empty());
        QCOMPARE(r.notes.size(), size_t(1));
        GpuUtilization empty;
        QCOMPARE(empty.percentOfWindow(5), 0.0);
    }
    void idleGapIndexFindsTheVisibleGaps() {
        // One stream on tracks 3 and 4 (an overflow lane) with gaps [10, 20) host wait,
        // [30, 35) kernel wait, [50, 90) other; another stream without gaps on track 5.
        auto g = std::make_shared<GpuUtilizationResult>();
        GpuUtilization gpu;
        StreamIdle s;
        s.tracks = {3, 4};
        s.gaps = {{10, 20, IdleCause::HostWait}, {30, 35, IdleCause::KernelWait}, {50, 90, IdleCause::Other}};
        StreamIdle quiet;
        quiet.tracks = {5};
        gpu.streams = {s, quiet};
        g->gpus.push_back(gpu);
        const IdleGapIndex index(g);
        QVERIFY(!index.empty());
        auto starts = [&](TrackIndex t, TimeNs b, TimeNs e) {
            std::vector<TimeNs> out;
            for (const IdleGap& gap : index.visible(t, b, e)) out.push_back(gap.start);
            return out;
        };
        QCOMPARE(starts(3, 0, 100), (std::vector<TimeNs>{10, 30, 50}));
        QCOMPARE(starts(4, 19, 31), (std::vector<TimeNs>{10, 30}));  // both cut by the window
        QCOMPARE(starts(3, 20, 30), std::vector<TimeNs>{});            // between two gaps
        QCOMPARE(starts(3, 89, 1000), std::vector<TimeNs>{50});
        QVERIFY(starts(5, 0, 100).empty());
        QVERIFY(starts(7, 0, 100).empty());
        QCOMPARE(index.at(4, 32)->cause, IdleCause::KernelWait);
        QVERIFY(!index.at(3, 35));  // gaps are half-open
        QVERIFY(IdleGapIndex(nullptr).empty());
    }

};

QTEST_GUILESS_MAIN(TestGpuUtilization)
#include "tst_gpu_utilization.moc"
