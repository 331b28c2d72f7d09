// Slice structure queries, the range aggregate and slice search: hand-checked
// values on a small trace, and brute-force cross-checks on random nested traces.
#include "hand_trace.h"
#include "model/query/range_aggregate.h"
#include "model/query/slice_depth_index.h"
#include "model/query/slice_queries.h"
#include "model/query/slice_search.h"

#include <QtTest>

#include <map>
#include <random>

using namespace tracescope;
using testing::buildHandTrace;
using testing::findSlice;

namespace {

// A random properly nested thread track (plus an async track) with `n` slices.
std::shared_ptr<const Trace> buildRandomTrace(uint32_t seed, int n) {
    std::mt19937 rng(seed);
    TraceBuilder b("random");
    const ProcessIndex p = b.addProcess(ProcessKind::Host, 1, "p");
    const TrackIndex t = b.addTrack(p, TrackKind::Thread, "t", 1);
    const TrackIndex a = b.addTrack(p, TrackKind::Async, "a", 2);
    const StringId names[] = {b.intern("A"), b.intern("B"), b.intern("C"), b.intern("D")};
    // Recursive nesting: each slice gets random children inside it.
    std::function<void(TimeNs, TimeNs, int)> fill = [&](TimeNs lo, TimeNs hi, int depth) {
        TimeNs cur = lo;
        while (cur < hi && n > 0) {
            const TimeNs gap = TimeNs(rng() % 50);
            const TimeNs len = 1 + TimeNs(rng() % std::max<TimeNs>(1, (hi - cur) / 2 + 1));
            if (cur + gap + len > hi) break;
            --n;
            b.addSlice(t, cur + gap, len, names[rng() % 4], kEmptyString);
            if (depth < 5 && len > 4) fill(cur + gap + 1, cur + gap + len, depth + 1);
            cur += gap + len;
        }
    };
    for (TimeNs base = 0; n > 0; base += 100000) fill(base, base + 100000, 0);
    for (int k = 0; k < 200; ++k) b.addSlice(a, TimeNs(rng() % 500000), 1 + TimeNs(rng() % 20000), names[rng() % 4], kEmptyString);
    return b.finish();
}

// Direct children by definition: same track, one level down, inside the parent's interval.
TimeNs bruteSelf(const Trace& trace, SliceRef s) {
    const SliceColumns& c = trace.tracks[s.track].slices;
    if (trace.tracks[s.track].kind != TrackKind::Thread) return c.duration[s.index];
    TimeNs self = c.duration[s.index];
    for (uint32_t k = 0; k < c.size(); ++k)
        if (c.depth(k) == c.depth(s.index) + 1 && c.start[k] >= c.start[s.index] && c.end(k) <= c.end(s.index))
            self -= c.duration[k];
    return self;
}

}  // namespace

class SliceQueriesTest : public QObject {
    Q_OBJECT
private slots:
    void parentChildrenSelf() {
        auto trace = buildHandTrace();
        const SliceRef step = findSlice(*trace, "step", 0), forward = findSlice(*trace, "forward", 500);
        const SliceRef mm = findSlice(*trace, "aten::mm", 1000), launch2 = findSlice(*trace, "cudaLaunchKernel", 1100);
        const SliceRef backward = findSlice(*trace, "backward", 5000);
        QVERIFY(step.valid() && forward.valid() && mm.valid() && launch2.valid() && backward.valid());
        QCOMPARE(parentSlice(*trace, forward), step);
        QCOMPARE(parentSlice(*trace, launch2), mm);
        QCOMPARE(parentSlice(*trace, mm), forward);
        QVERIFY(!parentSlice(*trace, step).valid());
        const auto kids = childSlices(*trace, step);
        QCOMPARE(kids.size(), size_t(2));
        QCOMPARE(kids[0], forward);
        QCOMPARE(kids[1], backward);
        QCOMPARE(childSlices(*trace, forward).size(), size_t(2));  // launch@600, aten::mm@1000 (not the launch@1100)
        QCOMPARE(selfTime(*trace, step), TimeNs(2500));
        QCOMPARE(selfTime(*trace, forward), TimeNs(1200));
        QCOMPARE(selfTime(*trace, mm), TimeNs(1800));
        QCOMPARE(selfTime(*trace, backward), TimeNs(3500));
        QCOMPARE(selfTime(*trace, launch2), TimeNs(200));
    }

    void unfinishedAndOverflow() {
        auto trace = buildHandTrace();
        const SliceRef hang = findSlice(*trace, "hang", 8000);
        QVERIFY(hang.valid());
        const SliceColumns& c = trace->tracks[hang.track].slices;
        QVERIFY(c.unfinished(hang.index));
        QCOMPARE(c.duration[hang.index], TimeNs(2000));  // runs to the trace end (10000)
        const SliceRef overlap = findSlice(*trace, "overlap", 2400);
        QVERIFY(overlap.valid());
        QVERIFY(trace->tracks[overlap.track].overflowOf != kNoIndex);
    }

    void sliceAtHand() {
        auto trace = buildHandTrace();
        SliceDepthIndex index;
        QVERIFY(index.build(*trace));
        const SliceRef mm = findSlice(*trace, "aten::mm", 1000);
        const TrackIndex main = mm.track;
        struct Case { TimeNs t; uint32_t depth; const char* name; TimeNs start; };
        const Case cases[] = {{1500, 2, "aten::mm", 1000}, {999, 2, nullptr, 0}, {1000, 2, "aten::mm", 1000},
                              {2999, 2, "aten::mm", 1000}, {3000, 2, nullptr, 0}, {1200, 3, "cudaLaunchKernel", 1100},
                              {4500, 1, nullptr, 0},       {4500, 0, "step", 0},  {5700, 2, "aten::mm", 5500},
                              {8999, 1, "backward", 5000}, {9000, 1, nullptr, 0}, {-5, 0, nullptr, 0}};
        for (const Case& k : cases) {
            const SliceRef expect = k.name ? findSlice(*trace, k.name, k.start) : SliceRef{};
            QVERIFY2(sliceAt(*trace, main, k.t, k.depth) == expect, qPrintable(QString("t=%1 depth=%2").arg(k.t).arg(k.depth)));
            QCOMPARE(sliceAt(*trace, index, main, k.t, k.depth), expect);
        }
    }

    void sliceAtMatchesBruteForce() {
        auto trace = buildRandomTrace(7, 3000);
        SliceDepthIndex index;
        QVERIFY(index.build(*trace));
        std::mt19937 rng(3);
        for (TrackIndex t = 0; t < trace->tracks.size(); ++t) {
            const SliceColumns& c = trace->tracks[t].slices;
            for (int q = 0; q < 2000; ++q) {
                const TimeNs time = TimeNs(rng() % 600000);
                const uint32_t depth = rng() % std::max<uint32_t>(1, trace->tracks[t].maxDepth);
                SliceRef expect;
                for (uint32_t k = 0; k < c.size(); ++k)
                    if (c.depth(k) == depth && c.start[k] <= time && time < c.end(k)) expect = {t, k};
                QCOMPARE(sliceAt(*trace, index, t, time, depth), expect);
                if (trace->tracks[t].kind == TrackKind::Thread) QCOMPARE(sliceAt(*trace, t, time, depth), expect);
            }
        }
    }

    void depthIndexSearches() {
        auto trace = buildRandomTrace(11, 5000);
        SliceDepthIndex index;
        QVERIFY(index.build(*trace));
        std::mt19937 rng(5);
        const TrackIndex t = 0;
        const SliceColumns& c = trace->tracks[t].slices;
        for (uint32_t d = 0; d < index.depthCount(t); ++d) {
            const auto level = index.atDepth(t, d);
            for (int q = 0; q < 500; ++q) {
                const TimeNs time = TimeNs(rng() % 600000);
                const size_t from = level.size() ? rng() % level.size() : 0;
                size_t expect = 0;
                while (expect < level.size() && c.start[level[expect]] < time) ++expect;
                const size_t got = level.firstStartingAt(time, from);
                // From a position past the answer the search may return the answer or stay at `from`... it must be exact.
                QCOMPARE(got, expect);
            }
        }
    }

    void coarseSkipKeepsItsPromise() {
        auto trace = buildRandomTrace(23, 20000);
        SliceDepthIndex index;
        QVERIFY(index.build(*trace));
        std::mt19937 rng(77);
        const SliceColumns& c = trace->tracks[0].slices;
        int coarse = 0;
        for (uint32_t d = 0; d < index.depthCount(0); ++d) {
            const auto level = index.atDepth(0, d);
            if (level.size() < 2) continue;
            for (int q = 0; q < 400; ++q) {
                const size_t from = rng() % (level.size() - 1);
                const TimeNs time = c.start[level[from]] + TimeNs(rng() % 200000);
                const TimeNs slack = 1 + TimeNs(rng() % 50000);
                TimeNs absorbedEnd = 0;
                const size_t p = level.skipStartingBefore(time, slack, from, &absorbedEnd);
                if (absorbedEnd >= 0) {
                    ++coarse;
                    QVERIFY(p > from + 1);
                    QCOMPARE(p % SliceDepthIndex::kSampleEvery, size_t(0));
                    for (size_t k = from; k < p; ++k) {
                        QVERIFY(c.start[level[k]] < time + slack);
                        QVERIFY(c.end(level[k]) <= absorbedEnd);
                    }
                    QVERIFY(c.start[level[p]] >= time);
                } else {
                    QCOMPARE(p, level.firstStartingAt(time, from));
                }
            }
        }
        QVERIFY(coarse > 50);  // the coarse path was exercised
    }

    void rangeAggregateHand() {
        auto trace = buildHandTrace();
        // Slices starting in [500, 5500): forward, 2x cudaLaunchKernel, aten::mm@1000, backward,
        // 2x gemm_kernel, Memcpy HtoD, aten::add, overlap.
        const RangeAggregate agg = aggregateRange(*trace, 500, 5500);
        QCOMPARE(agg.sliceCount, size_t(10));
        std::map<std::string, RangeAggregateRow> rows;
        for (const auto& r : agg.rows) rows[std::string(trace->str(r.name))] = r;
        QCOMPARE(rows.size(), size_t(8));
        QCOMPARE(rows["cudaLaunchKernel"].count, size_t(2));
        QCOMPARE(rows["cudaLaunchKernel"].total, TimeNs(500));
        QCOMPARE(rows["aten::mm"].count, size_t(1));  // the one at 5500 starts at the (excluded) end
        QCOMPARE(rows["aten::mm"].self, TimeNs(1800));
        QCOMPARE(rows["gemm_kernel"].count, size_t(2));
        QCOMPARE(rows["gemm_kernel"].total, TimeNs(2500));
        QCOMPARE(rows["gemm_kernel"].average(), TimeNs(1250));
        // backward's child starts at 5500, outside the range, and still counts against its self time.
        QCOMPARE(rows["backward"].self, TimeNs(3500));
        QCOMPARE(rows["forward"].self, TimeNs(1200));
        QVERIFY(!rows.count("step"));  // starts at 0, before the range
        QCOMPARE(agg.rows.front().total, TimeNs(4000));  // sorted by total: backward (4000) first
        QCOMPARE(aggregateRange(*trace, 5, 5).sliceCount, size_t(0));
    }

    void rangeAggregateMatchesBruteForce() {
        auto trace = buildRandomTrace(19, 4000);
        std::mt19937 rng(9);
        for (int q = 0; q < 30; ++q) {
            TimeNs a = TimeNs(rng() % 500000), b = TimeNs(rng() % 500000);
            if (a > b) std::swap(a, b);
            std::map<StringId, RangeAggregateRow> expect;
            size_t count = 0;
            for (TrackIndex t = 0; t < trace->tracks.size(); ++t) {
                const SliceColumns& c = trace->tracks[t].slices;
                for (uint32_t k = 0; k < c.size(); ++k) {
                    if (c.start[k] < a || c.start[k] >= b) continue;
                    auto& r = expect[c.name[k]];
                    ++r.count;
                    r.total += c.duration[k];
                    r.self += bruteSelf(*trace, {t, k});
                    ++count;
                }
            }
            const RangeAggregate agg = aggregateRange(*trace, a, b);
            QCOMPARE(agg.sliceCount, count);
            QCOMPARE(agg.rows.size(), expect.size());
            for (const auto& r : agg.rows) {
                QCOMPARE(r.count, expect[r.name].count);
                QCOMPARE(r.total, expect[r.name].total);
                QCOMPARE(r.self, expect[r.name].self);
            }
        }
    }

    void search() {
        auto trace = buildHandTrace();
        auto r = searchSlices(*trace, "cuda", SearchMode::Substring);
        QCOMPARE(r.matches.size(), size_t(2));
        QCOMPARE(r.matches[0], findSlice(*trace, "cudaLaunchKernel", 600));  // ordered by start
        QCOMPARE(searchSlices(*trace, "::MM", SearchMode::Substring).matches.size(), size_t(2));  // case-insensitive
        QCOMPARE(searchSlices(*trace, "mm", SearchMode::Substring).matches.size(), size_t(4));  // aten::mm, gemm_kernel
        QCOMPARE(searchSlices(*trace, "^aten::(mm|add)$", SearchMode::Regex).matches.size(), size_t(3));
        QCOMPARE(searchSlices(*trace, "kernel", SearchMode::Substring).matches.size(), size_t(4));
        QCOMPARE(searchSlices(*trace, "nothing like this", SearchMode::Substring).matches.size(), size_t(0));
        auto bad = searchSlices(*trace, "(", SearchMode::Regex);
        QVERIFY(!bad.error.empty());
        QVERIFY(bad.matches.empty());
    }
};

QTEST_GUILESS_MAIN(SliceQueriesTest)
#include "tst_slice_queries.moc"
