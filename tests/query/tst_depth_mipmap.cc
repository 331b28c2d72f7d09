// The coarse per-bucket summaries the timeline paints zoomed-out frames from,
// checked bucket by bucket against a brute-force scan of every slice on random
// nested traces (coverage and representative slice exact).
#include "model/query/slice_depth_index.h"
#include "model/query/slice_depth_mipmap.h"
#include "model/trace/trace_builder.h"

#include <QtTest>

#include <functional>
#include <random>

using namespace tracescope;

namespace {

// Nested thread slices with random gaps (some zero-length), plus overlapping
// async slices that the builder packs into lanes.
std::shared_ptr<const Trace> buildRandomTrace(uint32_t seed, int n) {
    std::mt19937 rng(seed);
    TraceBuilder b("random");
    const ProcessIndex p = b.addProcess(ProcessKind::Host, 1, "p");
    const TrackIndex t = b.addTrack(p, TrackKind::Thread, "t", 1);
    const TrackIndex a = b.addTrack(p, TrackKind::Async, "a", 2);
    const StringId names[] = {b.intern("A"), b.intern("B"), b.intern("C")};
    std::function<void(TimeNs, TimeNs, int)> fill = [&](TimeNs lo, TimeNs hi, int depth) {
        TimeNs cur = lo;
        while (cur < hi && n > 0) {
            const TimeNs gap = TimeNs(rng() % 3 == 0 ? rng() % 5000 : rng() % 20);
            const TimeNs len = rng() % 10 == 0 ? 0 : 1 + TimeNs(rng() % std::max<TimeNs>(1, (hi - cur) / 3 + 1));
            if (cur + gap + len > hi) break;
            --n;
            b.addSlice(t, cur + gap, len, names[rng() % 3], kEmptyString);
            if (depth < 4 && len > 4) fill(cur + gap + 1, cur + gap + len, depth + 1);
            cur += gap + len;
        }
    };
    for (TimeNs base = 0; n > 0; base += 50000) fill(base, base + 50000, 0);
    for (int k = 0; k < 300; ++k)
        b.addSlice(a, TimeNs(rng() % 400000), TimeNs(rng() % 30000), names[rng() % 3], kEmptyString);
    return b.finish();
}

}  // namespace

class DepthMipmapTest : public QObject {
    Q_OBJECT
private slots:
    void matchesBruteForce() {
        const uint32_t counts[] = {7, 64, 500, 4096};
        for (uint32_t seed = 1; seed <= 6; ++seed) {
            auto trace = buildRandomTrace(seed, 3000);
            SliceDepthIndex index;
            QVERIFY(index.build(*trace));
            SliceDepthMipmap mipmap;
            QVERIFY(mipmap.build(*trace, index, nullptr, counts, 1));
            int checkedCovered = 0, checkedEmpty = 0;
            for (TrackIndex t = 0; t < trace->tracks.size(); ++t) {
                const SliceColumns& c = trace->tracks[t].slices;
                for (uint32_t d = 0; d < index.depthCount(t); ++d) {
                    size_t atDepth = 0;
                    for (uint32_t k = 0; k < c.size(); ++k) atDepth += c.depth(k) == d;
                    const auto levels = mipmap.levels(t, d);
                    size_t expectLevels = 0;
                    for (uint32_t n : counts) expectLevels += n <= atDepth;
                    QCOMPARE(levels.size(), expectLevels);
                    for (const auto& level : levels) {
                        QCOMPARE(level.origin, trace->startNs);
                        QVERIFY(TimeNs(level.size()) * level.width > trace->spanNs());
                        for (size_t bucket = 0; bucket < level.size(); ++bucket) {
                            const TimeNs lo = level.origin + TimeNs(bucket) * level.width, hi = lo + level.width;
                            // Longest slice of this depth meeting [lo, hi) (a zero-length one
                            // occupies its start); ties go to the earliest.
                            uint32_t best = SliceDepthMipmap::kNone;
                            for (uint32_t k = 0; k < c.size(); ++k) {
                                if (c.depth(k) != d) continue;
                                const TimeNs s = c.start[k], e = s + std::max<TimeNs>(c.duration[k], 1);
                                if (s < hi && e > lo && (best == SliceDepthMipmap::kNone || c.duration[k] > c.duration[best]))
                                    best = k;
                            }
                            QCOMPARE(level.rep[bucket], best);
                            if (best != SliceDepthMipmap::kNone) QCOMPARE(level.names[bucket], c.name[best]);
                            if (best == SliceDepthMipmap::kNone) {
                                ++checkedEmpty;
                                continue;
                            }
                            ++checkedCovered;
                            QCOMPARE(TimeNs(level.widths[bucket]), std::min<TimeNs>(255, c.duration[best] / level.width));
                        }
                    }
                }
            }
            // The traces must exercise both kinds of bucket.
            QVERIFY(checkedCovered > 1000);
            QVERIFY(checkedEmpty > 100);
        }
    }

    // The depth index's count of slices overlapping a window, against a scan of every slice
    // (a slice starting in the window counts, zero-length ones included).
    void countOverlappingMatchesBruteForce() {
        auto trace = buildRandomTrace(9, 3000);
        SliceDepthIndex index;
        QVERIFY(index.build(*trace));
        std::mt19937 rng(3);
        for (TrackIndex t = 0; t < trace->tracks.size(); ++t) {
            const SliceColumns& c = trace->tracks[t].slices;
            for (uint32_t d = 0; d < index.depthCount(t); ++d) {
                for (int k = 0; k < 200; ++k) {
                    const TimeNs begin = TimeNs(rng() % 420000), end = begin + TimeNs(rng() % 20000);
                    size_t expected = 0;
                    for (uint32_t i = 0; i < c.size(); ++i)
                        expected += c.depth(i) == d && c.start[i] < end && (c.start[i] >= begin || c.end(i) > begin);
                    QCOMPARE(index.atDepth(t, d).countOverlapping(begin, end), expected);
                }
            }
        }
    }

    void levelChoiceAndBudget() {
        auto trace = buildRandomTrace(42, 3000);
        SliceDepthIndex index;
        QVERIFY(index.build(*trace));
        QVERIFY(index.atDepth(0, 0).size() >= 4 * 8);
        SliceDepthMipmap mipmap;
        const uint32_t counts[] = {2, 8};
        QVERIFY(mipmap.build(*trace, index, nullptr, counts, 4));
        const auto levels = mipmap.levels(0, 0);
        QCOMPARE(levels.size(), size_t(2));  // depth 0 of the thread holds over 4 x 8 slices
        const TimeNs coarse = levels[0].width, fine = levels[1].width;
        QVERIFY(coarse > fine);
        // The coarsest level whose buckets fit in a pixel; none when pixels are finer than every bucket.
        QCOMPARE(mipmap.levelFor(0, 0, double(coarse) * 10).width, coarse);
        QCOMPARE(mipmap.levelFor(0, 0, double(coarse)).width, coarse);
        QCOMPARE(mipmap.levelFor(0, 0, double(coarse) - 1).width, fine);
        QCOMPARE(mipmap.levelFor(0, 0, double(fine)).width, fine);
        QCOMPARE(mipmap.levelFor(0, 0, double(fine) - 1).width, TimeNs(0));
        QVERIFY(!mipmap.levelFor(0, 0, double(fine) / 2).valid());
        // A depth with fewer than 4 slices per bucket of a level does not get that level.
        for (TrackIndex t = 0; t < trace->tracks.size(); ++t)
            for (uint32_t d = 0; d < index.depthCount(t); ++d)
                for (const auto& level : mipmap.levels(t, d)) QVERIFY(level.size() * 4 <= index.atDepth(t, d).size());
        QVERIFY(mipmap.memoryBytes() <= 2 * trace->counts().slices);
        // Out of range asks are answered, not crashed on.
        QVERIFY(!mipmap.levelFor(99, 0, 1e9).valid());
        QVERIFY(!mipmap.levelFor(0, 999, 1e9).valid());
    }

    void cancelled() {
        auto trace = buildRandomTrace(3, 500);
        SliceDepthIndex index;
        QVERIFY(index.build(*trace));
        std::atomic<bool> cancel{true};
        SliceDepthMipmap mipmap;
        QVERIFY(!mipmap.build(*trace, index, &cancel));
        QVERIFY(!mipmap.levelFor(0, 0, 1e12).valid());
    }
};

QTEST_APPLESS_MAIN(DepthMipmapTest)
#include "tst_depth_mipmap.moc"
