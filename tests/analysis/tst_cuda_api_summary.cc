// The nsys-stats-style summaries (model/analysis/cuda_api_summary.h) on hand-built traces: every
// expected number is worked out by hand in the comment beside it.
#include "model/analysis/cuda_api_summary.h"
#include "model/results/cuda_api_results.h"
#include "model/trace/trace_builder.h"

#include <QtTest>

using namespace tracescope;

namespace {

template <typename Row>
const Row* findRow(const std::vector<Row>& rows, const std::string& name) {
    for (const Row& r : rows)
        if (r.name == name) return &r;
    return nullptr;
}

const SyncRow* findSync(const CudaApiSummary& s, const std::string& kind, const std::string& api) {
    for (const SyncRow& r : s.sync)
        if (r.kind == kind && r.api == api) return &r;
    return nullptr;
}

ArgsWriter correlation(TraceBuilder& b, int64_t id) {
    ArgsWriter w;
    w.add(b.intern("correlation"), ArgValue::integer(id));
    return w;
}

}  // namespace

class TestCudaApiSummary : public QObject {
    Q_OBJECT

private slots:
    void statistics() {
        std::vector<int64_t> empty;
        QCOMPARE(valueStatsOf(empty).count, uint64_t(0));
        QCOMPARE(valueStatsOf(empty).std, int64_t(0));
        // One value: std 0 (nsys prints 0 for a single call).
        std::vector<int64_t> one = {5};
        const ValueStats s1 = valueStatsOf(one);
        QCOMPARE(s1.mean, int64_t(5));
        QCOMPARE(s1.median, int64_t(5));
        QCOMPARE(s1.std, int64_t(0));
        // {4, 1, 3, 2}: total 10, mean 2.5 -> 3 (halves up), median (2 + 3) / 2 = 2.5 -> 3,
        // sample variance (2.25 + 0.25 + 0.25 + 2.25) / 3 = 5/3, std 1.29 -> 1.
        std::vector<int64_t> four = {4, 1, 3, 2};
        const ValueStats s4 = valueStatsOf(four);
        QCOMPARE(s4.count, uint64_t(4));
        QCOMPARE(s4.total, int64_t(10));
        QCOMPARE(s4.mean, int64_t(3));
        QCOMPARE(s4.median, int64_t(3));
        QCOMPARE(s4.min, int64_t(1));
        QCOMPARE(s4.max, int64_t(4));
        QCOMPARE(s4.std, int64_t(1));
        // {0, 0, 0, 10}: mean 2.5 -> 3, median 0, variance (3 * 6.25 + 56.25) / 3 = 25, std 5 exactly.
        std::vector<int64_t> skewed = {0, 10, 0, 0};
        const ValueStats sk = valueStatsOf(skewed);
        QCOMPARE(sk.median, int64_t(0));
        QCOMPARE(sk.std, int64_t(5));
        // {0, 3}: variance 4.5, std 2.12 -> 2; {0, 5}: variance 12.5, std 3.54 -> 4.
        std::vector<int64_t> a = {0, 3}, c = {0, 5};
        QCOMPARE(valueStatsOf(a).std, int64_t(2));
        QCOMPARE(valueStatsOf(c).std, int64_t(4));
        // Large values do not overflow: {1e12, 3e12}: std = sqrt(2) * 1e12 = 1414213562373.095 -> ...373.
        std::vector<int64_t> big = {1000000000000, 3000000000000};
        QCOMPARE(valueStatsOf(big).std, int64_t(1414213562373));
        QCOMPARE(valueStatsOf(big).mean, int64_t(2000000000000));
    }

    // Hostile sizes: sums past 64 bits saturate, the std falls back to long double (the exact sums
    // would overflow 128 bits), nothing wraps.
    void statisticsHuge() {
        std::vector<int64_t> three(3, INT64_MAX);
        const ValueStats s3 = valueStatsOf(three);
        QCOMPARE(s3.total, INT64_MAX);
        QCOMPARE(s3.mean, INT64_MAX);
        QCOMPARE(s3.std, int64_t(0));
        // {0, max}: std = max / sqrt(2) = 6.52e18.
        std::vector<int64_t> two = {0, INT64_MAX};
        const ValueStats s2 = valueStatsOf(two);
        QVERIFY(std::abs(double(s2.std) - double(INT64_MAX) / std::sqrt(2.0)) < 1e-6 * double(INT64_MAX));
        QCOMPARE(s2.median, int64_t(INT64_MAX / 2 + 1));  // (0 + max) / 2 = ...903.5 -> ...904
    }

    void syncKinds() {
        QCOMPARE(syncKindOfCall("cudaDeviceSynchronize"), std::string_view("Context Sync"));
        QCOMPARE(syncKindOfCall("cuCtxSynchronize"), std::string_view("Context Sync"));
        QCOMPARE(syncKindOfCall("hipStreamSynchronize"), std::string_view("Stream Sync"));
        QCOMPARE(syncKindOfCall("cudaEventSynchronize"), std::string_view("Event Sync"));
        QCOMPARE(syncKindOfCall("cudaStreamWaitEvent"), std::string_view("Stream Wait Event"));
        QVERIFY(syncKindOfCall("cudaEventQuery").empty());
        QVERIFY(syncKindOfCall("cudaLaunchKernel").empty());
        QVERIFY(syncKindOfCall("").empty());
    }

    // Host: cudaMemcpyAsync [0,100) c1, cudaStreamSynchronize [100,400) c2, cudaLaunchKernel
    // [400,410) c3, cudaDeviceSynchronize [410,1000) c4, cudaEventSynchronize [1000,1050) c5.
    // Stream 7: HtoD copy [50,250) 1,000,000 bytes; DtoH copy [300,350) without a size; memset
    // [420,430) 64 bytes; kernel k [440,900) and [900,920). cuda_sync records: Stream Sync c2,
    // Context Sync c4, Event Sync c99 (its call is not in the trace).
    void kineto() {
        TraceBuilder b("chrome-json");
        const auto host = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto dev = b.addProcess(ProcessKind::Device, 0, "GPU 0");
        const auto ht = b.addTrack(host, TrackKind::Thread, "main", 1);
        const auto st = b.addTrack(dev, TrackKind::Thread, "stream 7", 7);
        const StringId rt = b.intern("cuda_runtime");
        b.addSlice(ht, 0, 100, b.intern("cudaMemcpyAsync"), rt, correlation(b, 1));
        b.addSlice(ht, 100, 300, b.intern("cudaStreamSynchronize"), rt, correlation(b, 2));
        b.addSlice(ht, 400, 10, b.intern("cudaLaunchKernel"), rt, correlation(b, 3));
        b.addSlice(ht, 410, 590, b.intern("cudaDeviceSynchronize"), rt, correlation(b, 4));
        b.addSlice(ht, 1000, 50, b.intern("cudaEventSynchronize"), rt, correlation(b, 5));
        ArgsWriter h2d = correlation(b, 1);
        h2d.add(b.intern("bytes"), ArgValue::integer(1000000));
        b.addSlice(st, 50, 200, b.intern("Memcpy HtoD (Pageable -> Device)"), b.intern("gpu_memcpy"), h2d);
        b.addSlice(st, 300, 50, b.intern("Memcpy DtoH (Device -> Pageable)"), b.intern("gpu_memcpy"));
        ArgsWriter ms;
        ms.add(b.intern("bytes"), ArgValue::integer(64));
        b.addSlice(st, 420, 10, b.intern("Memset (Device)"), b.intern("gpu_memset"), ms);
        b.addSlice(st, 440, 460, b.intern("k"), b.intern("kernel"), correlation(b, 3));
        b.addSlice(st, 900, 20, b.intern("k"), b.intern("kernel"));
        const StringId sync = b.intern("cuda_sync");
        b.addSlice(st, 120, 270, b.intern("Stream Sync"), sync, correlation(b, 2));
        b.addSlice(st, 420, 570, b.intern("Context Sync"), sync, correlation(b, 4));
        b.addSlice(st, 1200, 5, b.intern("Event Sync"), sync, correlation(b, 99));
        std::shared_ptr<const Trace> trace = b.finish();
        QVERIFY(trace);

        std::shared_ptr<ResultStore> store = ResultStore::of(trace);
        const std::shared_ptr<const CudaApiSummary> held = cudaApiSummaryOf(*store);
        QCOMPARE(cudaApiSummaryOf(*store).get(), held.get());  // one result, computed once
        QCOMPARE(store->computations("cuda-api-summary"), uint64_t(1));
        const CudaApiSummary& s = *held;

        // API: 5 calls, 1050 ns; cudaDeviceSynchronize first (590 ns, 100 * 590 / 1050 %).
        QCOMPARE(s.apiCalls, uint64_t(5));
        QCOMPARE(s.api.size(), size_t(5));
        QCOMPARE(s.api[0].name, std::string("cudaDeviceSynchronize"));
        QCOMPARE(s.api[0].timePercent, 100.0 * 590 / 1050);
        QCOMPARE(s.api[4].name, std::string("cudaLaunchKernel"));

        // Copies: HtoD 200 ns, 1e6 bytes: 1e6 / 200e-9 s = 5e12 bytes/s; DtoH without a size.
        QCOMPARE(s.memcpy.size(), size_t(2));
        QCOMPARE(s.memcpy[0].kind, std::string("HtoD"));
        QCOMPARE(s.memcpy[0].time.total, int64_t(200));
        QCOMPARE(s.memcpy[0].bytes.total, int64_t(1000000));
        QCOMPARE(s.memcpy[0].bytesPerS, int64_t(5000000000000));
        QCOMPARE(s.memcpy[0].timePercent, 100.0 * 200 / 250);
        QCOMPARE(s.memcpy[1].kind, std::string("DtoH"));
        QCOMPARE(s.memcpy[1].withoutBytes, uint64_t(1));
        QCOMPARE(s.memcpy[1].bytesPerS, int64_t(-1));
        // Memset: 64 bytes in 10 ns = 6.4e9 bytes/s.
        QCOMPARE(s.memset.size(), size_t(1));
        QCOMPARE(s.memset[0].bytesPerS, int64_t(6400000000));
        // Kernels: k twice, 480 ns, median (20 + 460) / 2 = 240, std sqrt(2 * 220^2) = 311.1 -> 311.
        QCOMPARE(s.kernels.size(), size_t(1));
        QCOMPARE(s.kernels[0].time.total, int64_t(480));
        QCOMPARE(s.kernels[0].time.median, int64_t(240));
        QCOMPARE(s.kernels[0].time.std, int64_t(311));

        // Sync: the records' calls block 590 and 300 ns; cudaEventSynchronize has no record and
        // counts by name (50 ns); the Event Sync record without its call blocks an unknown time.
        QCOMPARE(s.syncRecords, uint64_t(3));
        QCOMPARE(s.sync.size(), size_t(4));
        QCOMPARE(s.sync[0].kind, std::string("Context Sync"));
        QCOMPARE(s.sync[0].api, std::string("cudaDeviceSynchronize"));
        QCOMPARE(s.sync[0].hostBlocked.total, int64_t(590));
        QCOMPARE(s.sync[0].records, uint64_t(1));
        const SyncRow* stream = findSync(s, "Stream Sync", "cudaStreamSynchronize");
        QVERIFY(stream);
        QCOMPARE(stream->occurrences, uint64_t(1));  // the record and its call count once
        QCOMPARE(stream->hostBlocked.total, int64_t(300));
        const SyncRow* byName = findSync(s, "Event Sync", "cudaEventSynchronize");
        QVERIFY(byName);
        QCOMPARE(byName->records, uint64_t(0));
        QCOMPARE(byName->hostBlocked.total, int64_t(50));
        const SyncRow* orphan = findSync(s, "Event Sync", "");
        QVERIFY(orphan);
        QCOMPARE(orphan->withoutCall, uint64_t(1));
        QCOMPARE(orphan->hostBlocked.count, uint64_t(0));
        QVERIFY(!s.notes.empty());  // the copy without a size and the record without a call
    }

    // XSpace: the launch call is named after its kernel ("gemm" and "cutlass_80_gemm" -> kernel
    // launch), "cuGraphLaunch (CudaGraph:3)" is cuGraphLaunch, cudaStreamSynchronize keeps its name
    // and is a Stream Sync; sizes from memcpy_details and Memset_details.
    void xspace() {
        TraceBuilder b("xspace");
        const auto host = b.addProcess(ProcessKind::Host, 1, "/host:CPU");
        const auto dev = b.addProcess(ProcessKind::Device, 2, "/device:GPU:0");
        const auto ht = b.addTrack(host, TrackKind::Thread, "python3", 1);
        const auto st = b.addTrack(dev, TrackKind::Thread, "Stream #14(Compute)", 14);
        const StringId cat = b.intern("host");
        auto corr = [&](int64_t id) {
            ArgsWriter w;
            w.add(b.intern("correlation_id"), ArgValue::integer(id));
            return w;
        };
        b.addSlice(ht, 0, 10, b.intern("gemm"), cat, corr(1));
        b.addSlice(ht, 20, 30, b.intern("cutlass_80_gemm"), cat, corr(2));
        b.addSlice(ht, 60, 40, b.intern("cuGraphLaunch (CudaGraph:3)"), cat, corr(3));
        b.addSlice(ht, 110, 5, b.intern("MemcpyH2D"), cat, corr(4));
        // Our CUPTI agent's captures name every call: a runtime sync call counts by its name.
        b.addSlice(ht, 200, 50, b.intern("cudaStreamSynchronize"), cat, corr(5));
        ArgsWriter k = corr(1);
        k.add(b.intern("kernel_details"), ArgValue::string(b.intern("regs:32 grid:1,1,1 block:128,1,1")));
        b.addSlice(st, 15, 100, b.intern("gemm"), b.intern("kernel"), k);
        ArgsWriter cp = corr(4);
        cp.add(b.intern("memcpy_details"),
               ArgValue::string(b.intern("kind_src:pinned kind_dst:device size:4096 dest:0 async:1")));
        b.addSlice(st, 120, 4, b.intern("MemcpyH2D"), b.intern("memcpy"), cp);
        ArgsWriter ms;
        ms.add(b.intern("Memset_details"), ArgValue::string(b.intern("kind:device num_bytes:64 async:1")));
        b.addSlice(st, 130, 2, b.intern("Memset"), b.intern("memset"), ms);
        std::shared_ptr<const Trace> trace = b.finish();
        QVERIFY(trace);
        const CudaApiSummary s = computeCudaApiSummary(classifyTrace(*trace));

        QCOMPARE(s.launchCallsNamedByKernel, uint64_t(2));
        const DurationRow* launch = findRow(s.api, "kernel launch");
        QVERIFY(launch);
        QCOMPARE(launch->time.total, int64_t(40));
        QVERIFY(findRow(s.api, "cuGraphLaunch"));
        QVERIFY(findRow(s.api, "MemcpyH2D"));
        QCOMPARE(s.memcpy.size(), size_t(1));
        QCOMPARE(s.memcpy[0].kind, std::string("HtoD"));
        QCOMPARE(s.memcpy[0].bytes.total, int64_t(4096));
        QCOMPARE(s.memcpy[0].bytesPerS, int64_t(1024000000000));  // 4096 bytes / 4 ns
        QCOMPARE(s.memset.size(), size_t(1));
        QCOMPARE(s.memset[0].bytes.total, int64_t(64));
        QCOMPARE(s.kernels.size(), size_t(1));
        QVERIFY(findRow(s.api, "cudaStreamSynchronize"));
        QCOMPARE(s.sync.size(), size_t(1));
        QCOMPARE(s.sync[0].kind, std::string("Stream Sync"));
        QCOMPARE(s.sync[0].hostBlocked.total, int64_t(50));
    }

    // A CPU-only trace: every table empty, the notes say why, nothing divides by zero.
    void cpuOnly() {
        TraceBuilder b("chrome-json");
        const auto host = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto ht = b.addTrack(host, TrackKind::Thread, "main", 1);
        b.addSlice(ht, 0, 100, b.intern("aten::add"), b.intern("cpu_op"));
        // A copy of zero length with a size: no bandwidth (no time), never a division by zero.
        const auto dev = b.addProcess(ProcessKind::Device, 0, "GPU 0");
        const auto st = b.addTrack(dev, TrackKind::Thread, "stream 7", 7);
        ArgsWriter w;
        w.add(b.intern("bytes"), ArgValue::integer(8));
        b.addSlice(st, 10, 0, b.intern("Memcpy HtoD (Pinned -> Device)"), b.intern("gpu_memcpy"), w);
        std::shared_ptr<const Trace> trace = b.finish();
        const CudaApiSummary s = computeCudaApiSummary(classifyTrace(*trace));
        QVERIFY(s.api.empty());
        QVERIFY(s.kernels.empty());
        QVERIFY(s.sync.empty());
        QCOMPARE(s.memcpy.size(), size_t(1));
        QCOMPARE(s.memcpy[0].bytesPerS, int64_t(-1));
        QCOMPARE(s.memcpy[0].timePercent, 0.0);
        QVERIFY(!s.notes.empty());
    }
};

QTEST_GUILESS_MAIN(TestCudaApiSummary)
#include "tst_cuda_api_summary.moc"
