// The analysis pages run what the memory budget holds (the job runner's admission, model/results/job_runner.h), with
// TRACESCOPE_MEMORY_LIMIT standing in for the machine: a page whose analysis needs more than
// the budget says so with both figures and runs it when asked; a page that fits waits while
// another holds the memory; a running analysis can be cancelled and run again. Kernel stats
// is bounded to what the budget holds rather than skipped.
#include "view_test_traces.h"

#include "model/analysis/analysis_cost.h"
#include "model/import/memory_budget.h"
#include "model/results/job_runner.h"
#include "model/results/result_store.h"
#include "model/results/trace_results.h"
#include "model/trace/trace_builder.h"
#include "views/tables/kernel_stats_view.h"
#include "views/tables/op_stats_view.h"
#include "views/tables/table_page.h"
#include "views/tables/value_format.h"
#include "views/timeline/timeline_view.h"

#include <QTabWidget>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <thread>

using namespace tracescope;
using namespace tracescope::testing;

class AnalysisAdmissionTest : public QObject {
    Q_OBJECT
    std::shared_ptr<const Trace> trace_;

    static void setLimit(const char* limit) { qputenv("TRACESCOPE_MEMORY_LIMIT", limit); }

private slots:
    // A trace of its own per case: its result store (and what it holds) goes with the case.
    void init() { trace_ = makeKinetoTrainingTrace(); }
    void cleanup() { qunsetenv("TRACESCOPE_MEMORY_LIMIT"); }

    // 1 MiB cannot hold Kernel stats' fixed 16 MiB: skipped, with both figures on the page.
    void skippedThenRunAnyway() {
        setLimit("1M");
        KernelStatsView view;
        view.resize(900, 600);
        view.show();
        QSignalSpy ready(&view, &AnalysisView::resultReady);
        view.setTrace(trace_);
        QCOMPARE(view.state(), AnalysisView::State::Skipped);
        QVERIFY(!view.isComputing());
        const QString text = view.statusText();
        const uint64_t need = estimateAnalysisCost(AnalysisKind::KernelStats, *trace_).bytes;
        QVERIFY(need > (16u << 20));
        QVERIFY2(text.contains(QStringLiteral("Kernel stats was not run")), qPrintable(text));
        QVERIFY2(text.contains(QString::fromStdString(formatBytes(need))), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("1.0 MB is available (TRACESCOPE_MEMORY_LIMIT)")), qPrintable(text));
        QCOMPARE(view.result(), nullptr);

        QVERIFY(view.pressStatusButton());  // Run anyway
        QVERIFY(ready.wait(20000));
        QCOMPARE(view.state(), AnalysisView::State::Done);
        // The trace's three kernel launches: two sgemm with one configuration, one relu.
        QVERIFY(view.result() != nullptr);
        QCOMPARE(view.result()->kernelCount, size_t(3));
        QCOMPARE(view.result()->rows.size(), size_t(2));
    }

    // Room for one at a time: while another job holds the memory (a job on the runner that
    // reserves what Kernel stats would, kept running until released), the page waits for it,
    // says so, and runs when it ends.
    void pageWaitsForMemory() {
        const uint64_t kernels = estimateAnalysisCost(AnalysisKind::KernelStats, *trace_).bytes;
        const uint64_t ops = estimateAnalysisCost(AnalysisKind::OpStats, *trace_).bytes;
        const QByteArray limit = QByteArray::number(qulonglong(std::max(kernels, ops) + std::min(kernels, ops) / 2));
        setLimit(limit.constData());
        std::atomic<bool> release{false};
        JobRunner::shared().submit(JobPriority::Page, kernels, [&] {
            while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        });
        QTRY_COMPARE(JobRunner::shared().reserved(), kernels);
        OpStatsView page;
        QSignalSpy ready(&page, &AnalysisView::resultReady);
        page.setTrace(trace_);
        QTest::qWait(100);
        QCOMPARE(page.state(), AnalysisView::State::Queued);
        QTRY_VERIFY2(page.statusText().contains(QStringLiteral("Waiting for memory")), qPrintable(page.statusText()));
        QCOMPARE(ready.count(), 0);
        release = true;
        QVERIFY(ready.wait(20000));
        QCOMPARE(page.state(), AnalysisView::State::Done);
        QTRY_COMPARE(JobRunner::shared().reserved(), uint64_t(0));
    }

    // 300 000 kernel launches of 10 ns on one stream: launch i has i registers for i < 100 003
    // (100 003 distinct configurations), the others repeat launch 0's. Unbounded, Kernel stats
    // would need more than a 50 MiB budget; bounded at the least, 100 000 rows, it fits and
    // runs: the 3 launches past the bound (30 ns) count in the totals only, the page says so.
    void kernelStatsBoundedInsteadOfSkipped() {
        TraceBuilder b("chrome-json");
        const auto dev = b.addProcess(ProcessKind::Device, 0, "GPU 0");
        const auto st = b.addTrack(dev, TrackKind::Thread, "stream 7", 7);
        const StringId name = b.intern("gemm_kernel"), cat = b.intern("kernel");
        const StringId regs = b.intern("registers per thread");
        for (int64_t i = 0; i < 300'000; ++i) {
            ArgsWriter w;
            w.add(regs, ArgValue::integer(i < 100'003 ? i : 0));
            b.addSlice(st, 20 * i, 10, name, cat, w);
        }
        std::shared_ptr<const Trace> trace = b.finish();
        QVERIFY(trace);
        setLimit("50M");
        QVERIFY(estimateAnalysisCost(AnalysisKind::KernelStats, *trace).bytes > (50u << 20));

        KernelStatsView view;
        QSignalSpy ready(&view, &AnalysisView::resultReady);
        view.setTrace(trace);
        QVERIFY(view.state() != AnalysisView::State::Skipped);
        QVERIFY(ready.wait(60000));
        const KernelStatsResult* r = view.result();
        QVERIFY(r);
        QCOMPARE(r->kernelCount, uint64_t(300'000));
        QCOMPARE(r->totalKernelNs, TimeNs(3'000'000));
        QCOMPARE(r->maxRows, size_t(100'000));
        QCOMPARE(r->configurations, size_t(100'000));
        QCOMPARE(r->unlistedCount, uint64_t(3));
        QCOMPARE(r->unlistedNs, TimeNs(30));
        QCOMPARE(r->rows.size(), kMaxTableRows);              // the table's rows only
        QCOMPARE(r->rows[0].occurrences, uint64_t(199'998));  // launch 0's: 1 + 300 000 - 100 003
        const QString summary = view.summaryText();
        QVERIFY2(summary.contains(formatCount(100'000) + "+</b> distinct"), qPrintable(summary));
        QVERIFY2(summary.contains("The table is bounded at 100,000 distinct kernel configurations"),
                 qPrintable(summary));
        QVERIFY2(summary.contains("3 further launches (30 ns) are counted in the totals only."), qPrintable(summary));
    }

    // A page computed ahead (on a hidden tab) fitted when it was asked for; when it is shown
    // before it started and the room is gone, it says so and offers Run anyway, rather than
    // starting whatever it needs at the page's priority.
    void shownPageCheckedForMemoryAgain() {
        QTabWidget tabs;
        tabs.addTab(new QWidget, QStringLiteral("first"));
        auto* page = new OpStatsView;
        tabs.addTab(page, QStringLiteral("op stats"));
        tabs.resize(900, 600);
        tabs.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tabs));
        JobRunner::shared().holdBackground();  // it stays queued
        page->setTrace(trace_);
        QCOMPARE(page->state(), AnalysisView::State::Queued);
        setLimit("1M");
        tabs.setCurrentWidget(page);
        JobRunner::shared().releaseBackground();
        QCOMPARE(page->state(), AnalysisView::State::Skipped);
        QVERIFY2(page->statusText().contains(QStringLiteral("PyTorch ops was not run")), qPrintable(page->statusText()));
        QSignalSpy ready(page, &AnalysisView::resultReady);
        QVERIFY(page->pressStatusButton());  // Run anyway
        QVERIFY(ready.wait(20000));
        QCOMPARE(page->state(), AnalysisView::State::Done);
    }

    // The timeline's derived tracks (memory and queue lengths, GPU idle marks, communication
    // overlap) are admitted as pages are: under a budget none of them fits, the index still
    // comes, none of their results is computed, and a note above the tracks names them with
    // both figures. With room, the same trace gets them.
    void timelineDerivedTracksAdmittedLikePages() {
        setLimit("1M");
        {
            // Held here, as the pages hold it in the window: a timeline alone does not keep it.
            std::shared_ptr<ResultStore> store = ResultStore::of(trace_);
            TimelineView view;
            view.setTrace(trace_);
            view.waitUntilReady();
            QVERIFY(view.isReady());
            const QString note = view.note();
            QVERIFY2(note.contains(QStringLiteral("Not computed, for lack of memory: memory and queue-length tracks, "
                                                  "GPU idle marks, communication overlap")),
                     qPrintable(note));
            QVERIFY2(note.contains(QStringLiteral("1.0 MB is free for analyses (TRACESCOPE_MEMORY_LIMIT)")),
                     qPrintable(note));
            QCOMPARE(store->computations(kMemoryProfileKey.name), uint64_t(0));
            QCOMPARE(store->computations(kClassificationKey.name), uint64_t(0));
        }
        qunsetenv("TRACESCOPE_MEMORY_LIMIT");
        std::shared_ptr<ResultStore> store = ResultStore::of(trace_);
        TimelineView view;
        view.setTrace(trace_);
        view.waitUntilReady();
        QCOMPARE(view.note(), QString());
        QCOMPARE(store->computations(kMemoryProfileKey.name), uint64_t(1));
        QCOMPARE(store->computations(kClassificationKey.name), uint64_t(1));
    }

    // Cancel, then Run again; a new trace cancels the old one's analysis.
    void cancelAndRunAgain() {
        KernelStatsView view;
        QSignalSpy ready(&view, &AnalysisView::resultReady);
        view.setTrace(trace_);
        QVERIFY(view.isComputing());
        QVERIFY(view.pressStatusButton());  // Cancel
        QCOMPARE(view.state(), AnalysisView::State::Cancelled);
        QVERIFY(!view.isComputing());
        QVERIFY2(view.statusText().contains(QStringLiteral("cancelled")), qPrintable(view.statusText()));
        QTest::qWait(200);
        QCOMPARE(ready.count(), 0);  // the cancelled run's result, if any, is dropped
        QCOMPARE(view.result(), nullptr);

        QVERIFY(view.pressStatusButton());  // Run again
        QVERIFY(ready.wait(20000));
        QCOMPARE(view.state(), AnalysisView::State::Done);
        QCOMPARE(view.result()->kernelCount, size_t(3));
        QTRY_COMPARE(JobRunner::shared().reserved(), uint64_t(0));
    }
};

QTEST_MAIN(AnalysisAdmissionTest)
#include "tst_analysis_admission.moc"
