// The trace model: string table, args encoding, and what TraceBuilder::finish()
// does to hand-built events (sorting, depth, overflow lanes, async lanes, flows).
#include "model/trace/args_compaction.h"
#include "model/trace/gallop.h"
#include "model/trace/has_events.h"
#include "model/trace/trace_builder.h"

#include <QtTest>

#include <algorithm>
#include <array>
#include <limits>
#include <numeric>
#include <random>
#include <thread>

using namespace tracescope;

class TraceModelTest : public QObject {
    Q_OBJECT
private slots:
    void sliceRecordIsSmall() {
        // start 4 (offset from a base per 256 slices) + duration 4 (long ones in side tables) +
        // name 2 + category 1 (dictionaries per track) + args offset 4 + depth/flags 2.
        static_assert(kSliceRecordBytes == 17);
        QCOMPARE(kSliceRecordBytes, size_t(17));
        QVERIFY(sizeof(SliceRef) == 8);
        static_assert(sizeof(Flow) == 20);
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

    // Plain entries written by ArgsWriter, compacted, read back: every event has the same
    // args, in the same order, to the bit; the compacted blob is much smaller.
    void argsCompactionKeepsEveryValue() {
        StringTable strings;
        Track track;
        std::vector<std::vector<Arg>> expected;
        auto add = [&](std::vector<Arg> args, bool instant) {
            ArgsWriter w;
            for (const Arg& a : args) w.add(a.key, a.value);
            (instant ? track.instants.args : track.slices.args).push_back(w.appendTo(track.argBlob));
            expected.push_back(std::move(args));
        };
        const StringId grid = strings.intern("grid"), stream = strings.intern("stream"),
                       corr = strings.intern("correlation"), ext = strings.intern("External id"),
                       big = strings.intern("big"), occ = strings.intern("blocks per SM"), kind = strings.intern("kind"),
                       flag = strings.intern("flag"), none = strings.intern("none"), edge = strings.intern("edge");
        const StringId grids[3] = {strings.intern("[1,1,1]"), strings.intern("[64,1,1]"), strings.intern("[8,8,1]")};
        int64_t correlation = 1000;
        for (int i = 0; i < 2000; ++i) {
            correlation += 1 + i % 3;
            add({{grid, ArgValue::json(grids[i % 3])},
                 {stream, ArgValue::integer(7 + i % 2)},
                 {corr, ArgValue::integer(correlation)},
                 {ext, ArgValue::integer(-1000000 + i * 997)},  // crosses zero
                 {big, ArgValue::unsignedInteger(std::numeric_limits<uint64_t>::max() - uint64_t(i) * 3)},
                 {occ, ArgValue::real(i * 0.37)},
                 {kind, ArgValue::string(strings.intern("kernel"))},
                 {flag, ArgValue::boolean(i % 7 == 0)},  // two types: two shapes
                 {none, ArgValue::null()}},
                false);
            if (i % 10 == 0)  // an instant of another shape, with the extremes of int64 in one slot
                add({{edge, ArgValue::integer(i % 20 ? std::numeric_limits<int64_t>::max()
                                                      : std::numeric_limits<int64_t>::min())}},
                    true);
        }
        track.slices.args.push_back(kNoArgs);
        ArgsWriter unreferenced;
        unreferenced.add(kind, ArgValue::string(strings.intern("nobody reads this")));
        unreferenced.appendTo(track.argBlob);
        const size_t plainBytes = track.argBlob.size();

        compactArgs(track);
        QVERIFY(!track.argTemplates.empty());
        QVERIFY2(track.argBlob.size() * 2 < plainBytes,  // 15 B an event here: 8 of them the double
                 qPrintable(QString("%1 of %2 bytes").arg(track.argBlob.size()).arg(plainBytes)));
        QCOMPARE(track.slices.args.back(), kNoArgs);
        std::vector<ArgsOffset> all;
        for (ArgsOffset o : track.slices.args)
            if (o != kNoArgs) all.push_back(o);
        for (size_t k = 0, s = 0, in = 0; k < expected.size(); ++k) {
            // expected holds slices and instants interleaved as added
            const bool instant = expected[k].size() == 1;
            const ArgsOffset o = instant ? track.instants.args[in++] : all[s++];
            const std::vector<Arg> got = decodeArgs(track.argsView(), o);
            QCOMPARE(got.size(), expected[k].size());
            for (size_t j = 0; j < got.size(); ++j) {
                QCOMPARE(got[j].key, expected[k][j].key);
                QVERIFY(got[j].value.type == expected[k][j].value.type);
                QCOMPARE(got[j].value.u, expected[k][j].value.u);  // the value's bits
            }
            // Without its templates a templated entry reads as no args, never as other args.
            QVERIFY(decodeArgs(ArgsView{track.argBlob}, o).empty());
        }

        // Compacting again changes nothing.
        const std::vector<uint8_t> once = track.argBlob;
        compactArgs(track);
        QVERIFY(track.argBlob == once);
    }

    // A shape whose repeated values combine too freely stops making templates: the rest of
    // its entries stay plain, and every event still reads back.
    void argsCompactionCapsTemplates() {
        StringTable strings;
        Track track;
        const StringId a = strings.intern("a"), b = strings.intern("b"), c = strings.intern("c");
        std::vector<std::array<int64_t, 3>> values;
        std::mt19937 rng(7);
        for (int i = 0; i < 1024; ++i) {
            values.push_back({int64_t(rng() % 8), int64_t(rng() % 8), int64_t(rng() % 8)});
            ArgsWriter w;
            w.add(a, ArgValue::integer(values.back()[0]));
            w.add(b, ArgValue::integer(values.back()[1]));
            w.add(c, ArgValue::integer(values.back()[2]));
            track.slices.args.push_back(w.appendTo(track.argBlob));
        }
        compactArgs(track);
        QVERIFY(track.argTemplates.start.size() <= 64);  // max(16, 1024 / 16)
        for (size_t i = 0; i < values.size(); ++i) {
            const std::vector<Arg> got = decodeArgs(track.argsView(), track.slices.args[i]);
            QCOMPARE(got.size(), size_t(3));
            for (size_t j = 0; j < 3; ++j) QCOMPARE(got[j].value.i, values[i][j]);
        }
    }

    // Many shapes on one track, some with only repeated values (small integers, like the
    // shapes' own numbers), some with only varying ones: no entry takes another shape's template.
    void argsCompactionManyShapes() {
        StringTable strings;
        Track track;
        std::vector<std::pair<StringId, int64_t>> expected;
        for (int i = 0; i < 4000; ++i) {
            const int shape = i % 40;
            const StringId key = strings.intern("k" + std::to_string(shape));
            const int64_t value = shape % 2 ? int64_t(i) * 7 : shape + 1;
            ArgsWriter w;
            w.add(key, ArgValue::integer(value));
            track.slices.args.push_back(w.appendTo(track.argBlob));
            expected.emplace_back(key, value);
        }
        compactArgs(track);
        for (int i = 0; i < 4000; ++i) {
            const std::vector<Arg> got = decodeArgs(track.argsView(), track.slices.args[size_t(i)]);
            QCOMPARE(got.size(), size_t(1));
            QCOMPARE(got[0].key, expected[size_t(i)].first);
            QCOMPARE(got[0].value.i, expected[size_t(i)].second);
        }
    }

    // Offsets and template numbers that point nowhere read as no args.
    void argsHostileEntries() {
        Track track;
        ArgsWriter w;
        w.add(1, ArgValue::integer(5));
        track.slices.args.push_back(w.appendTo(track.argBlob));
        track.slices.args.push_back(w.appendTo(track.argBlob));
        compactArgs(track);
        QCOMPARE(decodeArgs(track.argsView(), track.slices.args[1]).size(), size_t(1));
        std::vector<uint8_t> blob = track.argBlob;
        blob.push_back(uint8_t(99 << 1 | 1));  // template 99 of 1
        QVERIFY(decodeArgs(ArgsView{blob, &track.argTemplates}, ArgsOffset(blob.size() - 1)).empty());
        blob = {0xFF, 0xFF};  // a varint cut short
        QVERIFY(decodeArgs(ArgsView{blob, &track.argTemplates}, 0).empty());
        QVERIFY(decodeArgs(track.argsView(), ArgsOffset(track.argBlob.size() + 5)).empty());
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
        // Flows follow slices into the lane (flows are ordered by source).
        QCOMPARE(trace->flows.size(), size_t(2));
        QCOMPARE(trace->flows[0].from, (SliceRef{t, 0}));
        QCOMPARE(trace->flows[1].from, (SliceRef{2, 0}));
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

    // The shared saturating time helpers at the int64 limits (values by hand).
    void saturatingTimeHelpers() {
        constexpr TimeNs kMax = std::numeric_limits<TimeNs>::max(), kMin = std::numeric_limits<TimeNs>::min();
        QCOMPARE(plusSat(kMax, 1), kMax);
        QCOMPARE(plusSat(kMin, -1), kMin);
        QCOMPARE(plusSat(-5, 3), TimeNs(-2));
        QCOMPARE(minusSat(kMin, 1), kMin);
        QCOMPARE(minusSat(0, kMin), kMax);  // -INT64_MIN does not exist
        QCOMPARE(durationBetween(kMin, kMax), kMax);
        QCOMPARE(durationBetween(kMax, kMin), TimeNs(0));
        QCOMPARE(durationBetween(-3, 4), TimeNs(7));
        QCOMPARE(durationBetween(4, 4), TimeNs(0));
        SliceColumns c;
        c.start = {kMax - 1};
        c.duration.push_back(kMax);
        QCOMPARE(c.end(0), kMax);
    }

    // endSlice (B/E pairs, async b/e) clamps the end like every other time: a pair from 0 to
    // INT64_MAX ends at +kMaxTimeNs, a pair whose both times lie past it is 0 long, and an end
    // before the start gives 0. Each clamped time is counted once.
    void endSliceClampsTheEnd() {
        constexpr TimeNs K = TraceBuilder::kMaxTimeNs;
        TraceBuilder b("test");
        auto p = b.addProcess(ProcessKind::Host, 1, "proc");
        auto t1 = b.addTrack(p, TrackKind::Thread, "1", 1);
        auto t2 = b.addTrack(p, TrackKind::Thread, "2", 2);
        auto t3 = b.addTrack(p, TrackKind::Thread, "3", 3);
        b.endSlice(t1, b.addSlice(t1, 0, 0, b.intern("to max"), 0), std::numeric_limits<TimeNs>::max());
        b.endSlice(t2, b.addSlice(t2, std::numeric_limits<TimeNs>::min(), 0, b.intern("min to min"), 0),
                   std::numeric_limits<TimeNs>::min());
        b.endSlice(t3, b.addSlice(t3, 100, 0, b.intern("backwards"), 0), 50);
        auto trace = b.finish();
        QCOMPARE(trace->spanNs(), 2 * K);  // -K .. +K
        QCOMPARE(trace->tracks[t1].slices.duration[0], K);
        QCOMPARE(trace->tracks[t2].slices.duration[0], TimeNs(0));
        QCOMPARE(trace->tracks[t3].slices.duration[0], TimeNs(0));
        bool counted = false;
        for (const ImportWarning& w : trace->warnings)
            counted = counted || (w.detail.find("clamped") != std::string::npos && w.count == uint64_t(3));
        QVERIFY(counted);
    }

    // A negative duration is stored as 0 and said in a warning.
    void negativeDurationIsZeroAndWarned() {
        TraceBuilder b("test");
        auto p = b.addProcess(ProcessKind::Host, 1, "proc");
        auto t = b.addTrack(p, TrackKind::Thread, "main", 1);
        b.addSlice(t, 10, -5, b.intern("negative"), 0);
        auto trace = b.finish();
        QCOMPARE(trace->tracks[t].slices.duration[0], TimeNs(0));
        QCOMPARE(trace->warnings.size(), size_t(1));
        QVERIFY(trace->warnings[0].detail.find("negative duration") != std::string::npos);
        QCOMPARE(trace->warnings[0].count, std::optional<uint64_t>(1));
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
        // Ordered by source: the arrow from the outer slice (t, 0) comes first.
        QCOMPARE(trace->flows.size(), size_t(2));
        QCOMPARE(trace->flows[0].from, (SliceRef{t, 0}));
        QCOMPARE(trace->flows[0].to, (SliceRef{g, 0}));
        QCOMPARE(trace->flows[1].from, (SliceRef{t, 1}));
        QCOMPARE(trace->flows[1].to, (SliceRef{g, 1}));
    }

    // Flows keep their name/category through the shared kind table; several arrows
    // from one slice keep the order they were added in; lookups work both ways,
    // also from several threads at once (the `to` index is built on first use).
    void flowKindsAndLookups() {
        TraceBuilder b("test");
        auto p = b.addProcess(ProcessKind::Host, 1, "proc");
        auto cpu = b.addTrack(p, TrackKind::Thread, "cpu", 1);
        auto gpu = b.addTrack(p, TrackKind::Thread, "gpu", 2);
        StringId launch = b.intern("launch"), ac2g = b.intern("ac2g"), dep = b.intern("dep");
        uint32_t s0 = b.addSlice(cpu, 0, 10, launch, 0);
        uint32_t s1 = b.addSlice(cpu, 20, 10, launch, 0);
        uint32_t k0 = b.addSlice(gpu, 5, 10, launch, 0);
        uint32_t k1 = b.addSlice(gpu, 30, 10, launch, 0);
        uint32_t k2 = b.addSlice(gpu, 50, 10, launch, 0);
        using FE = TraceBuilder::FlowEnd;
        b.addFlow(FE::ofSlice(cpu, s1), FE::ofSlice(gpu, k2), launch, ac2g);
        b.addFlow(FE::ofSlice(cpu, s0), FE::ofSlice(gpu, k0), launch, ac2g);
        b.addFlow(FE::ofSlice(cpu, s1), FE::ofSlice(gpu, k1), dep, kEmptyString);
        b.addFlow(FE::ofSlice(gpu, k0), FE::ofSlice(gpu, k1), dep, kEmptyString);
        auto trace = b.finish();
        const Trace& t = *trace;
        QCOMPARE(t.flows.size(), size_t(4));
        QCOMPARE(t.flowKinds.size(), size_t(2));  // (launch, ac2g) and (dep, "")
        QCOMPARE(t.eventMemoryBytes() > 0, true);
        const size_t before = t.eventMemoryBytes();
        // Source order: (cpu,0), then (cpu,1) twice in insertion order, then (gpu,0).
        QCOMPARE(t.flows[0].from, (SliceRef{cpu, 0}));
        QCOMPARE(t.flows[1].to, (SliceRef{gpu, 2}));
        QCOMPARE(t.flowName(t.flows[1]), launch);
        QCOMPARE(t.flowCategory(t.flows[1]), ac2g);
        QCOMPARE(t.flows[2].to, (SliceRef{gpu, 1}));
        QCOMPARE(t.flowName(t.flows[2]), dep);
        QCOMPARE(t.flowCategory(t.flows[2]), kEmptyString);
        QCOMPARE(t.flows[3].from, (SliceRef{gpu, 0}));
        QCOMPARE(t.flowsFrom(SliceRef{cpu, 1}), (std::vector<uint32_t>{1, 2}));
        QCOMPARE(t.flowsFrom(SliceRef{gpu, 1}), (std::vector<uint32_t>{}));
        std::vector<std::vector<uint32_t>> results(4);
        std::vector<std::thread> threads;
        for (size_t i = 0; i < results.size(); ++i)
            threads.emplace_back([&, i] { results[i] = t.flowsTo(SliceRef{gpu, 1}); });
        for (auto& th : threads) th.join();
        for (const auto& r : results) QCOMPARE(r, (std::vector<uint32_t>{2, 3}));
        QCOMPARE(t.flowsTo(SliceRef{gpu, 0}), (std::vector<uint32_t>{0}));
        QCOMPARE(t.flowsTo(SliceRef{cpu, 0}), (std::vector<uint32_t>{}));
        // The index now exists and is counted.
        QCOMPARE(t.eventMemoryBytes(), before + 4 * sizeof(uint32_t));
    }

    // Durations past uint32 ns (4.29 s) live in the side table: they must survive
    // sorting, nesting, unfinished-slice ends and the move to an overflow lane.
    void longDurationsSurvive() {
        constexpr TimeNs kTenSeconds = 10'000'000'000;
        constexpr TimeNs kHuge = 1'000'000'000'000'000;  // 10^15 ns, ~11.6 days
        TraceBuilder b("test");
        auto p = b.addProcess(ProcessKind::Host, 1, "proc");
        auto t = b.addTrack(p, TrackKind::Thread, "main", 1);
        StringId n = b.intern("n"), x = b.intern("x"), open = b.intern("open");
        // Added out of order so the track gets permuted.
        constexpr TimeNs kLate = 20'000'000'000;
        b.addSlice(t, 5, 100, n, 0);                     // nests in the 10 s slice
        b.addSlice(t, 0, kHuge, n, 0);                   // outermost
        b.addSlice(t, 0, kTenSeconds, n, 0);             // inside the huge one
        b.addSlice(t, 1000, kTenSeconds, x, 0);          // crosses the 10 s slice's end: overflow lane
        b.addSlice(t, 4'294'967'295, 1, n, 0);           // the sentinel value as a start: harmless
        b.addSlice(t, 2000, 0xFFFFFFFF, n, 0);           // exactly the sentinel as a duration
        b.addSlice(t, kLate, 0, open, 0, kNoArgs, true);  // unfinished: ends at the trace end (kHuge)
        auto trace = b.finish();
        QCOMPARE(trace->originNs, TimeNs(0));
        QCOMPARE(trace->endNs, kHuge);
        // Sorted: huge(0), 10s(0), 100(5), [x spilled], sentinel(2000), 1(4294967295), open(kLate).
        const SliceColumns& c = trace->tracks[t].slices;
        QCOMPARE(c.size(), size_t(6));
        QCOMPARE(c.duration[0], kHuge);
        QCOMPARE(c.depth(0), uint16_t(0));
        QCOMPARE(c.duration[1], kTenSeconds);
        QCOMPARE(c.depth(1), uint16_t(1));
        QCOMPARE(c.duration[2], TimeNs(100));
        QCOMPARE(c.depth(2), uint16_t(2));
        QCOMPARE(c.start[3], TimeNs(2000));
        QCOMPARE(c.duration[3], TimeNs(0xFFFFFFFF));
        QCOMPARE(c.depth(3), uint16_t(2));
        QCOMPARE(c.start[4], TimeNs(4'294'967'295));
        QCOMPARE(c.depth(4), uint16_t(3));  // inside the sentinel-long slice (ends at 4'294'969'295)
        QCOMPARE(c.name[5], open);
        QVERIFY(c.unfinished(5));
        QCOMPARE(c.duration[5], kHuge - kLate);
        QCOMPARE(c.end(5), kHuge);
        QCOMPARE(c.depth(5), uint16_t(1));
        QCOMPARE(trace->tracks.size(), size_t(2));
        const SliceColumns& ov = trace->tracks[1].slices;
        QCOMPARE(ov.size(), size_t(1));
        QCOMPARE(ov.name[0], x);
        QCOMPARE(ov.start[0], TimeNs(1000));
        QCOMPARE(ov.duration[0], kTenSeconds);
        const std::vector<TimeNs> copy(c.duration.begin(), c.duration.end());
        QCOMPARE(copy, (std::vector<TimeNs>{kHuge, kTenSeconds, 100, 0xFFFFFFFF, 1, kHuge - kLate}));
    }

    // Ids past the code's range go to the side table; order, permutation, renumbering and adding
    // after the build-time index was dropped all keep every id.
    void dictionaryColumnKeepsEveryId() {
        CategoryColumn c;  // 255 codes: ids 1000..1299 overflow after 255 distinct
        std::vector<StringId> expected;
        std::mt19937 rng(3);
        for (int i = 0; i < 2000; ++i) {
            const StringId id = i < 300 ? StringId(1000 + i) : StringId(1000 + rng() % 300);
            c.push_back(id);
            expected.push_back(id);
        }
        QCOMPARE(std::vector<StringId>(c.begin(), c.end()), expected);
        QVERIFY(c.memoryBytes() < 2000 * sizeof(StringId));
        std::vector<uint32_t> perm(expected.size());
        std::iota(perm.begin(), perm.end(), 0u);
        std::shuffle(perm.begin(), perm.end(), rng);
        c.permute(perm);
        std::vector<StringId> permuted;
        for (uint32_t p : perm) permuted.push_back(expected[p]);
        QCOMPARE(std::vector<StringId>(c.begin(), c.end()), permuted);
        c.shrink_to_fit();
        c.push_back(1005);  // the lookup index is made again
        c.push_back(7);     // a new id past the dictionary
        permuted.push_back(1005);
        permuted.push_back(7);
        QCOMPARE(std::vector<StringId>(c.begin(), c.end()), permuted);
        c.remap([](StringId s) { return s + 1; });
        for (size_t i = 0; i < permuted.size(); ++i) QCOMPARE(c[i], permuted[i] + 1);

        NameColumn names;  // 2-byte codes, hash lookup past 16 ids
        for (int i = 0; i < 70000; ++i) names.push_back(StringId(i % 40000));
        for (int i = 0; i < 70000; ++i) QCOMPARE(names[size_t(i)], StringId(i % 40000));
    }

    void durationColumnSetAndPermute() {
        DurationColumn d;
        d.push_back(5);
        d.push_back(TimeNs(1) << 40);
        d.push_back(-3);  // clamped
        d.push_back(TimeNs(1) << 33);
        QCOMPARE(d[2], TimeNs(0));
        d.set(0, TimeNs(1) << 35);  // short -> long
        d.set(1, 7);                // long -> short
        d.set(3, TimeNs(1) << 34);  // long -> long
        QCOMPARE(std::vector<TimeNs>(d.begin(), d.end()),
                 (std::vector<TimeNs>{TimeNs(1) << 35, 7, 0, TimeNs(1) << 34}));
        d.permute({3, 2, 1, 0});
        QCOMPARE(std::vector<TimeNs>(d.begin(), d.end()),
                 (std::vector<TimeNs>{TimeNs(1) << 34, 0, 7, TimeNs(1) << 35}));
        QCOMPARE(*std::max_element(d.begin(), d.end()), TimeNs(1) << 35);
    }

    // Times as offsets from a base per 256 events: every value reads back as pushed, whatever
    // its distance from the base (gaps over 2^31 ns, int64's ends, unsorted input), through
    // set, permute and shift; dense sorted times cost about 4 bytes each.
    void timeColumnKeepsEveryValue() {
        std::vector<TimeNs> want;
        for (int i = 0; i < 700; ++i) want.push_back(1'000'000'000'000 + TimeNs(i) * 1000);
        want[300] = want[299] + (TimeNs(1) << 40);  // far from its block's base
        for (size_t i = 301; i < want.size(); ++i) want[i] += TimeNs(1) << 40;
        want.push_back(std::numeric_limits<TimeNs>::max());
        want.push_back(std::numeric_limits<TimeNs>::min());
        want.push_back(-5);
        want.push_back(7);
        TimeColumn c;
        for (TimeNs v : want) c.push_back(v);
        QCOMPARE(c.toVector(), want);
        QCOMPARE(c.front(), want.front());
        QCOMPARE(c.back(), want.back());
        c.set(10, -(TimeNs(1) << 50));  // near -> wide
        want[10] = -(TimeNs(1) << 50);
        c.set(700, 42);  // wide -> wide (int64 max was wide: far from its base)
        want[700] = 42;
        c.set(701, want[512] + 3);  // wide -> near its block's base
        want[701] = want[512] + 3;
        c.set(10, want[9] + 1);  // wide -> near
        want[10] = want[9] + 1;
        QCOMPARE(c.toVector(), want);

        std::vector<uint32_t> perm(want.size());
        std::iota(perm.begin(), perm.end(), 0u);
        std::stable_sort(perm.begin(), perm.end(), [&](uint32_t a, uint32_t b) { return want[a] < want[b]; });
        c.permute(perm);
        std::vector<TimeNs> sorted = want;
        std::stable_sort(sorted.begin(), sorted.end());
        QCOMPARE(c.toVector(), sorted);
        for (TimeNs probe : {TimeNs(-6), TimeNs(7), want[400], want[400] + 1, TimeNs(1) << 62})
            QCOMPARE(std::lower_bound(c.begin(), c.end(), probe) - c.begin(),
                     std::lower_bound(sorted.begin(), sorted.end(), probe) - sorted.begin());

        c.shift(-1000);  // a clock offset: every value moves
        for (TimeNs& v : sorted) v = plusSat(v, -1000);
        QCOMPARE(c.toVector(), sorted);
        c.shift(std::numeric_limits<TimeNs>::max());  // saturates at the top, as plusSat does
        for (TimeNs& v : sorted) v = plusSat(v, std::numeric_limits<TimeNs>::max());
        QCOMPARE(c.toVector(), sorted);

        TimeColumn dense;
        for (int i = 0; i < 100000; ++i) dense.push_back(TimeNs(i) * 20'000);  // 20 us apart: all near their base
        dense.shrink_to_fit();
        QVERIFY(dense.memoryBytes() <= 100000 * 4 + 100000 / 256 * 8 + 64);
        QCOMPARE(dense[99999], TimeNs(99999) * 20'000);
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

    // The galloping searches agree with std::lower_bound / upper_bound from every
    // valid starting point, on sorted data with long runs of equal values.
    void traceHasEventsOnlyWithData() {
        // Processes and tracks alone (metadata records) are no events; any slice, instant or
        // counter sample is.
        auto build = [](int what) {
            TraceBuilder b("test");
            auto p = b.addProcess(ProcessKind::Host, 1, "proc");
            auto t = b.addTrack(p, TrackKind::Thread, "main", 1);
            auto c = b.addTrack(p, TrackKind::Counter, "mem", 2);
            if (what == 1) b.addSlice(t, 10, 5, b.intern("op"), 0);
            if (what == 2) b.addInstant(t, 10, b.intern("mark"), 0);
            if (what == 3) b.addCounterSample(c, 10, 1.0);
            return b.finish();
        };
        QVERIFY(!traceHasEvents(*TraceBuilder("test").finish()));
        QVERIFY(!traceHasEvents(*build(0)));
        QVERIFY(traceHasEvents(*build(1)));
        QVERIFY(traceHasEvents(*build(2)));
        QVERIFY(traceHasEvents(*build(3)));
    }

    void gallopMatchesBinarySearch() {
        std::mt19937 rng(7);
        for (int round = 0; round < 20; ++round) {
            std::vector<int64_t> v(size_t(rng() % 300));
            for (auto& x : v) x = int64_t(rng() % 50);
            std::sort(v.begin(), v.end());
            for (int64_t value = -2; value <= 52; ++value) {
                const auto lower = std::lower_bound(v.begin(), v.end(), value);
                const auto upper = std::upper_bound(v.begin(), v.end(), value);
                for (auto from = v.begin(); from <= lower; ++from)
                    QCOMPARE(gallopLowerBound(from, v.end(), value) - v.begin(), lower - v.begin());
                for (auto from = v.begin(); from <= upper; ++from)
                    QCOMPARE(gallopUpperBound(from, v.end(), value) - v.begin(), upper - v.begin());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TraceModelTest)
#include "tst_trace_model.moc"
