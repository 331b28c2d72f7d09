// Analyses on hand-built traces: every expected number below is worked out by hand in
// the comments next to it.
#include "model/analysis/input_pipeline.h"
#include "model/analysis/kernel_stats.h"
#include "model/analysis/op_stats.h"
#include "model/analysis/overview.h"
#include "model/analysis/scope_tree.h"
#include "model/analysis/self_time.h"
#include "model/analysis/steps.h"
#include "model/trace/import_warning.h"
#include "model/trace/trace_builder.h"

#include <QtTest>

#include <algorithm>

using namespace tracescope;

namespace {

const OpStatsRow* findRow(const OpStatsResult& r, OpSide side, const std::string& name) {
    for (const auto& row : r.rows)
        if (row.side == side && row.name == name) return &row;
    return nullptr;
}

const ScopeNode* findNode(const ScopeTree& t, const std::string& path) {
    for (const auto& n : t.nodes)
        if (n.path == path) return &n;
    return nullptr;
}

}  // namespace

class TestAnalysisUnits : public QObject {
    Q_OBJECT

private slots:
    // A [0,100) > B [10,40) > C [15,25);  A > python P [50,90) > D [60,80).
    // Self: A = 100 - 30 (B) - 20 (D, through the transparent P) = 50; B = 30 - 10 = 20; C = 10; D = 20.
    void selfTimeNested() {
        TraceBuilder b("chrome-json");
        const auto p = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto t = b.addTrack(p, TrackKind::Thread, "main", 1);
        const StringId op = b.intern("cpu_op"), py = b.intern("python_function");
        b.addSlice(t, 0, 100, b.intern("A"), op);
        b.addSlice(t, 10, 30, b.intern("B"), op);
        b.addSlice(t, 15, 10, b.intern("C"), op);
        b.addSlice(t, 50, 40, b.intern("P"), py);
        b.addSlice(t, 60, 20, b.intern("D"), op);
        auto trace = b.finish();
        QVERIFY(trace);
        const OpStatsResult r = computeOpStats(*trace);
        const std::pair<const char*, TimeNs> expected[] = {{"A", 50}, {"B", 20}, {"C", 10}, {"D", 20}};
        for (const auto& [name, self] : expected) {
            const OpStatsRow* row = findRow(r, OpSide::Host, name);
            QVERIFY2(row, name);
            QCOMPARE(row->selfNs, self);
            QCOMPARE(row->occurrences, uint64_t(1));
        }
        QVERIFY(!findRow(r, OpSide::Host, "P"));  // python frames are not ops
        // Host idle: ops span [0,100) fully covered by A -> no idle row.
        QCOMPARE(r.hostIdleNs, TimeNs(0));
        // Self % of host total (50+20+10+20 = 100): A = 50 %, cumulative in row order.
        QCOMPARE(r.rows.front().name, std::string("A"));
        QCOMPARE(r.rows.front().selfPercent, 50.0);
        QCOMPARE(r.rows.back().cumulativeSelfPercent, 100.0);

        // The raw pass with every slice counted: P is then a real parent of D.
        const Track& tr = trace->tracks[trace->processes[0].tracks[0]];
        const auto self = computeSelfTimes(tr.slices);
        // Sorted order: A, B, C, P, D.  A = 100-30-40 = 30, B = 20, C = 10, P = 40-20 = 20, D = 20.
        QCOMPARE(self, (std::vector<TimeNs>{30, 20, 10, 20, 20}));
    }

    void selfTimeEqualStartAndZeroLength() {
        // Parent X [0,50) and child Y [0,50) (same start and end), Y has a zero-length child Z at 10.
        TraceBuilder b("chrome-json");
        const auto p = b.addProcess(ProcessKind::Host, 1, "p");
        const auto t = b.addTrack(p, TrackKind::Thread, "t", 1);
        const StringId op = b.intern("cpu_op");
        b.addSlice(t, 0, 50, b.intern("X"), op);
        b.addSlice(t, 0, 50, b.intern("Y"), op);
        b.addSlice(t, 10, 0, b.intern("Z"), op);
        auto trace = b.finish();
        const OpStatsResult r = computeOpStats(*trace);
        const OpStatsRow* x = findRow(r, OpSide::Host, "X");
        const OpStatsRow* y = findRow(r, OpSide::Host, "Y");
        QVERIFY(x && y);
        // One of them is the parent (0 self), the other keeps all 50 ns; never negative.
        QCOMPARE(x->selfNs + y->selfNs, TimeNs(50));
        QVERIFY(x->selfNs >= 0 && y->selfNs >= 0);
    }

    void unionLengthOverlaps() {
        QCOMPARE(unionLength({{0, 10}, {5, 15}, {20, 30}, {25, 26}, {40, 40}}), TimeNs(25));
        QCOMPARE(unionLength({}), TimeNs(0));
    }

    void kernelDetailsVariants() {
        KernelLaunchParams p;
        QVERIFY(parseKernelDetails(
            "regs:168 static_shared:16 dynamic_shared:231424 grid:128,1,1 block:384,1,1 occ_pct:18.75", p));
        QCOMPARE(p.registersPerThread, 168u);
        QCOMPARE(p.sharedMemBytes(), uint64_t(231440));
        QCOMPARE(p.grid, (Dim3{128, 1, 1}));
        QCOMPARE(p.block, (Dim3{384, 1, 1}));
        QVERIFY(p.occupancyPct && *p.occupancyPct == 18.75);

        KernelLaunchParams old;
        QVERIFY(parseKernelDetails("regs:38 shm:0 grid:160,1,1 block:1024,1,1", old));
        QCOMPARE(old.registersPerThread, 38u);
        QCOMPARE(old.grid, (Dim3{160, 1, 1}));
        QCOMPARE(old.block, (Dim3{1024, 1, 1}));
        QVERIFY(!old.occupancyPct);

        KernelLaunchParams rocm;
        QVERIFY(parseKernelDetails(" grid:64,2,3 block:256,1,1 private_mem:32 group_mem:4096 occ_pct:50", rocm));
        QCOMPARE(rocm.grid, (Dim3{64, 2, 3}));
        QCOMPARE(rocm.sharedMemBytes(), uint64_t(4096));
        QCOMPARE(rocm.privateMemBytes, uint64_t(32));
        QCOMPARE(*rocm.occupancyPct, 50.0);

        // Garbage: nothing recognized, defaults kept (block/grid 1,1,1), no crash.
        KernelLaunchParams g;
        QVERIFY(!parseKernelDetails("grid:abc block:1,2,3,4 regs:-5 :::: \xff\xfe", g));
        QCOMPARE(g.grid, (Dim3{1, 1, 1}));
        QCOMPARE(g.block, (Dim3{1, 1, 1}));
        QCOMPARE(g.registersPerThread, 0u);
        KernelLaunchParams huge;
        parseKernelDetails("regs:99999999999999999999999 grid:4294967296,1,1", huge);
        QCOMPARE(huge.registersPerThread, 0u);
        QCOMPARE(huge.grid, (Dim3{1, 1, 1}));

        Dim3 d;
        QVERIFY(parseDim3("[128, 2, 1]", d));
        QCOMPARE(d, (Dim3{128, 2, 1}));
        QVERIFY(parseDim3("7", d));
        QCOMPARE(d, (Dim3{7, 1, 1}));
        QVERIFY(!parseDim3("[]", d));
    }

    void tensorCoreRules() {
        QVERIFY(kernelUsesTensorCore("volta_h884gemm_64x64_ldg8_nn"));
        QVERIFY(kernelUsesTensorCore("sm90_xmma_gemm_f16f16_f32"));
        QVERIFY(kernelUsesTensorCore("turing_fp16_s1688gemm_fp16_128x128"));
        QVERIFY(kernelUsesTensorCore("ampere_i16832gemm"));
        QVERIFY(!kernelUsesTensorCore("volta_sgemm_128x64_nn"));
        QVERIFY(!kernelUsesTensorCore("void at::native::vectorized_elementwise_kernel"));

        QVERIFY(opIsTensorCoreEligible("model/conv1/Conv2D"));
        QVERIFY(opIsTensorCoreEligible("model/dense/MatMul"));
        QVERIFY(opIsTensorCoreEligible("gradients/Conv2DBackpropFilter"));
        QVERIFY(opIsTensorCoreEligible("a/BatchMatMulV2"));
        QVERIFY(opIsTensorCoreEligible("x/CudnnRNNV3"));
        QVERIFY(opIsTensorCoreEligible("einsum/Einsum", "ab,bc->ac"));
        QVERIFY(!opIsTensorCoreEligible("einsum/Einsum", "ab->ba"));
        QVERIFY(!opIsTensorCoreEligible("MatMulHelper"));  // "/MatMul" needs the slash
        QVERIFY(!opIsTensorCoreEligible("model/relu/Relu"));
        QVERIFY(opIsTensorCoreEligible("model/dense/MatMul:MatMul"));
        QVERIFY(opIsTensorCoreEligible("replica_4/layer/einsum_1:BatchMatMulV2"));
        QVERIFY(!opIsTensorCoreEligible("model/relu/Relu:Relu"));
        QVERIFY(opIsTensorCoreEligible("aten::mm"));
        QVERIFY(opIsTensorCoreEligible("aten::cudnn_convolution"));
        QVERIFY(opIsTensorCoreEligible("aten::scaled_dot_product_attention"));
        QVERIFY(!opIsTensorCoreEligible("aten::relu"));
        QVERIFY(!opIsTensorCoreEligible("aten::_foreach_addcmul_"));
    }

    void inputBoundThresholds() {
        QCOMPARE(classifyInputBound(25, 0, true), InputBound::Highly);
        QCOMPARE(classifyInputBound(20, 0, true), InputBound::Highly);
        QCOMPARE(classifyInputBound(19.9, 0, true), InputBound::Moderately);
        QCOMPARE(classifyInputBound(5, 0, true), InputBound::Moderately);
        QCOMPARE(classifyInputBound(4.9, 3, true), InputBound::Potentially);
        QCOMPARE(classifyInputBound(4.9, 2.9, true), InputBound::NotInputBound);
        QCOMPARE(classifyInputBound(50, 50, false), InputBound::Unknown);

        Overview none;
        const auto rec = recommendationsFor(none);
        QCOMPARE(rec.size(), size_t(1));
        QVERIFY(rec[0].rfind("No step marker observed", 0) == 0);

        Overview o;
        o.steps.steps.resize(2);
        o.inputPercent = 30;
        o.inputBound = InputBound::Highly;
        o.kernelLaunchPercent = 16;
        const auto r2 = recommendationsFor(o);
        QVERIFY(r2[0].find("HIGHLY input-bound") != std::string::npos);
        QVERIFY(r2[0].find("30.0%") != std::string::npos);
        QVERIFY(r2[1].find("kernel launch") != std::string::npos);
    }

    // One ProfilerStep#7 [0,1000) with, by hand:
    //   DataLoader annotation [0,50)      -> Input (host wait input)
    //   cudaLaunchKernel      [50,60)     -> Kernel launch
    //   cpu_op                [60,100)    -> Host compute
    //   cpu_op                [150,250)   -> hidden under the kernel (device compute wins)
    //   kernel                [100,400)   -> Device compute (32-bit)
    //   Memcpy HtoD           [400,500)   -> Input (host to device)
    //   kernel (half)         [600,650)   -> Device compute (16-bit)
    //   nothing               [500,600) + [650,1000) -> All others = 450
    // Input = 50 + 100 = 150, launch 10, host 40, device compute 300 + 50 = 350. Sum = 1000.
    void stepBreakdownByPriority() {
        TraceBuilder b("chrome-json");
        const auto host = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto dev = b.addProcess(ProcessKind::Device, 0, "GPU 0");
        const auto ht = b.addTrack(host, TrackKind::Thread, "main", 1);
        const auto lt = b.addTrack(host, TrackKind::Thread, "loader", 2);
        const auto st = b.addTrack(dev, TrackKind::Thread, "stream 7", 7);
        b.addSlice(ht, 0, 1000, b.intern("ProfilerStep#7"), b.intern("user_annotation"));
        b.addSlice(lt, 0, 50, b.intern("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"),
                   b.intern("user_annotation"));
        b.addSlice(ht, 50, 10, b.intern("cudaLaunchKernel"), b.intern("cuda_runtime"));
        b.addSlice(ht, 60, 40, b.intern("aten::relu"), b.intern("cpu_op"));
        b.addSlice(ht, 150, 100, b.intern("aten::mm"), b.intern("cpu_op"));
        b.addSlice(st, 100, 300, b.intern("volta_sgemm_128x64_nn"), b.intern("kernel"));
        b.addSlice(st, 400, 100, b.intern("Memcpy HtoD (Pageable -> Device)"), b.intern("gpu_memcpy"));
        b.addSlice(st, 600, 50, b.intern("half_precision_kernel"), b.intern("kernel"));
        auto trace = b.finish();
        const ClassifiedTrace ct = classifyTrace(*trace);
        const StepsResult steps = findSteps(ct);
        QCOMPARE(steps.source, StepSource::ProfilerStep);
        QCOMPARE(steps.steps.size(), size_t(1));
        QCOMPARE(steps.steps[0].number, int64_t(7));
        const auto bd = breakdownSteps(ct, steps);
        QCOMPARE(bd.size(), size_t(1));
        const StepBreakdown& s = bd[0];
        QCOMPARE(s.at(StepCategory::Input), TimeNs(150));
        QCOMPARE(s.hostWaitInputNs, TimeNs(50));
        QCOMPARE(s.hostToDeviceNs, TimeNs(100));
        QCOMPARE(s.at(StepCategory::KernelLaunch), TimeNs(10));
        QCOMPARE(s.at(StepCategory::HostCompute), TimeNs(40));
        QCOMPARE(s.at(StepCategory::DeviceCompute), TimeNs(350));
        QCOMPARE(s.deviceCompute16Ns, TimeNs(50));
        QCOMPARE(s.at(StepCategory::Other), TimeNs(450));
        TimeNs sum = 0;
        for (TimeNs v : s.ns) sum += v;
        QCOMPARE(sum, TimeNs(1000));

        const Overview o = computeOverview(ct);
        QCOMPARE(o.inputPercent, 15.0);
        QCOMPARE(o.inputBound, InputBound::Moderately);  // 5 <= 15 < 20
        QCOMPARE(o.environment.deviceCount, size_t(1));
        // 16-bit share of kernel time: 50 / 350.
        QCOMPARE(o.compute16Percent, 100.0 * 50 / 350);

        const InputPipelineResult ip = computeInputPipeline(ct);
        QCOMPARE(ip.steps.size(), size_t(1));
        QCOMPARE(ip.steps[0].waitInputNs, TimeNs(150));
        QCOMPARE(ip.ops.size(), size_t(1));
        QCOMPARE(ip.ops[0].category, InputOpCategory::Preprocessing);
        QCOMPARE(ip.ops[0].selfNs, TimeNs(50));
    }

    // Kineto: cpu_op aten::mm [0,100) encloses cudaLaunchKernel [10,20) whose flow ends at a kernel
    // [30,80) on the GPU. The kernel's device row is "aten::mm"; kernel stats read Kineto args.
    void kinetoLaunchAttribution() {
        TraceBuilder b("chrome-json");
        const auto host = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto dev = b.addProcess(ProcessKind::Device, 0, "GPU 0");
        const auto ht = b.addTrack(host, TrackKind::Thread, "main", 1);
        const auto st = b.addTrack(dev, TrackKind::Thread, "stream 7", 7);
        b.addSlice(ht, 0, 100, b.intern("aten::mm"), b.intern("cpu_op"));
        const uint32_t launch = b.addSlice(ht, 10, 10, b.intern("cudaLaunchKernel"), b.intern("cuda_runtime"));
        ArgsWriter w;
        w.add(b.intern("grid"), ArgValue::json(b.intern("[128, 2, 1]")));
        w.add(b.intern("block"), ArgValue::json(b.intern("[256, 1, 1]")));
        w.add(b.intern("registers per thread"), ArgValue::integer(64));
        w.add(b.intern("shared memory"), ArgValue::integer(4096));
        w.add(b.intern("est. achieved occupancy %"), ArgValue::integer(25));
        const uint32_t kernel = b.addSlice(st, 30, 50, b.intern("ampere_h16816gemm"), b.intern("kernel"), w);
        b.addSlice(st, 90, 10, b.intern("orphan_kernel"), b.intern("kernel"));
        b.addFlow(TraceBuilder::FlowEnd::ofSlice(ht, launch), TraceBuilder::FlowEnd::ofSlice(st, kernel),
                  b.intern("ac2g"), b.intern("ac2g"), 1);
        auto trace = b.finish();
        QVERIFY(trace);

        const OpStatsResult r = computeOpStats(*trace);
        const OpStatsRow* mm = findRow(r, OpSide::Device, "aten::mm");
        QVERIFY(mm);
        QCOMPARE(mm->totalNs, TimeNs(50));
        QCOMPARE(mm->type, std::string("kernel"));
        QCOMPARE(mm->tensorCoreNs, TimeNs(50));
        QVERIFY(findRow(r, OpSide::Device, "orphan_kernel"));
        // Device idle: the device's active window [30,100) minus kernels 50 + 10.
        QCOMPARE(r.deviceIdleNs, TimeNs(10));
        const size_t mmRow = size_t(mm - r.rows.data());
        const auto occ = occurrencesOf(*trace, r, mmRow);
        QCOMPARE(occ.size(), size_t(1));
        QCOMPARE(trace->str(trace->tracks[occ[0].track].slices.name[occ[0].index]), std::string_view("ampere_h16816gemm"));

        const KernelStatsResult k = computeKernelStats(*trace);
        QCOMPARE(k.kernelCount, uint64_t(2));
        QCOMPARE(k.rows.size(), size_t(2));
        const KernelStatsRow& row = k.rows[0];  // 50 ns > 10 ns
        QCOMPARE(row.name, std::string("ampere_h16816gemm"));
        QCOMPARE(row.op, std::string("aten::mm"));
        QCOMPARE(row.grid, (Dim3{128, 2, 1}));
        QCOMPARE(row.block, (Dim3{256, 1, 1}));
        QCOMPARE(row.registersPerThread, 64u);
        QCOMPARE(row.sharedMemBytes, uint64_t(4096));
        QVERIFY(row.usesTensorCore);
        QVERIFY(row.tensorCoreEligible);
        QCOMPARE(*row.occupancyPct, 25.0);
        QCOMPARE(occurrencesOf(*trace, k, 0).size(), size_t(1));
        QCOMPARE(k.rows[1].op, std::string());
    }

    // One stream, five distinct kernels met in this order (start, duration):
    //   k_a [0,10)  k_b [20,40)  k_a [50,80)  k_c [100,105)  k_d [110,117)
    //   volta_h884gemm_e [120,220) (a TensorCore kernel)  k_b [300,301)  k_d [310,313)
    // All: 8 launches, 10+20+30+5+7+100+1+3 = 176 ns, TensorCore 100 ns (the gemm).
    // maxRows 3: rows k_a (2 launches, 40 ns), k_b (2, 21), k_c (1, 5); k_d and the gemm come
    // after the bound: 3 launches, 7+100+3 = 110 ns, in the totals only (66 + 110 = 176).
    void kernelStatsBounded() {
        TraceBuilder b("chrome-json");
        const auto dev = b.addProcess(ProcessKind::Device, 0, "GPU 0");
        const auto st = b.addTrack(dev, TrackKind::Thread, "stream 7", 7);
        const StringId cat = b.intern("kernel");
        const std::pair<TimeNs, TimeNs> spans[] = {{0, 10},   {20, 20},   {50, 30}, {100, 5},
                                                   {110, 7},  {120, 100}, {300, 1}, {310, 3}};
        const char* names[] = {"k_a", "k_b", "k_a", "k_c", "k_d", "volta_h884gemm_e", "k_b", "k_d"};
        for (size_t i = 0; i < 8; ++i) b.addSlice(st, spans[i].first, spans[i].second, b.intern(names[i]), cat);
        auto trace = b.finish();
        QVERIFY(trace);

        const KernelStatsResult k = computeKernelStats(*trace, {.maxRows = 3});
        QCOMPARE(k.kernelCount, uint64_t(8));
        QCOMPARE(k.totalKernelNs, TimeNs(176));
        QCOMPARE(k.tensorCoreNs, TimeNs(100));
        QCOMPARE(k.rows.size(), size_t(3));
        QCOMPARE(k.configurations, size_t(3));
        QCOMPARE(k.rows[0].name, std::string("k_a"));
        QCOMPARE(k.rows[0].occurrences, uint64_t(2));
        QCOMPARE(k.rows[0].totalNs, TimeNs(40));
        QCOMPARE(k.rows[0].minNs, TimeNs(10));
        QCOMPARE(k.rows[0].maxNs, TimeNs(30));
        QCOMPARE(k.rows[1].name, std::string("k_b"));
        QCOMPARE(k.rows[1].totalNs, TimeNs(21));
        QCOMPARE(k.rows[2].name, std::string("k_c"));
        QCOMPARE(k.rows[2].totalNs, TimeNs(5));
        QCOMPARE(k.unlistedCount, uint64_t(3));
        QCOMPARE(k.unlistedNs, TimeNs(110));
        QCOMPARE(k.maxRows, size_t(3));
        QVERIFY(std::find(k.notes.begin(), k.notes.end(),
                          "The table is bounded at 3 distinct kernel configurations (the first met in the trace) "
                          "to fit in memory; 3 further launches (110 ns) are counted in the totals only.") !=
                k.notes.end());
        // The unlisted launches belong to no row.
        QCOMPARE(occurrencesOf(*trace, k, 0).size(), size_t(2));
        QCOMPARE(sliceRowIndexOf(*trace, k).size(), size_t(5));

        // Unbounded (and bounded at exactly the five): every kernel has its row, no note.
        for (size_t bound : {size_t(0), size_t(5)}) {
            const KernelStatsResult all = computeKernelStats(*trace, {.maxRows = bound});
            QCOMPARE(all.rows.size(), size_t(5));
            QCOMPARE(all.rows[0].name, std::string("volta_h884gemm_e"));  // 100 > 40 > 21 > 10 > 5
            QCOMPARE(all.rows[3].name, std::string("k_d"));
            QCOMPARE(all.rows[3].totalNs, TimeNs(10));
            QCOMPARE(all.kernelCount, uint64_t(8));
            QCOMPARE(all.totalKernelNs, TimeNs(176));
            QCOMPARE(all.tensorCoreNs, TimeNs(100));
            QCOMPARE(all.unlistedCount, uint64_t(0));
            QCOMPARE(all.unlistedNs, TimeNs(0));
            for (const std::string& n : all.notes) QVERIFY2(n.find("bounded") == std::string::npos, n.c_str());
        }

        // keepRows: the two with the most time are made rows; all five were summed.
        const KernelStatsResult top = computeKernelStats(*trace, {.keepRows = 2});
        QCOMPARE(top.rows.size(), size_t(2));
        QCOMPARE(top.configurations, size_t(5));
        QCOMPARE(top.rows[0].name, std::string("volta_h884gemm_e"));
        QCOMPARE(top.rows[1].name, std::string("k_a"));
        QCOMPARE(top.rows[1].totalNs, TimeNs(40));
        QCOMPARE(top.totalKernelNs, TimeNs(176));
        QCOMPARE(top.unlistedCount, uint64_t(0));
    }

    // Counts in notes (the bound above) are grouped by thousands, as the pages show counts.
    void noteCounts() {
        QCOMPARE(formatWarningCount(0), std::string("0"));
        QCOMPARE(formatWarningCount(999), std::string("999"));
        QCOMPARE(formatWarningCount(1000), std::string("1,000"));
        QCOMPARE(formatWarningCount(1014750), std::string("1,014,750"));
        QCOMPARE(formatWarningCount(UINT64_MAX), std::string("18,446,744,073,709,551,615"));
    }

    // Without a flow, the correlation arg links launch and kernel.

    void kinetoCorrelationFallback() {
        TraceBuilder b("chrome-json");
        const auto host = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto dev = b.addProcess(ProcessKind::Device, 0, "GPU 0");
        const auto ht = b.addTrack(host, TrackKind::Thread, "main", 1);
        const auto st = b.addTrack(dev, TrackKind::Thread, "stream 7", 7);
        b.addSlice(ht, 0, 100, b.intern("aten::add"), b.intern("cpu_op"));
        ArgsWriter w;
        w.add(b.intern("correlation"), ArgValue::integer(42));
        b.addSlice(ht, 10, 10, b.intern("cudaLaunchKernel"), b.intern("cuda_runtime"), w);
        b.addSlice(st, 30, 5, b.intern("elementwise"), b.intern("kernel"), w);
        auto trace = b.finish();
        const KernelStatsResult k = computeKernelStats(*trace);
        QCOMPARE(k.rows.size(), size_t(1));
        QCOMPARE(k.rows[0].op, std::string("aten::add"));
    }

    // XSpace-style host ops "scope/op:Type" and a MemoryAllocation with tf_op.
    // model/dense/MatMul [0,100), model/dense/BiasAdd [100,120), model/conv/Conv2D [200,300).
    // Totals: dense 120, conv 100, model 220; bytes 1024 under model/dense/MatMul.
    // The scopes model, dense and conv have no events of their own: 0 occurrences, and all
    // their time is their children's (self 0); each op leaf has 1 occurrence, self = time.
    void scopeTreeXSpace() {
        TraceBuilder b("xspace");
        const auto host = b.addProcess(ProcessKind::Host, 1, "/host:CPU");
        const auto t = b.addTrack(host, TrackKind::Thread, "tf_Compute", 1);
        const StringId cat = b.intern("host");
        b.addSlice(t, 0, 100, b.intern("model/dense/MatMul:MatMul"), cat);
        b.addSlice(t, 100, 20, b.intern("model/dense/BiasAdd:BiasAdd"), cat);
        b.addSlice(t, 200, 100, b.intern("model/conv/Conv2D:Conv2D"), cat);
        ArgsWriter w;
        w.add(b.intern("allocation_bytes"), ArgValue::integer(1024));
        w.add(b.intern("tf_op"), ArgValue::string(b.intern("model/dense/MatMul:MatMul")));
        b.addInstant(t, 50, b.intern("MemoryAllocation"), b.intern("memory"), w);
        auto trace = b.finish();
        const ScopeTree tree = computeScopeTree(*trace);
        const ScopeNode* model = findNode(tree, "model");
        const ScopeNode* dense = findNode(tree, "model/dense");
        const ScopeNode* conv = findNode(tree, "model/conv");
        const ScopeNode* matmul = findNode(tree, "model/dense/MatMul");
        QVERIFY(model && dense && conv && matmul);
        QCOMPARE(model->totalNs, TimeNs(220));
        QCOMPARE(model->occurrences, uint64_t(0));
        QCOMPARE(model->selfNs, TimeNs(0));
        QCOMPARE(dense->totalNs, TimeNs(120));
        QCOMPARE(conv->totalNs, TimeNs(100));
        QCOMPARE(conv->selfNs, TimeNs(0));
        QCOMPARE(matmul->occurrences, uint64_t(1));
        QCOMPARE(matmul->totalNs, TimeNs(100));
        QCOMPARE(matmul->selfNs, TimeNs(100));
        QCOMPARE(tree.scopeEvents, uint64_t(3));
        QCOMPARE(matmul->bytesAllocated, int64_t(1024));
        QCOMPARE(model->bytesAllocated, int64_t(1024));
        QVERIFY(tree.hasMemory);
        const size_t denseIndex = size_t(dense - tree.nodes.data());
        QCOMPARE(occurrencesOf(*trace, tree, denseIndex).size(), size_t(2));
        // Op view by type: MatMul, BiasAdd, Conv2D.
        QCOMPARE(tree.opView.size(), size_t(3));
        QCOMPARE(tree.opView[0].type, std::string("Conv2D"));  // 100 self, tie with MatMul broken by name
        QCOMPARE(occurrencesOfOpType(*trace, tree, 0).size(), size_t(1));

        const OpStatsResult byType = computeOpStats(*trace, {OpGrouping::ByType, false, 10});
        QCOMPARE(byType.rows.size(), size_t(3));
        QCOMPARE(byType.hostByType.size(), size_t(3));
    }

    void kinetoScopesFromModules() {
        // nn.Module: Linear_0 [0,100) > aten::linear [10,90) > aten::addmm [20,80);
        // [memory] +512 bytes at 30 (inside addmm).
        TraceBuilder b("chrome-json");
        const auto host = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto t = b.addTrack(host, TrackKind::Thread, "main", 1);
        b.addSlice(t, 0, 100, b.intern("nn.Module: Linear_0"), b.intern("python_function"));
        b.addSlice(t, 10, 80, b.intern("aten::linear"), b.intern("cpu_op"));
        b.addSlice(t, 20, 60, b.intern("aten::addmm"), b.intern("cpu_op"));
        ArgsWriter w;
        w.add(b.intern("Bytes"), ArgValue::integer(512));
        b.addInstant(t, 30, b.intern("[memory]"), b.intern("cpu_instant_event"), w);
        auto trace = b.finish();
        const ScopeTree tree = computeScopeTree(*trace);
        const ScopeNode* linear = findNode(tree, "Linear_0/aten::linear");
        const ScopeNode* addmm = findNode(tree, "Linear_0/aten::linear/aten::addmm");
        const ScopeNode* mod = findNode(tree, "Linear_0");
        QVERIFY(linear && addmm && mod);
        // The module span is an event of its own node: time 100, self 100 - 80 (linear).
        QCOMPARE(mod->occurrences, uint64_t(1));
        QCOMPARE(mod->totalNs, TimeNs(100));
        QCOMPARE(mod->selfNs, TimeNs(20));
        QCOMPARE(linear->totalNs, TimeNs(80));  // addmm nested in linear is not counted twice
        QCOMPARE(linear->selfNs, TimeNs(20));   // 80 - 60 (addmm)
        QCOMPARE(addmm->selfNs, TimeNs(60));
        QCOMPARE(addmm->bytesAllocated, int64_t(512));
        QCOMPARE(mod->bytesAllocated, int64_t(512));
    }

    // Time, Self and Occurrences of a nested annotation, worked out by hand.
    // Thread 1: user_annotation "train" [0,1000) > aten::mm [100,400) (> cudaLaunchKernel [120,130),
    //           correlation 7) and aten::add [500,700); cudaMemcpyAsync [800,810) (correlation 8)
    //           directly in "train"; a second "train" [2000,2500) > aten::mm [2100,2200).
    // Thread 2: "train" [900,1200) with no children (overlaps the first one on thread 1).
    // Stream: kernel [300,350) (correlation 7), memcpy [850,870) (correlation 8).
    //  train:         3 occurrences; time = |[0,1200) u [2000,2500)| = 1700 (not the sum 1800);
    //                 children cover 300 + 200 + 100 = 600, self = 1100; device 50 + 20 = 70.
    //  train/aten::mm: 2 occurrences, time 400, self 400, device 50 (its launch).
    //  train/aten::add: 1 occurrence, time 200, self 200, device 0.
    //  Op view: aten::mm device 50; the memcpy's launch is in no cpu_op: "(no op)" 20; no row
    //  named after the activity kind ("kernel", "memcpy").
    void scopeTimesNestedAnnotation() {
        TraceBuilder b("chrome-json");
        const auto host = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto dev = b.addProcess(ProcessKind::Device, 0, "GPU 0");
        const auto t1 = b.addTrack(host, TrackKind::Thread, "main", 1);
        const auto t2 = b.addTrack(host, TrackKind::Thread, "worker", 2);
        const auto st = b.addTrack(dev, TrackKind::Thread, "stream 7", 7);
        const StringId ann = b.intern("user_annotation"), op = b.intern("cpu_op"), rt = b.intern("cuda_runtime");
        const StringId train = b.intern("train"), mm = b.intern("aten::mm");
        ArgsWriter c7, c8;
        c7.add(b.intern("correlation"), ArgValue::integer(7));
        c8.add(b.intern("correlation"), ArgValue::integer(8));
        b.addSlice(t1, 0, 1000, train, ann);
        b.addSlice(t1, 100, 300, mm, op);
        b.addSlice(t1, 120, 10, b.intern("cudaLaunchKernel"), rt, c7);
        b.addSlice(t1, 500, 200, b.intern("aten::add"), op);
        b.addSlice(t1, 800, 10, b.intern("cudaMemcpyAsync"), rt, c8);
        b.addSlice(t1, 2000, 500, train, ann);
        b.addSlice(t1, 2100, 100, mm, op);
        b.addSlice(t2, 900, 300, train, ann);
        b.addSlice(st, 300, 50, b.intern("gemm"), b.intern("kernel"), c7);
        b.addSlice(st, 850, 20, b.intern("Memcpy HtoD"), b.intern("gpu_memcpy"), c8);
        auto trace = b.finish();
        QVERIFY(trace);
        const ScopeTree tree = computeScopeTree(*trace);
        const ScopeNode* top = findNode(tree, "train");
        const ScopeNode* mmNode = findNode(tree, "train/aten::mm");
        const ScopeNode* addNode = findNode(tree, "train/aten::add");
        QVERIFY(top && mmNode && addNode);
        QCOMPARE(top->occurrences, uint64_t(3));
        QCOMPARE(top->totalNs, TimeNs(1700));
        QCOMPARE(top->selfNs, TimeNs(1100));
        QCOMPARE(top->deviceNs, TimeNs(70));
        QCOMPARE(mmNode->occurrences, uint64_t(2));
        QCOMPARE(mmNode->totalNs, TimeNs(400));
        QCOMPARE(mmNode->selfNs, TimeNs(400));
        QCOMPARE(mmNode->deviceNs, TimeNs(50));
        QCOMPARE(addNode->occurrences, uint64_t(1));
        QCOMPARE(addNode->totalNs, TimeNs(200));
        QCOMPARE(addNode->selfNs, TimeNs(200));
        QCOMPARE(addNode->deviceNs, TimeNs(0));
        QCOMPARE(tree.nodes.size(), size_t(4));  // root, train, and its two children
        QCOMPARE(tree.nodes[0].occurrences, uint64_t(0));
        QCOMPARE(tree.nodes[0].totalNs, TimeNs(1700));
        QCOMPARE(tree.nodes[0].deviceNs, TimeNs(70));
        QCOMPARE(tree.scopeEvents, uint64_t(6));
        // Navigation: the node's slices are its events and everything under it (3 + 3 + 2 activities).
        QCOMPARE(occurrencesOf(*trace, tree, size_t(top - tree.nodes.data())).size(), size_t(8));

        auto opRow = [&](const std::string& type) -> const OpTypeRow* {
            for (const auto& r : tree.opView)
                if (r.type == type) return &r;
            return nullptr;
        };
        QVERIFY(opRow("aten::mm") && opRow("(no op)"));
        QCOMPARE(opRow("aten::mm")->occurrences, uint64_t(2));
        QCOMPARE(opRow("aten::mm")->totalNs, TimeNs(400));
        QCOMPARE(opRow("aten::mm")->deviceNs, TimeNs(50));
        QCOMPARE(opRow("aten::add")->deviceNs, TimeNs(0));
        QCOMPARE(opRow("(no op)")->deviceNs, TimeNs(20));
        QVERIFY(!opRow("kernel") && !opRow("memcpy") && !opRow("train"));
        // The aten::mm row navigates to its two slices and the kernel it launched.
        const size_t mmRow = size_t(opRow("aten::mm") - tree.opView.data());
        QCOMPARE(occurrencesOfOpType(*trace, tree, mmRow).size(), size_t(3));
    }

    // XSpace device plane: a stream with one kernel (kernel_details + tf_op), a derived "XLA Ops"
    // line repeating it (must not count twice) and a "Steps" line with steps 3 and 4.
    void xspaceDeviceLinesAndSteps() {
        TraceBuilder b("xspace");
        const auto dev = b.addProcess(ProcessKind::Device, 1, "/device:GPU:0");
        const auto stream = b.addTrack(dev, TrackKind::Thread, "Stream #7(Kernel)", 7);
        const auto xlaOps = b.addTrack(dev, TrackKind::Thread, "XLA Ops", int64_t(int32_t(0xDEADBEEFu)) + 5);
        const auto stepsLine = b.addTrack(dev, TrackKind::Thread, "Steps", int64_t(int32_t(0xDEADBEEFu)));
        ArgsWriter k;
        k.add(b.intern("kernel_details"), ArgValue::string(b.intern("regs:32 static_shared:0 dynamic_shared:1024 "
                                                                     "grid:10,1,1 block:128,1,1 occ_pct:50")));
        k.add(b.intern("tf_op"), ArgValue::string(b.intern("model/dense/MatMul:MatMul")));
        b.addSlice(stream, 100, 40, b.intern("volta_sgemm_128x64_nn"), b.intern("kernel"), k);
        b.addSlice(stream, 300, 0, b.intern("empty_kernel"), b.intern("kernel"), k);  // duration 0: not counted
        b.addSlice(xlaOps, 100, 40, b.intern("MatMul"), b.intern("xla_op"), k);
        ArgsWriter s3, s4;
        s3.add(b.intern("step_num"), ArgValue::integer(3));
        s4.add(b.intern("step_num"), ArgValue::integer(4));
        b.addSlice(stepsLine, 0, 200, b.intern("3"), b.intern("step"), s3);
        b.addSlice(stepsLine, 200, 300, b.intern("4"), b.intern("step"), s4);
        auto trace = b.finish();
        QVERIFY(trace);
        const KernelStatsResult ks = computeKernelStats(*trace);
        QCOMPARE(ks.kernelCount, uint64_t(1));
        QCOMPARE(ks.rows[0].op, std::string("model/dense/MatMul:MatMul"));
        QCOMPARE(ks.rows[0].sharedMemBytes, uint64_t(1024));
        QVERIFY(ks.rows[0].tensorCoreEligible);  // op name ends in /MatMul (after the ":Type" part)
        QVERIFY(!ks.rows[0].usesTensorCore);

        const OpStatsResult ops = computeOpStats(*trace);
        const OpStatsRow* row = findRow(ops, OpSide::Device, "model/dense/MatMul");
        QVERIFY(row);
        QCOMPARE(row->type, std::string("MatMul"));
        QCOMPARE(row->totalNs, TimeNs(40));
        QCOMPARE(row->occurrences, uint64_t(2));  // the zero-length launch is an op occurrence, not a kernel row

        const StepsResult steps = findSteps(*trace);
        QCOMPARE(steps.source, StepSource::XSpaceStepsLine);
        QCOMPARE(steps.steps.size(), size_t(2));
        QCOMPARE(steps.steps[0].number, int64_t(3));
        QCOMPARE(steps.steps[1].durationNs, TimeNs(300));
        // Step 3 [0,200): kernel 40 ns of device compute, the rest unaccounted.
        const auto bd = breakdownSteps(classifyTrace(*trace), steps);
        QCOMPARE(bd[0].at(StepCategory::DeviceCompute), TimeNs(40));
        QCOMPARE(bd[0].at(StepCategory::Other), TimeNs(160));
    }

    // CPU-only XSpace, grouped as XProf groups host events (no group_id stats in the file).
    // python: train#5 [0,1000) _r=1 > FunctionRun [100,400) (_r=1 under a root of the same level:
    //           no group of its own; producer 2/77) and train_step [420,700) > IteratorGetNextOp
    //           [450,650); TFE_Py_Execute [700,800).  train#6 [1000,1500) _r=1, empty.
    // tf_Compute: ExecutorState::Process [150,350) consumer 2/77 -> joins step 5 through the context.
    // other: busy [800,900), linked to nothing -> in no step although inside step 5's window.
    // Step 5: markers train (1000) and train_step (280): the step is train [0,1000).
    //   Input = IteratorGetNextOp [450,650) = 200; Host compute = ExecutorState [150,350) + TFE
    //   [700,800) = 300 (FunctionRun and the markers are no compute); All others 1000-500 = 500.
    // Step 6: all 500 ns All others.
    void xspaceCpuStepGroups() {
        TraceBuilder b("xspace");
        const auto host = b.addProcess(ProcessKind::Host, 0, "/host:CPU");
        const auto py = b.addTrack(host, TrackKind::Thread, "python", 1);
        const auto exec = b.addTrack(host, TrackKind::Thread, "tf_Compute", 2);
        const auto other = b.addTrack(host, TrackKind::Thread, "other", 3);
        const StringId r = b.intern("_r"), stepNum = b.intern("step_num"), pt = b.intern("_pt"), p = b.intern("_p"),
                       ct = b.intern("_ct"), c = b.intern("_c"), cat = b.intern("");
        ArgsWriter s5, s6, producer, consumer;
        s5.add(r, ArgValue::integer(1));
        s5.add(stepNum, ArgValue::integer(5));
        s6.add(r, ArgValue::integer(1));
        s6.add(stepNum, ArgValue::integer(6));
        producer.add(r, ArgValue::integer(1));
        producer.add(pt, ArgValue::integer(2));
        producer.add(p, ArgValue::unsignedInteger(77));
        consumer.add(ct, ArgValue::integer(2));
        consumer.add(c, ArgValue::unsignedInteger(77));
        b.addSlice(py, 0, 1000, b.intern("train"), cat, s5);
        b.addSlice(py, 100, 300, b.intern("FunctionRun"), cat, producer);
        b.addSlice(py, 420, 280, b.intern("train_step"), cat);
        b.addSlice(py, 450, 200, b.intern("IteratorGetNextOp::DoCompute"), cat);
        b.addSlice(py, 700, 100, b.intern("TFE_Py_Execute"), cat);
        b.addSlice(py, 1000, 500, b.intern("train"), cat, s6);
        b.addSlice(exec, 150, 200, b.intern("ExecutorState::Process"), cat, consumer);
        b.addSlice(other, 800, 100, b.intern("busy"), cat);
        auto trace = b.finish();
        QVERIFY(trace);
        const ClassifiedTrace ct2 = classifyTrace(*trace);
        const StepGroups groups = groupHostEvents(ct2);
        QCOMPARE(groups.groups.size(), size_t(2));
        QCOMPARE(groups.of({exec, 0}), 0);
        QCOMPARE(groups.of({other, 0}), kNoStepGroup);
        const StepsResult steps = findSteps(ct2);
        QCOMPARE(steps.source, StepSource::XSpaceStepAnnotation);
        QCOMPARE(steps.steps.size(), size_t(2));
        QCOMPARE(steps.steps[0].number, int64_t(5));
        QCOMPARE(steps.steps[0].durationNs, TimeNs(1000));
        const auto bd = breakdownSteps(ct2, steps);
        QCOMPARE(bd[0].at(StepCategory::Input), TimeNs(200));
        QCOMPARE(bd[0].at(StepCategory::HostCompute), TimeNs(300));
        QCOMPARE(bd[0].at(StepCategory::Other), TimeNs(500));
        QCOMPARE(bd[1].step.number, int64_t(6));
        QCOMPARE(bd[1].at(StepCategory::Other), TimeNs(500));
    }

    // XSpace step markers without root events: a marker without step_num keeps a step of its own
    // and never merges into the step whose number equals its ordinal (it used to: "train_step"
    // [300,500), ordinal 0, replaced step 0 [0,100) as the longer marker of key 0).
    void xspaceUnnumberedMarkerKeepsItsOwnStep() {
        TraceBuilder b("xspace");
        const auto host = b.addProcess(ProcessKind::Host, 0, "/host:CPU");
        const auto py = b.addTrack(host, TrackKind::Thread, "python", 1);
        const StringId stepNum = b.intern("step_num"), cat = b.intern("");
        ArgsWriter n0, n1;
        n0.add(stepNum, ArgValue::integer(0));
        n1.add(stepNum, ArgValue::integer(1));
        b.addSlice(py, 0, 100, b.intern("train"), cat, n0);
        b.addSlice(py, 200, 50, b.intern("train"), cat, n1);
        b.addSlice(py, 300, 200, b.intern("train_step"), cat);
        auto trace = b.finish();
        QVERIFY(trace);
        const StepsResult steps = findSteps(*trace);
        QCOMPARE(steps.steps.size(), size_t(3));
        QCOMPARE(steps.steps[0].startNs, TimeNs(0));
        QCOMPARE(steps.steps[0].durationNs, TimeNs(100));
        QCOMPARE(steps.steps[2].name, std::string("train_step"));

        // Nested in a numbered marker (XProf's trace JSON keeps no grouping stats), an unnumbered one
        // belongs to that step: train#7 [0,100) > train_step [10,60) is one step of 100 ns.
        TraceBuilder n("xspace");
        const auto nh = n.addProcess(ProcessKind::Host, 0, "/host:CPU");
        const auto nt = n.addTrack(nh, TrackKind::Thread, "python", 1);
        ArgsWriter n7;
        n7.add(n.intern("step_num"), ArgValue::integer(7));
        n.addSlice(nt, 0, 100, n.intern("train"), n.intern(""), n7);
        n.addSlice(nt, 10, 50, n.intern("train_step"), n.intern(""));
        auto nested = n.finish();
        QVERIFY(nested);
        const StepsResult ns = findSteps(*nested);
        QCOMPARE(ns.steps.size(), size_t(1));
        QCOMPARE(ns.steps[0].number, int64_t(7));
        QCOMPARE(ns.steps[0].durationNs, TimeNs(100));
    }

    void inputOpCategories() {
        InputOpCategory c;
        QVERIFY(classifyInputOp("Iterator::Model::Map::TFRecord", c));
        QCOMPARE(c, InputOpCategory::DemandedFileRead);
        QVERIFY(classifyInputOp("Iterator::Model::Prefetch::ParallelInterleaveV4::TFRecord", c));
        QCOMPARE(c, InputOpCategory::AdvancedFileRead);
        QVERIFY(classifyInputOp("Iterator::Model::MemoryReader::TextLine", c));
        QCOMPARE(c, InputOpCategory::AdvancedFileRead);
        QVERIFY(classifyInputOp("Iterator::Model::Map", c));
        QCOMPARE(c, InputOpCategory::Preprocessing);
        QVERIFY(classifyInputOp("InfeedEnqueueTuple", c));
        QCOMPARE(c, InputOpCategory::Enqueue);
        QVERIFY(!classifyInputOp("aten::mm", c));
    }

    void userStepAnnotationsAndNoSteps() {
        TraceBuilder b("chrome-json");
        const auto host = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto t = b.addTrack(host, TrackKind::Thread, "main", 1);
        b.addSlice(t, 0, 100, b.intern("train_step#3"), b.intern("user_annotation"));
        b.addSlice(t, 100, 50, b.intern("train_step#4"), b.intern("user_annotation"));
        b.addSlice(t, 150, 50, b.intern("evaluate"), b.intern("user_annotation"));
        auto trace = b.finish();
        const StepsResult s = findSteps(*trace);
        QCOMPARE(s.source, StepSource::UserAnnotation);
        QCOMPARE(s.steps.size(), size_t(2));
        QCOMPARE(s.steps[1].number, int64_t(4));
        QCOMPARE(s.stepTimeNs.mean, 75.0);
        QCOMPARE(s.stepTimeNs.stddev, 25.0);

        TraceBuilder e("chrome-json");
        auto empty = e.finish();
        QVERIFY(empty);
        const Overview o = computeOverview(*empty);
        QCOMPARE(o.steps.source, StepSource::None);
        QCOMPARE(o.inputBound, InputBound::Unknown);
        QVERIFY(o.recommendations.at(0).rfind("No step marker observed", 0) == 0);
        QVERIFY(computeOpStats(*empty).rows.empty());
        QVERIFY(computeKernelStats(*empty).rows.empty());
        QCOMPARE(computeScopeTree(*empty).nodes.size(), size_t(1));
        QVERIFY(computeInputPipeline(*empty).steps.empty());
        QVERIFY(occurrencesOf(*empty, OpStatsResult{}, 5).empty());
    }

    void deepNestingDoesNotOverflow() {
        // 20000 nested cpu_ops: the passes are iterative.
        TraceBuilder b("chrome-json");
        const auto host = b.addProcess(ProcessKind::Host, 1, "p");
        const auto t = b.addTrack(host, TrackKind::Thread, "t", 1);
        const StringId op = b.intern("cpu_op"), name = b.intern("deep");
        const int n = 20000;
        for (int i = 0; i < n; ++i) b.addSlice(t, i, 2 * (n - i), name, op);
        auto trace = b.finish();
        QVERIFY(trace);
        const OpStatsResult r = computeOpStats(*trace);
        const OpStatsRow* row = findRow(r, OpSide::Host, "deep");
        QVERIFY(row);
        QCOMPARE(row->occurrences, uint64_t(n));
        // Level i spans [i, 2n - i): its self time is 2(n-i) - 2(n-i-1) = 2, the innermost 2 as well,
        // so the total self time is 2n.
        QCOMPARE(row->selfNs, TimeNs(2 * n));
        const ScopeTree tree = computeScopeTree(*trace);
        QVERIFY(tree.nodes.size() >= 2);
    }

    void pieTopN() {
        const auto pie = makePie({{"a", 50}, {"b", 30}, {"c", 15}, {"d", 5}}, 2);
        QCOMPARE(pie.size(), size_t(3));
        QCOMPARE(pie[2].label, std::string("other"));
        QCOMPARE(pie[2].valueNs, TimeNs(20));
        QCOMPARE(pie[0].percent, 50.0);
    }
};

QTEST_APPLESS_MAIN(TestAnalysisUnits)
#include "tst_analysis_units.moc"
