// Producer detection and classification on hand-written files of each producer: process
// name variants of XProf's trace JSON (hostname before the plane, "(pid N)" after it),
// derived lines by name and by id, stream activity with and without details, TF1 timeline
// names. Expected numbers are counted by hand from the events written here.
#include "model/analysis/kernel_stats.h"
#include "model/analysis/op_classify.h"
#include "model/analysis/overview.h"
#include "model/analysis/steps.h"
#include "model/export/xspace_writer.h"
#include "model/import/import.h"
#include "model/trace/producer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace tracescope;

namespace {

std::shared_ptr<const Trace> load(const QTemporaryDir& dir, const char* name, const std::string& text) {
    const std::string path = dir.filePath(QString::fromUtf8(name)).toStdString();
    std::ofstream(path) << text;
    ImportResult r = importTrace(path);
    if (!r.ok()) qWarning("%s", r.error.c_str());
    return r.ok() ? std::shared_ptr<const Trace>(std::move(r.trace)) : nullptr;
}

// An XProf-style trace JSON of one GPU step: 2 kernels (one without kernel_details), one
// copy, one memset on a stream line; the same two kernels again on the derived "XLA Ops"
// line (by name) and on a line whose tid is a derived id (0xDEADBEEF + 5 as uint32); a Steps
// line with one step; a host thread with a step annotation and a TF op.
std::string xprofJson(const std::string& gpuProcess, const std::string& hostProcess) {
    return R"J({"displayTimeUnit":"ns","metadata":{"highres-ticks":true},"traceEvents":[
{"ph":"M","pid":1,"name":"process_name","args":{"name":")J" +
           gpuProcess + R"J("}},
{"ph":"M","pid":701,"name":"process_name","args":{"name":")J" +
           hostProcess + R"J("}},
{"ph":"M","pid":1,"tid":7,"name":"thread_name","args":{"name":"Stream #7(Kernel,MemcpyH2D,Memset)"}},
{"ph":"M","pid":1,"tid":3735928560,"name":"thread_name","args":{"name":"XLA Ops"}},
{"ph":"M","pid":1,"tid":3735928564,"name":"thread_name","args":{"name":"ops by id"}},
{"ph":"M","pid":1,"tid":3735928559,"name":"thread_name","args":{"name":"Steps"}},
{"ph":"M","pid":701,"tid":11,"name":"thread_name","args":{"name":"python3"}},
{"ph":"X","pid":1,"tid":7,"ts":10.5,"dur":2.000001,"name":"fusion_1","args":{"kernel_details":"regs:32 static_shared:0 dynamic_shared:0 grid:8,1,1 block:128,1,1 occ_pct:50","hlo_op":"fusion.1","tf_op":"jit(f)/mul:mul","correlation_id":"5"}},
{"ph":"X","pid":1,"tid":7,"ts":13,"dur":3,"name":"gemm_2","args":{"hlo_op":"dot.2","tf_op":"jit(f)/dot_general:dot_general"}},
{"ph":"X","pid":1,"tid":7,"ts":17,"dur":1,"name":"MemcpyH2D","args":{"memcpy_details":"kind_src:pinned kind_dst:device size:64 dest:0 async:1"}},
{"ph":"X","pid":1,"tid":7,"ts":19,"dur":1,"name":"Memset","args":{"Memset_details":"kind:device num_bytes:64 async:1"}},
{"ph":"X","pid":1,"tid":3735928560,"ts":10.5,"dur":2,"name":"fusion.1","args":{"kernel_details":"regs:1 grid:1,1,1 block:1,1,1"}},
{"ph":"X","pid":1,"tid":3735928564,"ts":13,"dur":3,"name":"dot.2","args":{"kernel_details":"regs:1 grid:1,1,1 block:1,1,1"}},
{"ph":"X","pid":1,"tid":3735928559,"ts":10,"dur":11,"name":"1","args":{"group_id":"1","step_num":"1"}},
{"ph":"X","pid":701,"tid":11,"ts":5,"dur":20,"name":"train","args":{"step_num":"1","group_id":"1"}},
{"ph":"X","pid":701,"tid":11,"ts":6,"dur":3,"name":"Cast","args":{"long_name":"model/Cast_4:Cast"}},
{"ph":"X","pid":701,"tid":11,"ts":9.2,"dur":0.5,"name":"cudaLaunchKernel","args":{"correlation_id":"5"}},
{}]})J";
}

const Track* findTrack(const Trace& t, TrackKind kind, std::string_view name) {
    for (const Track& tr : t.tracks)
        if (tr.kind == kind && tr.name == name) return &tr;
    return nullptr;
}

// One GPU step as an XSpace: on the stream line a kernel [10, 12) µs and a zero-length kernel
// event at 14 µs; a "_counters_" line with "HBM usage" 1024 at 10 µs, 2048 at 12.5, 512 at 15;
// on the host thread a step [5, 25) and a zero-length MemoryAllocation of 64 bytes at 7 µs.
// Times from kT0 = 1 s.
constexpr int64_t kT0 = 1'000'000'000;
std::string zeroLengthAndCountersXSpace() {
    xspace::SpaceWriter w;
    xspace::PlaneWriter& gpu = w.addPlane(1, "/device:GPU:0");
    xspace::LineWriter stream = gpu.addLine(7, "Stream #7(Kernel)");
    stream.addEvent("fusion_1", kT0 + 10'000, 2'000).add("kernel_details", "regs:32 grid:8,1,1 block:128,1,1");
    stream.addEvent("zero_k", kT0 + 14'000, 0).add("kernel_details", "regs:32 grid:1,1,1 block:1,1,1");
    xspace::LineWriter counters = gpu.addLine(9, "_counters_");
    counters.addEvent("HBM usage", kT0 + 10'000, 0).add("HBM usage", int64_t(1024));
    counters.addEvent("HBM usage", kT0 + 12'500, 0).add("HBM usage", int64_t(2048));
    counters.addEvent("HBM usage", kT0 + 15'000, 0).add("HBM usage", int64_t(512));
    xspace::PlaneWriter& host = w.addPlane(2, "/host:CPU");
    xspace::LineWriter thread = host.addLine(11, "python3");
    thread.addEvent("train", kT0 + 5'000, 20'000).add("step_num", int64_t(1));
    thread.addEvent("MemoryAllocation", kT0 + 7'000, 0).add("allocation_bytes", "64");
    return w.serialize();
}

// The same run as XProf's trace viewer JSON (trace_events_to_json.h): complete events at least
// 1 ps long ("%.17g" of 1e-06 µs), the counter as one compact event with "event_stats" and
// "entries" [[ts, value], ...], the terminating {}. ts relative to kT0, in µs.
const char* kZeroLengthAndCountersJson = R"J({"displayTimeUnit":"ns","metadata":{"highres-ticks":true},"traceEvents":[
{"args":{"name":"/device:GPU:0"},"name":"process_name","ph":"M","pid":1,"thread_count":2},
{"args":{"sort_index":1},"name":"process_sort_index","ph":"M","pid":1},
{"args":{"name":"Stream #7(Kernel)"},"name":"thread_name","ph":"M","pid":1,"tid":7},
{"args":{"name":"/host:CPU"},"name":"process_name","ph":"M","pid":701,"thread_count":1},
{"args":{"name":"python3"},"name":"thread_name","ph":"M","pid":701,"tid":11},
{"pid":1,"tid":7,"name":"fusion_1","ts":10,"dur":2,"ph":"X","args":{"kernel_details":"regs:32 grid:8,1,1 block:128,1,1"}},
{"pid":1,"tid":7,"name":"zero_k","ts":14,"dur":9.9999999999999995e-07,"ph":"X","args":{"kernel_details":"regs:32 grid:1,1,1 block:1,1,1"}},
{"pid":701,"tid":11,"name":"train","ts":5,"dur":20,"ph":"X","args":{"step_num":"1"}},
{"pid":701,"tid":11,"name":"MemoryAllocation","ts":7,"dur":9.9999999999999995e-07,"ph":"X","args":{"allocation_bytes":"64"}},
{"pid":1,"name":"HBM usage","ph":"C","event_stats":"HBM usage","entries":[[10,1024],[12.5,2048],[15,512]]},
{}], "showCounterMessage": "" ,"totalCounterEvents":3})J";

}  // namespace

class ProducersTest : public QObject {
    Q_OBJECT
private slots:
    void planeNames() {
        QCOMPARE(xprofPlaneName("tw003 /device:GPU:0"), std::string_view("/device:GPU:0"));
        QCOMPARE(xprofPlaneName("/device:GPU:0 (pid 1)"), std::string_view("/device:GPU:0"));
        QCOMPARE(xprofPlaneName("host /host:CPU"), std::string_view("/host:CPU"));
        QVERIFY(isXProfPlaneProcessName("/device:TPU:3"));
        QVERIFY(!isXProfPlaneProcessName("/job:localhost/replica:0/task:0/device:GPU:0 Compute"));
        QVERIFY(!isXProfPlaneProcessName("/device:GPU:0/stream:all Compute"));
        QVERIFY(isTf1TimelineProcessName("/device:GPU:0/stream:all Compute"));
        QVERIFY(isTf1TimelineProcessName("Allocators"));
        QVERIFY(!isXProfPlaneProcessName("python3 (1234)"));
        QCOMPARE(producerName(Producer::Tf1, "runmetadata"), std::string_view("tf1"));
        QCOMPARE(producerName(Producer::Tf1, "chrome-json"), std::string_view("tf1-timeline"));
        QCOMPARE(producerName(Producer::Generic, "chrome-json"), std::string_view("catapult"));
    }

    void xprofJsonVariants_data() {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("host");
        QTest::newRow("plane names") << "/device:GPU:0"
                                     << "/host:CPU";
        QTest::newRow("hostname first") << "tw003 /device:GPU:0"
                                        << "tw003 /host:CPU";
        QTest::newRow("pid after") << "/device:GPU:0 (pid 1)"
                                   << "/host:CPU (pid 701)";
        QTest::newRow("host named GPU") << "GPU-node-3 /device:GPU:0"
                                        << "GPU-node-3 /host:CPU";
    }

    void xprofJsonVariants() {
        QFETCH(QString, gpu);
        QFETCH(QString, host);
        QTemporaryDir dir;
        auto t = load(dir, "x.trace.json", xprofJson(gpu.toStdString(), host.toStdString()));
        QVERIFY(t);
        QVERIFY2(t->warnings.empty(), t->warnings.empty() ? "" : t->warnings[0].detail.c_str());
        QCOMPARE(detectProducer(*t), Producer::XProf);
        const ClassifiedTrace ct = classifyTrace(*t);
        size_t kernels = 0, copies = 0, memsets = 0, hostOps = 0, runtime = 0;
        for (size_t ti = 0; ti < t->tracks.size(); ++ti) {
            if (ct.trackSkipped[ti]) continue;
            for (SliceRole r : ct.roles[ti]) {
                kernels += r == SliceRole::Kernel;
                copies += r == SliceRole::Memcpy;
                memsets += r == SliceRole::Memset;
                hostOps += r == SliceRole::HostOp;
                runtime += r == SliceRole::Runtime;
            }
        }
        // The derived lines (by name and by id) are skipped; a stream event without
        // kernel_details is still a kernel (the XSpace importer's default on a stream line).
        QCOMPARE(kernels, size_t(2));
        QCOMPARE(copies, size_t(1));
        QCOMPARE(memsets, size_t(1));
        QCOMPARE(hostOps, size_t(1));
        QCOMPARE(runtime, size_t(1));
        const KernelStatsResult k = computeKernelStats(ct);
        QCOMPARE(k.kernelCount, uint64_t(2));
        QCOMPARE(k.totalKernelNs, TimeNs(2000 + 3000));
        bool sawParams = false;
        for (const auto& row : k.rows) {
            if (row.name == "fusion_1") {
                sawParams = true;
                QCOMPARE(row.registersPerThread, 32u);
                QCOMPARE(row.op, std::string("jit(f)/mul:mul"));
            }
        }
        QVERIFY(sawParams);
        const StepsResult s = findSteps(ct);
        QCOMPARE(s.source, StepSource::XSpaceStepsLine);
        QCOMPARE(s.steps.size(), size_t(1));
        QCOMPARE(s.steps[0].number, int64_t(1));
        // The host step annotation of the same group contains the device step: it is the step.
        QCOMPARE(s.steps[0].durationNs, TimeNs(20000));
        const RunEnvironment env = computeOverview(ct).environment;
        QCOMPARE(env.deviceCount, size_t(1));
        QCOMPARE(env.deviceType, std::string("GPU"));
    }

    // XProf's compact counters and 1 ps events against the XSpace they come from: the XSpace
    // importer makes zero-length events instants of their line and a "_counters_" event a
    // sample of a counter named after it; the JSON must give the same.
    void xprofCompactCountersAndZeroLengthEvents() {
        QTemporaryDir dir;
        const std::string xspacePath = dir.filePath("run.xplane.pb").toStdString();
        std::ofstream(xspacePath, std::ios::binary) << zeroLengthAndCountersXSpace();
        ImportResult native = importTrace(xspacePath);
        QVERIFY2(native.ok(), native.error.c_str());
        auto json = load(dir, "run.trace.json", kZeroLengthAndCountersJson);
        QVERIFY(json);
        QVERIFY2(json->warnings.empty(), json->warnings.empty() ? "" : json->warnings[0].detail.c_str());
        QCOMPARE(detectProducer(*json), Producer::XProf);
        for (const Trace* t : std::initializer_list<const Trace*>{native.trace.get(), json.get()}) {
            const Track* hbm = findTrack(*t, TrackKind::Counter, "HBM usage");
            QVERIFY2(hbm, t->format.c_str());
            QCOMPARE(hbm->counter.value, (std::vector<double>{1024, 2048, 512}));
            QCOMPARE(hbm->counter.time[1] - hbm->counter.time[0], TimeNs(2'500));
            QCOMPARE(hbm->counter.time[2] - hbm->counter.time[0], TimeNs(5'000));
            const Track* stream = findTrack(*t, TrackKind::Thread, "Stream #7(Kernel)");
            QVERIFY(stream);
            QCOMPARE(stream->slices.size(), size_t(1));    // fusion_1
            QCOMPARE(stream->instants.size(), size_t(1));  // zero_k
            QCOMPARE(t->str(stream->instants.name[0]), std::string_view("zero_k"));
            QCOMPARE(stream->instants.time[0] - stream->slices.start[0], TimeNs(4'000));
            const Track* host = findTrack(*t, TrackKind::Thread, "python3");
            QVERIFY(host);
            QCOMPARE(host->slices.size(), size_t(1));    // train
            QCOMPARE(host->instants.size(), size_t(1));  // MemoryAllocation
            const KernelStatsResult k = computeKernelStats(*t);
            QCOMPARE(k.kernelCount, uint64_t(1));
            QCOMPARE(k.totalKernelNs, TimeNs(2'000));
            QCOMPARE(findSteps(classifyTrace(*t)).steps.size(), size_t(1));
        }
    }

    // Hostile compact counters: entries that are not arrays or lack a numeric ts are dropped
    // and counted; a value that is no number is skipped; a second value is a series of its own.
    void xprofCompactCountersHostile() {
        QTemporaryDir dir;
        auto t = load(dir, "c.trace.json", R"J({"traceEvents":[
{"args":{"name":"/host:CPU"},"name":"process_name","ph":"M","pid":701},
{"pid":701,"name":"load","ph":"C","entries":[5,[],["x",1],[20],[21,"y",3],[22,1.5,4],{"a":1}]},
{"pid":701,"name":"empty","ph":"C","entries":[]},
{"pid":701,"name":"notarray","ph":"C","entries":7}
]})J");
        QVERIFY(t);
        const Track* load0 = findTrack(*t, TrackKind::Counter, "load");
        QVERIFY(load0);
        QCOMPARE(load0->counter.value, (std::vector<double>{1.5}));  // [22, 1.5, 4]
        const Track* load1 = findTrack(*t, TrackKind::Counter, "load value 2");
        QVERIFY(load1);
        QCOMPARE(load1->counter.value, (std::vector<double>{3, 4}));  // [21, "y", 3] and [22, 1.5, 4]
        QCOMPARE(load1->counter.time.size(), size_t(2));
        QCOMPARE(load1->counter.time[1] - load1->counter.time[0], TimeNs(1'000));  // 22 - 21 µs
        bool warned = false;  // 5, [], ["x", 1] and {"a":1}: no usable ts
        for (const auto& w : t->warnings)
            warned = warned || (w.count == uint64_t(4) && w.detail.find("without a valid ts") != std::string::npos);
        QVERIFY(warned);
    }

    void tf1Timeline() {
        QTemporaryDir dir;
        auto t = load(dir, "tl.json", R"({"traceEvents":[
{"name":"process_name","ph":"M","pid":0,"args":{"name":"Allocators"}},
{"name":"process_name","ph":"M","pid":1,"args":{"name":"/job:localhost/replica:0/task:0/device:GPU:0 Compute"}},
{"name":"process_name","ph":"M","pid":2,"args":{"name":"/job:localhost/replica:0/task:0/device:GPU:0 Tensors"}},
{"name":"process_name","ph":"M","pid":3,"args":{"name":"/device:GPU:0/stream:all Compute"}},
{"name":"process_name","ph":"M","pid":5,"args":{"name":"/device:GPU:0/stream:7 Compute"}},
{"ph":"X","cat":"Op","name":"MatMul","pid":1,"tid":0,"ts":100,"dur":5,"args":{"name":"dense/MatMul","op":"MatMul"}},
{"ph":"X","cat":"Op","name":"MatMul","pid":3,"tid":0,"ts":106,"dur":9,"args":{"name":"dense/MatMul","op":"MatMul"}},
{"ph":"X","cat":"Op","name":"MatMul","pid":5,"tid":0,"ts":106,"dur":9,"args":{"name":"dense/MatMul","op":"MatMul"}}
]})");
        QVERIFY(t);
        QCOMPARE(detectProducer(*t), Producer::Tf1);
        const KernelStatsResult k = computeKernelStats(*t);
        QCOMPARE(k.kernelCount, uint64_t(1));  // stream:7 repeats stream:all
        QCOMPARE(k.totalKernelNs, TimeNs(9000));
        QCOMPARE(k.rows[0].op, std::string("dense/MatMul"));
    }
};

QTEST_GUILESS_MAIN(ProducersTest)
#include "tst_producers.moc"
