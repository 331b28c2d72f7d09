// Collective calls, nccl-tests bandwidths, HTA's communication/compute overlap and stragglers
// (model/analysis/collectives.h, collective_stragglers.h) on hand-built Kineto traces: every
// expected figure is worked out by hand in the comment beside it. And the Collectives page, which
// lays out the store's result.
#include "model/analysis/collective_shapes.h"
#include "model/analysis/collective_stragglers.h"
#include "model/analysis/collectives.h"
#include "model/import/import.h"
#include "model/import/workers.h"
#include "model/results/rank_summary.h"
#include "model/results/summary_run.h"
#include "model/results/collectives_results.h"
#include "model/trace/merge_workers.h"
#include "model/results/trace_results.h"
#include "model/trace/trace_builder.h"
#include "views/collectives/collective_wait_heatmap.h"
#include "views/collectives/collectives_view.h"
#include "views/pod/pod_view.h"
#include "views/tables/table_page.h"
#include "views/trace_selection.h"

#include <QComboBox>
#include <QTemporaryDir>

#include <fstream>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>

using namespace tracescope;

namespace {

struct Meta {
    const char* kind;
    const char* dtype;
    int64_t in, out, groupSize;
    int64_t seq = -1;
    const char* group = "0";
};

struct Kineto {
    TraceBuilder b{"chrome-json"};
    TrackIndex host = 0, glooWorker = 0, stream7 = 0, stream8 = 0, stream9 = 0;
    int64_t nextCorrelation = 1;
    explicit Kineto(int rank = 0) {
        b.addMetadata("distributedInfo", "{\"backend\": \"nccl\", \"rank\": " + std::to_string(rank) +
                                             ", \"world_size\": 4}");
        const auto h = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto d = b.addProcess(ProcessKind::Device, 0, "GPU 0");
        host = b.addTrack(h, TrackKind::Thread, "main", 1);
        glooWorker = b.addTrack(h, TrackKind::Thread, "gloo worker", 2);
        stream7 = b.addTrack(d, TrackKind::Thread, "stream 7", 7);
        stream8 = b.addTrack(d, TrackKind::Thread, "stream 8", 8);
        stream9 = b.addTrack(d, TrackKind::Thread, "stream 9", 9);
    }
    void host_(const char* name, const char* cat, TimeNs start, TimeNs dur) {
        b.addSlice(host, start, dur, b.intern(name), b.intern(cat));
    }
    void params(TimeNs start, TimeNs dur, const Meta& m) {
        ArgsWriter w;
        w.add(b.intern("Collective name"), ArgValue::string(b.intern(m.kind)));
        w.add(b.intern("dtype"), ArgValue::string(b.intern(m.dtype)));
        w.add(b.intern("In msg nelems"), ArgValue::integer(m.in));
        w.add(b.intern("Out msg nelems"), ArgValue::integer(m.out));
        w.add(b.intern("Group size"), ArgValue::integer(m.groupSize));
        w.add(b.intern("Process Group Name"), ArgValue::string(b.intern(m.group)));
        if (m.seq >= 0) w.add(b.intern("Seq"), ArgValue::integer(m.seq));
        b.addSlice(host, start, dur, b.intern("record_param_comms"), b.intern("cpu_op"), w);
    }
    // A launch at `at` (10 ns long) of `kernel` on a stream, running [start, start + dur).
    void launch(TimeNs at, const char* kernel, TimeNs start, TimeNs dur, TrackIndex stream) {
        ArgsWriter w;
        w.add(b.intern("correlation"), ArgValue::integer(nextCorrelation++));
        b.addSlice(host, at, 10, b.intern("cudaLaunchKernel"), b.intern("cuda_runtime"), w);
        b.addSlice(stream, start, dur, b.intern(kernel), b.intern("kernel"), w);
    }
    // c10d::<op> [at, at + 900) > record_param_comms [at + 100, at + 800) > launch at at + 200.
    void collective(const char* op, TimeNs at, const Meta& m, const char* kernel, TimeNs kStart, TimeNs kDur) {
        host_(op, "cpu_op", at, 900);
        params(at + 100, 700, m);
        if (kernel) launch(at + 200, kernel, kStart, kDur, stream7);
    }
};

const CollectiveCall* callOfKind(const CollectivesResult& r, const std::string& kind, size_t nth = 0) {
    for (const CollectiveCall& c : r.calls)
        if (c.kind == kind && nth-- == 0) return &c;
    return nullptr;
}

}  // namespace

class TestCollectives : public QObject {
    Q_OBJECT

private slots:
    void sizesAndBandwidths();
    void summaryMedianAndP90();
    void overlapWithCompute();
    void withoutMetadata();
    void glooWorkerRuns();
    void stragglersBySeq();
    void stragglersByOrder();
    void stragglersSeqReset();
    void dtypeSizes();
    void recordedShapes();
    void glooRunsPairedByShape();
    void resultSharedByStore();
    void pageShowsTheStoreResult();
    void pageOfARun();
    void pagesOfRankSummaries();
};

// Groups of n = 4 unless said. Each call's kernel on stream 7, times in ns:
//  allreduce Float In 1000: S = 4000 B; kernel 4000 ns: algbw 1e9 B/s, busbw x 2*3/4 = 1.5e9.
//  _allgather_base BFloat16 In 500 Out 2000: S = Out x 2 = 4000 B; 2000 ns: 2e9, x 3/4 = 1.5e9.
//  _reduce_scatter_base Float In 4000 Out 1000: S = In x 4 = 16000 B; 8000 ns: 2e9, x 3/4 = 1.5e9.
//  broadcast Long In 100, n = 2: S = 800 B; 400 ns: 2e9, x 1 = 2e9.
//  all_to_all Half In 3000, n = 3: S = 6000 B; 3000 ns: 2e9, x 2/3 = 1.333...e9.
//  barrier (host only, no kernel): host op 900 ns, no size: time only.
//  a "wait" record_param_comms is no call.
void TestCollectives::sizesAndBandwidths() {
    Kineto k;
    k.collective("c10d::allreduce_", 1000, {"allreduce", "Float", 1000, 1000, 4}, "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
                 100000, 4000);
    k.collective("c10d::_allgather_base_", 3000, {"_allgather_base", "BFloat16", 500, 2000, 4},
                 "ncclDevKernel_AllGather_RING_LL", 110000, 2000);
    k.collective("c10d::_reduce_scatter_base_", 5000, {"_reduce_scatter_base", "Float", 4000, 1000, 4},
                 "ncclDevKernel_ReduceScatter_Sum_f32_RING_LL", 120000, 8000);
    k.collective("c10d::broadcast_", 7000, {"broadcast", "Long", 100, 100, 2}, "ncclDevKernel_Broadcast_RING_LL",
                 130000, 400);
    k.collective("c10d::alltoall_base_", 9000, {"all_to_all", "Half", 3000, 3000, 3}, "ncclDevKernel_SendRecv",
                 140000, 3000);
    k.collective("c10d::barrier", 11000, {"barrier", "Byte", 0, 0, 4}, nullptr, 0, 0);
    k.params(13000, 500, {"wait", "Float", 0, 0, 4});
    const std::shared_ptr<const Trace> t = k.b.finish();
    const CollectivesResult r = computeCollectives(classifyTrace(*t));

    QCOMPARE(r.calls.size(), size_t(6));
    QCOMPARE(r.rank, std::optional<int64_t>(0));
    QCOMPARE(r.commKernels, uint64_t(5));
    QCOMPARE(r.withMetadata, uint64_t(6));
    struct Expected {
        const char* kind;
        int64_t size;
        TimeNs dur;
        double algbw, busbw;
    };
    for (const Expected& e : {Expected{"allreduce", 4000, 4000, 1e9, 1.5e9}, Expected{"_allgather_base", 4000, 2000, 2e9, 1.5e9},
                              Expected{"_reduce_scatter_base", 16000, 8000, 2e9, 1.5e9},
                              Expected{"broadcast", 800, 400, 2e9, 2e9}, Expected{"all_to_all", 6000, 3000, 2e9, 4e9 / 3}}) {
        const CollectiveCall* c = callOfKind(r, e.kind);
        QVERIFY2(c, e.kind);
        QCOMPARE(c->sizeBytes, e.size);
        QCOMPARE(c->durationNs, e.dur);
        QCOMPARE(c->timeSource, CollectiveTimeSource::Kernel);
        QCOMPARE(c->kindSource, std::string("metadata"));
        QVERIFY2(qAbs(c->algbwBytesPerS - e.algbw) < 1e-3, e.kind);
        QVERIFY2(qAbs(c->busbwBytesPerS - e.busbw) < 1e-3, e.kind);
        QCOMPARE(c->kernels.size(), size_t(1));
        QVERIFY(c->hostOp.valid());
        QCOMPARE(std::string(t->str(t->tracks[c->hostOp.track].slices.name[c->hostOp.index])).substr(0, 6),
                 std::string("c10d::"));
    }
    const CollectiveCall* barrier = callOfKind(r, "barrier");
    QVERIFY(barrier);
    QCOMPARE(barrier->timeSource, CollectiveTimeSource::Host);
    QCOMPARE(barrier->durationNs, TimeNs(900));
    QCOMPARE(barrier->sizeBytes, int64_t(-1));
    QVERIFY(barrier->algbwBytesPerS < 0 && barrier->busbwBytesPerS < 0);
    QVERIFY(!callOfKind(r, "wait"));
}

// Three allreduce calls of 4000 B (n = 4) with kernels of 4000, 6000 and 11000 ns, one broadcast.
// Summary row allreduce: count 3, total 21000, median 6000, p90 at rank 0.9 x 2 = 1.8:
// 6000 + 0.8 x 5000 = 10000; algbw at the median: 4000 B / 6000 ns = 6.667e8 B/s, busbw x 1.5 = 1e9.
// Rows by total time: allreduce first.
void TestCollectives::summaryMedianAndP90() {
    Kineto k;
    const TimeNs kernels[] = {4000, 11000, 6000};
    for (int i = 0; i < 3; ++i)
        k.collective("c10d::allreduce_", 1000 + 2000 * i, {"allreduce", "Float", 1000, 1000, 4}, "ncclKernel_AllReduce",
                     100000 + 20000 * i, kernels[i]);
    k.collective("c10d::broadcast_", 9000, {"broadcast", "Float", 10, 10, 4}, "ncclKernel_Broadcast", 200000, 100);
    const std::shared_ptr<const Trace> t = k.b.finish();
    const CollectivesResult r = computeCollectives(classifyTrace(*t));
    QCOMPARE(r.summary.size(), size_t(2));
    const CollectiveSummaryRow& s = r.summary[0];
    QCOMPARE(s.kind, std::string("allreduce"));
    QCOMPARE(s.count, uint64_t(3));
    QCOMPARE(s.totalNs, TimeNs(21000));
    QCOMPARE(s.medianNs, TimeNs(6000));
    QCOMPARE(s.p90Ns, TimeNs(10000));
    QCOMPARE(s.sizeBytes, int64_t(4000));
    QCOMPARE(s.groupSize, int64_t(4));
    QVERIFY(qAbs(s.algbwBytesPerS - 4000.0 / 6000e-9) < 1e-3);
    QVERIFY(qAbs(s.busbwBytesPerS - 1e9) < 1e-3);
    QCOMPARE(r.summary[1].kind, std::string("broadcast"));
}

// Communication kernels on streams 7 and 9: A [100, 500), B [400, 700) (union [100, 700): 600 ns),
// C [1000, 1200) (200 ns): comm = 800 ns. Compute kernels on streams 8 and 9: X [0, 200), Y [650, 1100),
// Z [1050, 1150). Overlap: [100, 200) 100 + [650, 700) 50 + [1000, 1100) 100 + [1100, 1150) 50 =
// 300 ns: 37.5 %. Steps: ProfilerStep#1 [0, 600): comm [100, 600) 500, overlapped 100 (20 %);
// ProfilerStep#2 [600, 1300): comm 100 + 200 = 300, overlapped 50 + 150 = 200.
void TestCollectives::overlapWithCompute() {
    Kineto k;
    k.host_("ProfilerStep#1", "user_annotation", 0, 600);
    k.host_("ProfilerStep#2", "user_annotation", 600, 700);
    k.launch(10, "ncclKernel_AllReduce_A", 100, 400, k.stream7);
    k.launch(30, "ncclKernel_AllReduce_B", 400, 300, k.stream9);
    k.launch(50, "ncclKernel_AllReduce_C", 1000, 200, k.stream7);
    k.launch(70, "gemm_X", 0, 200, k.stream8);
    k.launch(650, "gemm_Y", 650, 450, k.stream8);
    k.launch(700, "gemm_Z", 1050, 100, k.stream9);
    const std::shared_ptr<const Trace> t = k.b.finish();
    const CollectivesResult r = computeCollectives(classifyTrace(*t));
    QCOMPARE(r.overlap.communicationNs, TimeNs(800));
    QCOMPARE(r.overlap.overlappedNs, TimeNs(300));
    QCOMPARE(r.overlap.percent(), 37.5);
    QCOMPARE(r.steps.size(), size_t(2));
    QCOMPARE(r.steps[0].overlap.communicationNs, TimeNs(500));
    QCOMPARE(r.steps[0].overlap.overlappedNs, TimeNs(100));
    QCOMPARE(r.steps[1].overlap.communicationNs, TimeNs(300));
    QCOMPARE(r.steps[1].overlap.overlappedNs, TimeNs(200));
    // The NCCL kernels were launched outside any collective op: calls of their own, named by kernel.
    QCOMPARE(r.kernelsWithoutCall, uint64_t(3));
    QCOMPARE(r.calls.size(), size_t(3));
    QCOMPARE(r.calls[0].kind, std::string("allreduce"));
    QCOMPARE(r.calls[0].kindSource, std::string("kernel name"));
}

// Older Kineto: record_param_comms without args inside c10d::allreduce_ (df_index_resolver's
// shape): one call per c10d op, kind from the op, timed by its kernel, no size or bandwidth.
// A gloo call (c10d::broadcast_ > gloo:broadcast, no kernel) is timed by its host op (900 ns).
void TestCollectives::withoutMetadata() {
    Kineto k;
    k.host_("c10d::allreduce_", "cpu_op", 1000, 900);
    k.host_("record_param_comms", "cpu_op", 1100, 700);
    k.host_("nccl:all_reduce", "user_annotation", 1150, 600);
    k.launch(1200, "ncclKernel_AllReduce_RING_LL_Sum_float", 5000, 2500, k.stream7);
    k.host_("c10d::broadcast_", "cpu_op", 3000, 900);
    k.host_("gloo:broadcast", "user_annotation", 3100, 500);
    const std::shared_ptr<const Trace> t = k.b.finish();
    const CollectivesResult r = computeCollectives(classifyTrace(*t));
    QCOMPARE(r.calls.size(), size_t(2));
    QCOMPARE(r.calls[0].kind, std::string("allreduce"));
    QCOMPARE(r.calls[0].kindSource, std::string("op"));
    QCOMPARE(r.calls[0].durationNs, TimeNs(2500));
    QCOMPARE(r.calls[0].timeSource, CollectiveTimeSource::Kernel);
    QCOMPARE(r.calls[0].sizeBytes, int64_t(-1));
    QVERIFY(r.calls[0].algbwBytesPerS < 0);
    QCOMPARE(r.calls[1].kind, std::string("broadcast"));
    QCOMPARE(r.calls[1].timeSource, CollectiveTimeSource::Host);
    QCOMPARE(r.calls[1].durationNs, TimeNs(900));
    QCOMPARE(r.withMetadata, uint64_t(0));
    QVERIFY(!r.notes.empty());
}

// gloo runs a call's work on its worker thread under "gloo:<kind>" (no c10d op around it there).
// Main thread: c10d::allreduce_ [1000, 1100), [2000, 2100), c10d::barrier [3000, 3050),
// record_param_comms allgather_into_tensor_coalesced [3500, 3600) (Float, Out 1000, n 2).
// Worker: gloo:all_reduce [1050, 1550) and [2200, 2500), gloo:barrier [3010, 3030),
// gloo:all_gather [3600, 3800), gloo:broadcast [4000, 4100) (no broadcast call: a call of its own).
// So: allreduce #1 runs 500 ns from 1050, #2 300 ns from 2200; barrier 20 ns; the coalesced
// all-gather pairs with gloo:all_gather (both "allgather"): 200 ns, S = 4000 B: algbw 2e10,
// busbw x 1/2 = 1e10; broadcast 100 ns alone. Five runs, one without a call.
void TestCollectives::glooWorkerRuns() {
    Kineto k;
    auto worker = [&](const char* name, TimeNs start, TimeNs dur) {
        k.b.addSlice(k.glooWorker, start, dur, k.b.intern(name), k.b.intern("user_annotation"));
    };
    k.host_("c10d::allreduce_", "cpu_op", 1000, 100);
    k.host_("c10d::allreduce_", "cpu_op", 2000, 100);
    k.host_("c10d::barrier", "cpu_op", 3000, 50);
    k.params(3500, 100, {"allgather_into_tensor_coalesced", "Float", 500, 1000, 2});
    worker("gloo:all_reduce", 1050, 500);
    worker("gloo:all_reduce", 2200, 300);
    worker("gloo:barrier", 3010, 20);
    worker("gloo:all_gather", 3600, 200);
    worker("gloo:broadcast", 4000, 100);
    const std::shared_ptr<const Trace> t = k.b.finish();
    const CollectivesResult r = computeCollectives(classifyTrace(*t));
    QCOMPARE(r.workerRuns, uint64_t(5));
    QCOMPARE(r.workerRunsWithoutCall, uint64_t(1));
    QCOMPARE(r.calls.size(), size_t(5));
    const CollectiveCall* a0 = callOfKind(r, "allreduce", 0);
    const CollectiveCall* a1 = callOfKind(r, "allreduce", 1);
    QVERIFY(a0 && a1);
    QCOMPARE(a0->timeSource, CollectiveTimeSource::Worker);
    QCOMPARE(a0->durationNs, TimeNs(500));
    QCOMPARE(a0->startNs - a0->hostStartNs, TimeNs(50));
    QCOMPARE(a1->durationNs, TimeNs(300));
    QCOMPARE(callOfKind(r, "barrier")->durationNs, TimeNs(20));
    const CollectiveCall* ag = callOfKind(r, "allgather_into_tensor_coalesced");
    QVERIFY(ag);
    QCOMPARE(ag->durationNs, TimeNs(200));
    QCOMPARE(ag->sizeBytes, int64_t(4000));
    QVERIFY(qAbs(ag->algbwBytesPerS - 2e10) < 1e-3);
    QVERIFY(qAbs(ag->busbwBytesPerS - 1e10) < 1e-3);
    const CollectiveCall* b = callOfKind(r, "broadcast");
    QVERIFY(b);
    QCOMPARE(b->timeSource, CollectiveTimeSource::Worker);
    QCOMPARE(b->durationNs, TimeNs(100));
    QVERIFY(!b->hostOp.valid() || b->workerSlice == b->hostOp);
}

// Three ranks, two allreduce calls each with Seq 1 and 2 (kernel starts are the arrivals):
//  Seq 1: rank 0 at 100000, rank 1 at 100200, rank 2 at 100900: skew 900, late rank 2,
//         induced wait (100900 - 100000) + (100900 - 100200) = 1600.
//  Seq 2: 200000, 200000, 200500: skew 500, late rank 2, induced 1000.
// Rank 2 induced 2600 over 2 calls; rank 0 waited 900 + 500 = 1400, rank 1 700 + 500 = 1200.
// A third call only rank 0 made (Seq 3) is unmatched.
void TestCollectives::stragglersBySeq() {
    const TimeNs arrivals[3][2] = {{100000, 200000}, {100200, 200000}, {100900, 200500}};
    std::vector<RankCollectives> ranks;
    std::vector<std::shared_ptr<const Trace>> traces;
    for (int rank = 0; rank < 3; ++rank) {
        Kineto k(rank);
        for (int i = 0; i < 2; ++i)
            k.collective("c10d::allreduce_", 1000 + 3000 * i, {"allreduce", "Float", 10, 10, 3, 1 + i},
                         "ncclKernel_AllReduce", arrivals[rank][i], 1000);
        if (rank == 0) k.collective("c10d::allreduce_", 9000, {"allreduce", "Float", 10, 10, 3, 3}, "ncclKernel_AllReduce", 300000, 10);
        // Keep every trace's time 0 at 0 so that the arrivals compare as written.
        k.host_("start", "user_annotation", 0, 1);
        traces.push_back(k.b.finish());
        RankCollectives rc;
        rc.name = "rank " + std::to_string(rank);
        rc.rank = rank;
        rc.result = std::make_shared<const CollectivesResult>(computeCollectives(classifyTrace(*traces.back())));
        ranks.push_back(rc);
    }
    const StragglerResult s = matchCollectives(ranks);
    QVERIFY(s.bySeq);
    QCOMPARE(s.collectives.size(), size_t(2));
    QCOMPARE(s.collectives[0].seq, std::optional<int64_t>(1));
    QCOMPARE(s.collectives[0].skewNs, TimeNs(900));
    QCOMPARE(s.collectives[0].lateRank, size_t(2));
    QCOMPARE(s.collectives[0].inducedWaitNs, TimeNs(1600));
    QCOMPARE(s.collectives[1].skewNs, TimeNs(500));
    QCOMPARE(s.collectives[1].inducedWaitNs, TimeNs(1000));
    QCOMPARE(s.ranks[0].rank, size_t(2));
    QCOMPARE(s.ranks[0].inducedWaitNs, TimeNs(2600));
    QCOMPARE(s.ranks[0].lateCount, uint64_t(2));
    for (const RankWait& w : s.ranks) {
        if (w.rank == 0) QCOMPARE(w.waitedNs, TimeNs(1400));
        if (w.rank == 1) QCOMPARE(w.waitedNs, TimeNs(1200));
        if (w.rank == 2) QCOMPARE(w.waitedNs, TimeNs(0));
    }
    QCOMPARE(s.unmatchedCalls, uint64_t(1));
}

// A Seq counter that starts again (a process group made anew with the same name): Seq 1, 2, then
// 1, 2 again on both ranks. The second Seq 1 is matched with the other rank's second Seq 1, not
// with its first: rank 1 arrives at 1000, 2000, 3000 + 700, 4000 (rank 0 at 1000 … 4000), so the
// only skew is 700 at the second Seq 1.
void TestCollectives::stragglersSeqReset() {
    std::vector<RankCollectives> ranks;
    std::vector<std::shared_ptr<const Trace>> traces;
    for (int rank = 0; rank < 2; ++rank) {
        Kineto k(rank);
        for (int i = 0; i < 4; ++i)
            k.collective("c10d::allreduce_", 100 + 1000 * i, {"allreduce", "Float", 10, 10, 2, 1 + i % 2},
                         "ncclKernel_AllReduce", 1000 * (i + 1) + (rank == 1 && i == 2 ? 700 : 0), 100);
        k.host_("start", "user_annotation", 0, 1);
        traces.push_back(k.b.finish());
        RankCollectives rc;
        rc.name = "rank " + std::to_string(rank);
        rc.rank = rank;
        rc.result = std::make_shared<const CollectivesResult>(computeCollectives(classifyTrace(*traces.back())));
        ranks.push_back(rc);
    }
    const StragglerResult s = matchCollectives(ranks);
    QVERIFY(s.bySeq);
    QCOMPARE(s.collectives.size(), size_t(4));
    QCOMPARE(s.unmatchedCalls, uint64_t(0));
    for (size_t i = 0; i < 4; ++i) QCOMPARE(s.collectives[i].skewNs, TimeNs(i == 2 ? 700 : 0));
    QCOMPARE(s.collectives[2].seq, std::optional<int64_t>(1));
    QCOMPARE(s.collectives[2].lateRank, size_t(1));
}

// gloo traces without Seq: calls matched by order within (group, kind). Two ranks, host-timed:
// allreduce #0 at 1000 / 1000 + 300 (offset 300 on rank 1): skew 300, late rank 1;
// broadcast #0 at 5000 / 4800 + 300 = 5100: skew 100, late rank 1; allreduce #1 at 9000 / 8000 + 300:
// rank 0 late by 700. Rank 1 induced 400, rank 0 700: rank 0 first.
void TestCollectives::stragglersByOrder() {
    std::vector<RankCollectives> ranks;
    std::vector<std::shared_ptr<const Trace>> traces;
    const TimeNs starts[2][3] = {{1000, 5000, 9000}, {1000, 4800, 8000}};
    for (int rank = 0; rank < 2; ++rank) {
        Kineto k(rank);
        k.host_("start", "user_annotation", 0, 1);
        k.host_("c10d::allreduce_", "cpu_op", starts[rank][0], 100);
        k.host_("c10d::broadcast_", "cpu_op", starts[rank][1], 100);
        k.host_("c10d::allreduce_", "cpu_op", starts[rank][2], 100);
        traces.push_back(k.b.finish());
        RankCollectives rc;
        rc.name = "rank " + std::to_string(rank);
        rc.rank = rank;
        rc.offsetNs = rank == 1 ? 300 : 0;
        rc.result = std::make_shared<const CollectivesResult>(computeCollectives(classifyTrace(*traces.back())));
        ranks.push_back(rc);
    }
    const StragglerResult s = matchCollectives(ranks);
    QVERIFY(!s.bySeq);
    QCOMPARE(s.collectives.size(), size_t(3));
    QCOMPARE(s.collectives[0].kind, std::string("allreduce"));
    QCOMPARE(s.collectives[0].skewNs, TimeNs(300));
    QCOMPARE(s.collectives[0].lateRank, size_t(1));
    QCOMPARE(s.collectives[1].kind, std::string("broadcast"));
    QCOMPARE(s.collectives[1].skewNs, TimeNs(100));
    QCOMPARE(s.collectives[2].skewNs, TimeNs(700));
    QCOMPARE(s.collectives[2].lateRank, size_t(0));
    QCOMPARE(s.ranks[0].rank, size_t(0));
    QCOMPARE(s.ranks[0].inducedWaitNs, TimeNs(700));
    QCOMPARE(s.ranks[1].inducedWaitNs, TimeNs(400));
}

// "Input Dims" as PyTorch writes them (record_shapes), and hostile text.
void TestCollectives::recordedShapes() {
    using V = std::vector<int64_t>;
    QCOMPARE(argumentElements("[[[1000003]], [], [], [], [], []]"), (V{1000003, -1, -1, -1, -1, -1}));
    QCOMPARE(argumentElements("[[262144], [65536], [], []]"), (V{262144, 65536, -1, -1}));
    QCOMPARE(argumentElements("[[2, 3], [[4], [5, 6]], []]"), (V{6, 34, -1}));
    QCOMPARE(argumentElements("[[0, 7]]"), (V{0}));
    QCOMPARE(argumentElements(" [ [ 8 ] ] "), (V{8}));
    for (const char* bad : {"", "[", "[[1]", "[[1]]]", "[[a]]", "7", "[[99999999999999999999]]",
                            "[[[[[[[[[[[1]]]]]]]]]]]"})
        QVERIFY2(argumentElements(bad).empty(), bad);
    QCOMPARE(argumentElements("[[4294967296, 4294967296]]"), (V{-1}));  // overflow: unknown
    QCOMPARE(argumentElements("[[-3]]"), (V{-1}));
    QCOMPARE(dtypeOfCppType("float"), std::string("Float"));
    QCOMPARE(dtypeOfCppType("c10::BFloat16"), std::string("BFloat16"));
    QCOMPARE(dtypeOfCppType("long int"), std::string("Long"));
    QCOMPARE(dtypeOfCppType("TensorList"), std::string());
    QCOMPARE(firstListString("[\"TensorList\", \"\", \"Scalar\"]"), std::string("TensorList"));
    QCOMPARE(firstListString("[\"float\", \"long int\"]", 1), std::string("long int"));
    QCOMPARE(firstListString("[\"unterminated"), std::string());
    const CallElements base = c10dCallElements("_allgather_base", {262144, 65536, -1});
    QCOMPARE(base.in, int64_t(65536));
    QCOMPARE(base.out, int64_t(262144));
    const CallElements list = c10dCallElements("allgather", {-1, 10000, -1});
    QCOMPARE(list.in, int64_t(10000));
    QCOMPARE(list.out, int64_t(-1));
    QCOMPARE(c10dCallElements("barrier", {1}).in, int64_t(-1));
    QCOMPARE(c10dCallElements("allreduce", {}).in, int64_t(-1));
}

// A gloo trace with shapes: two groups (two worker threads each, made in pg_config's order),
// calls paired with runs by group and element count, a tensor's reduce-scatter run as an
// all-reduce of its whole input, sizes from the shapes.
void TestCollectives::glooRunsPairedByShape() {
    TraceBuilder b("chrome-json");
    b.addMetadata("distributedInfo",
                  "{\"backend\": \"gloo\", \"rank\": 0, \"world_size\": 4, \"pg_config\": ["
                  "{\"pg_name\": \"0\", \"pg_size\": 4, \"ranks\": [0, 1, 2, 3]}, {\"pg_name\": \"1\", \"pg_size\": 2, \"ranks\": [0, 1]}]}");
    const auto h = b.addProcess(ProcessKind::Host, 1, "python3");
    const TrackIndex main = b.addTrack(h, TrackKind::Thread, "main", 10);
    const TrackIndex w[4] = {b.addTrack(h, TrackKind::Thread, "thread 31 (pt_gloo_runloop)", 31),
                             b.addTrack(h, TrackKind::Thread, "thread 30 (pt_gloo_runloop)", 30),
                             b.addTrack(h, TrackKind::Thread, "thread 40 (pt_gloo_runloop)", 40),
                             b.addTrack(h, TrackKind::Thread, "thread 41 (pt_gloo_runloop)", 41)};
    auto op = [&](TrackIndex track, const char* name, TimeNs start, TimeNs dur, const char* dims, const char* types) {
        ArgsWriter a;
        a.add(b.intern("Input Dims"), ArgValue::json(b.intern(dims)));
        a.add(b.intern("Input type"), ArgValue::json(b.intern(types)));
        b.addSlice(track, start, dur, b.intern(name), b.intern(track == main ? "cpu_op" : "user_annotation"), a);
    };
    // Issued in this order: all-reduce of 100 floats on group 1, all-reduce of 200 on group 0,
    // reduce-scatter of 400 floats (100 out) on group 0. Group 1's run starts first, on its thread.
    op(main, "c10d::allreduce_", 1000, 50, "[[[100]], [], []]", "[\"TensorList\", \"\", \"\"]");
    op(main, "c10d::allreduce_", 1100, 50, "[[[200]], [], []]", "[\"TensorList\", \"\", \"\"]");
    op(main, "c10d::_reduce_scatter_base_", 1200, 50, "[[100], [400], []]", "[\"float\", \"float\", \"\"]");
    op(w[0], "gloo:all_reduce", 1300, 400, "[[200]]", "[\"float\"]");  // thread 31: group 0
    op(w[2], "gloo:all_reduce", 1010, 100, "[[100]]", "[\"float\"]");  // thread 40: group 1
    op(w[1], "gloo:all_reduce", 1800, 800, "[[400]]", "[\"float\"]");  // thread 30: group 0
    const std::shared_ptr<const Trace> t = b.finish();
    const CollectivesResult r = computeCollectives(classifyTrace(*t));
    QCOMPARE(r.calls.size(), size_t(3));
    QCOMPARE(r.workerRunsWithoutCall, uint64_t(0));
    QVERIFY(r.glooGroupsFromThreads);
    const CollectiveCall* small = callOfKind(r, "allreduce", 0);
    const CollectiveCall* big = callOfKind(r, "allreduce", 1);
    const CollectiveCall* rs = callOfKind(r, "_reduce_scatter_base");
    QVERIFY(small && big && rs);
    QCOMPARE(small->group, std::string("1"));
    QCOMPARE(small->groupSize, int64_t(2));
    QCOMPARE(small->durationNs, TimeNs(100));
    QCOMPARE(small->sizeBytes, int64_t(400));
    QCOMPARE(small->busFactor, 1.0);  // 2(n - 1)/n, n = 2
    QCOMPARE(big->group, std::string("0"));
    QCOMPARE(big->durationNs, TimeNs(400));
    QCOMPARE(big->sizeBytes, int64_t(800));
    QCOMPARE(rs->durationNs, TimeNs(800));
    QCOMPARE(rs->sizeBytes, int64_t(1600));  // the total before scattering
    QCOMPARE(rs->outNelems, int64_t(100));
    QCOMPARE(rs->timeSource, CollectiveTimeSource::Worker);
}

void TestCollectives::dtypeSizes() {
    QCOMPARE(dtypeBytes("Float"), 4);
    QCOMPARE(dtypeBytes("BFloat16"), 2);
    QCOMPARE(dtypeBytes("Double"), 8);
    QCOMPARE(dtypeBytes("Float8_e4m3fn"), 1);
    QCOMPARE(dtypeBytes("Long"), 8);
    QCOMPARE(dtypeBytes("NoSuchType"), 0);
    // An unknown dtype leaves the size unknown; n = 1 makes all-reduce's bus factor 0.
    CollectiveCall c;
    c.kind = "allreduce";
    c.dtype = "NoSuchType";
    c.inNelems = 10;
    c.groupSize = 1;
    sizeCollective(c);
    QCOMPARE(c.sizeBytes, int64_t(-1));
    QVERIFY(c.busFactorKnown);
    QCOMPARE(c.busFactor, 0.0);
    // A huge element count does not overflow.
    c.dtype = "Double";
    c.inNelems = std::numeric_limits<int64_t>::max() / 4;
    sizeCollective(c);
    QCOMPARE(c.sizeBytes, int64_t(-1));
}

void TestCollectives::resultSharedByStore() {
    Kineto k;
    k.collective("c10d::allreduce_", 1000, {"allreduce", "Float", 1000, 1000, 4}, "ncclKernel_AllReduce", 5000, 100);
    std::shared_ptr<const Trace> t = k.b.finish();
    std::shared_ptr<ResultStore> store = ResultStore::of(t);
    const auto a = collectivesOf(*store);
    const auto b = collectivesOf(*store);
    QCOMPARE(a.get(), b.get());
    QCOMPARE(a->calls.size(), size_t(1));
}

// The page shows the store's result (not a copy computed again): a row per summary group and per
// call, the overlap in its headline; a double click on a call highlights its host op and kernel;
// a trace without collectives says so.
void TestCollectives::pageShowsTheStoreResult() {
    Kineto k;
    k.collective("c10d::allreduce_", 1000, {"allreduce", "Float", 1000, 1000, 4}, "ncclKernel_AllReduce", 5000, 4000);
    k.collective("c10d::broadcast_", 3000, {"broadcast", "Float", 10, 10, 4}, "ncclKernel_Broadcast", 10000, 100);
    k.launch(20, "gemm", 6000, 1000, k.stream8);  // overlaps the all-reduce kernel for 1000 of 4100 ns
    std::shared_ptr<const Trace> t = k.b.finish();
    CollectivesView page;
    page.resize(1280, 800);
    page.show();
    page.setTrace(t);
    QVERIFY(QTest::qWaitFor([&] { return page.state() == AnalysisView::State::Done; }, 20000));
    QCOMPARE(page.result(), collectivesOf(*ResultStore::of(t)).get());
    QCOMPARE(page.callsTable()->view()->model()->rowCount(), 2);
    QCOMPARE(page.summaryTable()->view()->model()->rowCount(), 2);
    QVERIFY2(page.summaryText().contains(QStringLiteral("24.4 %")), qPrintable(page.summaryText()));
    TraceSelection selection;
    page.setSelection(&selection);
    std::vector<SliceRef> highlighted;
    connect(&selection, &TraceSelection::slicesHighlighted, this,
            [&](std::vector<SliceRef> slices, QString) { highlighted = std::move(slices); });
    emit page.callsTable()->sourceRowActivated(0);
    const CollectiveCall& first = page.result()->calls[0];
    QCOMPARE(highlighted, (std::vector<SliceRef>{first.hostOp, first.kernels[0]}));

    Kineto none;
    none.host_("aten::mm", "cpu_op", 0, 100);
    page.setTrace(none.b.finish());
    QVERIFY(QTest::qWaitFor([&] { return page.state() != AnalysisView::State::Queued &&
                                         page.state() != AnalysisView::State::Running; }, 20000));
    QVERIFY(!page.result() || page.result()->calls.empty());
}

// The four gloo ranks opened together (tests/data/peers/collectives): the page matches their
// collectives, draws the heat map, names the straggler the program made (rank 2, which slept before
// the second all-reduce of every step), switches the tables between ranks, and a heat map cell
// shows that rank's call in the timeline at its time on the run's clock.
void TestCollectives::pageOfARun() {
    std::vector<std::string> files;
    for (int r = 0; r < 4; ++r)
        files.push_back(std::string(TRACESCOPE_SOURCE_DIR) + "/tests/data/peers/collectives/gloo_rank" +
                        std::to_string(r) + ".pt.trace.json.gz");
    MultiWorkerResult imported = importWorkers(files);
    QVERIFY(imported.ok());
    auto run = std::make_shared<MultiWorkerRun>(std::move(imported.run));
    std::shared_ptr<const Trace> merged(mergeWorkers(*run));
    CollectivesView view;
    view.resize(1280, 800);
    view.show();
    QSignalSpy ready(&view, &AnalysisView::resultReady);
    view.setRun(run);
    view.setTrace(merged);
    QVERIFY(ready.wait(30000));
    const RunCollectives* r = view.runResult();
    QVERIFY(r);
    QCOMPARE(r->ranks.size(), size_t(4));
    QCOMPARE(r->stragglers.collectives.size(), size_t(30));  // 10 a step on ranks 0 and 1, 3 steps
    QCOMPARE(r->ranks[r->stragglers.ranks.front().rank].name, std::string("rank 2"));
    QVERIFY(view.summaryText().contains("<b>rank 2</b> kept the others waiting longest"));
    QCOMPARE(view.result()->calls.size(), size_t(30));  // rank 0's
    auto* rank = view.findChild<QComboBox*>();
    QVERIFY(rank && rank->isVisible());
    rank->setCurrentIndex(2);
    QCOMPARE(view.result()->calls.size(), size_t(27));  // rank 2 is not in the [0, 1] group
    QVERIFY(view.summaryText().contains("rank 2: <b>27</b> collective calls"));

    // The second all-reduce of group 0: rank 2 arrived last, by most of its 30 ms sleep.
    size_t c = 0;
    while (c < r->stragglers.collectives.size() &&
           !(r->stragglers.collectives[c].kind == "allreduce" && r->stragglers.collectives[c].ordinal == 1))
        ++c;
    QVERIFY(c < r->stragglers.collectives.size());
    const MatchedCollective& m = r->stragglers.collectives[c];
    QCOMPARE(m.lateRank, size_t(2));
    QVERIFY(m.skewNs > 15'000'000);
    QVERIFY(*lateness(m, 2) == m.skewNs);
    QVERIFY(view.heatmap()->cellText(2, c).contains("arrived"));
    QSignalSpy open(&view, &CollectivesView::openInTimeline);
    emit view.heatmap()->cellClicked(2, int(c));
    QCOMPARE(open.count(), 1);
    const CollectiveCall& call = r->ranks[2].result->calls[*m.calls[2]];
    QCOMPARE(open.at(0).at(0).toString(), QString("rank 2: "));
    QCOMPARE(open.at(0).at(1).toLongLong(), qint64(call.startNs + r->ranks[2].offsetNs));
    QCOMPARE(open.at(0).at(1).toLongLong(), qint64(m.arrivalNs[2]));
    if (qEnvironmentVariableIsSet("TRACESCOPE_TEST_SHOTS"))
        view.grab().save(qEnvironmentVariable("TRACESCOPE_TEST_SHOTS") + "/collectives_run.png");
}

// The same four ranks as summaries (what tracescope-pod writes, with an index naming the traces):
// the Collectives page finds the same stragglers as from the traces, the Pod page the same steps,
// and choosing a rank asks for its trace.
void TestCollectives::pagesOfRankSummaries() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    std::vector<std::string> traces;
    nlohmann::json index = {{"schema", "tracescope-pod-index"}, {"schema_version", 1}, {"ranks", nlohmann::json::array()}};
    for (int r = 0; r < 4; ++r) {
        const std::string trace = std::string(TRACESCOPE_SOURCE_DIR) + "/tests/data/peers/collectives/gloo_rank" +
                                  std::to_string(r) + ".pt.trace.json.gz";
        ImportResult imported = importTrace(trace);
        QVERIFY(imported.ok());
        const std::shared_ptr<const Trace> t(std::move(imported.trace));
        RankSummaryFile file;
        file.name = "gloo_rank" + std::to_string(r) + ".pt.trace.json.gz";
        file.rank = r;
        const std::string name = "rank" + std::to_string(r) + ".summary.json";
        std::ofstream((dir.path() + "/").toStdString() + name) << rankSummaryJson(*ResultStore::of(t), file, "test");
        index["ranks"].push_back({{"rank", r}, {"file", trace}, {"summary", name}});
        traces.push_back(trace);
    }
    std::ofstream(dir.filePath("index.json").toStdString()) << index;
    const std::vector<std::string> paths = summaryPaths({dir.path().toStdString()});
    QCOMPARE(paths.size(), size_t(4));
    auto summaries = std::make_shared<const SummaryRun>(loadSummaryRun(paths));
    QCOMPARE(summaries->ranks.size(), size_t(4));
    QVERIFY(summaries->warnings.empty());
    QCOMPARE(summaries->ranks[2].tracePath, traces[2]);

    // From the traces, for comparison.
    MultiWorkerResult imported = importWorkers(traces);
    QVERIFY(imported.ok());
    const RunCollectives fromTraces = runCollectivesOf(imported.run, nullptr);

    const std::shared_ptr<const Trace> empty(TraceBuilder("rank summaries").finish());
    CollectivesView view;
    view.resize(1280, 800);
    view.show();
    QSignalSpy ready(&view, &AnalysisView::resultReady);
    view.setSummaryRun(summaries);
    view.setTrace(empty);
    QVERIFY(ready.wait(30000));
    const RunCollectives* r = view.runResult();
    QVERIFY(r);
    QCOMPARE(r->stragglers.collectives.size(), fromTraces.stragglers.collectives.size());
    QCOMPARE(r->stragglers.ranks.size(), size_t(4));
    for (size_t i = 0; i < 4; ++i) {
        QCOMPARE(r->stragglers.ranks[i].rank, fromTraces.stragglers.ranks[i].rank);
        QCOMPARE(r->stragglers.ranks[i].inducedWaitNs, fromTraces.stragglers.ranks[i].inducedWaitNs);
    }
    QVERIFY(view.summaryText().contains("From the ranks' summaries"));
    // The overlap per step travels in the summary: the same steps as from the trace.
    QCOMPARE(r->ranks[0].result->steps.size(), fromTraces.ranks[0].result->steps.size());
    QCOMPARE(r->ranks[0].result->steps.size(), size_t(3));
    QSignalSpy open(&view, &CollectivesView::openRankTrace);
    emit view.heatmap()->cellClicked(2, 1);
    QCOMPARE(open.count(), 1);
    QCOMPARE(open.at(0).at(0).toString(), QString::fromStdString(traces[2]));

    PodView pod;
    pod.resize(1280, 800);
    pod.show();
    QSignalSpy podReady(&pod, &AnalysisView::resultReady);
    pod.setSummaryRun(summaries);
    pod.setTrace(empty);
    QVERIFY(podReady.wait(30000));
    QVERIFY(pod.result());
    QCOMPARE(pod.result()->workers.size(), size_t(4));
    QCOMPARE(pod.result()->steps.size(), size_t(3));  // ProfilerStep#1..3
    QVERIFY(pod.summaryText().contains("from their rank summaries"));
}

QTEST_MAIN(TestCollectives)
#include "tst_collectives.moc"
