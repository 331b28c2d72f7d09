// The memory profile: hand-built cases worked out in the comments, and the real traces of
// testdata against tests/tools/memory_reference.py (raw files, stdlib only) ->
// data/memory_reference.json.
#include "model/analysis/memory_downsample.h"
#include "model/analysis/memory_profile.h"
#include "model/analysis/memory_xprof_peak.h"
#include "model/analysis/op_classify.h"
#include "model/analysis/step_groups.h"
#include "model/import/import.h"
#include "model/trace/trace_builder.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <fstream>

using namespace tracescope;
using nlohmann::json;

namespace {

// An XSpace-style BFC event on track t.
struct Bfc {
    const char* kind;  // "MemoryAllocation" / "MemoryDeallocation"
    TimeNs t;
    int64_t heap, stack, free;
    double frag;
    int64_t requested, allocation;
    uint64_t addr;
    const char* op;
    const char* region;
    int64_t dataType;
    const char* shape;
};

void addBfc(TraceBuilder& b, TrackIndex t, const Bfc& e, const char* allocator = "GPU_0_bfc") {
    ArgsWriter w;
    w.add(b.intern("allocator_name"), ArgValue::string(b.intern(allocator)));
    w.add(b.intern("bytes_reserved"), ArgValue::integer(e.stack));
    w.add(b.intern("bytes_allocated"), ArgValue::integer(e.heap));
    w.add(b.intern("bytes_available"), ArgValue::integer(e.free));
    w.add(b.intern("fragmentation"), ArgValue::real(e.frag));
    w.add(b.intern("peak_bytes_in_use"), ArgValue::integer(5000));
    w.add(b.intern("requested_bytes"), ArgValue::integer(e.requested));
    w.add(b.intern("allocation_bytes"), ArgValue::integer(e.allocation));
    w.add(b.intern("addr"), ArgValue::unsignedInteger(e.addr));
    if (*e.op) w.add(b.intern("tf_op"), ArgValue::string(b.intern(e.op)));
    if (*e.region) w.add(b.intern("region_type"), ArgValue::string(b.intern(e.region)));
    w.add(b.intern("data_type"), ArgValue::integer(e.dataType));
    if (*e.shape) w.add(b.intern("shape"), ArgValue::string(b.intern(e.shape)));
    b.addInstant(t, e.t, b.intern(e.kind), b.intern("memory"), w);
}

// A Kineto [memory] instant; totals < 0 leave Total Allocated / Reserved out.
void addKineto(TraceBuilder& b, TrackIndex t, TimeNs time, int64_t bytes, uint64_t addr, int64_t total,
               int64_t reserved, int64_t deviceType = 1, int64_t deviceId = 0) {
    ArgsWriter w;
    if (total >= 0) w.add(b.intern("Total Allocated"), ArgValue::integer(total));
    if (reserved >= 0) w.add(b.intern("Total Reserved"), ArgValue::integer(reserved));
    w.add(b.intern("Bytes"), ArgValue::integer(bytes));
    if (addr) w.add(b.intern("Addr"), ArgValue::integer(int64_t(addr)));
    w.add(b.intern("Device Type"), ArgValue::integer(deviceType));
    w.add(b.intern("Device Id"), ArgValue::integer(deviceId));
    b.addInstant(t, time, b.intern("[memory]"), b.intern("cpu_instant_event"), w);
}

const MemoryBreakdownRow* rowOf(const MemoryIdProfile& p, const std::string& op) {
    for (const auto& r : p.breakdown)
        if (r.op == op) return &r;
    return nullptr;
}

std::unique_ptr<Trace> load(const std::string& relative) {
    const std::string path = relative.rfind("tests/", 0) == 0 ? std::string(TRACESCOPE_SOURCE_DIR) + "/" + relative
                                                              : std::string(TRACESCOPE_SHARED_DIR) + "/testdata/" + relative;
    ImportResult r = importTrace(path);
    if (!r.ok()) qWarning("import failed: %s", r.error.c_str());
    return std::move(r.trace);
}

}  // namespace

class TestMemoryProfile : public QObject {
    Q_OBJECT

private slots:
    // BFC events (heap, stack, free, fragmentation):
    //   t=10 alloc A1 addr 1, 100 B (req 90), op MatMul output float [2,3]; heap 100 stack 0 free 900 frag .1
    //   t=20 alloc A2 addr 2, 200 B (req 150), op MatMul output float [2,3]; heap 300 stack 50 free 650 frag .2
    //   t=30 alloc A3 addr 3, 400 B (req 400), op Conv temp half [8];       heap 700 stack 0 free 300 frag .3
    //   t=40 dealloc addr 3 (no metadata);                                    heap 300 stack 0 free 700 frag .4
    //   t=50 alloc A4 addr 4, 400 B,          op Relu;                        heap 700 stack 0 free 300 frag .5
    // In use = heap + stack: 100, 350, 700, 300, 700. Peak 700, tied at t=30 and t=50: the later
    // (t=50) wins, as XProf. At the peak: capacity 700 + 300 = 1000, fragmentation .5.
    // Live at t=50: A1, A2 (MatMul, output, float, [2,3]: 300 B, req 240, 2 occurrences) and A4
    // (Relu: 400 B); heap 700 - 700 attributed: no "(allocated before the profile)" row.
    // The deallocation at t=40 takes its allocation's op (Conv) and shape.
    void bfcPeakBreakdownFragmentation() {
        TraceBuilder b("xspace");
        const auto p = b.addProcess(ProcessKind::Host, 1, "/host:CPU");
        const auto t = b.addTrack(p, TrackKind::Thread, "python3", 1);
        b.addSlice(t, 0, 100, b.intern("session_run"), b.intern("op"));  // keeps the origin at 0
        addBfc(b, t, {"MemoryAllocation", 10, 100, 0, 900, .1, 90, 100, 1, "MatMul", "output", 1, "[2,3]"});
        addBfc(b, t, {"MemoryAllocation", 20, 300, 50, 650, .2, 150, 200, 2, "MatMul", "output", 1, "[2,3]"});
        addBfc(b, t, {"MemoryAllocation", 30, 700, 0, 300, .3, 400, 400, 3, "Conv", "temp", 19, "[8]"});
        addBfc(b, t, {"MemoryDeallocation", 40, 300, 0, 700, .4, 0, 400, 3, "", "", 0, ""});
        addBfc(b, t, {"MemoryAllocation", 50, 700, 0, 300, .5, 400, 400, 4, "Relu", "", 1, ""});
        auto trace = b.finish();
        const MemoryProfileResult res = computeMemoryProfile(*trace);
        QCOMPARE(res.ids.size(), size_t(1));
        const MemoryIdProfile& m = res.ids[0];
        QCOMPARE(m.memoryId, std::string("GPU_0_bfc"));
        QCOMPARE(m.allocations, uint64_t(4));
        QCOMPARE(m.deallocations, uint64_t(1));
        QCOMPARE(m.peakBytes, int64_t(700));
        QCOMPARE(trace->originNs, TimeNs(0));
        QCOMPARE(m.peakTimeNs, TimeNs(50));
        QCOMPARE(m.peakSnapshot, uint32_t(4));
        QCOMPARE(m.heapAtPeak, int64_t(700));
        QCOMPARE(m.stackAtPeak, int64_t(0));
        QCOMPARE(m.freeAtPeak, std::optional<int64_t>(300));
        QCOMPARE(m.capacityBytes, std::optional<int64_t>(1000));
        QVERIFY(m.fragmentationAtPeak && std::abs(*m.fragmentationAtPeak - 0.5) < 1e-6);
        QCOMPARE(m.lifetimePeakBytes, std::optional<int64_t>(5000));
        QVERIFY(!m.peakReservedBytes);
        QVERIFY(m.hasStack && m.hasFree && m.hasFragmentation && !m.hasReserved && m.hasAddresses);
        QCOMPARE(m.timeline.size(), size_t(5));
        QCOMPARE(m.timeline[1].inUseBytes(), int64_t(350));
        // Breakdown: MatMul 300 B (2 x), Relu 400 B; sorted by bytes.
        QCOMPARE(m.breakdown.size(), size_t(2));
        QCOMPARE(m.breakdown[0].op, std::string("Relu"));
        QCOMPARE(m.breakdown[0].allocationBytes, int64_t(400));
        QCOMPARE(m.breakdown[0].dataType, std::string("float"));
        const MemoryBreakdownRow* mm = rowOf(m, "MatMul");
        QVERIFY(mm);
        QCOMPARE(mm->allocationBytes, int64_t(300));
        QCOMPARE(mm->requestedBytes, int64_t(240));
        QCOMPARE(mm->occurrences, uint64_t(2));
        QCOMPARE(mm->regionType, std::string("output"));
        QCOMPARE(mm->dataType, std::string("float"));
        QCOMPARE(mm->shape, std::string("[2,3]"));
        QVERIFY(!rowOf(m, "(allocated before the profile)"));
        // The deallocation shows what it freed.
        const MemoryEventInfo info = memoryEventInfo(*trace, m, 3);
        QCOMPARE(info.op, std::string("Conv"));
        QCOMPARE(info.dataType, std::string("half"));
        QCOMPARE(info.shape, std::string("[8]"));
        QCOMPARE(m.timeline[3].partner, uint32_t(2));
        QCOMPARE(m.timeline[2].partner, uint32_t(3));
        // Alive at the end: A1, A2, A4 = 700 B.
        QCOMPARE(m.aliveAtEnd, uint64_t(3));
        QCOMPARE(m.aliveAtEndBytes, int64_t(700));
        QCOMPARE(memorySnapshotAt(m, 35), size_t(2));
        QCOMPARE(memorySnapshotAt(m, 5), size_t(0));
        QCOMPARE(memorySnapshotAt(m, 1000), size_t(4));
    }

    // Stack at the peak and memory allocated before the profile: one allocation of 100 B seen,
    // heap 1100 and stack 64 at the peak -> rows "(allocated before the profile)" 1000 B,
    // the op 100 B and "(stack)" 64 B, in that order.
    void specialRows() {
        TraceBuilder b("xspace");
        const auto p = b.addProcess(ProcessKind::Host, 1, "/host:CPU");
        const auto t = b.addTrack(p, TrackKind::Thread, "python3", 1);
        addBfc(b, t, {"MemoryAllocation", 10, 1100, 64, 0, 0, 100, 100, 7, "Add", "", 1, ""}, "cpu");
        auto trace = b.finish();
        const MemoryProfileResult res = computeMemoryProfile(*trace);
        const MemoryIdProfile& m = res.ids.at(0);
        QCOMPARE(m.peakBytes, int64_t(1164));
        QCOMPARE(m.breakdown.size(), size_t(3));
        QCOMPARE(m.breakdown[0].op, std::string("(allocated before the profile)"));
        QCOMPARE(m.breakdown[0].allocationBytes, int64_t(1000));
        QVERIFY(m.breakdown[0].special);
        QCOMPARE(m.breakdown[1].op, std::string("Add"));
        QCOMPARE(m.breakdown[2].op, std::string("(stack)"));
        QCOMPARE(m.breakdown[2].allocationBytes, int64_t(64));
        QVERIFY(!m.freeAtPeak);  // free 0 everywhere: a CPU allocator has none
        QVERIFY(!m.capacityBytes);
    }

    // PyTorch: four steps [0,100) .. [300,400). In each, aten::linear > aten::empty allocates
    // 1000 B; the step-0 block is freed at 150, those of steps 1, 2 and 3 never are. Plus an
    // allocation outside every step (t=450, aten::ones) never freed.
    // Op = the enclosing op skipping aten::empty -> aten::linear.
    // Totals after each event: 1000, 2000, 1000 (free), 2000, 3000, 4000.
    // Peak 4000 at t=450; reserved peak 4096. Leak hint: aten::linear, the blocks of steps 1
    // and 2 (2 allocations, 2 steps, 2000 B); the last step's block and the one outside any
    // step are alive at the end but no hint.
    void kinetoStepsLeaksEnclosingOp() {
        TraceBuilder b("chrome-json");
        const auto p = b.addProcess(ProcessKind::Host, 100, "python3");
        const auto t = b.addTrack(p, TrackKind::Thread, "main", 100);
        const StringId ua = b.intern("user_annotation"), op = b.intern("cpu_op");
        for (int s = 0; s < 4; ++s) {
            b.addSlice(t, s * 100, 100, b.intern("ProfilerStep#" + std::to_string(s)), ua);
            b.addSlice(t, s * 100 + 10, 20, b.intern("aten::linear"), op);
            b.addSlice(t, s * 100 + 12, 5, b.intern("aten::empty"), op);
        }
        b.addSlice(t, 440, 20, b.intern("aten::ones"), op);
        addKineto(b, t, 15, 1000, 0xA0, 1000, 4096);
        addKineto(b, t, 115, 1000, 0xA1, 2000, 4096);
        addKineto(b, t, 150, -1000, 0xA0, 1000, 4096);
        addKineto(b, t, 215, 1000, 0xA2, 2000, 4096);
        addKineto(b, t, 315, 1000, 0xA3, 3000, 4096);
        addKineto(b, t, 450, 1000, 0xA4, 4000, 4096);
        auto trace = b.finish();
        const MemoryProfileResult res = computeMemoryProfile(*trace);
        QCOMPARE(res.ids.size(), size_t(1));
        QCOMPARE(res.stepCount, size_t(4));
        const MemoryIdProfile& m = res.ids[0];
        QCOMPARE(m.memoryId, std::string("cuda:0"));
        QCOMPARE(m.source, MemorySource::Kineto);
        QCOMPARE(m.allocations, uint64_t(5));
        QCOMPARE(m.deallocations, uint64_t(1));
        QCOMPARE(m.peakBytes, int64_t(4000));
        QCOMPARE(m.peakTimeNs, TimeNs(450));
        QCOMPARE(m.peakReservedBytes, std::optional<int64_t>(4096));
        QVERIFY(!m.lifetimePeakBytes);
        QCOMPARE(trace->str(m.timeline[0].op), std::string_view("aten::linear"));
        QCOMPARE(trace->str(m.timeline[5].op), std::string_view("aten::ones"));
        QCOMPARE(trace->str(m.timeline[2].op), std::string_view("aten::linear"));  // freed: its allocation's op
        QCOMPARE(m.timeline[1].step, int64_t(1));
        QCOMPARE(m.timeline[5].step, int64_t(-1));
        QCOMPARE(m.aliveAtEnd, uint64_t(4));
        QCOMPARE(m.aliveAtEndBytes, int64_t(4000));
        QCOMPARE(m.leaks.size(), size_t(1));
        QCOMPARE(m.leaks[0].op, std::string("aten::linear"));
        QCOMPARE(m.leaks[0].allocations, uint64_t(2));
        QCOMPARE(m.leaks[0].steps, uint64_t(2));
        QCOMPARE(m.leaks[0].bytes, int64_t(2000));
        QCOMPARE(m.leaks[0].firstSnapshot, uint32_t(1));
        // Breakdown at t=450: aten::linear 3000 B (3 x), aten::ones 1000 B.
        QCOMPARE(m.breakdown.size(), size_t(2));
        QCOMPARE(m.breakdown[0].op, std::string("aten::linear"));
        QCOMPARE(m.breakdown[0].allocationBytes, int64_t(3000));
        QCOMPARE(m.breakdown[0].occurrences, uint64_t(3));
        QCOMPARE(m.breakdown[0].requestedBytes, int64_t(-1));
        QCOMPARE(m.breakdown[1].op, std::string("aten::ones"));
    }

    // The chart's runs on a small hand-made timeline. Window [0, 100] at 10 columns: column
    // c holds t in [10c, 10c + 10), the window's end in column 9. Allocated bytes:
    // t=5: 100, t=7: 300 (a spike), t=8: 50, t=35: 200, t=100: 10. Expected runs:
    //   column 0: 100, 300, 50 -> 50..300 (the spike kept though the column ends at 50)
    //   columns 1-2: 50 held; column 3: 50 carried in, then 200 -> 50..200
    //   columns 4-8: 200 held; column 9: 200 carried in, then 10 -> 10..200
    void runsOnSmallTimeline() {
        MemoryIdProfile p;
        p.source = MemorySource::Counter;
        for (auto [time, bytes] : {std::pair<TimeNs, int64_t>{5, 100}, {7, 300}, {8, 50}, {35, 200}, {100, 10}}) {
            MemorySnapshot s;
            s.time = time;
            s.heapBytes = bytes;
            p.timeline.push_back(s);
        }
        const std::vector<MemoryQuantity> layers = memoryChartLayers(p, true);
        QCOMPARE(layers, std::vector<MemoryQuantity>{MemoryQuantity::Allocated});
        auto check = [](const std::vector<CounterRun>& got, const std::vector<CounterRun>& want) {
            QCOMPARE(got.size(), want.size());
            for (size_t k = 0; k < want.size(); ++k) {
                QCOMPARE(got[k].x0, want[k].x0);
                QCOMPARE(got[k].x1, want[k].x1);
                QCOMPARE(got[k].min, want[k].min);
                QCOMPARE(got[k].max, want[k].max);
            }
        };
        const auto all = memoryRuns(p, layers, 0, 100, 10);
        QCOMPARE(all.size(), size_t(1));
        check(all[0], {{0, 1, 50, 300}, {1, 3, 50, 50}, {3, 4, 50, 200}, {4, 9, 200, 200}, {9, 10, 10, 200}});
        // Window [20, 60] at 4 columns (10 ns each): 50 enters from the left (t=8), 200 at t=35
        // in column 1, and holds to the right edge (t=100 is past the window).
        check(memoryRuns(p, layers, 20, 60, 4)[0], {{0, 1, 50, 50}, {1, 2, 50, 200}, {2, 4, 200, 200}});
        // Before the first snapshot there is nothing to draw: [0, 4] at 4 columns holds no event.
        check(memoryRuns(p, layers, 0, 4, 4)[0], {});
        // A quantity the snapshots do not know (fragmentation) keeps the runs aligned, unknown.
        const auto frag = memoryRuns(p, {MemoryQuantity::Allocated, MemoryQuantity::Fragmentation}, 0, 100, 10);
        QCOMPARE(frag[1].size(), frag[0].size());
        QVERIFY(std::isnan(frag[1][0].min) && std::isnan(frag[1][0].max));
    }

    // However many events, at most one run per pixel column, covering the columns from the
    // first event's without gaps, and every column's peak drawn: 100,000 events with one
    // spike (index 67,891) at 50 columns.
    void runsBoundedByColumns() {
        MemoryIdProfile p;
        p.source = MemorySource::XSpace;
        p.hasStack = true;
        for (int i = 0; i < 100000; ++i) {
            MemorySnapshot s;
            s.time = i * 10;
            s.stackBytes = 500;
            s.heapBytes = i == 67891 ? 1'000'000 : 1000 + (i % 7) * 100;
            s.kind = MemoryEventKind::Allocation;
            p.timeline.push_back(s);
        }
        const std::vector<MemoryQuantity> layers = memoryChartLayers(p, true);
        QCOMPARE(layers, (std::vector<MemoryQuantity>{MemoryQuantity::Stack, MemoryQuantity::InUse}));
        const auto runs = memoryRuns(p, layers, 0, 999990, 50);
        QCOMPARE(runs.size(), size_t(2));
        QCOMPARE(runs[1].size(), size_t(50));  // every column holds events
        int x = 0;
        for (const CounterRun& r : runs[1]) {
            QCOMPARE(r.x0, x);
            x = r.x1;
        }
        QCOMPARE(x, 50);
        // Column 33 holds t in [659,993.4, 679,993.2): events 66,000..67,999 after the state of
        // event 65,999 carried in, the spike (1,000,000 + 500 of stack) among them; the others
        // swing between 1,500 and 2,100 in use (1,000 + 0..600 of heap, 500 of stack).
        QCOMPARE(runs[1][33].max, 1'000'500.0);
        QCOMPARE(runs[1][33].min, 1500.0);
        QCOMPARE(runs[1][32].max, 2100.0);
        QCOMPARE(runs[0][33].min, 500.0);
        QCOMPARE(runs[0][33].max, 500.0);
    }

    // Old Kineto: only Bytes. +100, -300 (allocated before the profile), +50:
    // running sum 100, -200, -150; lifted by 200: 300, 0, 50. Peak 300 at the first event.
    void kinetoBytesOnly() {
        TraceBuilder b("chrome-json");
        const auto p = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto t = b.addTrack(p, TrackKind::Thread, "main", 1);
        addKineto(b, t, 0, 100, 1, -1, -1, 0, -1);
        addKineto(b, t, 10, -300, 2, -1, -1, 0, -1);
        addKineto(b, t, 20, 50, 3, -1, -1, 0, -1);
        auto trace = b.finish();
        const MemoryProfileResult res = computeMemoryProfile(*trace);
        const MemoryIdProfile& m = res.ids.at(0);
        QCOMPARE(m.memoryId, std::string("cpu"));
        QCOMPARE(m.source, MemorySource::KinetoBytesOnly);
        QCOMPARE(m.timeline[0].heapBytes, int64_t(300));
        QCOMPARE(m.timeline[1].heapBytes, int64_t(0));
        QCOMPARE(m.timeline[2].heapBytes, int64_t(50));
        QCOMPARE(m.peakBytes, int64_t(300));
        QCOMPARE(m.peakTimeNs, TimeNs(0));
        QVERIFY(!m.notes.empty());
    }

    void noMemoryData() {
        TraceBuilder b("chrome-json");
        const auto p = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto t = b.addTrack(p, TrackKind::Thread, "main", 1);
        b.addSlice(t, 0, 10, b.intern("op"), b.intern("cpu_op"));
        auto trace = b.finish();
        const MemoryProfileResult res = computeMemoryProfile(*trace);
        QVERIFY(res.ids.empty());
        QVERIFY(res.howToRecord.find("profile_memory=True") != std::string::npos);
    }

    // Chrome JSON counters named like memory: samples 0, 100, 100, 50 at t = 0, 10, 20, 30 ->
    // one rise (allocation), one fall, a repeat that is neither; peak 100, tied at 10 and 20:
    // the later. A counter not named like memory ("cpu load") is not a memory id.
    void chromeMemoryCounter() {
        TraceBuilder b("chrome-json");
        const auto p = b.addProcess(ProcessKind::Host, 1, "browser");
        const auto mem = b.addTrack(p, TrackKind::Counter, "GpuMemoryUsage value", 1);
        const auto load = b.addTrack(p, TrackKind::Counter, "cpu load", 2);
        const double values[] = {0, 100, 100, 50};
        for (int i = 0; i < 4; ++i) {
            b.addCounterSample(mem, i * 10, values[i]);
            b.addCounterSample(load, i * 10, 1000.0 * i);
        }
        auto trace = b.finish();
        const MemoryProfileResult res = computeMemoryProfile(*trace);
        QCOMPARE(res.ids.size(), size_t(1));
        const MemoryIdProfile& m = res.ids[0];
        QCOMPARE(m.memoryId, std::string("GpuMemoryUsage value"));
        QCOMPARE(m.source, MemorySource::Counter);
        QCOMPARE(m.allocations, uint64_t(1));
        QCOMPARE(m.deallocations, uint64_t(1));
        QCOMPARE(m.peakBytes, int64_t(100));
        QCOMPARE(m.peakTimeNs, TimeNs(20));
        QVERIFY(m.breakdown.empty());
    }

    // TF1 RunMetadata: the hand-wired file has GPU_1_bfc records +4096 then -4096
    // (tests/tools/make_handwired_run_metadata.py).
    void runMetadataAllocator() {
        auto trace = load("tests/import_runmetadata/data/handwired.pb");
        QVERIFY(trace);
        const MemoryProfileResult res = computeMemoryProfile(*trace);
        const MemoryIdProfile* gpu = nullptr;
        for (const auto& m : res.ids)
            if (m.memoryId == "GPU_1_bfc") gpu = &m;
        QVERIFY(gpu);
        QCOMPARE(gpu->source, MemorySource::Counter);
        QCOMPARE(gpu->allocations, uint64_t(1));
        QCOMPARE(gpu->deallocations, uint64_t(1));
        QCOMPARE(gpu->peakBytes, int64_t(4096));
    }

    // XProf's breakdown of the peak (xplane_to_memory_profile.cc), worked by hand. Heap before
    // the profile: 1000 B. Events in XProf's reading order, line 1 then line 2 (step id -1 = none):
    //   line 1: #0 t=5  alloc Z @1 30 B   heap 1030 step -1
    //           #1 t=10 alloc A @A 100 B  heap 1130 step 0
    //           #2 t=20 alloc B @B 50 B   heap 1180 step -1
    //           #3 t=25 free  A @A 100 B  heap 1080 step 1   (made in step 0)
    //           #4 t=50 alloc D @D 300 B  heap 1380 step 1   (ties the peak)
    //           #5 t=70 free  D @D 300 B  heap 1080 step -1
    //   line 2: #6 t=30 alloc C @C 300 B  heap 1380 step 1   (ties the peak, read last)
    //           #7 t=40 free  C @C 300 B  heap 1080 step 1
    // Peak 1380: read last is #6, so the peak time is 30 (not 50) and the heap at the peak 1380.
    // By time: #0 #1 #2 #3 #6 #7 #4 #5; step ids fixed: #0 -1 -> 0 (leading), #2 -1 -> 0 + 1 = 1,
    // #5 -1 -> 1 + 1 = 2. Peak step: the last in time at 1380 is #4 -> step 1.
    // Walk of step 1 up to t=30: #2 alloc B: unmapped 1380 - 50 = 1330; #3 free A, not live (made
    // in step 0): freed-earlier 100, unmapped 1430; #6 alloc C: 1130; #7 (t=40) ends the walk.
    // Unmapped 1130 - 100 = 1030 (= Z's 30 + the 1000 before the profile); listed: B and C.
    void xprofPeakWalk() {
        using E = XprofMemoryEvent;
        const std::vector<E> events = {
            E{5, 1030, 0, 30, 0x1, -1, true},    E{10, 1130, 0, 100, 0xA, 0, true},
            E{20, 1180, 0, 50, 0xB, -1, true},   E{25, 1080, 0, 100, 0xA, 1, false},
            E{50, 1380, 0, 300, 0xD, 1, true},   E{70, 1080, 0, 300, 0xD, -1, false},
            E{30, 1380, 0, 300, 0xC, 1, true},   E{40, 1080, 0, 300, 0xC, 1, false}};
        const XprofPeakBreakdown x = xprofPeakBreakdown(events);
        QVERIFY(x.found);
        QCOMPARE(x.peakEvent, size_t(6));
        QCOMPARE(x.peakBytes, int64_t(1380));
        QCOMPARE(x.peakTime, TimeNs(30));
        QCOMPARE(x.peakStep, int64_t(1));
        QCOMPARE(x.active, (std::vector<size_t>{2, 6}));
        QCOMPARE(x.activeBytes, int64_t(350));
        QCOMPARE(x.unmappedBytes, int64_t(1030));

        // Without step ids every event is step 0 and the walk sees them all: X and Y both listed,
        // heap 30 - 10 - 20 = 0 unmapped (no "unused preallocated device memory" row).
        const XprofPeakBreakdown all = xprofPeakBreakdown({E{1, 10, 0, 10, 0x1, -1, true}, E{2, 30, 0, 20, 0x2, -1, true}});
        QCOMPARE(all.peakStep, int64_t(0));
        QCOMPARE(all.active, (std::vector<size_t>{0, 1}));
        QCOMPARE(all.unmappedBytes, int64_t(0));
    }

    // XProf's step ids come from the host step groups, not from step windows. Heap before: 1000 B.
    // python: train (step_num 10) [0,100) and train (step_num 11) [100,200), both roots (_r=1):
    // groups 0 and 1; "loader": a thread with no events linked to a step. Memory events (time,
    // thread, what, heap after):
    //   20  python  alloc A @1 100 B  1100   group 0
    //   120 python  alloc B @2 200 B  1300   group 1
    //   130 python  free  A @1 100 B  1200   group 1 (made in group 0)
    //   150 loader  alloc C @3 300 B  1500   none -> after group 1: step id 2 (though in step 11's window)
    //   170 python  alloc E @5 400 B  1900   group 1
    //   200 python  alloc F @6 10 B   1910   group 1 (the end of step 11 still holds it)
    // The peak is F's 1910 at t=200, step id 1 (step 11). Walk of step id 1 up to 200: B: 1910 -
    // 200 = 1710; free A (not live): freed-earlier 100, 1810; E: 1410; F: 1400; 1400 - 100 = 1300 unmapped
    // (the 1000 before + C's 300). XProf lists B, E, F (3); ours every allocation alive at the
    // peak: B, C, E, F (4).
    void xprofNoteFollowsStepGroups() {
        TraceBuilder b("xspace");
        const auto host = b.addProcess(ProcessKind::Host, 0, "/host:CPU");
        const auto py = b.addTrack(host, TrackKind::Thread, "python", 1);
        const auto loader = b.addTrack(host, TrackKind::Thread, "loader", 2);
        for (int n = 0; n < 2; ++n) {
            ArgsWriter w;
            w.add(b.intern("_r"), ArgValue::integer(1));
            w.add(b.intern("step_num"), ArgValue::integer(10 + n));
            b.addSlice(py, n * 100, 100, b.intern("train"), b.intern(""), w);
        }
        addBfc(b, py, {"MemoryAllocation", 20, 1100, 0, 0, 0, 100, 100, 1, "A", "", 1, ""}, "cpu");
        addBfc(b, py, {"MemoryAllocation", 120, 1300, 0, 0, 0, 200, 200, 2, "B", "", 1, ""}, "cpu");
        addBfc(b, py, {"MemoryDeallocation", 130, 1200, 0, 0, 0, 100, 100, 1, "", "", 0, ""}, "cpu");
        addBfc(b, loader, {"MemoryAllocation", 150, 1500, 0, 0, 0, 300, 300, 3, "C", "", 1, ""}, "cpu");
        addBfc(b, py, {"MemoryAllocation", 170, 1900, 0, 0, 0, 400, 400, 5, "E", "", 1, ""}, "cpu");
        addBfc(b, py, {"MemoryAllocation", 200, 1910, 0, 0, 0, 10, 10, 6, "F", "", 1, ""}, "cpu");
        auto trace = b.finish();
        QVERIFY(trace);
        const MemoryProfileResult res = computeMemoryProfile(*trace);
        const MemoryIdProfile& m = res.ids.at(0);
        QCOMPARE(m.timeline.size(), size_t(6));
        const StepGroups groups = groupHostEvents(classifyTrace(*trace));
        QCOMPARE(xprofMemoryStepIds(*trace, groups, m.timeline), (std::vector<int64_t>{0, 1, 1, -1, 1, 1}));
        const auto note = std::find_if(m.notes.begin(), m.notes.end(),
                                       [](const std::string& n) { return n.find("XProf's Memory Profile") == 0; });
        QVERIFY(note != m.notes.end());
        QVERIFY2(note->find("lists the 3 allocations made in its peak's step (XProf's step id 1 = step 11) and alive "
                            "at its peak, and shows the other 1300 bytes") != std::string::npos, note->c_str());
        QVERIFY2(note->find("this breakdown lists all 4 allocations alive at the peak") != std::string::npos,
                 note->c_str());
    }

    void realFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("tf2.4 8-GPU xspace") << "public/tfprofiler/34.83.195.179_6003.xplane.pb";
        QTest::newRow("jax h100 xspace") << "gpu/jax_mlp_h100.xplane.pb";
        QTest::newRow("jax mi300 xspace") << "public/tracelens/tw003.xplane.pb";
        QTest::newRow("torch h100") << "gpu/torch_mlp_memory_h100.json";
        QTest::newRow("hta df_index_resolver") << "public/hta/df_index_resolver.json.gz";
        QTest::newRow("kineto resnet50 (Bytes only)") << "public/kineto/worker0.1623143089861.pt.trace.json.gz";
    }

    // Every memory id's counts, peaks, peak time (from the id's first event), live allocations at
    // the peak and at the end, and the sum of memory in use over the whole timeline (so every
    // point counts) against the reference computed from the raw file.
    void realFiles() {
        QFETCH(QString, file);
        auto trace = load(file.toStdString());
        QVERIFY(trace);
        std::ifstream in(std::string(TRACESCOPE_TEST_DATA_DIR) + "/memory_reference.json");
        const json all = json::parse(in);
        const std::string base = file.section('/', -1).toStdString();
        QVERIFY2(all.contains(base), base.c_str());
        const json& ref = all[base];
        const MemoryProfileResult res = computeMemoryProfile(*trace);
        QCOMPARE(res.ids.size(), ref.size());
        for (const MemoryIdProfile& m : res.ids) {
            QVERIFY2(ref.contains(m.memoryId), m.memoryId.c_str());
            const json& r = ref[m.memoryId];
            const QByteArray what = QByteArray::fromStdString(base + " " + m.memoryId);
            QVERIFY2(m.timeline.size() == r["events"].get<size_t>(), what);
            QCOMPARE(m.allocations, r["allocations"].get<uint64_t>());
            QCOMPARE(m.deallocations, r["deallocations"].get<uint64_t>());
            QCOMPARE(m.peakBytes, r["peak_bytes"].get<int64_t>());
            const TimeNs offset = m.peakTimeNs - m.timeline.front().time;
            QVERIFY2(std::abs(offset - r["peak_offset_ns"].get<TimeNs>()) <= 1, what);  // ps rounding
            if (r["peak_reserved_bytes"].is_null()) QVERIFY(!m.peakReservedBytes);
            else QCOMPARE(m.peakReservedBytes, std::optional<int64_t>(r["peak_reserved_bytes"].get<int64_t>()));
            if (r.contains("lifetime_peak_bytes"))
                QCOMPARE(m.lifetimePeakBytes, std::optional<int64_t>(r["lifetime_peak_bytes"].get<int64_t>()));
            else QVERIFY(!m.lifetimePeakBytes);
            int64_t inUseSum = 0;
            for (const auto& s : m.timeline) inUseSum += s.inUseBytes();
            QCOMPARE(inUseSum, r["in_use_sum"].get<int64_t>());
            QCOMPARE(m.aliveAtEnd, r["alive_at_end"].get<uint64_t>());
            QCOMPARE(m.aliveAtEndBytes, r["alive_at_end_bytes"].get<int64_t>());
            int64_t live = 0, liveBytes = 0;
            for (const auto& row : m.breakdown) {
                if (row.special) continue;
                live += int64_t(row.occurrences);
                liveBytes += row.allocationBytes;
            }
            QCOMPARE(live, r["live_at_peak"].get<int64_t>());
            QCOMPARE(liveBytes, r["live_bytes_at_peak"].get<int64_t>());
            // The rows add up to the memory in use at the peak.
            int64_t rows = 0;
            for (const auto& row : m.breakdown) rows += row.allocationBytes;
            QVERIFY2(rows >= m.peakBytes, what);
        }
    }
};

QTEST_GUILESS_MAIN(TestMemoryProfile)
#include "tst_memory_profile.moc"
