// The GPU Utilization page lays out the store's results: on the torch 2.11 H100 trace (one GPU,
// one stream) its tables hold the GPU, stream, launch and API rows those results have, its
// summary quotes their figures, and a CPU-only trace gets the analysis' reason instead of tables.
// The figures themselves are checked against HTA and a stdlib script elsewhere (peers_hta,
// cli_gpu_util_exact, cli_cuda_api_nsys_sums).
#include "model/import/import.h"
#include "model/results/critical_path_results.h"
#include "model/results/gpu_advice_results.h"
#include "model/results/gpu_util_results.h"
#include "views/gpu/gpu_util_view.h"
#include "views/tables/analysis_table_model.h"
#include "views/tables/table_page.h"
#include "views/tables/value_format.h"
#include "views/trace_selection.h"

#include <QTableView>
#include <QtTest>

using namespace tracescope;

namespace {

std::shared_ptr<const Trace> load(const char* relative) {
    ImportResult r = importTrace(std::string(TRACESCOPE_SHARED_DIR) + "/testdata/" + relative);
    return r.ok() ? std::shared_ptr<const Trace>(std::move(r.trace)) : nullptr;
}

bool finished(const GpuUtilView& v) {
    return v.state() != AnalysisView::State::Queued && v.state() != AnalysisView::State::Running;
}

}  // namespace

class GpuUtilViewTest : public QObject {
    Q_OBJECT
private slots:
    void showsTheStoreResults() {
        auto trace = load("gpu/torch2.11_cu130_h100_kineto_trace.json.gz");
        QVERIFY(trace);
        GpuUtilView page;
        page.resize(1280, 800);
        page.show();
        page.setTrace(trace);
        QVERIFY(QTest::qWaitFor([&] { return finished(page); }, 60000));
        QCOMPARE(page.state(), AnalysisView::State::Done);
        const GpuUtilView::Computed* c = page.computed();
        QVERIFY(c && c->gpus && c->launches && c->queues && c->api);
        // The page's result is the store's, not a copy computed again.
        QCOMPARE(c->gpus.get(), gpuUtilizationOf(*ResultStore::of(trace)).get());
        QCOMPARE(c->gpus->gpus.size(), size_t(1));
        QCOMPARE(page.streamsTable()->view()->model()->rowCount(), int(c->gpus->gpus[0].streams.size()));
        const GpuUtilization& gpu = c->gpus->gpus[0];
        QVERIFY(page.summaryText().contains(formatPercent(gpu.percentOfWindow(gpu.idleNs))));
        QVERIFY(page.summaryText().contains(formatCount(qint64(c->launches->rows.size())) + QStringLiteral("</b> launches")));
        // The Advice tab: the store's advice, a row per finding, its sentences above; a double
        // click highlights the finding's slices (the host's work in a gap first).
        QCOMPARE(c->advice.get(), gpuAdviceOf(*ResultStore::of(trace)).get());
        QVERIFY(!c->advice->findings.empty());
        QCOMPARE(page.adviceTable()->view()->model()->rowCount(), int(c->advice->findings.size()));
        QVERIFY(page.adviceText().contains(QStringLiteral("pageable host memory")));
        TraceSelection selection;
        page.setSelection(&selection);
        std::vector<SliceRef> highlighted;
        connect(&selection, &TraceSelection::slicesHighlighted, this,
                [&](std::vector<SliceRef> slices, QString) { highlighted = std::move(slices); });
        const AdviceFinding* gap = nullptr;
        int gapRow = -1;
        for (size_t i = 0; i < c->advice->findings.size() && !gap; ++i)
            if (c->advice->findings[i].rule == AdviceRule::GpuGap && !c->advice->findings[i].host.empty())
                gap = &c->advice->findings[i], gapRow = int(i);
        QVERIFY(gap);
        emit page.adviceTable()->sourceRowActivated(gapRow);
        QCOMPARE(highlighted.size(), gap->host.size() + gap->slices.size());
        QVERIFY(highlighted.front() == gap->host.front().slice);
        // The Critical path tab: a row per step (the store's paths); a double click highlights
        // the path's events in the timeline.
        QCOMPARE(c->paths.get(), criticalPathsOf(*ResultStore::of(trace)).get());
        QCOMPARE(page.pathsTable()->view()->model()->rowCount(), int(c->paths->paths.size()));
        QVERIFY(!c->paths->paths.empty() && !c->paths->paths[0].events.empty());
        emit page.pathsTable()->sourceRowActivated(0);
        QVERIFY(highlighted == c->paths->paths[0].events);
        // The Launches tab's outliers: a row per launch with one of HTA's outlier kinds (16 short
        // kernels, 10 long calls, 5 long delays on this trace, some launches more than one); a
        // double click highlights the call and its work. The first row shown is the longest call
        // (the earliest of equals), its name in the call column.
        std::vector<const LaunchRow*> outliers;
        const LaunchRow* longest = nullptr;
        for (const LaunchRow& r : c->launches->rows)
            if (r.outliers) {
                outliers.push_back(&r);
                if (!longest || r.cpuDurationNs > longest->cpuDurationNs) longest = &r;
            }
        QVERIFY(outliers.size() >= 16);
        QAbstractItemModel* shown = page.outliersTable()->view()->model();
        QCOMPARE(shown->rowCount(), int(outliers.size()));
        QCOMPARE(shown->index(0, 3).data(AnalysisTableModel::SortRole).toLongLong(), qint64(longest->cpuDurationNs));
        for (int r = 1; r < shown->rowCount(); ++r)
            QVERIFY(shown->index(r, 3).data(AnalysisTableModel::SortRole).toLongLong() <=
                    shown->index(r - 1, 3).data(AnalysisTableModel::SortRole).toLongLong());
        emit page.outliersTable()->sourceRowActivated(0);
        QVERIFY(highlighted == (std::vector<SliceRef>{longest->call, longest->activity}));
    }

    void cpuOnlyTraceSaysWhy() {
        auto trace = load("public/catapult/simple_trace.json");
        QVERIFY(trace);
        GpuUtilView page;
        page.show();
        page.setTrace(trace);
        QVERIFY(QTest::qWaitFor([&] { return finished(page); }, 60000));
        QVERIFY(page.computed() && page.computed()->gpus->gpus.empty());
        QVERIFY(page.statusText().contains(QStringLiteral("No kernels"), Qt::CaseInsensitive));
    }
};

QTEST_MAIN(GpuUtilViewTest)
#include "tst_gpu_util_view.moc"
