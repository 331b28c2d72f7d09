// Expert advice (model/analysis/gpu_advice.h) on hand-built Kineto traces: every expected
// finding and figure is worked out by hand in the comment beside it.
#include "model/analysis/gpu_advice.h"
#include "model/results/gpu_advice_results.h"
#include "model/results/launch_queue_results.h"
#include "model/results/trace_results.h"
#include "model/trace/trace_builder.h"

#include <QtTest>

using namespace tracescope;

namespace {

ArgsWriter correlation(TraceBuilder& b, int64_t id) {
    ArgsWriter w;
    w.add(b.intern("correlation"), ArgValue::integer(id));
    return w;
}

struct Kineto {
    TraceBuilder b{"chrome-json"};
    TrackIndex host = 0, stream7 = 0;
    Kineto() {
        const auto h = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto d = b.addProcess(ProcessKind::Device, 0, "GPU 0");
        host = b.addTrack(h, TrackKind::Thread, "main", 1);
        stream7 = b.addTrack(d, TrackKind::Thread, "stream 7", 7);
    }
    void step(int n, TimeNs start, TimeNs dur) {
        b.addSlice(host, start, dur, b.intern("ProfilerStep#" + std::to_string(n)), b.intern("user_annotation"));
    }
    void op(const char* name, TimeNs start, TimeNs dur) { b.addSlice(host, start, dur, b.intern(name), b.intern("cpu_op")); }
    void call(const char* name, TimeNs start, TimeNs dur, int64_t corr = 0) {
        if (corr) b.addSlice(host, start, dur, b.intern(name), b.intern("cuda_runtime"), correlation(b, corr));
        else b.addSlice(host, start, dur, b.intern(name), b.intern("cuda_runtime"));
    }
    void kernel(const char* name, TimeNs start, TimeNs dur, int64_t corr, const char* cat = "kernel") {
        b.addSlice(stream7, start, dur, b.intern(name), b.intern(cat), correlation(b, corr));
    }
};

// Host thread (ns), one step [0, 10 ms):
//  aten::linear [100000, 200000) > cudaLaunchKernel [110000, 120000) c1 -> K1 [130000, 1130000)
//  DataLoader __next__ [1200000, 4200000) > aten::copy_ [1300000, 1500000)
//  aten::mm [4300000, 4400000) > cudaLaunchKernel [4310000, 4320000) c2 -> K2 [4330000, 4335000)
//  aten::item [4400000, 4500000) > cudaStreamSynchronize [4410000, 4450000)
//  aten::to [4500000, 4700000) > cudaMemcpyAsync [4510000, 4600000) c3
//                                -> Memcpy HtoD (Pageable -> Device) [4520000, 4590000)
// after the step: cudaDeviceSynchronize [11000000, 11120000) (outside steps: no sync-in-step),
//  cudaLaunchKernel [12000000, 12010000) c4 -> K3 [12020000, 12030000)
std::shared_ptr<const Trace> oneStep() {
    Kineto k;
    k.step(1, 0, 10'000'000);
    k.op("aten::linear", 100'000, 100'000);
    k.call("cudaLaunchKernel", 110'000, 10'000, 1);
    k.kernel("K1", 130'000, 1'000'000, 1);
    k.op("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 1'200'000, 3'000'000);
    k.op("aten::copy_", 1'300'000, 200'000);
    k.op("aten::mm", 4'300'000, 100'000);
    k.call("cudaLaunchKernel", 4'310'000, 10'000, 2);
    k.kernel("K2", 4'330'000, 5'000, 2);
    k.op("aten::item", 4'400'000, 100'000);
    k.call("cudaStreamSynchronize", 4'410'000, 40'000);
    k.op("aten::to", 4'500'000, 200'000);
    k.call("cudaMemcpyAsync", 4'510'000, 90'000, 3);
    k.kernel("Memcpy HtoD (Pageable -> Device)", 4'520'000, 70'000, 3, "gpu_memcpy");
    k.call("cudaDeviceSynchronize", 11'000'000, 120'000);
    k.call("cudaLaunchKernel", 12'000'000, 10'000, 4);
    k.kernel("K3", 12'020'000, 10'000, 4);
    return k.b.finish();
}

std::string nameOf(const Trace& t, SliceRef s) {
    return std::string(t.strings.get(t.tracks[s.track].slices.name[s.index]));
}

std::vector<const AdviceFinding*> findingsOf(const GpuAdvice& a, AdviceRule rule) {
    std::vector<const AdviceFinding*> out;
    for (const AdviceFinding& f : a.findings)
        if (f.rule == rule) out.push_back(&f);
    return out;
}

}  // namespace

class TestGpuAdvice : public QObject {
    Q_OBJECT

private slots:
    void blockingCalls() {
        for (const char* yes : {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize",
                                "cuCtxSynchronize", "hipDeviceSynchronize", "cudaMemcpy", "cudaMemcpy2D",
                                "cuMemcpyDtoH_v2", "cudaMemset", "hipMemsetD32"})
            QVERIFY2(isBlockingCallName(yes), yes);
        for (const char* no : {"cudaStreamWaitEvent", "cudaMemcpyAsync", "cudaMemcpy2DAsync", "cuMemcpyHtoDAsync_v2",
                               "cudaMemsetAsync", "cudaLaunchKernel", "cudaEventRecord", ""})
            QVERIFY2(!isBlockingCallName(no), no);
    }

    void gapsWithTheHostsWork() {
        std::shared_ptr<ResultStore> store = ResultStore::of(oneStep());
        const GpuAdvice& a = *gpuAdviceOf(*store);
        const Trace& t = store->trace();
        QCOMPARE(a.steps, uint64_t(1));
        // Device activity: K1 [130000, 1130000), K2 [4330000, 4335000), the copy [4520000, 4590000),
        // K3 [12020000, 12030000). Gaps of 1 ms or more: [1130000, 4330000) = 3200000 and
        // [4590000, 12020000) = 7430000 (185000 between K2 and the copy is shorter), costliest first.
        const auto gaps = findingsOf(a, AdviceRule::GpuGap);
        QCOMPARE(gaps.size(), size_t(2));
        QCOMPARE(a.rules[size_t(AdviceRule::GpuGap)].findings, uint64_t(2));
        QCOMPARE(a.rules[size_t(AdviceRule::GpuGap)].costNs, TimeNs(10'630'000));
        const AdviceFinding& late = *gaps[0];
        QCOMPARE(late.start, TimeNs(4'590'000));
        QCOMPARE(late.end, TimeNs(12'020'000));
        QCOMPARE(late.costNs, TimeNs(7'430'000));
        QCOMPARE(late.step, int64_t(1));  // it begins in step 1
        QCOMPARE(late.what, std::string("K3"));
        QCOMPARE(late.slices.size(), size_t(2));  // K3 and its launch
        QCOMPARE(nameOf(t, late.slices[1]), std::string("cudaLaunchKernel"));
        // On the host meanwhile (the step marker left out: it says nothing of the work):
        // cudaDeviceSynchronize 120000; aten::to overlaps 4590000..4700000 = 110000, less
        // cudaMemcpyAsync's 10000 = 100000; then cudaMemcpyAsync and the launch at 12000000, 10000
        // each (the earlier slice first). Covered: 110000 + 120000 + 10000 = 240000 of 7430000:
        // 7190000 untraced.
        QCOMPARE(late.host.size(), size_t(3));
        QCOMPARE(nameOf(t, late.host[0].slice), std::string("cudaDeviceSynchronize"));
        QCOMPARE(late.host[0].selfNs, TimeNs(120'000));
        QCOMPARE(nameOf(t, late.host[1].slice), std::string("aten::to"));
        QCOMPARE(late.host[1].selfNs, TimeNs(100'000));
        QCOMPARE(nameOf(t, late.host[2].slice), std::string("cudaMemcpyAsync"));
        QCOMPARE(late.host[2].selfNs, TimeNs(10'000));
        QCOMPARE(late.hostUntracedNs, TimeNs(7'190'000));
        // The first gap: the DataLoader overlaps 3000000, less aten::copy_'s 200000 = 2800000 of its
        // own; aten::copy_ 200000; aten::mm 30000 less its launch's 10000 = 20000. Covered:
        // 3000000 + 30000 of 3200000: 170000 untraced.
        const AdviceFinding& early = *gaps[1];
        QCOMPARE(early.costNs, TimeNs(3'200'000));
        QCOMPARE(early.what, std::string("K2"));
        QCOMPARE(early.host.size(), size_t(3));
        QCOMPARE(nameOf(t, early.host[0].slice), std::string("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"));
        QCOMPARE(early.host[0].selfNs, TimeNs(2'800'000));
        QCOMPARE(nameOf(t, early.host[1].slice), std::string("aten::copy_"));
        QCOMPARE(early.host[1].selfNs, TimeNs(200'000));
        QCOMPARE(nameOf(t, early.host[2].slice), std::string("aten::mm"));
        QCOMPARE(early.host[2].selfNs, TimeNs(20'000));
        QCOMPARE(early.hostUntracedNs, TimeNs(170'000));
    }

    void syncsCopiesAndShortKernels() {
        std::shared_ptr<ResultStore> store = ResultStore::of(oneStep());
        const GpuAdvice& a = *gpuAdviceOf(*store);
        const Trace& t = store->trace();
        // The stream sync inside the step, by the op that made it; the device sync after the step
        // is outside the step loop.
        const auto syncs = findingsOf(a, AdviceRule::SyncInStep);
        QCOMPARE(syncs.size(), size_t(1));
        QCOMPARE(syncs[0]->what, std::string("aten::item → cudaStreamSynchronize"));
        QCOMPARE(syncs[0]->occurrences, uint64_t(1));
        QCOMPARE(syncs[0]->steps, uint64_t(1));
        QCOMPARE(syncs[0]->costNs, TimeNs(40'000));
        // The pageable copy, by direction and launching call: 70000 ns.
        const auto copies = findingsOf(a, AdviceRule::PageableCopy);
        QCOMPARE(copies.size(), size_t(1));
        QCOMPARE(copies[0]->what, std::string("HtoD via cudaMemcpyAsync"));
        QCOMPARE(copies[0]->costNs, TimeNs(70'000));
        QCOMPARE(nameOf(t, copies[0]->slices[0]), std::string("Memcpy HtoD (Pageable -> Device)"));
        // Short kernels: K2 (5000) under its 10000 call; K1 and K3 are not shorter, the copy's call
        // (90000) is past HTA's 50 us cut-off. Worth 10000 - 5000.
        const auto shorts = findingsOf(a, AdviceRule::ShortKernel);
        QCOMPARE(shorts.size(), size_t(1));
        QCOMPARE(shorts[0]->what, std::string("K2"));
        QCOMPARE(shorts[0]->costNs, TimeNs(5'000));
        // Three launches in the step: too few to judge the queue.
        QVERIFY(findingsOf(a, AdviceRule::StarvedQueue).empty());
        // One sentence per rule with findings, gaps (the costliest) first.
        const std::vector<std::string> sentences = adviceSentences(*classificationOf(*store), a);
        QCOMPARE(sentences.size(), size_t(4));
        QVERIFY(sentences[0].find("idle in 2 gaps") != std::string::npos);
        // The longest gap: the launching thread ran no traced op for most of it.
        QVERIFY(sentences[0].find("in step 1, while the launching thread ran no traced op for 7.190 ms") !=
                std::string::npos);
        // Computed once, shared.
        gpuAdviceOf(*store);
        QCOMPARE(store->computations(kGpuAdviceName), uint64_t(1));
    }

    void gapThreshold() {
        // With a 100 us threshold the 185000 ns gap between K2 and the copy counts too.
        std::shared_ptr<ResultStore> store = ResultStore::of(oneStep());
        AdviceOptions o;
        o.gapThresholdNs = 100'000;
        const GpuAdvice& a = *gpuAdviceOf(*store, o);
        QCOMPARE(findingsOf(a, AdviceRule::GpuGap).size(), size_t(3));
        QCOMPARE(a.rules[size_t(AdviceRule::GpuGap)].costNs, TimeNs(10'815'000));
    }

    void starvedQueue() {
        // Step 1 [0, 1 ms): 12 launches i = 0..11 at i*80000 (10000 long), each kernel starting 20000
        // later (50000 long): the queue is 1 from each launch to its kernel's start, else 0, so at
        // most 1 for the whole step: starved, worth 1000000.
        // Step 2 [1 ms, 2 ms): 12 launches at 1000000 + i*10000 (5000 long), kernels at 1500000 +
        // i*40000 (40000 long): the queue is 1 in [1000000, 1010000) and [1900000, 1940000), 0 in
        // [1940000, 2000000), else 2..12: 10000 + 100000 = 110000 of 1000000 at <= 1, not starved.
        Kineto k;
        k.step(1, 0, 1'000'000);
        k.step(2, 1'000'000, 1'000'000);
        for (int i = 0; i < 12; ++i) {
            k.call("cudaLaunchKernel", i * 80'000, 10'000, 100 + i);
            k.kernel("A", i * 80'000 + 20'000, 50'000, 100 + i);
            k.call("cudaLaunchKernel", 1'000'000 + i * 10'000, 5'000, 200 + i);
            k.kernel("B", 1'500'000 + i * 40'000, 40'000, 200 + i);
        }
        std::shared_ptr<ResultStore> store = ResultStore::of(k.b.finish());
        const GpuAdvice& a = *gpuAdviceOf(*store);
        const auto starved = findingsOf(a, AdviceRule::StarvedQueue);
        QCOMPARE(starved.size(), size_t(1));
        QCOMPARE(starved[0]->step, int64_t(1));
        QCOMPARE(starved[0]->stream, int64_t(7));
        QCOMPARE(starved[0]->occurrences, uint64_t(12));
        QCOMPARE(starved[0]->costNs, TimeNs(1'000'000));
        QCOMPARE(starved[0]->fraction, 1.0);
        QCOMPARE(nameOf(store->trace(), starved[0]->slices.at(0)), std::string("ProfilerStep#1"));
        // No gap of 1 ms, no sync, no pageable copy, no kernel shorter than its call.
        QCOMPARE(a.findings.size(), size_t(1));
    }

    void withoutGpuOrCorrelation() {
        // A CPU-only trace: no findings, a note, no crash.
        TraceBuilder b("chrome-json");
        const auto h = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto th = b.addTrack(h, TrackKind::Thread, "main", 1);
        b.addSlice(th, 0, 100, b.intern("aten::add"), b.intern("cpu_op"));
        std::shared_ptr<ResultStore> cpu = ResultStore::of(b.finish());
        const GpuAdvice& a = *gpuAdviceOf(*cpu);
        QVERIFY(a.findings.empty());
        QVERIFY(!a.notes.empty());
        // Kernels without their launch calls: the gap is still found, the host side stays unknown.
        Kineto k;
        k.kernel("K1", 0, 1000, 1);
        k.kernel("K2", 5'000'000, 1000, 2);
        std::shared_ptr<ResultStore> store = ResultStore::of(k.b.finish());
        const GpuAdvice& g = *gpuAdviceOf(*store);
        const auto gaps = findingsOf(g, AdviceRule::GpuGap);
        QCOMPARE(gaps.size(), size_t(1));
        QCOMPARE(gaps[0]->costNs, TimeNs(4'999'000));
        QCOMPARE(gaps[0]->hostTrack, kNoIndex);
        QVERIFY(gaps[0]->host.empty());
    }
};

QTEST_GUILESS_MAIN(TestGpuAdvice)
#include "tst_gpu_advice.moc"
