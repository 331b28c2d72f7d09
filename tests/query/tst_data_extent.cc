// What Fit All shows (model/query/data_extent.h): hand-made traces whose extents are worked out
// in the comments (times in ns; a trace starts at its earliest event, 0).
#include "model/query/data_extent.h"
#include "model/trace/trace_builder.h"

#include <QtTest>

using namespace tracescope;

namespace {

constexpr TimeNs kMs = 1'000'000, kS = 1'000'000'000;

struct Hand {
    TraceBuilder b{"hand"};
    TrackIndex thread, counter, marks;
    Hand() {
        const ProcessIndex p = b.addProcess(ProcessKind::Host, 1, "python3");
        thread = b.addTrack(p, TrackKind::Thread, "main", 1);
        counter = b.addTrack(p, TrackKind::Counter, "Memory");
        marks = b.addTrack(p, TrackKind::Thread, "marks", 2);
    }
    // `count` slices of 5 ms, 10 ms apart, from `from`: the last ends at from + (count - 1) * 10 ms + 5 ms.
    void busy(TimeNs from, int count) {
        for (int i = 0; i < count; ++i) b.addSlice(thread, from + i * 10 * kMs, 5 * kMs, b.intern("op"), kEmptyString);
    }
    void sample(TimeNs t) { b.addCounterSample(counter, t, 1); }
    void instant(TimeNs t) { b.addInstant(marks, t, b.intern("mark"), kEmptyString); }
    std::shared_ptr<const Trace> finish() { return b.finish(); }
};

void expectExtent(const Trace& trace, TimeNs begin, TimeNs end, uint64_t before, uint64_t after) {
    const DataExtent e = dataExtent(trace);
    QCOMPARE(e.begin, begin);
    QCOMPARE(e.end, end);
    QCOMPARE(e.strayBefore, before);
    QCOMPARE(e.strayAfter, after);
    QCOMPARE(e.trimmed(), before + after > 0);
}

}  // namespace

class TestDataExtent : public QObject {
    Q_OBJECT

private slots:
    // A counter sampled once at 0, then 200 slices from 58 s: 201 events (1% = 2 may be strays),
    // a gap of 58 s of a 60 s span (> 10%): Fit All starts at 58 s.
    void strayEarlyCounter() {
        Hand h;
        h.sample(0);
        h.busy(58 * kS, 200);
        auto t = h.finish();
        QCOMPARE(t->endNs, 58 * kS + 1995 * kMs);
        expectExtent(*t, 58 * kS, 58 * kS + 1995 * kMs, 1, 0);
    }

    // 200 slices in the first 2 s, an instant at 60 s.
    void strayLateInstant() {
        Hand h;
        h.busy(0, 200);
        h.instant(60 * kS);
        expectExtent(*h.finish(), 0, 1995 * kMs, 0, 1);
    }

    // Strays in two clusters at the start (0 and 10 s, each followed by a gap of 10 s = 16.7% of
    // the span) and one at the end (60 s): 203 events, 2 strays allowed at each end.
    void straysAtBothEnds() {
        Hand h;
        h.sample(0);
        h.instant(10 * kS);
        h.busy(20 * kS, 200);
        h.instant(60 * kS);
        expectExtent(*h.finish(), 20 * kS, 20 * kS + 1995 * kMs, 2, 1);
    }

    // Three events before the first long gap (0, 1 s and 2 s, then 18 s empty) are more than 1%
    // of 203 events: they are data, not strays, and nothing is cut.
    void tooManyStrays() {
        Hand h;
        h.sample(0);
        h.sample(1 * kS);
        h.instant(2 * kS);
        h.busy(20 * kS, 200);
        expectExtent(*h.finish(), 0, 20 * kS + 1995 * kMs, 0, 0);
    }

    // Two busy phases 49 s apart: neither is a handful of strays, both stay.
    void twoPhasesStay() {
        Hand h;
        h.busy(0, 100);
        h.busy(50 * kS, 100);
        expectExtent(*h.finish(), 0, 50 * kS + 995 * kMs, 0, 0);
    }

    // A gap of 5 s in 60 s (8.3%) is not long.
    void shortGapStays() {
        Hand h;
        h.sample(0);
        h.busy(5 * kS, 5501);  // to 60 s
        auto t = h.finish();
        expectExtent(*t, 0, t->endNs, 0, 0);
    }

    // A slice over the gap (a profiler-wide span) fills it: nothing is empty.
    void coveringSliceFillsTheGap() {
        Hand h;
        h.b.addSlice(h.marks, 0, 59 * kS, h.b.intern("ProfilerStep#1"), kEmptyString);
        h.busy(58 * kS, 200);
        expectExtent(*h.finish(), 0, 58 * kS + 1995 * kMs, 0, 0);
    }

    // Under 100 events, 1% is none: a tiny trace is shown whole.
    void tinyTraceWhole() {
        Hand h;
        h.busy(0, 50);
        h.instant(60 * kS);
        expectExtent(*h.finish(), 0, 60 * kS, 0, 0);
    }

    void emptyTrace() {
        Hand h;
        expectExtent(*h.finish(), 0, 0, 0, 0);
    }

    // Centred on the moment, 5% of the extent wide, at least 1 µs.
    void windowAroundMoment() {
        const DataExtent e{20 * kS, 22 * kS};
        QCOMPARE(windowAround(21 * kS, e), std::make_pair(21 * kS - 50 * kMs, 21 * kS + 50 * kMs));
        QCOMPARE(windowAround(20 * kS, e), std::make_pair(20 * kS - 50 * kMs, 20 * kS + 50 * kMs));
        QCOMPARE(windowAround(1000, DataExtent{0, 100}), std::make_pair(TimeNs(500), TimeNs(1500)));
    }
};

QTEST_GUILESS_MAIN(TestDataExtent)
#include "tst_data_extent.moc"
