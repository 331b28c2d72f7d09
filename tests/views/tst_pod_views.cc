// The Pod and Compare pages over real files: what they show comes from computePod /
// diffRuns, and clicking a worker's step asks the timeline for that worker's tracks and
// the step's range on the run's clock.
#include "model/import/workers.h"
#include "model/trace/merge_workers.h"
#include "views/pod/compare_view.h"
#include "views/pod/label_stride.h"
#include "views/pod/pod_view.h"
#include "views/pod/straggler_heatmap.h"
#include "views/timeline/timeline_canvas.h"
#include "views/timeline/timeline_view.h"

#include <QTabWidget>

#include <QSignalSpy>
#include <QtTest>

using namespace tracescope;

namespace {
std::string testdata(const char* rel) { return std::string(TRACESCOPE_SHARED_DIR) + "/testdata/" + rel; }
}  // namespace

class PodViewsTest : public QObject {
    Q_OBJECT
private slots:
    // The heat map's labels are thinned to what fits, by 1, 2, 5, 10, 20, 50…: the stride is
    // the smallest of those covering (widest label + gap) / pitch, worked out by hand below.
    void heatmapLabelsThinned() {
        QCOMPARE(labelStride(40, 20), 1L);       // 26 px needed, 40 px apart
        QCOMPARE(labelStride(10, 24), 5L);       // 30 / 10 = 3 -> 5
        QCOMPARE(labelStride(0.62, 21), 50L);    // 534 steps in 330 px: 27 / 0.62 = 43.5 -> 50
        QCOMPARE(labelStride(0.062, 21), 500L);  // 435.5 -> 500
        QCOMPARE(labelStride(14, 15, 2), 2L);    // worker rows: 17 / 14 -> 2
        QCOMPARE(labelStride(3, 1, 2), 1L);
        QVERIFY(labelStride(0, 10) > 1'000'000'000'000L);  // no room at all: the first label only
        QVERIFY(labelStride(std::nan(""), 10) > 1'000'000'000'000L);
        QVERIFY(labelStride(1e-300, 10) > 1'000'000'000'000L);
        // A heat map of 534 steps (the three JAX captures of the issue) draws without overlap; look
        // at it with TRACESCOPE_TEST_SHOTS set.
        HeatmapData d;
        d.workers = {"vm (a.xplane.pb)", "vm (b.xplane.pb)", "vm (c.xplane.pb)"};
        for (int s = 0; s < 534; ++s) d.steps << QString::number(145 + s);
        d.durations.assign(3, std::vector<std::optional<qint64>>(534, 1000));
        d.medians.assign(534, 900);
        StragglerHeatmap heat;
        heat.setData(d);
        heat.resize(500, 300);
        heat.show();
        if (qEnvironmentVariableIsSet("TRACESCOPE_TEST_SHOTS"))
            heat.grab().save(qEnvironmentVariable("TRACESCOPE_TEST_SHOTS") + "/heatmap_534_steps.png");
    }

    void podPageOfTwoRanks() {
        MultiWorkerResult r = importWorkers(
            {testdata("public/hta/sampled_rank-0.json.gz"), testdata("public/hta/sampled_rank-1.json.gz")});
        QVERIFY(r.ok());
        auto run = std::make_shared<MultiWorkerRun>(std::move(r.run));
        std::shared_ptr<const Trace> merged(mergeWorkers(*run));
        PodView view;
        view.resize(1200, 800);
        view.show();
        QSignalSpy ready(&view, &AnalysisView::resultReady);
        view.setRun(run);
        view.setTrace(merged);
        QVERIFY(ready.wait(30000));
        const PodResult* pod = view.result();
        QVERIFY(pod);
        QCOMPARE(pod->workers.size(), size_t(2));
        QCOMPARE(pod->steps.size(), size_t(2));
        QVERIFY(view.summaryText().contains("2 worker(s)"));
        QVERIFY(view.summaryText().contains("ProfilerStep#N"));

        QSignalSpy open(&view, &PodView::openInTimeline);
        auto* heat = view.findChild<StragglerHeatmap*>();
        QVERIFY(heat);
        emit heat->cellClicked(1, 1);
        QCOMPARE(open.count(), 1);
        const WorkerStep& ws = pod->workers[1].steps[1];
        QCOMPARE(open.at(0).at(0).toString(), QString("rank 1: "));
        QCOMPARE(open.at(0).at(1).toLongLong(), qint64(ws.runStartNs));
        QCOMPARE(open.at(0).at(2).toLongLong(), qint64(ws.runStartNs + ws.breakdown.step.durationNs));
        // The merged view holds that worker's step at the same run time.
        bool found = false;
        for (const Process& p : merged->processes)
            for (TrackIndex ti : p.tracks) {
                if (p.name.rfind("rank 1: ", 0) != 0) continue;
                const SliceColumns& c = merged->tracks[ti].slices;
                for (size_t i = 0; i < c.size(); ++i)
                    found |= c.start[i] == ws.runStartNs && merged->str(c.name[i]) == "ProfilerStep#552";
            }
        QVERIFY(found);
    }

    void comparePageOfATraceWithItself() {
        std::shared_ptr<const Trace> a(importTrace(testdata("public/hta/sampled_rank-0.json.gz")).trace);
        std::shared_ptr<const Trace> b(importTrace(testdata("public/hta/sampled_rank-0.json.gz")).trace);
        QVERIFY(a && b);
        CompareView view;
        view.show();
        QSignalSpy ready(&view, &AnalysisView::resultReady);
        view.setCompareTrace(b, "copy");  // first: the page computes once, when A arrives
        view.setTrace(a);
        QVERIFY(ready.wait(30000));
        QVERIFY(view.result());
        for (const DiffRow& r : view.result()->kernels) QCOMPARE(r.deltaNs, TimeNs(0));
        QVERIFY(view.summaryText().contains("0 new, 0 vanished"));
        QVERIFY(!view.summaryText().contains("Largest"));
    }

    // The Timelines tab: A above B, each starting at its first step; panning A moves B alike.
    void compareTimelinesAligned() {
        std::shared_ptr<const Trace> a(importTrace(testdata("public/hta/sampled_rank-0.json.gz")).trace);
        std::shared_ptr<const Trace> b(importTrace(testdata("public/hta/sampled_rank-1.json.gz")).trace);
        QVERIFY(a && b);
        CompareView view;
        view.resize(1400, 900);
        view.show();
        QSignalSpy ready(&view, &AnalysisView::resultReady);
        view.setCompareTrace(b, "sampled_rank-1.json.gz");
        view.setTrace(a);
        QVERIFY(ready.wait(30000));
        const auto timelines = view.findChildren<TimelineView*>();
        QCOMPARE(timelines.size(), qsizetype(2));
        for (TimelineView* t : timelines) t->waitUntilReady();
        auto* tabs = view.findChild<QTabWidget*>();
        QVERIFY(tabs);
        tabs->setCurrentIndex(tabs->count() - 1);  // the user opens the Timelines tab
        QTest::qWait(200);
        const RunDiff* d = view.result();
        QVERIFY(d && d->aFirstStep && d->bFirstStep);
        auto begin = [](TimelineView* t) { return t->canvas()->controller().axis().begin(); };
        // Which one is A: the one showing trace a.
        TimelineView* ta = timelines[0]->canvas()->trace() == a.get() ? timelines[0] : timelines[1];
        TimelineView* tb = ta == timelines[0] ? timelines[1] : timelines[0];
        QCOMPARE(tb->canvas()->trace(), b.get());
        QVERIFY(std::abs((begin(ta) - double(d->aFirstStep->startNs)) - (begin(tb) - double(d->bFirstStep->startNs))) <
                1e3);
        ta->canvas()->setVisibleRange(begin(ta) + 5e7, begin(ta) + 2e8);
        QTest::qWait(50);
        QVERIFY(std::abs((begin(ta) - double(d->aFirstStep->startNs)) - (begin(tb) - double(d->bFirstStep->startNs))) <
                1e3);
        if (qEnvironmentVariableIsSet("TRACESCOPE_SHOT_DIR"))
            view.grab().save(qEnvironmentVariable("TRACESCOPE_SHOT_DIR") + "/compare_timelines.png");
    }
};

QTEST_MAIN(PodViewsTest)
#include "tst_pod_views.moc"
