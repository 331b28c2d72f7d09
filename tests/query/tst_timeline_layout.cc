// The timeline's layout step without pixels: which rows show at which y, which
// slices get their own box and which fold into runs at which columns, which
// boxes have room for a label, and the flags for selection and search. Checked
// against hand-computed frames and, on random nested traces, against a
// brute-force walk of every slice (on the exact path and on the coarse path).
#include "model/query/slice_depth_index.h"
#include "model/query/slice_depth_mipmap.h"
#include "model/query/timeline_layout.h"
#include "model/trace/trace_builder.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <random>

using namespace tracescope;

namespace {

struct Fixture {
    std::shared_ptr<const Trace> trace;
    SliceDepthIndex depths;
    SliceDepthMipmap coarse;
    TrackLayout tracks;

    explicit Fixture(std::shared_ptr<const Trace> t, bool withCoarse = false, std::span<const uint32_t> counts = {})
        : trace(std::move(t)) {
        depths.build(*trace);
        if (withCoarse) coarse.build(*trace, depths, nullptr, counts, 1);
        tracks.build(*trace, std::vector<uint8_t>(trace->processes.size(), 0));
    }
    FrameLayout frame(const TimeAxis& axis, int scrollY = 0, int viewport = 10000, SliceRef selected = {},
                      const TimelineHighlight* hl = nullptr) const {
        FrameRequest r;
        r.axis = &axis;
        r.scrollY = scrollY;
        r.viewportHeight = viewport;
        r.selected = selected;
        r.highlight = hl;
        FrameLayout out;
        layoutFrame(*trace, tracks, &depths, &coarse, r, out);
        return out;
    }
};

TimeAxis makeAxis(double begin, double end, int width) {
    TimeAxis a;
    a.setWindow(begin, end, width);
    return a;
}

// Nested thread slices with random gaps and lengths, some tiny, some wide.
std::shared_ptr<const Trace> buildRandomTrace(uint32_t seed, int n) {
    std::mt19937 rng(seed);
    TraceBuilder b("random");
    const ProcessIndex p = b.addProcess(ProcessKind::Host, 1, "p");
    const TrackIndex t = b.addTrack(p, TrackKind::Thread, "t", 1);
    const StringId names[] = {b.intern("A"), b.intern("B"), b.intern("C")};
    std::function<void(TimeNs, TimeNs, int)> fill = [&](TimeNs lo, TimeNs hi, int depth) {
        TimeNs cur = lo;
        while (cur < hi && n > 0) {
            const TimeNs gap = TimeNs(rng() % 3 == 0 ? rng() % 5000 : rng() % 20);
            const TimeNs len = 1 + TimeNs(rng() % std::max<TimeNs>(1, (hi - cur) / 3 + 1));
            if (cur + gap + len > hi) break;
            --n;
            b.addSlice(t, cur + gap, len, names[rng() % 3], kEmptyString);
            if (depth < 3 && len > 4) fill(cur + gap + 1, cur + gap + len, depth + 1);
            cur += gap + len;
        }
    };
    for (TimeNs base = 0; n > 0; base += 50000) fill(base, base + 50000, 0);
    return b.finish();
}

// Every slice meeting the window is drawn: as its own box when at least
// kFoldWidth px wide, else inside a fold's columns; boxes of one depth are in x
// order and do not overlap; every fold holds at least one slice.
void checkCoverage(const Fixture& f, const TimeAxis& axis, const FrameLayout& frame) {
    const Trace& trace = *f.trace;
    for (const FrameRow& row : frame.rows) {
        const LayoutRow& lr = f.tracks.rows()[row.row];
        if (lr.kind != LayoutRow::Kind::Track) continue;
        const SliceColumns& c = trace.tracks[lr.track].slices;
        for (uint32_t d = row.firstDepth; d < row.endDepth; ++d) {
            std::vector<FrameBox> boxes;
            for (uint32_t i = row.boxBegin; i < row.boxEnd; ++i)
                if (frame.boxes[i].depth == d) boxes.push_back(frame.boxes[i]);
            // In x order; a run may reach one column into the next box (its end rounds up, a box's start down).
            for (size_t i = 1; i < boxes.size(); ++i) QVERIFY2(boxes[i].x0 >= boxes[i - 1].x1 - 1, "boxes overlap");
            std::vector<int> foldHits(boxes.size(), 0);
            for (uint32_t k = 0; k < c.size(); ++k) {
                if (c.depth(k) != d) continue;
                const double x0 = axis.x(double(c.start[k])), x1 = axis.x(double(c.end(k)));
                if (x1 <= 0 || x0 >= axis.width()) continue;
                bool found = false;
                for (size_t i = 0; i < boxes.size() && !found; ++i) {
                    const FrameBox& b = boxes[i];
                    if (!b.folded() && b.slice == k) found = true;
                    // A folded slice starts in the run's columns: narrow ones, and a slice a little
                    // wider that starts within the fold's kFoldJump-column jump.
                    if (b.folded() && x1 - x0 < FrameMetrics::kFoldWidth + FrameMetrics::kFoldJump &&
                        std::floor(x0) >= b.x0 - 1 && x0 < b.x1 + 1) {
                        found = true;
                        ++foldHits[i];
                    }
                }
                if (!found) qWarning("slice %u at depth %u, x %.2f..%.2f, not drawn", k, d, x0, x1);
                QVERIFY(found);
                if (x1 - x0 >= FrameMetrics::kFoldWidth + FrameMetrics::kFoldJump) {
                    // A wide slice has a box of its own at its columns.
                    bool own = false;
                    for (const FrameBox& b : boxes) own = own || (!b.folded() && b.slice == k);
                    QVERIFY2(own, "a wide slice was folded");
                }
            }
            for (size_t i = 0; i < boxes.size(); ++i)
                if (boxes[i].folded()) QVERIFY2(foldHits[i] > 0 || boxes[i].x1 > boxes[i].x0, "empty fold");
        }
    }
}

}  // namespace

class TimelineLayoutTest : public QObject {
    Q_OBJECT
private slots:
    void rowsInViewport() {
        TraceBuilder b("rows");
        const ProcessIndex p = b.addProcess(ProcessKind::Host, 1, "p");
        const StringId n = b.intern("x");
        for (int i = 0; i < 5; ++i) {
            const TrackIndex t = b.addTrack(p, TrackKind::Thread, "t" + std::to_string(i), i + 1);
            b.addSlice(t, 0, 1000, n, kEmptyString);
            b.addSlice(t, 10, 100, n, kEmptyString);  // depth 1
        }
        Fixture f(b.finish());
        const TrackMetrics& m = f.tracks.metrics();
        const int trackH = 2 * m.sliceRow + 2 * m.trackPadding;
        QCOMPARE(f.tracks.rows().size(), size_t(6));
        QCOMPARE(f.tracks.contentHeight(), m.processHeader + 5 * trackH);
        const TimeAxis axis = makeAxis(0, 1000, 1000);
        // The whole content.
        FrameLayout all = f.frame(axis);
        QCOMPARE(all.rows.size(), size_t(6));
        QCOMPARE(all.boxes.size(), size_t(10));
        // A viewport that starts inside track 1's depth 1 and ends inside track 3's depth 0.
        const int scroll = m.processHeader + trackH + m.trackPadding + m.sliceRow + 2;
        const int height = trackH + m.trackPadding + 5 + (trackH - 2 - m.sliceRow - m.trackPadding);
        FrameLayout part = f.frame(axis, scroll, height);
        QCOMPARE(part.rows.size(), size_t(3));
        QCOMPARE(part.rows[0].row, 2u);
        QCOMPARE(part.rows[0].firstDepth, 1u);
        QCOMPARE(part.rows[0].endDepth, 2u);
        QCOMPARE(part.rows[1].firstDepth, 0u);
        QCOMPARE(part.rows[1].endDepth, 2u);
        QCOMPARE(part.rows[2].row, 4u);
        QCOMPARE(part.rows[2].endDepth, 1u);
        QCOMPARE(part.boxes.size(), size_t(4));
        // y of a box: the row's top + padding + depth rows.
        const FrameBox& first = part.boxes[part.rows[0].boxBegin];
        QCOMPARE(first.depth, 1u);
        QCOMPARE(first.y, m.processHeader + trackH + m.trackPadding + m.sliceRow);
        // A collapsed process shows its header only.
        Fixture g(f.trace);
        g.tracks.build(*g.trace, {1});
        QCOMPARE(g.frame(axis).rows.size(), size_t(1));
        QCOMPARE(g.frame(axis).boxes.size(), size_t(0));
    }

    void hiddenTracksAndNameFilter() {
        TraceBuilder b("filter");
        const ProcessIndex gpu = b.addProcess(ProcessKind::Device, 1, "GPU 0");
        const ProcessIndex host = b.addProcess(ProcessKind::Host, 2, "python");
        const StringId n = b.intern("x");
        const TrackIndex s7 = b.addTrack(gpu, TrackKind::Thread, "stream 7", 7);
        const TrackIndex s8 = b.addTrack(gpu, TrackKind::Thread, "stream 8", 8);
        const TrackIndex main = b.addTrack(host, TrackKind::Thread, "MainThread", 1);
        const TrackIndex worker = b.addTrack(host, TrackKind::Thread, "worker", 2);
        for (TrackIndex t : {s7, s8, main, worker}) b.addSlice(t, 0, 10, n, kEmptyString);
        auto trace = b.finish();
        auto trackNamed = [&](const char* name) {
            for (TrackIndex t = 0; t < trace->tracks.size(); ++t)
                if (trace->tracks[t].name == name) return t;
            return kNoIndex;
        };
        auto shown = [&](const TrackLayout& l) {
            std::vector<std::string> out;
            for (const LayoutRow& r : l.rows())
                out.push_back(r.kind == LayoutRow::Kind::Process ? "P:" + trace->processes[r.process].name
                                                                 : trace->tracks[r.track].name);
            return out;
        };
        TrackLayoutOptions o;
        TrackLayout l;
        l.build(*trace, o);
        QCOMPARE(shown(l), (std::vector<std::string>{"P:GPU 0", "stream 7", "stream 8", "P:python", "MainThread", "worker"}));
        // Hide one track; hiding both of a process's tracks hides the process.
        o.hiddenTracks.assign(trace->tracks.size(), 0);
        o.hiddenTracks[trackNamed("worker")] = 1;
        l.build(*trace, o);
        QCOMPARE(shown(l), (std::vector<std::string>{"P:GPU 0", "stream 7", "stream 8", "P:python", "MainThread"}));
        o.hiddenTracks[trackNamed("stream 7")] = o.hiddenTracks[trackNamed("stream 8")] = 1;
        l.build(*trace, o);
        QCOMPARE(shown(l), (std::vector<std::string>{"P:python", "MainThread"}));
        QVERIFY(!l.rowOfTrack(trackNamed("stream 7")));
        // Filter: track names (case-insensitive), or a process name for all its tracks.
        o.hiddenTracks.assign(trace->tracks.size(), 0);
        o.nameFilter = "STREAM 8";
        l.build(*trace, o);
        QCOMPARE(shown(l), (std::vector<std::string>{"P:GPU 0", "stream 8"}));
        o.nameFilter = "pyth";
        l.build(*trace, o);
        QCOMPARE(shown(l), (std::vector<std::string>{"P:python", "MainThread", "worker"}));
        // Collapse all: headers only.
        o.nameFilter.clear();
        o.collapsed.assign(trace->processes.size(), 1);
        l.build(*trace, o);
        QCOMPARE(shown(l), (std::vector<std::string>{"P:GPU 0", "P:python"}));
        QCOMPARE(l.contentHeight(), 2 * l.metrics().processHeader);
    }

    void boxesAndLabels() {
        TraceBuilder b("boxes");
        const ProcessIndex p = b.addProcess(ProcessKind::Host, 1, "p");
        const TrackIndex t = b.addTrack(p, TrackKind::Thread, "t", 1);
        const StringId n = b.intern("x");
        b.addSlice(t, 100, 400, n, kEmptyString);  // 40 px at 10 ns/px: box with a label
        b.addSlice(t, 600, 100, n, kEmptyString);  // 10 px: box, no label
        b.addSlice(t, 800, 20, n, kEmptyString);   // 2 px: a box of its own, no seam
        b.addSlice(t, 900, 5, n, kEmptyString);    // half a pixel: folded
        Fixture f(b.finish());  // times rebased to the first slice: the window starts 100 ns earlier
        const TimeAxis axis = makeAxis(-100, 900, 100);
        const FrameLayout fr = f.frame(axis);
        QCOMPARE(fr.boxes.size(), size_t(4));
        const FrameBox& a = fr.boxes[0];
        QVERIFY(!a.folded());
        QCOMPARE(a.x0, 10);
        QCOMPARE(a.x1, 49);  // 1 px seam
        QVERIFY(a.label());
        QCOMPARE(fr.boxes[1].x0, 60);
        QCOMPARE(fr.boxes[1].x1, 69);
        QVERIFY(!fr.boxes[1].label());
        QCOMPARE(fr.boxes[2].x0, 80);
        QCOMPARE(fr.boxes[2].x1, 82);
        QVERIFY(fr.boxes[3].folded());
        QCOMPARE(fr.boxes[3].x0, 90);
        QCOMPARE(fr.boxes[3].x1, 91);
        // Zoomed in on the first slice: clipped a little past the edges, label kept.
        const FrameLayout deep = f.frame(makeAxis(100, 200, 100));
        QCOMPARE(deep.boxes.size(), size_t(1));
        QCOMPARE(deep.boxes[0].x0, -2);
        QCOMPARE(deep.boxes[0].x1, 101);
        QVERIFY(deep.boxes[0].label());
        // Without an index only rows are laid out.
        FrameRequest r;
        r.axis = &axis;
        r.viewportHeight = 1000;
        FrameLayout bare;
        layoutFrame(*f.trace, f.tracks, nullptr, nullptr, r, bare);
        QCOMPARE(bare.rows.size(), size_t(2));
        QVERIFY(bare.boxes.empty());
    }

    void narrowSlicesFold() {
        // 1000 slices of 2 ns every 10 ns over [0, 10000): at 100 ns/px each
        // is a fiftieth of a pixel; together they fill columns 0..99.
        TraceBuilder b("fold");
        const ProcessIndex p = b.addProcess(ProcessKind::Host, 1, "p");
        const TrackIndex t = b.addTrack(p, TrackKind::Thread, "t", 1);
        const StringId n = b.intern("x");
        for (int i = 0; i < 1000; ++i) b.addSlice(t, TimeNs(i) * 10, 2, n, kEmptyString);
        b.addSlice(t, 20000, 5000, n, kEmptyString);  // wide, after a gap
        Fixture f(b.finish());
        const FrameLayout fr = f.frame(makeAxis(0, 30000, 300));
        QCOMPARE(fr.boxes.size(), size_t(2));
        QVERIFY(fr.boxes[0].folded());
        QCOMPARE(fr.boxes[0].x0, 0);
        QCOMPARE(fr.boxes[0].x1, 101);  // a run covers at least the column after its last start
        QCOMPARE(fr.boxes[0].slice, 0u);
        QVERIFY(!fr.boxes[1].folded());
        QCOMPARE(fr.boxes[1].x0, 200);
        // Zoomed in to 1 ns/px every slice is its own box.
        const FrameLayout deep = f.frame(makeAxis(0, 100, 100));
        QCOMPARE(deep.boxes.size(), size_t(10));
        for (const FrameBox& box : deep.boxes) QVERIFY(!box.folded());
    }

    void selectionAndMatches() {
        TraceBuilder b("flags");
        const ProcessIndex p = b.addProcess(ProcessKind::Host, 1, "p");
        const TrackIndex t = b.addTrack(p, TrackKind::Thread, "t", 1);
        const StringId x = b.intern("x"), y = b.intern("y");
        b.addSlice(t, 0, 100, x, kEmptyString);
        b.addSlice(t, 200, 100, y, kEmptyString);
        for (int i = 0; i < 50; ++i) b.addSlice(t, 400 + i * 4, 1, i == 30 ? y : x, kEmptyString);
        Fixture f(b.finish());
        const TimeAxis axis = makeAxis(0, 1000, 100);
        TimelineHighlight hl;
        hl.nameMatches.assign(f.trace->strings.size(), 0);
        hl.nameMatches[f.trace->strings.find("y")] = 1;
        const FrameLayout fr = f.frame(axis, 0, 1000, SliceRef{0, 0}, &hl);
        QVERIFY(fr.highlighting);
        QCOMPARE(fr.boxes.size(), size_t(3));
        QVERIFY(fr.boxes[0].selected());
        QVERIFY(!fr.boxes[0].match());
        QVERIFY(fr.boxes[1].match());
        QVERIFY(!fr.boxes[1].selected());
        QVERIFY(fr.boxes[2].folded());
        QVERIFY(!fr.highlighting || fr.boxes[2].x1 > fr.boxes[2].x0);
    }

    void instantRuns() {
        TraceBuilder b("instants");
        const ProcessIndex p = b.addProcess(ProcessKind::Host, 1, "p");
        const TrackIndex t = b.addTrack(p, TrackKind::Markers, "m", 1);
        const StringId n = b.intern("i");
        for (TimeNs x : {100, 105, 120, 500, 900}) b.addInstant(t, x, n, kEmptyString);
        Fixture f(b.finish());
        const FrameLayout fr = f.frame(makeAxis(-100, 900, 100));
        // 100 and 105 share column 10; 120 is 2 columns on: one run. 500 and 900 alone.
        QCOMPARE(fr.instants.size(), size_t(3));
        QCOMPARE(fr.instants[0].x0, 10.5);
        QCOMPARE(fr.instants[0].x1, 12.5);
        QCOMPARE(fr.instants[1].x0, 50.5);
        QCOMPARE(fr.instants[1].x1, 50.5);
        QCOMPARE(fr.instants[2].x0, 90.5);
        // Ticks fill the marker track's height less 2 px above and below.
        QCOMPARE(fr.instants[0].size, TrackMetrics{}.markerTrack - 4);
    }

    // Pinned tracks leave their process for the strip at the top, which does not scroll:
    // scrolled by 1000 px, the strip still shows and the rows under it start at its bottom.
    void pinnedStripStaysOnTop() {
        TraceBuilder b("pins");
        const ProcessIndex p1 = b.addProcess(ProcessKind::Host, 1, "host");
        const ProcessIndex p2 = b.addProcess(ProcessKind::Host, 2, "other");
        const StringId n = b.intern("x");
        std::vector<TrackIndex> tracks;
        for (int i = 0; i < 40; ++i) {
            const TrackIndex t = b.addTrack(i < 20 ? p1 : p2, TrackKind::Thread, "t" + std::to_string(i), i + 1);
            b.addSlice(t, 100, 400, n, kEmptyString);
            tracks.push_back(t);
        }
        auto trace = b.finish();
        TrackLayoutOptions o;
        o.pinnedTracks.assign(trace->tracks.size(), 0);
        o.pinnedTracks[tracks[30]] = 1;
        TrackLayout layout;
        layout.build(*trace, o);
        const TrackMetrics m;
        const int trackHeight = m.sliceRow + 2 * m.trackPadding;
        QCOMPARE(layout.pinnedHeight(), trackHeight);
        QVERIFY(layout.rows()[0].pinned);
        QCOMPARE(layout.rows()[0].track, tracks[30]);
        QCOMPARE(layout.rows()[1].kind, LayoutRow::Kind::Process);
        QCOMPARE(layout.contentHeight(), 2 * m.processHeader + 40 * trackHeight);
        // Its process lists the other 19 tracks only.
        size_t inOther = 0;
        for (const LayoutRow& r : layout.rows()) inOther += !r.pinned && r.process == p2 && r.kind == LayoutRow::Kind::Track;
        QCOMPARE(inOther, size_t(19));

        SliceDepthIndex depths;
        depths.build(*trace);
        const TimeAxis axis = makeAxis(0, 1000, 100);
        FrameRequest req;
        req.axis = &axis;
        req.scrollY = 300;
        req.viewportHeight = 200;
        FrameLayout fr;
        layoutFrame(*trace, layout, &depths, nullptr, req, fr);
        QVERIFY(!fr.rows.empty());
        QCOMPARE(fr.rows[0].row, 0u);
        QCOMPARE(fr.rows[0].boxEnd - fr.rows[0].boxBegin, 1u);
        // Then the first scrolled row under the strip: the one meeting content y 300 + strip.
        const LayoutRow& next = layout.rows()[fr.rows[1].row];
        QVERIFY(!next.pinned);
        QVERIFY(next.y <= 300 + trackHeight && next.y + next.height > 300 + trackHeight);
        int shownHeight = 0;
        for (const FrameRow& r : fr.rows) shownHeight += layout.rows()[r.row].height;
        QVERIFY(shownHeight <= 200 + 2 * trackHeight);
        // Viewport y <-> content y.
        QCOMPARE(layout.contentY(5, 300), 5);
        QCOMPARE(layout.contentY(trackHeight + 5, 300), trackHeight + 305);
        QCOMPARE(layout.viewY(layout.rows()[0], 300), 0);
        QCOMPARE(layout.viewY(next, 300), next.y - 300);
        // Hidden wins over pinned.
        o.hiddenTracks.assign(trace->tracks.size(), 0);
        o.hiddenTracks[tracks[30]] = 1;
        layout.build(*trace, o);
        QCOMPARE(layout.pinnedHeight(), 0);
    }

    // Dragging a process or a track before or after another rewrites the ranks; tracks
    // never move across processes.
    void userOrder() {
        TraceBuilder b("order");
        const StringId n = b.intern("x");
        std::vector<ProcessIndex> procs;
        std::vector<TrackIndex> tracks;
        for (int i = 0; i < 3; ++i) {
            procs.push_back(b.addProcess(ProcessKind::Host, i + 1, "p" + std::to_string(i)));
            for (int k = 0; k < 3; ++k) {
                tracks.push_back(b.addTrack(procs.back(), TrackKind::Thread, "t" + std::to_string(k), k + 1));
                b.addSlice(tracks.back(), 0, 10, n, kEmptyString);
            }
        }
        auto trace = b.finish();
        auto order = [&](const TrackLayoutOptions& o) {
            std::string s;
            for (const OrderedProcess& op : userTrackOrder(*trace, o)) {
                s += trace->processes[op.process].name + ":";
                for (TrackIndex t : op.tracks) s += trace->tracks[t].name + ",";
                s += " ";
            }
            return s;
        };
        TrackLayoutOptions o;
        QCOMPARE(order(o), std::string("p0:t0,t1,t2, p1:t0,t1,t2, p2:t0,t1,t2, "));
        QVERIFY(moveProcess(*trace, o, procs[2], procs[0], false));
        QCOMPARE(order(o), std::string("p2:t0,t1,t2, p0:t0,t1,t2, p1:t0,t1,t2, "));
        QVERIFY(moveProcess(*trace, o, procs[2], procs[1], true));
        QCOMPARE(order(o), std::string("p0:t0,t1,t2, p1:t0,t1,t2, p2:t0,t1,t2, "));
        QVERIFY(moveTrack(*trace, o, tracks[0], tracks[2], true));
        QCOMPARE(order(o), std::string("p0:t1,t2,t0, p1:t0,t1,t2, p2:t0,t1,t2, "));
        QVERIFY(!moveTrack(*trace, o, tracks[0], tracks[4], false));
        TrackLayout layout;
        layout.build(*trace, o);
        QCOMPARE(layout.rows()[1].track, tracks[1]);
        QCOMPARE(layout.rows()[3].track, tracks[0]);
    }

    void hitTest() {
        TraceBuilder b("hit");
        const ProcessIndex p = b.addProcess(ProcessKind::Host, 1, "p");
        const TrackIndex t = b.addTrack(p, TrackKind::Thread, "t", 1);
        const StringId n = b.intern("x");
        b.addSlice(t, 100, 400, n, kEmptyString);
        b.addSlice(t, 200, 100, n, kEmptyString);
        b.addSlice(t, 800, 1, n, kEmptyString);
        Fixture f(b.finish());
        const TimeAxis axis = makeAxis(-100, 900, 100);
        const LayoutRow& row = *f.tracks.rowOfTrack(0);
        const int y0 = f.tracks.depthTop(row, 0) + 2, y1 = f.tracks.depthTop(row, 1) + 2;
        QCOMPARE(sliceAtPoint(*f.trace, f.tracks, f.depths, axis, 15, y0), (SliceRef{0, 0}));
        QCOMPARE(sliceAtPoint(*f.trace, f.tracks, f.depths, axis, 25, y1), (SliceRef{0, 1}));
        QVERIFY(!sliceAtPoint(*f.trace, f.tracks, f.depths, axis, 45, y1).valid());
        QCOMPARE(sliceAtPoint(*f.trace, f.tracks, f.depths, axis, 82, y0), (SliceRef{0, 2}));  // within 3 px
        QVERIFY(!sliceAtPoint(*f.trace, f.tracks, f.depths, axis, 86, y0).valid());
        QVERIFY(!sliceAtPoint(*f.trace, f.tracks, f.depths, axis, 15, 2).valid());  // process header
    }

    void coversEverySliceExact() {
        for (uint32_t seed = 1; seed <= 4; ++seed) {
            Fixture f(buildRandomTrace(seed, 4000));
            const double span = double(f.trace->endNs);
            for (double frac : {1.0, 0.2, 0.01}) {
                const TimeAxis axis = makeAxis(span * 0.3, span * 0.3 + span * frac, 700);
                checkCoverage(f, axis, f.frame(axis));
            }
        }
    }

    void coversEverySliceCoarse() {
        const uint32_t counts[] = {128, 512};
        for (uint32_t seed = 1; seed <= 4; ++seed) {
            Fixture f(buildRandomTrace(seed, 6000), true, counts);
            // Buckets narrower than a pixel: the layout walks the coarse level.
            const TimeAxis axis = makeAxis(double(f.trace->startNs), double(f.trace->endNs), 100);
            bool coarsePath = false;
            for (uint32_t d = 0; d < f.depths.depthCount(0); ++d) coarsePath = coarsePath || f.coarse.levelFor(0, d, axis.nsPerPx()).valid();
            QVERIFY(coarsePath);
            checkCoverage(f, axis, f.frame(axis));
        }
    }
};

QTEST_GUILESS_MAIN(TimelineLayoutTest)
#include "tst_timeline_layout.moc"
