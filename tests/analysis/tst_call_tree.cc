// Call trees (model/analysis/call_tree.h), their exports and their store results on hand-built
// traces: every expected figure is worked out by hand in the comment beside it.
#include "model/analysis/call_tree.h"
#include "model/export/call_stack_export.h"
#include "model/import/import.h"
#include "model/proto/protobuf_wire.h"
#include "model/results/call_tree_results.h"
#include "model/results/trace_results.h"
#include "model/trace/trace_builder.h"

#include <QtTest>

#include <zlib.h>
#include <algorithm>
#include <map>
#include <sstream>

using namespace tracescope;

namespace {

constexpr TimeNs us = 1000;

// Host threads (times in us):
//  main:  A [0,100) > B [10,40) > C [15,25)
//                   > B [50,70)
//                   > cudaLaunchKernel [80,85) correlation 7 -> kernel K [86,126) on the GPU
//         P [90,120) begins inside A and ends after it: it closes A; Q [95,105) is P's child
//         R [200,250) > R [210,240) > R [215,225)   (recursion)
//  other: A [0,40)
// Profiler span "PyTorch Profiler (0)" (category Trace) over everything: not a frame.
std::shared_ptr<const Trace> handMade() {
    TraceBuilder b("chrome-json");
    const auto h = b.addProcess(ProcessKind::Host, 1, "python3");
    const auto d = b.addProcess(ProcessKind::Device, 0, "GPU 0");
    const auto spans = b.addProcess(ProcessKind::Host, 2, "Spans");
    const TrackIndex main = b.addTrack(h, TrackKind::Thread, "main", 1);
    const TrackIndex other = b.addTrack(h, TrackKind::Thread, "other", 2);
    const TrackIndex stream = b.addTrack(d, TrackKind::Thread, "stream 7", 7);
    const TrackIndex span = b.addTrack(spans, TrackKind::Thread, "PyTorch Profiler", 0);
    const auto op = [&](TrackIndex t, const char* name, TimeNs start, TimeNs dur) {
        b.addSlice(t, start * us, dur * us, b.intern(name), b.intern("cpu_op"));
    };
    ArgsWriter corr;
    corr.add(b.intern("correlation"), ArgValue::integer(7));
    op(main, "A", 0, 100);
    op(main, "B", 10, 30);
    op(main, "C", 15, 10);
    op(main, "B", 50, 20);
    b.addSlice(main, 80 * us, 5 * us, b.intern("cudaLaunchKernel"), b.intern("cuda_runtime"), corr);
    op(main, "P", 90, 30);
    op(main, "Q", 95, 10);
    op(main, "R", 200, 50);
    op(main, "R", 210, 30);
    op(main, "R", 215, 10);
    op(other, "A", 0, 40);
    b.addSlice(stream, 86 * us, 40 * us, b.intern("K"), b.intern("kernel"), corr);
    b.addSlice(span, 0, 300 * us, b.intern("PyTorch Profiler (0)"), b.intern("Trace"));
    return b.finish();
}

uint32_t nodeAt(const CallTree& t, std::vector<std::string_view> path) {
    uint32_t n = kCallRoot;
    for (std::string_view name : path) {
        uint32_t next = kNoIndex;
        for (uint32_t c : t.nodes[n].children)
            if (t.nodes[c].name == name) next = c;
        if (next == kNoIndex) return kNoIndex;
        n = next;
    }
    return n;
}

std::map<std::string, int64_t> foldedMap(const std::string& text) {
    std::map<std::string, int64_t> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        const size_t sp = line.rfind(' ');
        out[line.substr(0, sp)] = std::stoll(line.substr(sp + 1));
    }
    return out;
}

std::string gunzip(const std::string& path) {
    gzFile f = gzopen(path.c_str(), "rb");
    std::string out;
    char buf[65536];
    int n;
    while (f && (n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, size_t(n));
    if (f) gzclose(f);
    return out;
}

}  // namespace

class TstCallTree : public QObject {
    Q_OBJECT

private slots:
    void topDownFigures() {
        const auto trace = handMade();
        const ClassifiedTrace ct = classifyTrace(*trace);
        const CallTree t = computeCallTree(ct);
        // 11 frames: the span is none, the kernel is on a device.
        QCOMPARE(t.slices, uint64_t(11));
        // A: main 100 (children B 30, B 20, launch 5: self 45) + other 40 (self 40).
        const uint32_t a = nodeAt(t, {"A"});
        QVERIFY(a != kNoIndex);
        QCOMPARE(t.nodes[a].totalNs, 140 * us);
        QCOMPARE(t.nodes[a].selfNs, 85 * us);
        QCOMPARE(t.nodes[a].count, uint64_t(2));
        QCOMPARE(t.nodes[a].deviceNs, 40 * us);  // K, launched under it
        // A;B: 30 + 20, self (30 - C 10) + 20.
        const uint32_t ab = nodeAt(t, {"A", "B"});
        QCOMPARE(t.nodes[ab].totalNs, 50 * us);
        QCOMPARE(t.nodes[ab].selfNs, 40 * us);
        QCOMPARE(t.nodes[nodeAt(t, {"A", "B", "C"})].selfNs, 10 * us);
        const uint32_t launch = nodeAt(t, {"A", "cudaLaunchKernel"});
        QCOMPARE(t.nodes[launch].selfDeviceNs, 40 * us);
        QCOMPARE(t.deviceActivities, uint64_t(1));
        // P closes A: a root frame, Q its child.
        QCOMPARE(t.nodes[nodeAt(t, {"P"})].selfNs, 20 * us);
        QCOMPARE(t.nodes[nodeAt(t, {"P", "Q"})].totalNs, 10 * us);
        QCOMPARE(nodeAt(t, {"A", "P"}), kNoIndex);
        // Recursion: one node per depth.
        QCOMPARE(t.nodes[nodeAt(t, {"R"})].selfNs, 20 * us);
        QCOMPARE(t.nodes[nodeAt(t, {"R", "R"})].selfNs, 20 * us);
        QCOMPARE(t.nodes[nodeAt(t, {"R", "R", "R"})].selfNs, 10 * us);
        // The root: A 140 + P 30 + R 50.
        QCOMPARE(t.root().totalNs, 220 * us);
        QCOMPARE(t.root().deviceNs, 40 * us);
        QCOMPARE(t.width(kCallRoot, CallMetric::Count), TimeNs(11));

        // Folded stacks, self time: each stack once.
        const auto folded = foldedMap(foldedStacks(t, CallMetric::Self));
        const std::map<std::string, int64_t> want = {
            {"A", 85000}, {"A;B", 40000}, {"A;B;C", 10000}, {"A;cudaLaunchKernel", 5000}, {"P", 20000}, {"P;Q", 10000},
            {"R", 20000}, {"R;R", 20000}, {"R;R;R", 10000}};
        QCOMPARE(folded, want);
        QCOMPARE(foldedMap(foldedStacks(t, CallMetric::Device)),
                 (std::map<std::string, int64_t>{{"A;cudaLaunchKernel", 40000}}));
        QCOMPARE(foldedMap(foldedStacks(t, CallMetric::Self, /*leafFirst=*/true)).at("C;B;A"), 10000);

        // The frame table counts a recursive frame's wall time once: R 50.
        for (const CallFrameRow& r : frameTable(t))
            if (r.name == "R") {
                QCOMPARE(r.totalNs, 50 * us);
                QCOMPARE(r.selfNs, 50 * us);
                QCOMPARE(r.count, uint64_t(3));
            }
        // The slices of A;B: the two B calls on main.
        QCOMPARE(slicesOfCallNode(ct, t, ab).size(), size_t(2));
    }

    void rangeCutsSlices() {
        const auto trace = handMade();
        const ClassifiedTrace ct = classifyTrace(*trace);
        CallTreeOptions o;
        o.range = std::make_pair(20 * us, 60 * us);
        const CallTree t = computeCallTree(ct, o);
        // main A: part 40; B [20,40) 20 with C [20,25) 5; B [50,60) 10; the launch is outside.
        // other A: part 20, self 20.
        const auto folded = foldedMap(foldedStacks(t, CallMetric::Self));
        QCOMPARE(folded, (std::map<std::string, int64_t>{{"A", 30000}, {"A;B", 25000}, {"A;B;C", 5000}}));
        QCOMPARE(t.nodes[nodeAt(t, {"A"})].totalNs, 60 * us);
        QCOMPARE(t.root().deviceNs, TimeNs(0));

        CallTreeOptions empty;
        empty.range = std::make_pair(1000 * us, 2000 * us);
        const CallTree none = computeCallTree(ct, empty);
        QCOMPARE(none.nodes.size(), size_t(1));
        QCOMPARE(none.slices, uint64_t(0));
        QVERIFY(!none.notes.empty());
        QCOMPARE(foldedStacks(none, CallMetric::Self), std::string());
    }

    void byThreadAndTracks() {
        const auto trace = handMade();
        const ClassifiedTrace ct = classifyTrace(*trace);
        CallTreeOptions o;
        o.byThread = true;
        const CallTree t = computeCallTree(ct, o);
        const auto folded = foldedMap(foldedStacks(t, CallMetric::Self));
        QCOMPARE(folded.at("python3: main;A"), 45000);
        QCOMPARE(folded.at("python3: other;A"), 40000);
        QVERIFY(!folded.count("python3: main"));  // a thread frame carries no time of its own
        CallTreeOptions only;
        only.tracks = {1};  // "other"
        const CallTree t2 = computeCallTree(ct, only);
        QCOMPARE(foldedMap(foldedStacks(t2, CallMetric::Self)), (std::map<std::string, int64_t>{{"A", 40000}}));
    }

    void bottomUpAndPivot() {
        const auto trace = handMade();
        const ClassifiedTrace ct = classifyTrace(*trace);
        const CallTree t = computeCallTree(ct);
        const CallTree up = invertCallTree(t);
        // B is a leaf with self 40 (A;B), called by A.
        QCOMPARE(up.nodes[nodeAt(up, {"B"})].totalNs, 40 * us);
        QCOMPARE(up.nodes[nodeAt(up, {"B", "A"})].totalNs, 40 * us);
        // R: self 20 + 20 + 10 at R, R;R, R;R;R; its caller R carries 20 + 10, that one's caller R 10.
        QCOMPARE(up.nodes[nodeAt(up, {"R"})].totalNs, 50 * us);
        QCOMPARE(up.nodes[nodeAt(up, {"R", "R"})].totalNs, 30 * us);
        QCOMPARE(up.nodes[nodeAt(up, {"R", "R", "R"})].totalNs, 10 * us);
        QCOMPARE(up.nodes[nodeAt(up, {"cudaLaunchKernel", "A"})].deviceNs, 40 * us);
        // The whole: every self time once (85+40+10+5+20+10+20+20+10).
        QCOMPARE(up.root().totalNs, 220 * us);
        QCOMPARE(topDownNodesOf(t, up, nodeAt(up, {"B", "A"})), std::vector<uint32_t>{nodeAt(t, {"A", "B"})});

        const CallPivot onB = pivotCallTree(t, "B");
        QCOMPARE(onB.occurrences, uint64_t(1));
        QCOMPARE(onB.callees.nodes[nodeAt(onB.callees, {"B"})].totalNs, 50 * us);
        QCOMPARE(onB.callees.nodes[nodeAt(onB.callees, {"B", "C"})].totalNs, 10 * us);
        QCOMPARE(onB.callers.nodes[nodeAt(onB.callers, {"B", "A"})].totalNs, 50 * us);
        // R counts at its outermost occurrence only.
        const CallPivot onR = pivotCallTree(t, "R");
        QCOMPARE(onR.occurrences, uint64_t(1));
        QCOMPARE(onR.callees.nodes[nodeAt(onR.callees, {"R"})].totalNs, 50 * us);
        QCOMPARE(onR.callees.nodes[nodeAt(onR.callees, {"R", "R", "R"})].totalNs, 10 * us);
    }

    // A set of slices: the B calls and what they enclose, from the root.
    void setOfSlices() {
        const auto trace = handMade();
        const ClassifiedTrace ct = classifyTrace(*trace);
        CallTreeOptions o;
        o.roots = frameSlicesMatching(ct, [](std::string_view n) { return n == "B"; });
        QCOMPARE(o.roots.size(), size_t(2));
        const CallTree t = computeCallTree(ct, o);
        QCOMPARE(foldedMap(foldedStacks(t, CallMetric::Self)),
                 (std::map<std::string, int64_t>{{"B", 40000}, {"B;C", 10000}}));
        QCOMPARE(t.slices, uint64_t(3));
        // Nested chosen slices: R inside R counts as its callee, as a pivot's callees do.
        o.roots = frameSlicesMatching(ct, [](std::string_view n) { return n == "R"; });
        QCOMPARE(foldedStacks(computeCallTree(ct, o), CallMetric::Self),
                 foldedStacks(pivotCallTree(computeCallTree(ct), "R").callees, CallMetric::Self));
        QVERIFY(CallTreeOptions{}.key() != o.key());
    }

    void pprofSamplesEqualTheTree() {
        const auto trace = handMade();
        const CallTree t = computeCallTree(classifyTrace(*trace));
        QTemporaryDir dir;
        const std::string path = dir.filePath("p.pb.gz").toStdString();
        std::string error;
        QVERIFY(writePprofProfile(t, path, error));
        const std::string bytes = gunzip(path);
        QVERIFY(!bytes.empty());
        // Decoded with the schema-less wire reader: sample types, samples' values, the string table.
        std::vector<std::string> strings;
        int64_t wall = 0, device = 0, samples = 0, types = 0;
        wire::Reader r(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
        wire::Field f;
        while (r.next(f)) {
            if (f.number == 6) strings.emplace_back(f.text());
            if (f.number == 1) ++types;
            if (f.number != 2) continue;
            ++samples;
            wire::Reader s(f.data, f.size);
            wire::Field g;
            while (s.next(g)) {
                if (g.number != 2) continue;
                std::vector<int64_t> values;
                if (g.type == wire::LengthDelimited) {
                    const uint8_t* p = g.data;
                    uint64_t v;
                    while (p < g.data + g.size && wire::readVarint(p, g.data + g.size, v)) values.push_back(int64_t(v));
                } else {
                    values.push_back(g.asInt64());
                }
                QCOMPARE(values.size(), size_t(2));
                wall += values[0];
                device += values[1];
            }
        }
        QVERIFY(r.atEnd());
        QCOMPARE(types, int64_t(2));  // wall and device
        QCOMPARE(strings.at(0), std::string());
        QVERIFY(std::find(strings.begin(), strings.end(), "wall") != strings.end());
        QCOMPARE(samples, int64_t(9));  // the 9 stacks with self time (the launch's carries its device time too)
        QCOMPARE(wall, 220 * us);
        QCOMPARE(device, 40 * us);
    }

    void storeComputesOnce() {
        const auto trace = handMade();
        const auto store = ResultStore::of(trace);
        const auto a = callTreeOf(*store);
        const auto b = callTreeOf(*store);
        QCOMPARE(a.get(), b.get());
        bottomUpCallTreeOf(*store);
        callPivotOf(*store, {}, "B");
        QCOMPARE(store->computations(kCallTreeName), uint64_t(1));
        QCOMPARE(store->computations(kCallTreeBottomUpName), uint64_t(1));
        QCOMPARE(store->computations("classification"), uint64_t(1));
    }

    // 100000-deep recursion and a 1 MB name: bounded, with a note.
    void hostileShapes() {
        TraceBuilder b("chrome-json");
        const auto h = b.addProcess(ProcessKind::Host, 1, "p");
        const TrackIndex th = b.addTrack(h, TrackKind::Thread, "t", 1);
        const int depth = 100000;
        const StringId f = b.intern("f");
        for (int i = 0; i < depth; ++i) b.addSlice(th, i, 2 * (depth - i), f, kEmptyString);
        const std::string huge(1 << 20, 'x');
        b.addSlice(th, 3 * depth, 10, b.intern(huge), kEmptyString);
        // A frame that never closes (a B without its E) ends with the trace, after the huge one.
        b.addSlice(th, 4 * depth, 0, b.intern("open"), kEmptyString, kNoArgs, /*unfinished=*/true);
        b.addSlice(th, 5 * depth, 100, b.intern("last"), kEmptyString);
        const auto trace = b.finish();
        const CallTree t = computeCallTree(classifyTrace(*trace));
        QCOMPARE(t.maxDepth, kMaxCallDepth);
        QCOMPARE(t.cutAtDepth, uint64_t(depth - kMaxCallDepth));
        QCOMPARE(t.slices, uint64_t(depth + 3));
        // Every slice's time is still in the tree: the outermost f (2 * depth), the huge one, and the
        // open one [4 depth, 5 depth + 100) holding "last".
        QCOMPARE(t.root().subtreeSelfNs, TimeNs(2 * depth + 10 + depth + 100));
        QCOMPARE(t.nodes[nodeAt(t, {"open", "last"})].totalNs, TimeNs(100));
        QVERIFY(!t.notes.empty());
        const CallTree up = invertCallTree(t);
        QCOMPARE(up.root().totalNs, TimeNs(2 * depth + 10 + depth + 100));
        QVERIFY(foldedStacks(t, CallMetric::Self).size() > huge.size());
    }

    // Folded stacks (a query's rows) back into a tree, worked out on paper: a;b 10 + 2, a;c 5, d 1.
    void fromFoldedStacks() {
        const CallTree t = callTreeFromFolded({{"a;b", 10}, {"a;c", 5}, {"a;b", 2}, {"d", 1}});
        QCOMPARE(t.root().totalNs, TimeNs(18));
        QCOMPARE(t.root().subtreeSelfNs, TimeNs(18));
        QCOMPARE(t.slices, uint64_t(4));
        const uint32_t a = nodeAt(t, {"a"}), ab = nodeAt(t, {"a", "b"});
        QCOMPARE(t.nodes[a].totalNs, TimeNs(17));
        QCOMPARE(t.nodes[a].selfNs, TimeNs(0));
        QCOMPARE(t.nodes[a].totalCount, uint64_t(3));
        QCOMPARE(t.nodes[ab].selfNs, TimeNs(12));
        QCOMPARE(t.nodes[ab].count, uint64_t(2));
        QCOMPARE(t.nodes[t.nodes[a].children[0]].name, std::string_view("b"));  // the widest first
        QCOMPARE(t.nodes[nodeAt(t, {"a", "c"})].totalNs, TimeNs(5));
        QCOMPARE(t.maxDepth, uint32_t(2));
        // Empty frames are named, and a stack deeper than the limit is cut with its value kept.
        std::string deep = "x";
        for (uint32_t i = 1; i < kMaxCallDepth + 50; ++i) deep += ";x";
        const CallTree cut = callTreeFromFolded({{";", 3}, {deep, 7}});
        QCOMPARE(cut.nodes[nodeAt(cut, {"(empty)", "(empty)"})].selfNs, TimeNs(3));
        QCOMPARE(cut.maxDepth, kMaxCallDepth);
        QCOMPARE(cut.cutAtDepth, uint64_t(1));
        QCOMPARE(cut.root().subtreeSelfNs, TimeNs(10));
        // Our own folded export read back gives the same stacks (self time).
        const auto trace = handMade();  // the tree's names are views into its strings
        const CallTree tree = computeCallTree(classifyTrace(*trace));
        const std::string text = foldedStacks(tree, CallMetric::Self);
        std::vector<std::string> keep;
        std::vector<FoldedStack> stacks;
        for (const auto& [stack, value] : foldedMap(text)) {
            keep.push_back(stack);
            stacks.push_back({{}, value});
        }
        for (size_t i = 0; i < keep.size(); ++i) stacks[i].stack = keep[i];
        const CallTree back = callTreeFromFolded(stacks);
        QCOMPARE(foldedMap(foldedStacks(back, CallMetric::Self)), foldedMap(text));
        QCOMPARE(back.root().subtreeSelfNs, tree.root().subtreeSelfNs);
    }

    // Python ids in a cycle, a missing parent, a frame that is its own parent, a B that never ends
    // (tests/data/hostile/python_stack_cycles.json): nesting comes from time, so none of it matters;
    // the open frame lasts until the trace's end (301 us).
    void pythonIdsPlayNoPart() {
        ImportResult r = importTrace(std::string(TRACESCOPE_SOURCE_DIR) + "/tests/data/hostile/python_stack_cycles.json");
        QVERIFY(r.ok());
        const CallTree t = computeCallTree(classifyTrace(*r.trace));
        const std::map<std::string, int64_t> want = {{"a.py(1): f", 50000},
                                                     {"a.py(1): f;a.py(2): g", 40000},
                                                     {"a.py(1): f;a.py(2): g;b.py(3): h", 10000},
                                                     {"c.py(4): self_parent", 10000},
                                                     {"open", 96000},
                                                     {"open;z", 5000},
                                                     {"last", 1000}};
        QCOMPARE(foldedMap(foldedStacks(t, CallMetric::Self)), want);
        QVERIFY(t.nodes[nodeAt(t, {"a.py(1): f"})].python);
        QVERIFY(!t.nodes[nodeAt(t, {"open"})].python);
    }

    void pythonLocations() {
        auto k = pythonLocationOf("torch/nn/modules/module.py(1963): __getattr__");
        QVERIFY(k);
        QCOMPARE(k->file, std::string_view("torch/nn/modules/module.py"));
        QCOMPARE(k->line, int64_t(1963));
        QCOMPARE(k->function, std::string_view("__getattr__"));
        auto j = pythonLocationOf("$profiler.py:553 __init__");
        QVERIFY(j);
        QCOMPARE(j->file, std::string_view("profiler.py"));
        QCOMPARE(j->line, int64_t(553));
        QCOMPARE(j->function, std::string_view("__init__"));
        QVERIFY(pythonLocationOf("$<unknown> append"));
        QVERIFY(!pythonLocationOf("aten::mm"));
        QVERIFY(!pythonLocationOf("f(x): y"));
        QVERIFY(!pythonLocationOf("$"));
    }
};

QTEST_GUILESS_MAIN(TstCallTree)
#include "tst_call_tree.moc"
