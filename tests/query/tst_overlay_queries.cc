// The queries that keep the timeline's idle marks and overlap band O(pixels) a frame
// (model/query/block_maxima.h, IdleGapIndex::atLeast, joinNearby): hand-worked cases, then
// random ones checked against the plain walk over every item that the painting used before.
#include "model/query/block_maxima.h"
#include "model/query/comm_overlap_index.h"
#include "model/query/idle_gap_index.h"

#include <QtTest>

#include <random>

using namespace tracescope;

namespace {

// Sorted, disjoint intervals: lengths and spaces drawn from a few scales, so some windows hold
// long runs of short items and a few long ones (as a busy GPU's idle gaps do).
Intervals randomIntervals(std::mt19937_64& rng, size_t n) {
    std::uniform_int_distribution<int> scale(0, 9);
    const auto draw = [&] {
        const int s = scale(rng);
        return TimeNs(s < 7 ? 1 + rng() % 10 : s < 9 ? 10 + rng() % 1000 : 1000 + rng() % 100000);
    };
    Intervals out;
    TimeNs t = 0;
    for (size_t i = 0; i < n; ++i) {
        t += rng() % 4 == 0 ? 0 : draw();  // some touch the one before
        const TimeNs len = draw();
        out.push_back({t, t + len});
        t += len;
    }
    return out;
}

// What the painting did before: every interval meeting the window, one by one.
std::vector<std::pair<TimeNs, TimeNs>> plainWide(const Intervals& v, TimeNs begin, TimeNs end, TimeNs minLength) {
    std::vector<std::pair<TimeNs, TimeNs>> out;
    for (const auto& [a, b] : v)
        if (b > begin && a < end && b - a >= minLength) out.push_back({a, b});
    return out;
}

Intervals plainJoin(const Intervals& v, TimeNs joinBelow) {
    Intervals out;
    for (const auto& iv : v) {
        if (!out.empty() && iv.first - out.back().second < joinBelow) out.back().second = iv.second;
        else out.push_back(iv);
    }
    return out;
}

}  // namespace

class TestOverlayQueries : public QObject {
    Q_OBJECT
private slots:
    void blockMaximaHandWorked() {
        // 40 items: all 1 but item 17 (5) and item 39 (9). Blocks of 16: [0,16) max 1, [16,32) max 5, [32,40) max 9.
        std::vector<int64_t> v(40, 1);
        v[17] = 5;
        v[39] = 9;
        const auto value = [&](size_t i) { return v[i]; };
        const BlockMaxima m(v.size(), value);
        QCOMPARE(m.nextAtLeast(0, 40, 2, value), size_t(17));
        QCOMPARE(m.nextAtLeast(18, 40, 2, value), size_t(39));
        QCOMPARE(m.nextAtLeast(18, 39, 2, value), size_t(39));  // none before the bound: `to`
        QCOMPARE(m.nextAtLeast(0, 40, 6, value), size_t(39));
        QCOMPARE(m.nextAtLeast(0, 40, 10, value), size_t(40));
        QCOMPARE(m.nextAtLeast(5, 40, 1, value), size_t(5));
        QCOMPARE(m.nextAtLeast(0, 1000, 10, value), size_t(40));  // `to` past the end is the end
        const BlockMaxima none(0, value);
        QCOMPARE(none.nextAtLeast(0, 0, 1, value), size_t(0));
    }

    void blockMaximaMatchesAPlainScan() {
        std::mt19937_64 rng(7);
        for (size_t n : {size_t(1), size_t(15), size_t(16), size_t(17), size_t(255), size_t(256), size_t(5000)}) {
            std::vector<int64_t> v(n);
            for (int64_t& x : v) x = rng() % 50 == 0 ? int64_t(rng() % 1000) : int64_t(rng() % 10);
            const auto value = [&](size_t i) { return v[i]; };
            const BlockMaxima m(n, value);
            for (int q = 0; q < 300; ++q) {
                const size_t from = rng() % (n + 1), to = from + rng() % (n + 2 - from);
                const int64_t bound = int64_t(rng() % 1100);
                size_t expected = from;
                while (expected < std::min(to, n) && v[expected] < bound) ++expected;
                QCOMPARE(m.nextAtLeast(from, to, bound, value), std::min(expected, std::min(to, n)));
            }
        }
    }

    void idleGapsAtLeastMatchTheWalkOverEveryGap() {
        std::mt19937_64 rng(11);
        const Intervals iv = randomIntervals(rng, 20000);
        auto g = std::make_shared<GpuUtilizationResult>();
        GpuUtilization gpu;
        StreamIdle s;
        s.tracks = {2, 6};
        for (size_t i = 0; i < iv.size(); ++i)
            s.gaps.push_back({iv[i].first, iv[i].second, IdleCause(i % kIdleCauseCount)});
        gpu.streams = {s};
        g->gpus.push_back(gpu);
        const IdleGapIndex index(g);
        const TimeNs span = iv.back().second;
        for (int q = 0; q < 400; ++q) {
            const TimeNs a = TimeNs(rng() % uint64_t(span)), b = a + TimeNs(rng() % uint64_t(span - a + 2));
            const TimeNs minLength = TimeNs(rng() % 3 == 0 ? rng() % 5 : rng() % 50000);
            std::vector<std::pair<TimeNs, TimeNs>> got;
            for (const IdleGap& gap : index.atLeast(q % 2 ? 2 : 6, a, b, minLength)) {
                got.push_back({gap.start, gap.end});
                QCOMPARE(gap.cause,
                         s.gaps[size_t(std::lower_bound(iv.begin(), iv.end(), got.back()) - iv.begin())].cause);
            }
            QCOMPARE(got, plainWide(iv, a, b, minLength));
        }
        QVERIFY(index.atLeast(3, 0, span, 0).empty());  // a track without gaps
        // Hand-worked: gaps [10, 20) and [30, 35), [50, 90) at least 10 long over [0, 100): the first and the last.
        StreamIdle hand;
        hand.tracks = {1};
        hand.gaps = {{10, 20, IdleCause::HostWait}, {30, 35, IdleCause::KernelWait}, {50, 90, IdleCause::Other}};
        auto h = std::make_shared<GpuUtilizationResult>();
        h->gpus.push_back({});
        h->gpus.back().streams = {hand};
        const std::vector<IdleGap> wide = IdleGapIndex(h).atLeast(1, 0, 100, 10);
        QCOMPARE(wide.size(), size_t(2));
        QCOMPARE(wide[0].start, TimeNs(10));
        QCOMPARE(wide[1].cause, IdleCause::Other);
    }

    void joinNearbyMatchesTheMergeOfEveryPart() {
        // Hand-worked: [0,5) [6,8) [20,30) [31,32) joined below 2 → [0,8) [20,32); below 1 nothing
        // joins (the spaces are 1 and 12 and 1); below 13 all one.
        const Intervals hand{{0, 5}, {6, 8}, {20, 30}, {31, 32}};
        QCOMPARE(joinNearby(hand, 2), (Intervals{{0, 8}, {20, 32}}));
        QCOMPARE(joinNearby(hand, 1), hand);
        QCOMPARE(joinNearby(hand, 13), (Intervals{{0, 32}}));
        QCOMPARE(joinNearby({}, 5), Intervals{});
        std::mt19937_64 rng(3);
        const Intervals iv = randomIntervals(rng, 20000);
        for (TimeNs joinBelow : {TimeNs(0), TimeNs(1), TimeNs(3), TimeNs(50), TimeNs(2000), TimeNs(1'000'000)}) {
            for (int q = 0; q < 50; ++q) {
                const size_t from = rng() % iv.size(), to = from + rng() % (iv.size() - from + 1);
                const std::span<const std::pair<TimeNs, TimeNs>> part(iv.data() + from, to - from);
                QCOMPARE(joinNearby(part, joinBelow), plainJoin(Intervals(part.begin(), part.end()), joinBelow));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestOverlayQueries)
#include "tst_overlay_queries.moc"
