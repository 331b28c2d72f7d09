// The Flame Graph page lays out the store's call trees: on the with_stack=True PyTorch fixture its
// graph draws the store's tree, the Code tab lists the Python frames, search marks frames, bottom-up
// and pivot switch trees, a double click highlights a frame's slices in the timeline, and both
// exports write files; a trace without Python frames says so on the Code tab. The figures
// themselves are checked against a stdlib recomputation and pprof elsewhere (cli_flame_exact,
// peers_pprof).
#include "model/export/call_stack_export.h"
#include "model/import/import.h"
#include "model/results/call_tree_results.h"
#include "views/flame/flame_graph_widget.h"
#include "views/flame/flame_view.h"
#include "views/flame/range_flame_panel.h"
#include "views/tables/table_page.h"
#include "views/trace_selection.h"

#include <QFile>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace tracescope;

namespace {

std::shared_ptr<const Trace> load(const std::string& path) {
    ImportResult r = importTrace(path);
    return r.ok() ? std::shared_ptr<const Trace>(std::move(r.trace)) : nullptr;
}

bool finished(const FlameView& v) {
    return v.state() != AnalysisView::State::Queued && v.state() != AnalysisView::State::Running;
}

}  // namespace

class FlameViewTest : public QObject {
    Q_OBJECT
private slots:
    void showsTheStoreTrees() {
        auto trace = load(std::string(TRACESCOPE_SOURCE_DIR) + "/tests/data/peers/torch_cpu_ops.json.gz");
        QVERIFY(trace);
        FlameView page;
        page.resize(1280, 800);
        page.show();
        TraceSelection selection;
        page.setSelection(&selection);
        page.setTrace(trace);
        QVERIFY(QTest::qWaitFor([&] { return finished(page); }, 60000));
        QCOMPARE(page.state(), AnalysisView::State::Done);
        const FlameView::Computed* c = page.computed();
        QVERIFY(c && c->topDown && c->bottomUp);
        // The page's trees are the store's.
        QCOMPARE(c->topDown.get(), callTreeOf(*ResultStore::of(trace)).get());
        QCOMPARE(page.graph()->tree(), c->topDown.get());
        QVERIFY(!page.graph()->layout().rects.empty());
        QCOMPARE(page.graph()->layout().focusValue, c->topDown->root().totalNs);
        // Code tab: one row per Python frame name.
        const auto pythonFrames =
            std::count_if(c->frames.begin(), c->frames.end(), [](const CallFrameRow& r) { return r.python; });
        QVERIFY(pythonFrames > 0);
        QVERIFY(!page.codeViewEmpty());
        QCOMPARE(page.codeTable()->view()->model()->rowCount(), int(pythonFrames));
        QCOMPARE(page.framesTable()->view()->model()->rowCount(), int(c->frames.size()));

        // Search: the matched frames are marked and their share named.
        page.setSearch(QStringLiteral("convolution_backward"));
        const auto& rects = page.graph()->layout().rects;
        QVERIFY(std::any_of(rects.begin(), rects.end(), [](const FlameRect& r) { return r.match; }));
        QVERIFY(page.graph()->matchSummary().startsWith(QStringLiteral("Matched")));
        page.setSearch({});

        // Zoom: a frame spans the width once focused.
        const uint32_t first = c->topDown->root().children.front();
        page.graph()->setFocusNode(first);
        QCOMPARE(page.graph()->layout().focusValue, c->topDown->nodes[first].totalNs);
        page.graph()->setFocusNode(kCallRoot);

        // Bottom-up shows the inverted tree.
        page.setBottomUp(true);
        QCOMPARE(page.graph()->tree(), c->bottomUp.get());
        page.setBottomUp(false);

        // Pivot on a frame that occurs in several stacks: callers and callees.
        page.pivotOn(QStringLiteral("aten::mm"));
        QVERIFY(page.calleesGraph()->tree() && page.callersGraph()->tree());
        QVERIFY(page.callersGraph()->tree()->bottomUp);
        QCOMPARE(page.calleesGraph()->tree()->nodes[page.calleesGraph()->tree()->root().children.front()].name,
                 std::string_view("aten::mm"));
        page.pivotOn({});

        // A double click on a frame highlights its slices in the timeline (found on the runner).
        std::vector<SliceRef> highlighted;
        connect(&selection, &TraceSelection::slicesHighlighted, this,
                [&](std::vector<SliceRef> slices, QString) { highlighted = std::move(slices); });
        emit page.graph()->frameActivated(first);
        QVERIFY(QTest::qWaitFor([&] { return !highlighted.empty(); }, 30000));
        QCOMPARE(highlighted.size(), size_t(c->topDown->nodes[first].count));

        // Exports: folded stacks equal the model's, the pprof file is gzip.
        QTemporaryDir dir;
        QString error;
        const QString folded = dir.filePath(QStringLiteral("stacks.folded"));
        QVERIFY2(page.exportFolded(folded, &error), qPrintable(error));
        QFile f(folded);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().toStdString(), foldedStacks(*c->topDown, CallMetric::Self));
        const QString pprof = dir.filePath(QStringLiteral("profile.pb.gz"));
        QVERIFY2(page.exportPprof(pprof, &error), qPrintable(error));
        QFile p(pprof);
        QVERIFY(p.open(QIODevice::ReadOnly));
        QCOMPARE(p.read(2), QByteArray("\x1f\x8b"));
    }

    // The details dock's flame graph of a range selection: the store's tree for that range.
    void rangePanelShowsTheRangesTree() {
        auto trace = load(std::string(TRACESCOPE_SOURCE_DIR) + "/tests/data/peers/torch_cpu_ops.json.gz");
        QVERIFY(trace);
        RangeFlamePanel panel;
        panel.resize(1000, 300);
        panel.show();
        TraceSelection selection;
        panel.setSelection(&selection);
        panel.setTrace(trace);
        const auto store = ResultStore::of(trace);  // held, as the main window holds it
        const TimeNs begin = trace->spanNs() / 4, end = trace->spanNs() / 2;
        panel.showRange(begin, end);
        panel.waitForTrees();
        QVERIFY(QTest::qWaitFor([&] { return panel.graph()->tree() != nullptr; }, 30000));
        CallTreeOptions o;
        o.range = std::make_pair(begin, end);
        const auto expected = callTreeOf(*store, o);
        QCOMPARE(store->computations(kCallTreeName), uint64_t(1));
        QCOMPARE(panel.graph()->tree(), expected.get());
        QVERIFY(expected->slices > 0);
        QVERIFY(expected->root().totalNs <= end - begin);  // one thread: never more than the range
        QVERIFY(panel.statusText().contains(QStringLiteral("host slices in the range")));
        std::vector<SliceRef> highlighted;
        connect(&selection, &TraceSelection::slicesHighlighted, this,
                [&](std::vector<SliceRef> slices, QString) { highlighted = std::move(slices); });
        const uint32_t first = expected->root().children.front();
        emit panel.graph()->frameActivated(first);
        QVERIFY(QTest::qWaitFor([&] { return !highlighted.empty(); }, 30000));
        QCOMPARE(highlighted.size(), size_t(expected->nodes[first].count));
    }

    // One step: the tree of the step's range, from the store.
    void showsOneStep() {
        auto trace = load(std::string(TRACESCOPE_SOURCE_DIR) + "/tests/data/peers/torch_cpu_ops.json.gz");
        QVERIFY(trace);
        const auto store = ResultStore::of(trace);
        FlameView page;
        page.resize(1280, 800);
        page.show();
        page.setTrace(trace);
        QVERIFY(QTest::qWaitFor([&] { return finished(page); }, 60000));
        const StepsResult& steps = page.computed()->steps;
        QVERIFY(!steps.steps.empty());  // ProfilerStep#2..#4
        const Step& step = steps.steps.back();
        page.showStep(step.number);
        QVERIFY(QTest::qWaitFor([&] { return finished(page) && page.computed()->stepNumber; }, 60000));
        CallTreeOptions o;
        o.range = std::make_pair(step.startNs, step.endNs());
        QCOMPARE(page.graph()->tree(), callTreeOf(*store, o).get());
        QVERIFY(page.summaryText().startsWith(QStringLiteral("Step %1").arg(step.number)));
        page.showStep(std::nullopt);
        QVERIFY(QTest::qWaitFor([&] { return finished(page) && !page.computed()->stepNumber; }, 60000));
        QCOMPARE(page.graph()->tree(), callTreeOf(*store).get());
    }

    void saysWhenThereIsNoPythonFrame() {
        auto trace = load(std::string(TRACESCOPE_SHARED_DIR) + "/testdata/public/hta/sampled_rank-0.json.gz");
        if (!trace) QSKIP("../shared is not beside the checkout");
        FlameView page;
        page.resize(1280, 800);
        page.show();
        page.setTrace(trace);
        QVERIFY(QTest::qWaitFor([&] { return finished(page); }, 60000));
        QCOMPARE(page.state(), AnalysisView::State::Done);
        QVERIFY(page.codeViewEmpty());
        QVERIFY(page.summaryText().contains(QStringLiteral("no Python frames")));
        // Device time reaches the frames that launched it.
        QVERIFY(page.computed()->topDown->root().deviceNs > 0);
    }
};

QTEST_MAIN(FlameViewTest)
#include "tst_flame_view.moc"
