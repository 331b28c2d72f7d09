// PyTorch's key_averages() table: hand-built event trees with the arithmetic in comments,
// and the real Kineto traces against tests/tools/torch_ops_sums.py (stdlib Python over the
// raw JSON) -> data/torch_ops_reference.json: calls exact, times within 1 µs per call.
#include "model/analysis/torch_ops.h"
#include "model/export/xspace_writer.h"
#include "model/import/import.h"
#include "model/trace/trace_builder.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>

using namespace tracescope;
using nlohmann::json;

namespace {

const TorchOpRow* findRow(const TorchOpsResult& r, const std::string& name, bool device = false) {
    for (const auto& row : r.rows)
        if (row.name == name && row.onDevice == device) return &row;
    return nullptr;
}

// A host thread and a GPU stream, with helpers for ops, launches and kernels.
struct Fixture {
    TraceBuilder b{"chrome-json"};
    TrackIndex host, stream;
    Fixture() {
        host = b.addTrack(b.addProcess(ProcessKind::Host, 1, "python3"), TrackKind::Thread, "main", 1);
        stream = b.addTrack(b.addProcess(ProcessKind::Device, 0, "GPU 0"), TrackKind::Thread, "stream 7", 7);
    }
    void slice(TimeNs start, TimeNs dur, const char* name, const char* cat, ArgsWriter args = {}) {
        b.addSlice(host, start, dur, b.intern(name), b.intern(cat), args);
    }
    ArgsWriter correlation(int64_t id) {
        ArgsWriter w;
        w.add(b.intern("correlation"), ArgValue::integer(id));
        return w;
    }
    void launch(TimeNs start, TimeNs dur, int64_t corr, const char* name = "cudaLaunchKernel") {
        slice(start, dur, name, "cuda_runtime", correlation(corr));
    }
    void kernel(TimeNs start, TimeNs dur, int64_t corr, const char* name) {
        b.addSlice(stream, start, dur, b.intern(name), b.intern("kernel"), correlation(corr));
    }
};

}  // namespace

class TestTorchOps : public QObject {
    Q_OBJECT

private slots:
    // A [0,100) > B [10,50) > launch [20,30) -> K1 (20 ns); A > launch [60,65) -> K2 (10 ns).
    // Self CPU: A = 100 - 40 (B) - 5 (its launch) = 55; B = 40 - 10 = 30; launches 10 + 5.
    // Self CUDA: A = 10 (K2, its direct launch), B = 20 (K1); CUDA total: A = 30, B = 20.
    void nestedOpsWithRuntimeCalls() {
        Fixture f;
        f.slice(0, 100, "A", "cpu_op");
        f.slice(10, 40, "B", "cpu_op");
        f.launch(20, 10, 1);
        f.launch(60, 5, 2);
        f.kernel(60, 20, 1, "K1");
        f.kernel(90, 10, 2, "K2");
        auto trace = f.b.finish();
        const TorchOpsResult r = computeTorchOps(*trace);
        const TorchOpRow *a = findRow(r, "A"), *b = findRow(r, "B"), *l = findRow(r, "cudaLaunchKernel");
        QVERIFY(a && b && l);
        QCOMPARE(a->selfCpuNs, TimeNs(55));
        QCOMPARE(a->cpuTotalNs, TimeNs(100));
        QCOMPARE(b->selfCpuNs, TimeNs(30));
        QCOMPARE(l->calls, uint64_t(2));
        QCOMPARE(l->selfCpuNs, TimeNs(15));
        QCOMPARE(a->selfCudaNs, TimeNs(10));
        QCOMPARE(a->cudaTotalNs, TimeNs(30));
        QCOMPARE(b->selfCudaNs, TimeNs(20));
        QCOMPARE(b->cudaTotalNs, TimeNs(20));
        QCOMPARE(l->selfCudaNs, TimeNs(0));  // as in torch's table: the launch itself has no CUDA time
        QCOMPARE(l->cudaTotalNs, TimeNs(0));
        const TorchOpRow* k1 = findRow(r, "K1", true);
        QVERIFY(k1);
        QCOMPARE(k1->selfCudaNs, TimeNs(20));
        QCOMPARE(k1->cpuTotalNs, TimeNs(0));
        QCOMPARE(r.totalSelfCpuNs, TimeNs(100));
        QCOMPARE(r.totalSelfCudaNs, TimeNs(30));  // device rows only
        QCOMPARE(a->selfCudaPercent, 100.0 * 10 / 30);
        QCOMPARE(a->cpuTotalPercent, 100.0);
    }

    // record_function("fwd") [0,50) > launch [10,20) -> K (7 ns): the annotation is the parent.
    void runtimeCallUnderAnnotation() {
        Fixture f;
        f.slice(0, 50, "fwd", "user_annotation");
        f.launch(10, 10, 3);
        f.kernel(30, 7, 3, "K");
        auto trace = f.b.finish();
        const TorchOpsResult r = computeTorchOps(*trace);
        const TorchOpRow* fwd = findRow(r, "fwd");
        QVERIFY(fwd);
        QCOMPARE(fwd->selfCudaNs, TimeNs(7));
        QCOMPARE(fwd->selfCpuNs, TimeNs(40));
    }

    // A CUDA graph: one cudaGraphLaunch (correlation 9) runs three kernels of 5 ns.
    void cudaGraphLaunchWithSeveralKernels() {
        Fixture f;
        f.slice(0, 100, "graph_replay", "cpu_op");
        f.launch(10, 20, 9, "cudaGraphLaunch");
        f.kernel(40, 5, 9, "G1");
        f.kernel(50, 5, 9, "G2");
        f.kernel(60, 5, 9, "G3");
        auto trace = f.b.finish();
        const TorchOpsResult r = computeTorchOps(*trace);
        QCOMPARE(findRow(r, "graph_replay")->selfCudaNs, TimeNs(15));
        QCOMPARE(findRow(r, "cudaGraphLaunch")->selfCudaNs, TimeNs(0));
        QCOMPARE(r.totalSelfCudaNs, TimeNs(15));
    }

    // X [0,100) > python frame P [10,90) > Y [20,60): as in torch 2.15's event tree, P is X's
    // child (without a row of its own), Y is P's: X's Self CPU is 100 - 80 = 20, Y's 40.
    void pythonFramesAreTreeNodes() {
        Fixture f;
        f.slice(0, 100, "X", "cpu_op");
        f.slice(10, 80, "model.py(3): forward", "python_function");
        f.slice(20, 40, "Y", "cpu_op");
        auto trace = f.b.finish();
        const TorchOpsResult r = computeTorchOps(*trace);
        QCOMPARE(findRow(r, "X")->selfCpuNs, TimeNs(20));
        QCOMPARE(findRow(r, "Y")->selfCpuNs, TimeNs(40));
        QCOMPARE(r.totalSelfCpuNs, TimeNs(60));
        QVERIFY(!findRow(r, "model.py(3): forward"));
        // Grouped by the top stack frame, Y keeps its Python caller.
        TorchOpsOptions o;
        o.groupByStackFrames = 1;
        const TorchOpsResult s = computeTorchOps(*trace, o);
        QCOMPARE(findRow(s, "Y")->stack, std::string("model.py(3): forward"));
        QCOMPARE(findRow(s, "X")->stack, std::string());
    }

    // A record_function entered and left in Python (torch.profiler with with_stack=True):
    // __enter__ [0,30), my_block [20,100) (a partial overlap: an overflow lane here), forward
    // frame [35,70) > aten::mm [40,60), __exit__ [90,120). torch nests only what lies entirely
    // inside: my_block's child is the forward frame, Self CPU 80 - 35 = 45. ProfilerStep#1 and
    // #2 are one row, "ProfilerStep*", as torch names it.
    void annotationAcrossPythonFrames() {
        Fixture f;
        f.slice(0, 30, "profiler.py(800): __enter__", "python_function");
        f.slice(20, 80, "my_block", "user_annotation");
        f.slice(35, 35, "model.py(9): forward", "python_function");
        f.slice(40, 20, "aten::mm", "cpu_op");
        f.slice(90, 30, "profiler.py(810): __exit__", "python_function");
        f.slice(200, 100, "ProfilerStep#1", "user_annotation");
        f.slice(210, 20, "aten::mm", "cpu_op");
        f.slice(300, 100, "ProfilerStep#2", "user_annotation");
        auto trace = f.b.finish();
        const TorchOpsResult r = computeTorchOps(*trace);
        QCOMPARE(findRow(r, "my_block")->selfCpuNs, TimeNs(45));
        QCOMPARE(findRow(r, "aten::mm")->selfCpuNs, TimeNs(40));
        QVERIFY(!findRow(r, "ProfilerStep#1"));
        const TorchOpRow* step = findRow(r, "ProfilerStep*");
        QVERIFY(step);
        QCOMPARE(step->calls, uint64_t(2));
        QCOMPARE(step->selfCpuNs, TimeNs(180));
        QCOMPARE(occurrencesOf(*trace, r, size_t(step - r.rows.data())).size(), size_t(2));
    }

    // torch drops its utility ops before it builds the tree (_filter_name): X [0,100) holds
    // aten::is_leaf [10,20), profiler::_record_function_enter_new [30,35) and aten::add [40,60).
    // Neither of the first two is a row or a child: X's Self CPU is 100 - 20 (aten::add) = 80.
    void utilityOpsAreFilteredOut() {
        Fixture f;
        f.slice(0, 100, "X", "cpu_op");
        f.slice(10, 10, "aten::is_leaf", "cpu_op");
        f.slice(30, 5, "profiler::_record_function_enter_new", "cpu_op");
        f.slice(40, 20, "aten::add", "cpu_op");
        f.slice(70, 0, "[memory]", "cpu_instant_event");
        auto trace = f.b.finish();
        const TorchOpsResult r = computeTorchOps(*trace);
        QVERIFY(!findRow(r, "aten::is_leaf"));
        QVERIFY(!findRow(r, "profiler::_record_function_enter_new"));
        QVERIFY(!findRow(r, "[memory]"));
        QCOMPARE(findRow(r, "X")->selfCpuNs, TimeNs(80));
        QCOMPARE(r.totalSelfCpuNs, TimeNs(100));  // 80 + 20
    }

    // torch's _remove_dup_nodes: aten::div A [0,100) > aten::div B [10,90) (A's only child) >
    // aten::mul [20,40) and a launch [50,60) -> K (25 ns). B is merged into A: one call, CPU
    // total 100 (not 100 + 80), Self CPU 100 - 20 - 10 = 70 (A's 20 + B's 50, as before the
    // merge), Self CUDA 25 (B's launch is A's now), CUDA total 25 (not 50).
    // aten::sum P [200,300) > aten::sum Q [210,250), aten::fill_ [260,270): Q has a sibling,
    // so nothing merges: 2 calls, CPU total 140. A chain of three aten::copy_ [400,500) >
    // [410,490) > [420,480), each the only child, is one call of 100 ns and Self CPU 100.
    void nestedSameNameOnlyChildIsMerged() {
        Fixture f;
        f.slice(0, 100, "aten::div", "cpu_op");
        f.slice(10, 80, "aten::div", "cpu_op");
        f.slice(20, 20, "aten::mul", "cpu_op");
        f.launch(50, 10, 4);
        f.kernel(70, 25, 4, "K");
        f.slice(200, 100, "aten::sum", "cpu_op");
        f.slice(210, 40, "aten::sum", "cpu_op");
        f.slice(260, 10, "aten::fill_", "cpu_op");
        f.slice(400, 100, "aten::copy_", "cpu_op");
        f.slice(410, 80, "aten::copy_", "cpu_op");
        f.slice(420, 60, "aten::copy_", "cpu_op");
        auto trace = f.b.finish();
        const TorchOpsResult r = computeTorchOps(*trace);
        const TorchOpRow* div = findRow(r, "aten::div");
        QVERIFY(div);
        QCOMPARE(div->calls, uint64_t(1));
        QCOMPARE(div->cpuTotalNs, TimeNs(100));
        QCOMPARE(div->selfCpuNs, TimeNs(70));
        QCOMPARE(div->selfCudaNs, TimeNs(25));
        QCOMPARE(div->cudaTotalNs, TimeNs(25));
        QCOMPARE(findRow(r, "aten::mul")->selfCpuNs, TimeNs(20));
        const TorchOpRow* sum = findRow(r, "aten::sum");
        QCOMPARE(sum->calls, uint64_t(2));
        QCOMPARE(sum->cpuTotalNs, TimeNs(140));
        QCOMPARE(sum->selfCpuNs, TimeNs(90));  // P: 100 - 40 - 10 = 50; Q: 40
        const TorchOpRow* copy = findRow(r, "aten::copy_");
        QCOMPARE(copy->calls, uint64_t(1));
        QCOMPARE(copy->cpuTotalNs, TimeNs(100));
        QCOMPARE(copy->selfCpuNs, TimeNs(100));
        // Navigation: the row's occurrence is A alone; B selects A's row.
        const size_t divRow = size_t(div - r.rows.data());
        const std::vector<SliceRef> occ = occurrencesOf(*trace, r, divRow);
        QCOMPARE(occ.size(), size_t(1));
        QCOMPARE(trace->tracks[occ[0].track].slices.start[occ[0].index], TimeNs(0));
        const SliceRowIndex index = sliceRowIndexOf(*trace, r);
        const SliceRef b{occ[0].track, occ[0].index + 1};
        QCOMPARE(trace->tracks[b.track].slices.start[b.index], TimeNs(10));
        QCOMPARE(index.rowOf(b).value_or(uint32_t(-1)), uint32_t(divRow));
    }

    // Two aten::mm calls with other input shapes: one row, or two when grouped by shape.
    void groupByInputShapes() {
        Fixture f;
        auto dims = [&](const char* text) {
            ArgsWriter w;
            w.add(f.b.intern("Input Dims"), ArgValue::json(f.b.intern(text)));
            return w;
        };
        f.slice(0, 10, "aten::mm", "cpu_op", dims("[[8, 4], [4, 2]]"));
        f.slice(20, 10, "aten::mm", "cpu_op", dims("[[8, 4], [4, 2]]"));
        f.slice(40, 30, "aten::mm", "cpu_op", dims("[[64, 32], [32, 16]]"));
        auto trace = f.b.finish();
        QCOMPARE(computeTorchOps(*trace).rows.size(), size_t(1));
        TorchOpsOptions o;
        o.groupByInputShapes = true;
        const TorchOpsResult r = computeTorchOps(*trace, o);
        QVERIFY(r.hasInputShapes);
        QCOMPARE(r.rows.size(), size_t(2));
        QCOMPARE(r.rows[0].cpuTotalNs, TimeNs(30));  // the 64x32 call first (CPU total descending)
        QCOMPARE(r.rows[1].calls, uint64_t(2));
        QVERIFY(r.rows[0].inputShapes != r.rows[1].inputShapes);
        // Navigation: each row's occurrences are its own calls.
        QCOMPARE(occurrencesOf(*trace, r, 1).size(), size_t(2));
        const SliceRowIndex index = sliceRowIndexOf(*trace, r);
        QCOMPARE(index.size(), size_t(3));
    }

    // A PyTorch/XLA XSpace as torch_xla's profiler records it: host TraceMe events of its graph
    // executor and of xp.Trace annotations, one XLA program "SyncTensorsGraph.42" whose GPU
    // kernels carry the aten op they were lowered from (tf_op "aten__addmm"). No aten op calls
    // with CPU time, no runtime calls: torch.profiler's tree is not there, and the table says so
    // rather than listing TraceMe events as ops.
    void pytorchXlaXSpaceHasNoTorchTree() {
        xspace::SpaceWriter w;
        const int64_t t0 = 1'700'000'000'000'000'000;
        xspace::PlaneWriter& host = w.addPlane(1, "/host:CPU");
        xspace::LineWriter main = host.addLine(100, "python3");
        main.addEvent("train_step", t0, 50'000);
        main.addEvent("XLAGraphExecutor::SyncTensorsGraphInternal", t0 + 1'000, 30'000);
        main.addEvent("PjRtComputationClient::ExecuteComputation", t0 + 5'000, 20'000);
        xspace::PlaneWriter& gpu = w.addPlane(2, "/device:GPU:0");
        xspace::LineWriter stream = gpu.addLine(7, "Stream #7(Kernel)");
        stream.addEvent("sm90_gemm", t0 + 10'000, 8'000)
            .add("kernel_details", "regs:32 grid:8,1,1 block:128,1,1")
            .add("hlo_module", "SyncTensorsGraph.42")
            .add("hlo_op", "dot.3")
            .add("tf_op", "aten__addmm");
        QTemporaryDir dir;
        const std::string path = dir.filePath("xla.xplane.pb").toStdString();
        std::string error;
        QVERIFY2(w.writeFile(path, error), error.c_str());
        ImportResult imported = importTrace(path);
        QVERIFY2(imported.ok(), imported.error.c_str());
        const TorchOpsResult r = computeTorchOps(*imported.trace);
        QVERIFY(r.rows.empty());
        QVERIFY2(r.unavailable.find("PyTorch/XLA") != std::string::npos, r.unavailable.c_str());
        QCOMPARE(r.totalSelfCpuNs, TimeNs(0));
        // A JAX XSpace: not PyTorch/XLA, still no torch tree.
        ImportResult jax = importTrace(std::string(TRACESCOPE_SHARED_DIR) + "/testdata/gpu/jax_mlp_h100.xplane.pb");
        QVERIFY(jax.ok());
        const TorchOpsResult j = computeTorchOps(*jax.trace);
        QVERIFY(j.rows.empty());
        QVERIFY(j.unavailable.find("XSpace") != std::string::npos);
        QVERIFY(j.unavailable.find("PyTorch/XLA trace") == std::string::npos);
        // A Kineto trace has the tree.
        ImportResult kineto = importTrace(std::string(TRACESCOPE_SHARED_DIR) + "/testdata/gpu/torch_mlp_memory_h100.json");
        QVERIFY(kineto.ok());
        QVERIFY(computeTorchOps(*kineto.trace).unavailable.empty());
    }

    void realFiles_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"gpu/torch_mlp_memory_h100.json", "gpu/torch2.11_cu130_h100_kineto_trace.json.gz",
                              "public/hta/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
                              "public/kineto/worker0.1623143089861.pt.trace.json.gz",
                              "public/hta/df_index_resolver.json.gz",
                              // ROCm (MI250), a sampled rank, an MTIA rank, an old Kineto trace.
                              "public/hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz", "public/hta/sampled_rank-0.json.gz",
                              "public/hta/mtia_rank_0.json.gz", "public/kineto/before_fix_trace.json",
                              // HTA's synthetic rank: a cpu_op on pid 0 beside a kernel (CPU side by
                              // its category, not by its pid).
                              "public/hta/rank-70.Mar_25_20_48_12.2861.pt.trace.json.gz"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }
    void realFiles() {
        QFETCH(QString, file);
        std::ifstream in(std::string(TRACESCOPE_TEST_DATA_DIR) + "/torch_ops_reference.json");
        const std::string path = file.toStdString();
        const json ref = json::parse(in)[path.substr(path.rfind('/') + 1)];
        QVERIFY(!ref.is_null());
        ImportResult imported = importTrace(std::string(TRACESCOPE_SHARED_DIR) + "/testdata/" + path);
        QVERIFY(imported.ok());
        const TorchOpsResult r = computeTorchOps(*imported.trace);
        std::map<std::pair<std::string, bool>, const TorchOpRow*> ours;
        for (const auto& row : r.rows) ours[{row.name, row.onDevice}] = &row;
        QCOMPARE(ours.size(), ref["rows"].size());
        for (const auto& want : ref["rows"]) {
            const std::string name = want["name"];
            auto it = ours.find({name, want["on_device"].get<bool>()});
            QVERIFY2(it != ours.end(), name.c_str());
            const TorchOpRow& got = *it->second;
            QCOMPARE(got.calls, want["calls"].get<uint64_t>());
            const TimeNs tolerance = TimeNs(1000) * TimeNs(got.calls);
            for (auto [field, value] : {std::pair{"cpu_total_ns", got.cpuTotalNs}, {"self_cpu_ns", got.selfCpuNs},
                                        {"self_cuda_ns", got.selfCudaNs}, {"cuda_total_ns", got.cudaTotalNs}})
                QVERIFY2(std::llabs(value - want[field].get<TimeNs>()) <= tolerance, (name + " " + field).c_str());
        }
        QVERIFY(std::llabs(r.totalSelfCpuNs - ref["self_cpu_total_ns"].get<TimeNs>()) <= 1000);
        QVERIFY(std::llabs(r.totalSelfCudaNs - ref["self_cuda_total_ns"].get<TimeNs>()) <= 1000);
    }
};

QTEST_APPLESS_MAIN(TestTorchOps)
#include "tst_torch_ops.moc"
