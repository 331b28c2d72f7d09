// The pages share the trace's result store: a trace opened with the timeline and every analysis
// page in tabs (the hidden ones computing ahead at the lowest priority, once the timeline has its
// index), each page then shown, is classified once and its memory profile computed once (the
// Memory page and the timeline's memory tracks show the same one), whatever the pages ask;
// opening another trace while they compute leaves no page with the old trace's result.
#include "model/analysis/op_classify.h"
#include "model/import/import.h"
#include "model/results/launch_queue_results.h"
#include "model/results/trace_results.h"
#include "views/memory/memory_profile_view.h"
#include "views/overview/overview_view.h"
#include "views/pipeline/input_pipeline_view.h"
#include "views/pipeline/tf_data_view.h"
#include "views/pod/compare_view.h"
#include "views/pod/pod_view.h"
#include "views/tables/kernel_stats_view.h"
#include "views/tables/op_stats_view.h"
#include "views/tables/scope_tree_view.h"
#include "views/timeline/timeline_canvas.h"
#include "views/timeline/timeline_view.h"

#include <QTabWidget>
#include <QtTest>

using namespace tracescope;

namespace {

std::shared_ptr<const Trace> load(const char* relative) {
    ImportResult r = importTrace(std::string(TRACESCOPE_SHARED_DIR) + "/testdata/" + relative);
    return r.ok() ? std::shared_ptr<const Trace>(std::move(r.trace)) : nullptr;
}

struct Pages {
    QTabWidget tabs;
    std::vector<AnalysisView*> pages;
    MemoryProfileView* memory = nullptr;
    TimelineView* timeline = new TimelineView;
    Pages() {
        tabs.resize(1280, 800);
        tabs.addTab(timeline, QStringLiteral("Timeline"));
        auto add = [&](AnalysisView* v, const char* name) {
            tabs.addTab(v, QString::fromLatin1(name));
            pages.push_back(v);
            return v;
        };
        add(new OverviewView, "Overview");
        add(new OpStatsView, "Op stats");
        add(new KernelStatsView, "Kernel stats");
        add(new InputPipelineView, "Input pipeline");
        memory = static_cast<MemoryProfileView*>(add(new MemoryProfileView, "Memory"));
        add(new TfDataView, "tf.data");
        add(new ScopeTreeView, "Scopes");
        add(new PodView, "Pod");
        add(new CompareView, "Compare");
        tabs.show();
    }
    void setTrace(const std::shared_ptr<const Trace>& t) {
        timeline->setTrace(t);
        for (AnalysisView* p : pages) p->setTrace(t);
    }
    // Shows each page in turn and waits until it shows its result.
    bool showEach() {
        timeline->waitUntilReady();
        for (size_t i = 0; i < pages.size(); ++i) {
            tabs.setCurrentWidget(pages[i]);
            AnalysisView* p = pages[i];
            if (!QTest::qWaitFor([p] { return !p->isComputing(); }, 60000)) return false;
            QCoreApplication::processEvents();
            if (p->state() != AnalysisView::State::Done && p->state() != AnalysisView::State::NoTrace &&
                i + 1 != pages.size())  // Compare without a second trace says how to pick one
                return false;
        }
        return true;
    }
};

}  // namespace

class ResultsSharedTest : public QObject {
    Q_OBJECT
private slots:
    void classifiedOnceMemoryProfiledOnce() {
        auto trace = load("gpu/torch_mlp_memory_h100.json");
        QVERIFY(trace);
        const uint64_t before = classifyTraceCount();
        Pages pages;
        pages.setTrace(trace);
        QVERIFY(pages.showEach());
        std::shared_ptr<ResultStore> store = ResultStore::of(trace);
        QCOMPARE(store->computations("classification"), uint64_t(1));
        QCOMPARE(store->computations("memory-profile"), uint64_t(1));
        QCOMPARE(classifyTraceCount() - before, uint64_t(1));
        for (const char* page : {"overview-page", "kernel-stats-page", "input-pipeline-page", "memory-page",
                                 "tf-data-page", "scopes-page", "pod-page"})
            QVERIFY2(store->computations(page) == 1, page);
        // Op stats opens a PyTorch trace in PyTorch's convention.
        QCOMPARE(store->computations("torch-ops-page") + store->computations("op-stats-page"), uint64_t(1));
        // Shown again: nothing is computed again.
        pages.setTrace(trace);
        QVERIFY(pages.showEach());
        QCOMPARE(classifyTraceCount() - before, uint64_t(1));
        QCOMPARE(store->computations("overview-page"), uint64_t(1));
        // The Memory page and the timeline's memory tracks show the store's profile itself.
        QVERIFY(pages.memory->result() == memoryProfileOf(*store).get());
        const TimelineDerivedTracks* tracks = pages.timeline->canvas()->controller().derived();
        QVERIFY(tracks && tracks->memory.get() == pages.memory->result());
        // cpu and cuda:0, allocated and reserved; the queue length of stream 7, from the store's queues
        QCOMPARE(tracks->tracks.size(), size_t(5));
        QCOMPARE(store->computations(kQueueLengthName), uint64_t(1));
        QCOMPARE(store->computations("timeline-index"), uint64_t(1));
    }

    // Another trace opened while every page computes: each ends with the new trace's result.
    void anotherTraceWhileComputing() {
        auto first = load("gpu/torch_mlp_memory_h100.json");
        auto second = load("gpu/torch_mlp_memory_h100.json");  // the same file, another trace
        QVERIFY(first && second);
        Pages pages;
        pages.setTrace(first);
        pages.setTrace(second);
        QVERIFY(pages.showEach());
        for (AnalysisView* p : pages.pages) QVERIFY(p->trace() == second);
        std::shared_ptr<ResultStore> store = ResultStore::of(second);
        QVERIFY(pages.memory->result() == memoryProfileOf(*store).get());
        QCOMPARE(store->computations("classification"), uint64_t(1));
    }
};

QTEST_MAIN(ResultsSharedTest)
#include "tst_results_shared.moc"
