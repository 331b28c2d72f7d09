// The counter track's layout step (model/query/counter_layout.h) without
// pixels: held-value runs for step drawing, polyline vertices for line drawing,
// and the sample under a cursor x. Hand-worked cases with the arithmetic in the
// comments, and, on random series and windows, a brute-force check of every
// pixel column against all samples.
#include "model/query/counter_layout.h"

#include <QtTest>

#include <cmath>
#include <random>

using namespace tracescope;

namespace {

TimeAxis makeAxis(double begin, double end, int width) {
    TimeAxis a;
    a.setWindow(begin, end, width);
    return a;
}

CounterSeries series(std::vector<TimeNs> t, std::vector<double> v) {
    CounterSeries s;
    s.time = std::move(t);
    s.value = std::move(v);
    return s;
}

// The hand trace's memory counter (tests/gui/hand_trace.h): 0 @ 0, 100 @ 2000, 50 @ 6000; the trace ends at 10000.
CounterSeries handSeries() { return series({0, 2000, 6000}, {0, 100, 50}); }
constexpr TimeNs kHandEnd = 10000;

// The lowest and highest value a polyline takes over columns [x, x + 1] (false when it has none there).
bool lineExtent(const std::vector<CounterVertex>& line, double x, double& lo, double& hi) {
    bool any = false;
    auto take = [&](double v) {
        lo = any ? std::min(lo, v) : v;
        hi = any ? std::max(hi, v) : v;
        any = true;
    };
    for (size_t k = 0; k + 1 < line.size(); ++k) {
        const CounterVertex& a = line[k];
        const CounterVertex& b = line[k + 1];
        const double l = std::max(x, std::min(a.x, b.x)), r = std::min(x + 1, std::max(a.x, b.x));
        if (l > r) continue;
        if (a.x == b.x) {
            take(a.value);
            take(b.value);
            continue;
        }
        auto at = [&](double px) { return a.value + (b.value - a.value) * (px - a.x) / (b.x - a.x); };
        take(at(l));
        take(at(r));
    }
    return any;
}

}  // namespace

class CounterLayoutTest : public QObject {
    Q_OBJECT
private slots:
    void defaultModeFollowsTheFormat() {
        // Chrome "C" events and memory totals hold their value; XSpace "_counters_" samples are measurements.
        QCOMPARE(defaultCounterDrawMode("chrome-json"), CounterDrawMode::Step);
        QCOMPARE(defaultCounterDrawMode("runmetadata"), CounterDrawMode::Step);
        QCOMPARE(defaultCounterDrawMode("xspace"), CounterDrawMode::Line);
    }

    void scaleIncludesZero() {
        const CounterSeries s = handSeries();
        const CounterScale sc = CounterScale::of(CounterRangeIndex(s));
        QCOMPARE(sc.lo, 0.0);
        QCOMPARE(sc.hi, 100.0);
        QCOMPARE(sc.fraction(50), 0.5);
        QCOMPARE(sc.fraction(1e9), 1.0);  // clamped
        // All negative: the scale runs from the minimum up to 0.
        const CounterSeries neg = series({0, 10}, {-4, -2});
        const CounterScale sn = CounterScale::of(CounterRangeIndex(neg));
        QCOMPARE(sn.lo, -4.0);
        QCOMPARE(sn.hi, 0.0);
        QCOMPARE(sn.fraction(-2), 0.5);  // (-2 - -4) / 4
        // A constant zero series still has a range to draw in.
        const CounterScale sz = CounterScale::of(CounterRangeIndex(series({0}, {0})));
        QCOMPARE(sz.hi - sz.lo, 1.0);
    }

    void stepRunsHoldEachValue() {
        // 10 ns per px over [0, 10000): sample 1 at 2000 ns is column 200, sample 2 at 6000 ns column 600,
        // and the last value holds to the trace end, x(10000) = 1000.
        const CounterSeries s = handSeries();
        const CounterRangeIndex range(s);
        CounterFrame f;
        layoutCounter(s, range, makeAxis(0, 10000, 1000), kHandEnd, CounterDrawMode::Step, f);
        QCOMPARE(f.runs.size(), size_t(3));
        QVERIFY(f.line.empty());
        const int expect[3][3] = {{0, 200, 0}, {200, 600, 100}, {600, 1000, 50}};
        for (int k = 0; k < 3; ++k) {
            QCOMPARE(f.runs[k].x0, expect[k][0]);
            QCOMPARE(f.runs[k].x1, expect[k][1]);
            QCOMPARE(f.runs[k].min, double(expect[k][2]));
            QCOMPARE(f.runs[k].max, double(expect[k][2]));
        }
        // Zoomed into [3000, 5000) at 20 ns/px: no sample inside, the value 100 of 2000 ns holds
        // across all 100 columns (the next sample, 6000 ns, is at x = 150, past the edge).
        layoutCounter(s, range, makeAxis(3000, 5000, 100), kHandEnd, CounterDrawMode::Step, f);
        QCOMPARE(f.runs.size(), size_t(1));
        QCOMPARE(f.runs[0].x0, 0);
        QCOMPARE(f.runs[0].x1, 100);
        QCOMPARE(f.runs[0].min, 100.0);
    }

    void lineJoinsSamplesAndIsCutAtTheEdges() {
        const CounterSeries s = handSeries();
        const CounterRangeIndex range(s);
        CounterFrame f;
        layoutCounter(s, range, makeAxis(0, 10000, 1000), kHandEnd, CounterDrawMode::Line, f);
        QVERIFY(f.runs.empty());
        QCOMPARE(f.line.size(), size_t(3));  // one vertex per sample, at x = t / 10; no line after the last
        const double expect[3][2] = {{0, 0}, {200, 100}, {600, 50}};
        for (int k = 0; k < 3; ++k) {
            QCOMPARE(f.line[k].x, expect[k][0]);
            QCOMPARE(f.line[k].value, expect[k][1]);
        }
        // [3000, 5000) at 20 ns/px: the segment from (2000, 100) to (6000, 50) runs from x = -50 to x = 150.
        // Cut 1 px outside the window: at x = -1, 100 - 50 * 49/200 = 87.75; at x = 101, 100 - 50 * 151/200 = 62.25.
        layoutCounter(s, range, makeAxis(3000, 5000, 100), kHandEnd, CounterDrawMode::Line, f);
        QCOMPARE(f.line.size(), size_t(2));
        QCOMPARE(f.line[0].x, -1.0);
        QCOMPARE(f.line[0].value, 87.75);
        QCOMPARE(f.line[1].x, 101.0);
        QCOMPARE(f.line[1].value, 62.25);
        // After the last sample there is no line, before the first neither.
        layoutCounter(s, range, makeAxis(7000, 9000, 100), kHandEnd, CounterDrawMode::Line, f);
        QVERIFY(f.line.empty());
        layoutCounter(s, range, makeAxis(-5000, -1000, 100), kHandEnd, CounterDrawMode::Line, f);
        QVERIFY(f.line.empty());
    }

    // Zoomed to 2 ns over 100 px (50 px per ns), a sample 1000 s away is 5e13 px off: the runs
    // and the line's cut stay inside the window (no pixel position overflows an int).
    void deepZoomFarSamples() {
        const CounterSeries s = series({0, 1'000'000'000'000}, {10, 20});
        const CounterRangeIndex range(s);
        const TimeAxis axis = makeAxis(0, 2, 100);
        QCOMPARE(axis.nsPerPx(), 0.02);
        CounterFrame f;
        layoutCounter(s, range, axis, 2'000'000'000'000, CounterDrawMode::Step, f);
        QCOMPARE(f.runs.size(), size_t(1));
        QCOMPARE(f.runs[0].x0, 0);
        QCOMPARE(f.runs[0].x1, 100);
        QCOMPARE(f.runs[0].max, 10.0);
        layoutCounter(s, range, axis, 2'000'000'000'000, CounterDrawMode::Line, f);
        QCOMPARE(f.line.size(), size_t(2));  // sample 0 at x = 0, then the cut at x = 101
        QCOMPARE(f.line[0].x, 0.0);
        QCOMPARE(f.line[1].x, 101.0);
        // 101 px is 2.02 ns of the 1e12 ns segment: 10 + 10 * 2.02e-12.
        QVERIFY(std::fabs(f.line[1].value - (10 + 10 * 2.02e-12)) < 1e-9);
    }

    void hoverReadsTheSampleInEffect() {
        const CounterSeries s = handSeries();
        const CounterRangeIndex range(s);
        const TimeAxis axis = makeAxis(0, 10000, 1000);
        // x = 400 is 4000 ns: the sample in effect is 100 @ 2000, the next 50 @ 6000.
        CounterHover h = counterAt(s, range, axis, kHandEnd, CounterDrawMode::Step, 400);
        QVERIFY(h.valid);
        QCOMPARE(h.sample, size_t(1));
        QCOMPARE(h.sampleTime, TimeNs(2000));
        QCOMPARE(h.value, 100.0);
        QCOMPARE(h.time, TimeNs(4000));
        QVERIFY(h.hasNext);
        QCOMPARE(h.nextTime, TimeNs(6000));
        QCOMPARE(h.columnSamples, size_t(0));
        // Drawn as a line the same point reads halfway from 100 to 50: 75.
        h = counterAt(s, range, axis, kHandEnd, CounterDrawMode::Line, 400);
        QVERIFY(h.valid);
        QCOMPARE(h.sample, size_t(1));
        QCOMPARE(h.value, 75.0);
        // On a sample's own column the value is the sample's.
        h = counterAt(s, range, axis, kHandEnd, CounterDrawMode::Step, 200.5);
        QCOMPARE(h.sample, size_t(1));
        QCOMPARE(h.columnSamples, size_t(1));
        QCOMPARE(h.columnMax, 100.0);
        // x = 650 (6500 ns): after the last sample the step holds (50), the line has ended.
        QCOMPARE(counterAt(s, range, axis, kHandEnd, CounterDrawMode::Step, 650).value, 50.0);
        QVERIFY(!counterAt(s, range, axis, kHandEnd, CounterDrawMode::Line, 650).valid);
        QVERIFY(counterAt(s, range, axis, kHandEnd, CounterDrawMode::Line, 600.5).valid);  // the last sample's column
        // Past the trace end and before the first sample nothing is in effect.
        QVERIFY(!counterAt(s, range, makeAxis(0, 20000, 1000), kHandEnd, CounterDrawMode::Step, 600).valid);  // 12000 ns
        QVERIFY(!counterAt(s, range, makeAxis(-1000, 9000, 1000), kHandEnd, CounterDrawMode::Step, 50).valid);  // -500 ns
    }

    void hoverSummarisesAFullColumn() {
        // 1000 samples 1 ns apart, value i % 7; at 100 ns per px column 0 holds samples 0..99 (min 0, max 6)
        // and the cursor at x = 0.5 (50 ns) has sample 50 in effect: 50 % 7 = 1.
        std::vector<TimeNs> t;
        std::vector<double> v;
        for (int i = 0; i < 1000; ++i) {
            t.push_back(i);
            v.push_back(i % 7);
        }
        const CounterSeries s = series(t, v);
        const CounterRangeIndex range(s);
        const CounterHover h = counterAt(s, range, makeAxis(0, 10000, 100), 1000, CounterDrawMode::Step, 0.5);
        QVERIFY(h.valid);
        QCOMPARE(h.columnSamples, size_t(100));
        QCOMPARE(h.columnMin, 0.0);
        QCOMPARE(h.columnMax, 6.0);
        QCOMPARE(h.sample, size_t(50));
        QCOMPARE(h.value, 1.0);
    }

    void nonFiniteValuesCountAsZero() {
        const CounterSeries s = series({0, 10, 20}, {5, std::nan(""), 5});
        const CounterRangeIndex range(s);
        CounterFrame f;
        layoutCounter(s, range, makeAxis(0, 30, 30), 30, CounterDrawMode::Step, f);
        QCOMPARE(f.runs.size(), size_t(3));
        QCOMPARE(f.runs[1].min, 0.0);
        QCOMPARE(counterAt(s, range, makeAxis(0, 30, 30), 30, CounterDrawMode::Line, 15).value, 2.5);  // 0 -> 5, halfway
    }

    // Random series and windows against all samples: per pixel column, the step runs show exactly the
    // values the counter takes there (the one carried in and every sample in the column), and the line's
    // vertices span exactly what the full polyline through every sample spans.
    void randomAgainstBruteForce() {
        std::mt19937 rng(7);
        for (int round = 0; round < 60; ++round) {
            const int n = 1 + int(rng() % 3000);
            std::vector<TimeNs> t;
            std::vector<double> v;
            TimeNs now = TimeNs(rng() % 1000);
            for (int i = 0; i < n; ++i) {
                now += TimeNs(rng() % 3 == 0 ? rng() % 5000 : rng() % 30);
                t.push_back(now);
                v.push_back(double(int(rng() % 2001) - 1000));  // integers: exact in the float tree
            }
            const TimeNs end = now + TimeNs(rng() % 1000);
            const CounterSeries s = series(t, v);
            const CounterRangeIndex range(s);
            const double span = double(end) + 2000;
            const double w0 = double(rng() % uint64_t(span)) - 1000;
            const double w1 = w0 + 1 + double(rng() % uint64_t(span));
            const int width = 50 + int(rng() % 400);
            const TimeAxis axis = makeAxis(w0, w1, width);

            CounterFrame f;
            layoutCounter(s, range, axis, end, CounterDrawMode::Step, f);
            for (const CounterRun& r : f.runs) {
                QVERIFY(r.x0 < r.x1);
                for (int x = r.x0; x < r.x1; ++x) {
                    const TimeNs c0 = TimeNs(std::floor(axis.time(x))), c1 = TimeNs(std::ceil(axis.time(x + 1)));
                    double lo = 1e300, hi = -1e300;
                    int carried = -1;
                    for (int i = 0; i < n; ++i) {
                        if (t[i] <= c0) carried = i;
                        else if (t[i] < c1) lo = std::min(lo, v[i]), hi = std::max(hi, v[i]);
                    }
                    if (carried < 0) carried = 0;  // the first column is drawn from the first sample
                    lo = std::min(lo, v[carried]);
                    hi = std::max(hi, v[carried]);
                    QCOMPARE(r.min, lo);
                    QCOMPARE(r.max, hi);
                }
            }
            for (size_t k = 1; k < f.runs.size(); ++k) QVERIFY(f.runs[k].x0 >= f.runs[k - 1].x1);

            layoutCounter(s, range, axis, end, CounterDrawMode::Line, f);
            QVERIFY(f.line.size() <= size_t(4 * width + 2));
            std::vector<CounterVertex> full;
            for (int i = 0; i < n; ++i) full.push_back({axis.x(double(t[i])), v[i]});
            for (int x = 0; x < width; ++x) {
                double lo = 0, hi = 0, flo = 0, fhi = 0;
                const bool drawn = lineExtent(f.line, x, lo, hi);
                const bool truth = lineExtent(full, x, flo, fhi);
                QCOMPARE(drawn, truth);
                if (!truth) continue;
                QVERIFY2(std::fabs(lo - flo) < 1e-6 && std::fabs(hi - fhi) < 1e-6,
                         qPrintable(QStringLiteral("round %1 column %2: %3..%4 drawn, %5..%6 true")
                                        .arg(round).arg(x).arg(lo).arg(hi).arg(flo).arg(fhi)));
            }
        }
    }
};

QTEST_APPLESS_MAIN(CounterLayoutTest)
#include "tst_counter_layout.moc"
