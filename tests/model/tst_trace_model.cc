// The trace model: string table, args encoding, and what TraceBuilder::finish()
// does to hand-built events (sorting, depth, overflow lanes, async lanes, flows).
#include "model/trace/trace_builder.h"

#include <QtTest>

using namespace tracescope;

class TraceModelTest : public QObject {
    Q_OBJECT
private slots:
    void sliceRecordIsSmall() {
        // start + duration + name + category + args offset + depth/flags.
        static_assert(kSliceRecordBytes == 30);
        QCOMPARE(kSliceRecordBytes, size_t(30));
        QVERIFY(sizeof(SliceRef) == 8);
    }

    void stringTableInterns() {
        StringTable t;
        QCOMPARE(t.intern(""), kEmptyString);
        StringId a = t.intern("MatMul");
        StringId b = t.intern("Conv2D");
        QCOMPARE(t.intern("MatMul"), a);
        QVERIFY(a != b);
        QCOMPARE(t.get(b), std::string_view("Conv2D"));
        QCOMPARE(t.find("nope"), kNoIndex);
        for (int i = 0; i < 100000; ++i) t.intern("s" + std::to_string(i));  // views stay valid across growth
        QCOMPARE(t.get(a), std::string_view("MatMul"));
    }

    void argsRoundTrip() {
        StringTable strings;
        ArgsWriter w;
        w.add(strings.intern("i"), ArgValue::integer(-123456789012345));
        w.add(strings.intern("u"), ArgValue::unsignedInteger(10159970886766084423ull));
        w.add(strings.intern("d"), ArgValue::real(0.25));
        w.add(strings.intern("s"), ArgValue::string(strings.intern("text")));
        w.add(strings.intern("b"), ArgValue::boolean(true));
        w.add(strings.intern("n"), ArgValue::null());
        std::vector<uint8_t> blob{1, 2, 3};
        ArgsOffset off = w.appendTo(blob);
        QCOMPARE(off, ArgsOffset(3));
        auto args = decodeArgs(blob, off);
        QCOMPARE(args.size(), size_t(6));
        QCOMPARE(args[0].value.i, int64_t(-123456789012345));
        QCOMPARE(args[1].value.u, uint64_t(10159970886766084423ull));
        QCOMPARE(args[1].value.toString(strings), std::string("10159970886766084423"));
        QCOMPARE(args[2].value.d, 0.25);
        QCOMPARE(strings.get(args[3].value.s), std::string_view("text"));
        QVERIFY(args[4].value.type == ArgValue::Type::True);
        QVERIFY(args[5].value.type == ArgValue::Type::Null);
        QCOMPARE(strings.get(args[5].key), std::string_view("n"));
        QVERIFY(decodeArgs(blob, kNoArgs).empty());
    }

    void nestingAndOrder() {
        TraceBuilder b("test");
        auto p = b.addProcess(ProcessKind::Host, 1, "proc");
        auto t = b.addTrack(p, TrackKind::Thread, "main", 1);
        StringId child = b.intern("child"), parent = b.intern("parent"), sib = b.intern("sibling");
        // Out of file order; child shares the parent's start (must nest under it).
        b.addSlice(t, 1000, 100, child, 0);
        b.addSlice(t, 1000, 500, parent, 0);
        b.addSlice(t, 1500, 10, sib, 0);
        b.addSlice(t, 1200, 50, child, 0);
        auto trace = b.finish();
        const SliceColumns& c = trace->tracks[t].slices;
        QCOMPARE(c.size(), size_t(4));
        QCOMPARE(trace->originNs, TimeNs(1000));
        QCOMPARE(c.start[0], TimeNs(0));
        QCOMPARE(c.name[0], parent);
        QCOMPARE(c.depth(0), uint16_t(0));
        QCOMPARE(c.name[1], child);
        QCOMPARE(c.depth(1), uint16_t(1));
        QCOMPARE(c.start[2], TimeNs(200));
        QCOMPARE(c.depth(2), uint16_t(1));
        QCOMPARE(c.name[3], sib);
        QCOMPARE(c.depth(3), uint16_t(0));  // starts exactly at the parent's end: a sibling
        QCOMPARE(trace->tracks[t].maxDepth, 2u);
        QCOMPARE(trace->spanNs(), TimeNs(510));
    }

    void partialOverlapGoesToOverflowLane() {
        TraceBuilder b("test");
        auto p = b.addProcess(ProcessKind::Host, 1, "proc");
        auto t = b.addTrack(p, TrackKind::Thread, "main", 1);
        StringId a = b.intern("a"), x = b.intern("x");
        uint32_t first = b.addSlice(t, 0, 100, a, 0);
        uint32_t overlap = b.addSlice(t, 50, 100, x, 0);  // 50..150 crosses a's end
        b.addSlice(t, 60, 10, a, 0);                         // nests inside a
        auto other = b.addTrack(p, TrackKind::Thread, "other", 2);
        uint32_t target = b.addSlice(other, 200, 10, a, 0);
        b.addFlow(TraceBuilder::FlowEnd::ofSlice(t, overlap), TraceBuilder::FlowEnd::ofSlice(other, target), x, 0, 7);
        b.addFlow(TraceBuilder::FlowEnd::ofSlice(t, first), TraceBuilder::FlowEnd::ofSlice(other, target), x, 0, 8);
        auto trace = b.finish();
        QCOMPARE(trace->tracks.size(), size_t(3));
        const Track& ov = trace->tracks[2];
        QCOMPARE(ov.overflowOf, t);
        QCOMPARE(ov.slices.size(), size_t(1));
        QCOMPARE(ov.slices.name[0], x);
        QCOMPARE(trace->tracks[t].slices.size(), size_t(2));
        QCOMPARE(trace->counts().slices, size_t(4));
        QCOMPARE(trace->counts().tracks, size_t(2));
        QVERIFY(!trace->warnings.empty());
        // The overflow lane is listed right after its track.
        const auto& order = trace->processes[0].tracks;
        QCOMPARE(order[0], t);
        QCOMPARE(order[1], TrackIndex(2));
        // Flows follow slices into the lane.
        QCOMPARE(trace->flows.size(), size_t(2));
        QCOMPARE(trace->flows[0].from, (SliceRef{2, 0}));
        QCOMPARE(trace->flows[1].from, (SliceRef{t, 0}));
        QCOMPARE(trace->flowsTo(SliceRef{other, 0}).size(), size_t(2));
        QCOMPARE(trace->flowsFrom(SliceRef{2, 0}).size(), size_t(1));
    }

    void unfinishedSliceEndsAtTraceEnd() {
        TraceBuilder b("test");
        auto p = b.addProcess(ProcessKind::Host, 1, "proc");
        auto t = b.addTrack(p, TrackKind::Thread, "main", 1);
        b.addSlice(t, 10, 0, b.intern("open"), 0, kNoArgs, true);
        b.addSlice(t, 20, 30, b.intern("done"), 0);
        auto trace = b.finish();
        const SliceColumns& c = trace->tracks[t].slices;
        QVERIFY(c.unfinished(0));
        QCOMPARE(c.end(0), TimeNs(40));
        QCOMPARE(c.depth(1), uint16_t(1));
    }

    void flowsBindByTime() {
        TraceBuilder b("test");
        auto p = b.addProcess(ProcessKind::Host, 1, "proc");
        auto t = b.addTrack(p, TrackKind::Thread, "cpu", 1);
        auto g = b.addTrack(p, TrackKind::Thread, "gpu", 2);
        StringId n = b.intern("n");
        b.addSlice(t, 0, 100, n, 0);
        b.addSlice(t, 10, 20, n, 0);  // deepest slice enclosing 15
        b.addSlice(t, 40, 5, n, 0);
        b.addSlice(g, 50, 5, n, 0);
        b.addSlice(g, 70, 5, n, 0);
        b.addFlow(TraceBuilder::FlowEnd::enclosing(t, 15), TraceBuilder::FlowEnd::next(g, 60), n, 0, 1);
        b.addFlow(TraceBuilder::FlowEnd::enclosing(t, 35), TraceBuilder::FlowEnd::enclosing(g, 52), n, 0, 2);
        b.addFlow(TraceBuilder::FlowEnd::enclosing(t, 500), TraceBuilder::FlowEnd::next(g, 0), n, 0, 3);  // dropped
        auto trace = b.finish();
        QCOMPARE(trace->flows.size(), size_t(2));
        QCOMPARE(trace->flows[0].from, (SliceRef{t, 1}));
        QCOMPARE(trace->flows[0].to, (SliceRef{g, 1}));
        QCOMPARE(trace->flows[1].from, (SliceRef{t, 0}));
        QCOMPARE(trace->flows[1].to, (SliceRef{g, 0}));
    }

    void asyncSpansPackIntoLanes() {
        TraceBuilder b("test");
        auto p = b.addProcess(ProcessKind::Host, 1, "proc");
        auto t = b.addTrack(p, TrackKind::Async, "io", 0);
        StringId n = b.intern("req");
        b.addSlice(t, 0, 100, n, 0);
        b.addSlice(t, 10, 100, n, 0);
        b.addSlice(t, 100, 10, n, 0);  // lane 0 is free again at 100
        b.addSlice(t, 20, 5, n, 0);
        auto trace = b.finish();
        const SliceColumns& c = trace->tracks[t].slices;
        QCOMPARE(c.depth(0), uint16_t(0));
        QCOMPARE(c.depth(1), uint16_t(1));
        QCOMPARE(c.depth(2), uint16_t(2));
        QCOMPARE(c.depth(3), uint16_t(0));
        QCOMPARE(trace->tracks[t].maxDepth, 3u);
        QCOMPARE(trace->counts().asyncSlices, size_t(4));
        QCOMPARE(trace->counts().slices, size_t(0));
    }

    void processesSortDevicesFirst() {
        TraceBuilder b("test");
        auto host = b.addProcess(ProcessKind::Host, 5, "host");
        auto gpu1 = b.addProcess(ProcessKind::Device, 2, "gpu1");
        auto gpu0 = b.addProcess(ProcessKind::Device, 1, "gpu0");
        auto t = b.addTrack(host, TrackKind::Thread, "t", 1);
        b.addTrack(gpu1, TrackKind::Thread, "s", 7);
        b.addTrack(gpu0, TrackKind::Thread, "s", 7);
        b.addInstant(t, 5, b.intern("i"), 0);
        auto trace = b.finish();
        QCOMPARE(trace->processes[0].name, std::string("gpu0"));
        QCOMPARE(trace->processes[1].name, std::string("gpu1"));
        QCOMPARE(trace->processes[2].name, std::string("host"));
        QCOMPARE(trace->tracks[t].process, ProcessIndex(2));
        QCOMPARE(trace->counts().instants, size_t(1));
    }

    void deepNestingDoesNotOverflowDepth() {
        TraceBuilder b("test");
        auto p = b.addProcess(ProcessKind::Host, 1, "proc");
        auto t = b.addTrack(p, TrackKind::Thread, "main", 1);
        const int n = 40000;
        for (int i = 0; i < n; ++i) b.addSlice(t, i, 2 * (n - i), b.intern("d"), 0);
        auto trace = b.finish();
        const SliceColumns& c = trace->tracks[t].slices;
        QCOMPARE(c.size(), size_t(n));
        QCOMPARE(c.depth(30000), uint16_t(30000));
        QCOMPARE(c.depth(n - 1), kSliceDepthMask);  // beyond the depth field: kept, drawn at the deepest row
    }
};

QTEST_GUILESS_MAIN(TraceModelTest)
#include "tst_trace_model.moc"
