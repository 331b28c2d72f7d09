// The analysis pages on a hand-built training trace (view_test_traces.h): each table
// model passes QAbstractItemModelTester, shows the analysis rows with the numbers worked
// out by hand from the trace, exports CSV equal to its rows, highlights the right
// SliceRefs on double-click and selects the row of a slice selected elsewhere.
#include "view_test_traces.h"

#include "model/import/import.h"
#include "model/trace/trace_builder.h"

#include "views/charts/pie_chart.h"
#include "views/charts/stacked_column_chart.h"
#include "views/overview/overview_view.h"
#include "views/pipeline/input_pipeline_view.h"
#include "views/tables/kernel_stats_view.h"
#include "views/tables/op_stats_view.h"
#include "views/tables/scope_tree_model.h"
#include "views/tables/scope_tree_view.h"
#include "views/tables/table_filter_proxy.h"
#include "views/tables/table_page.h"
#include "views/tables/torch_ops_table.h"
#include "views/trace_selection.h"
#include "views/view_catalog.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QLabel>
#include <QComboBox>
#include <QLineEdit>
#include <QTableView>
#include <QTreeView>
#include <QtTest>

using namespace tracescope;
using namespace tracescope::testing;

Q_DECLARE_METATYPE(std::vector<tracescope::SliceRef>)

namespace {

bool waitForResult(AnalysisView& view, const std::shared_ptr<const Trace>& trace) {
    QSignalSpy ready(&view, &AnalysisView::resultReady);
    view.setTrace(trace);
    return ready.wait(20000) && !view.isComputing();
}

// Op Stats in XProf's convention (Chrome JSON traces open in PyTorch's key_averages mode).
bool waitForXProfResult(OpStatsView& view, const std::shared_ptr<const Trace>& trace) {
    if (!waitForResult(view, trace)) return false;
    QSignalSpy ready(&view, &AnalysisView::resultReady);
    view.setConvention(OpStatsView::Convention::XProf);
    return ready.wait(20000) && !view.isComputing();
}

// Source row whose column `col` shows `text`, or -1.
int findRow(const QAbstractItemModel& model, int col, const QString& text) {
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.index(r, col).data().toString() == text) return r;
    return -1;
}

qint64 raw(const QAbstractItemModel& model, int row, int col) {
    return model.index(row, col).data(AnalysisTableModel::SortRole).toLongLong();
}

// Double-clicks the view row showing source row `sourceRow`.
void doubleClickSourceRow(TablePage& page, int sourceRow) {
    QModelIndex index = page.proxy()->mapFromSource(page.proxy()->sourceModel()->index(sourceRow, 0));
    QVERIFY(index.isValid());
    page.view()->scrollTo(index);
    const QPoint at = page.view()->visualRect(index).center();
    QTest::mousePress(page.view()->viewport(), Qt::LeftButton, {}, at);  // Qt 6 mouseDClick sends no press
    QTest::mouseDClick(page.view()->viewport(), Qt::LeftButton, {}, at);
}

std::vector<SliceRef> highlighted(const QSignalSpy& spy) {
    return spy.isEmpty() ? std::vector<SliceRef>{} : spy.last()[0].value<std::vector<SliceRef>>();
}

}  // namespace

class AnalysisViewsTest : public QObject {
    Q_OBJECT
    std::shared_ptr<const Trace> trace_;

private slots:
    void initTestCase() {
        qRegisterMetaType<std::vector<SliceRef>>();
        trace_ = makeKinetoTrainingTrace();
        QCOMPARE(trace_->tracks[kHostTrack].slices.size(), size_t(10));
        QCOMPARE(trace_->str(trace_->tracks[kHostTrack].slices.name[3]), std::string_view("aten::mm"));
        QCOMPARE(trace_->str(trace_->tracks[kGpuTrack].slices.name[1]), std::string_view("relu_kernel"));
    }

    void catalogListsTheViews() {
        QStringList ids;
        for (const ViewFactory& f : analysisViewFactories()) {
            ids << f.id;
            std::unique_ptr<TraceView> v(f.create(nullptr));
            QVERIFY(v != nullptr);
            QVERIFY(!f.title.isEmpty());
        }
        QCOMPARE(ids, (QStringList{"overview", "op-stats", "kernel-stats", "gpu-util", "collectives", "xla-ops", "flame", "input-pipeline", "memory", "tf-data", "scopes", "pod", "compare", "query"}));
    }

    void opStatsDeviceAndHost() {
        OpStatsView view;
        TraceSelection selection;
        view.setSelection(&selection);
        view.resize(1400, 900);
        view.show();
        QVERIFY(waitForXProfResult(view, trace_));
        auto& model = *view.model();
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(view.table()->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(view.side(), OpSide::Device);

        // Device: kernels attributed to the cpu_op enclosing their launch.
        // aten::mm: sgemm 150 + 100 ns; aten::relu: relu_kernel 20 ns; plus IDLE.
        QCOMPARE(model.rowCount(), 3);
        int mm = findRow(model, OpStatsView::Name, "aten::mm");
        int relu = findRow(model, OpStatsView::Name, "aten::relu");
        QVERIFY(mm >= 0 && relu >= 0);
        QCOMPARE(raw(model, mm, OpStatsView::Occurrences), 2);
        QCOMPARE(raw(model, mm, OpStatsView::Total), 250);
        QCOMPARE(raw(model, mm, OpStatsView::Min), 100);
        QCOMPARE(raw(model, mm, OpStatsView::Max), 150);
        QCOMPARE(raw(model, mm, OpStatsView::Avg), 125);
        QCOMPARE(raw(model, mm, OpStatsView::TotalSelf), 250);
        QCOMPARE(raw(model, relu, OpStatsView::Total), 20);
        QCOMPARE(model.index(mm, OpStatsView::Total).data().toString(), QString("250 ns"));
        // Every model row shows its analysis row.
        const OpStatsResult& r = *view.result();
        for (int i = 0; i < model.rowCount(); ++i) {
            const OpStatsRow& row = r.rows[model.row(i).resultIndex];
            QCOMPARE(model.index(i, OpStatsView::Name).data().toString(), QString::fromStdString(row.name));
            QCOMPARE(raw(model, i, OpStatsView::TotalSelf), row.selfNs);
            QCOMPARE(model.index(i, OpStatsView::SelfPct).data(AnalysisTableModel::SortRole).toDouble(), row.selfPercent);
        }
        QVERIFY(view.opPie()->sliceCount() >= 2);
        QVERIFY(view.typePie()->sliceCount() >= 1);

        // Double-click aten::mm: both sgemm launches on the GPU stream.
        QSignalSpy spy(&selection, &TraceSelection::slicesHighlighted);
        doubleClickSourceRow(*view.table(), mm);
        QCOMPARE(spy.size(), 1);
        QCOMPARE(highlighted(spy), (std::vector<SliceRef>{{kGpuTrack, 0}, {kGpuTrack, 2}}));
        QVERIFY(spy.last()[1].toString().contains("aten::mm"));
        // IDLE has no slices: nothing is highlighted.
        doubleClickSourceRow(*view.table(), findRow(model, OpStatsView::Name, "IDLE"));
        QCOMPARE(spy.size(), 1);

        // A slice selected in the timeline selects its row.
        selection.selectSlice({kGpuTrack, 1});
        QCOMPARE(view.table()->currentSourceRow(), relu);
        // A host op switches the side and selects the host row.
        selection.selectSlice({kHostTrack, 8});
        QCOMPARE(view.side(), OpSide::Host);
        int hostMm = findRow(model, OpStatsView::Name, "aten::mm");
        QCOMPARE(view.table()->currentSourceRow(), hostMm);
        // Host: aten::mm 300 + 200 ns, self = total (the runtime calls inside are not ops).
        QCOMPARE(raw(model, hostMm, OpStatsView::Occurrences), 2);
        QCOMPARE(raw(model, hostMm, OpStatsView::Total), 500);
        QCOMPARE(raw(model, hostMm, OpStatsView::TotalSelf), 500);
        QCOMPARE(raw(model, findRow(model, OpStatsView::Name, "aten::relu"), OpStatsView::Total), 100);
        doubleClickSourceRow(*view.table(), hostMm);
        QCOMPARE(highlighted(spy), (std::vector<SliceRef>{{kHostTrack, 3}, {kHostTrack, 8}}));

        // Without IDLE the row disappears and the grouping change recomputes.
        QSignalSpy ready(&view, &AnalysisView::resultReady);
        view.idleBox()->setChecked(false);
        QVERIFY(ready.wait(20000));
        QCOMPARE(findRow(model, OpStatsView::Name, "IDLE"), -1);
        QCOMPARE(model.rowCount(), 2);
    }

    // A Chrome JSON trace opens in PyTorch's convention. By hand (view_test_traces.h):
    // aten::mm 2 calls, CPU total 300 + 200, Self CPU 470 (minus its launches 20 + 10),
    // Self CUDA 150 + 100; ProfilerStep#1 and #2 make the row "ProfilerStep*" as in torch's
    // table, Self CPU (1000 - 30 - 400 - 100) + (1000 - 200) = 1270 (the nn.Module python frame
    // [50,450) is a node of torch's tree: aten::mm is its child, not the step's); the sgemm
    // kernel is a device row of 250.
    // XProf's op-name rule on tests/data/xprof_send_recv.xplane.pb (figures in tst_xprof_op_rule):
    // the host table has no _send/_recv row and the page says why, on both sides.
    void opStatsNotesXprofOpNameRule() {
        ImportResult imported = importTrace(std::string(TRACESCOPE_SOURCE_DIR) + "/tests/data/xprof_send_recv.xplane.pb");
        QVERIFY(imported.ok());
        const std::shared_ptr<const Trace> trace(std::move(imported.trace));
        OpStatsView view;
        view.resize(1400, 900);
        view.show();
        QVERIFY(waitForResult(view, trace));
        QCOMPARE(view.convention(), OpStatsView::Convention::XProf);
        auto noteShown = [&] {
            for (const QLabel* l : view.findChildren<QLabel*>())
                if (l->isVisible() && l->text().contains(QStringLiteral("Left out as XProf leaves them out: 4 host events")))
                    return true;
            return false;
        };
        QCOMPARE(view.side(), OpSide::Device);
        QVERIFY(findRow(*view.model(), OpStatsView::Name, "_send_y_0:_Send") >= 0);  // device copy kept
        QVERIFY(noteShown());
        view.sideBox()->setCurrentIndex(view.sideBox()->findData(int(OpSide::Host)));
        QCOMPARE(view.side(), OpSide::Host);
        QCOMPARE(view.model()->rowCount(), 3);  // MatMul, IDLE, n/_1
        QVERIFY(findRow(*view.model(), OpStatsView::Name, "n/_1") >= 0);
        QVERIFY(noteShown());
    }

    void opStatsPyTorchConvention() {
        OpStatsView view;
        TraceSelection selection;
        view.setSelection(&selection);
        view.resize(1400, 900);
        view.show();
        QVERIFY(waitForResult(view, trace_));
        QCOMPARE(view.convention(), OpStatsView::Convention::PyTorch);
        QVERIFY(view.torchResult());
        auto& model = *view.torchTable()->model();
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const int mm = findRow(model, TorchOpsTable::Name, "aten::mm");
        const int step = findRow(model, TorchOpsTable::Name, "ProfilerStep*");
        const int sgemm = findRow(model, TorchOpsTable::Name, "volta_sgemm_128x64_nn");
        QVERIFY(mm >= 0 && step >= 0 && sgemm >= 0);
        QCOMPARE(raw(model, mm, TorchOpsTable::Calls), 2);
        QCOMPARE(raw(model, mm, TorchOpsTable::CpuTotal), 500);
        QCOMPARE(raw(model, mm, TorchOpsTable::SelfCpu), 470);
        QCOMPARE(raw(model, mm, TorchOpsTable::SelfCuda), 250);
        QCOMPARE(raw(model, step, TorchOpsTable::SelfCpu), 1270);
        QCOMPARE(raw(model, step, TorchOpsTable::Calls), 2);
        QCOMPARE(raw(model, sgemm, TorchOpsTable::SelfCuda), 250);
        QCOMPARE(raw(model, sgemm, TorchOpsTable::CpuTotal), 0);
        // Names follow View > Short Names as in the other tables (full in tooltip and CSV).
        QVERIFY(model.column(TorchOpsTable::Name).names);

        // Double-click aten::mm: its two calls on the host thread.
        QSignalSpy spy(&selection, &TraceSelection::slicesHighlighted);
        doubleClickSourceRow(*view.torchTable()->table(), mm);
        QCOMPARE(spy.size(), 1);
        QCOMPARE(highlighted(spy), (std::vector<SliceRef>{{kHostTrack, 3}, {kHostTrack, 8}}));
        // A launch selected in the timeline selects the cudaLaunchKernel row.
        selection.selectSlice({kHostTrack, 6});
        QCOMPARE(view.torchTable()->table()->currentSourceRow(), findRow(model, TorchOpsTable::Name, "cudaLaunchKernel"));

        // Grouping by shape recomputes; this trace has no "Input Dims", so the box is off.
        QVERIFY(!view.torchTable()->groupByShapeBox()->isEnabled());
        // Back to XProf's convention: its table fills.
        QSignalSpy ready(&view, &AnalysisView::resultReady);
        view.setConvention(OpStatsView::Convention::XProf);
        QVERIFY(ready.wait(20000));
        QVERIFY(view.model()->rowCount() > 0);
    }

    void opStatsCsvMatchesRows() {
        OpStatsView view;
        QVERIFY(waitForXProfResult(view, trace_));
        TablePage& page = *view.table();
        const QString csv = page.csv();
        QStringList lines = csv.split("\r\n", Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), page.proxy()->rowCount() + 1);
        QVERIFY(lines[0].startsWith("Rank,Type,Operation,Occurrences,Total time"));
        for (int r = 0; r < page.proxy()->rowCount(); ++r) {
            QStringList cells;
            for (int c = 0; c < page.proxy()->columnCount(); ++c)
                if (!page.view()->isColumnHidden(c)) cells << page.proxy()->index(r, c).data().toString();
            QCOMPARE(lines[r + 1], cells.join(","));
        }
        page.filterBox()->setText("relu");
        QCOMPARE(page.csv().split("\r\n", Qt::SkipEmptyParts).size(), 2);
    }

    void kernelStats() {
        KernelStatsView view;
        TraceSelection selection;
        view.setSelection(&selection);
        view.resize(1400, 900);
        view.show();
        QVERIFY(waitForResult(view, trace_));
        auto& model = *view.model();
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 2);
        const int sgemm = findRow(model, KernelStatsView::Kernel, "volta_sgemm_128x64_nn");
        QCOMPARE(sgemm, 0);  // largest total first
        QCOMPARE(raw(model, sgemm, KernelStatsView::Occurrences), 2);
        QCOMPARE(raw(model, sgemm, KernelStatsView::Total), 250);
        QCOMPARE(raw(model, sgemm, KernelStatsView::Avg), 125);
        QCOMPARE(raw(model, sgemm, KernelStatsView::Min), 100);
        QCOMPARE(raw(model, sgemm, KernelStatsView::Max), 150);
        QCOMPARE(raw(model, sgemm, KernelStatsView::Registers), 64);
        QCOMPARE(raw(model, sgemm, KernelStatsView::SharedMem), 4096);
        QCOMPARE(model.index(sgemm, KernelStatsView::SharedMem).data().toString(), QString("4.00 KiB"));
        QCOMPARE(model.index(sgemm, KernelStatsView::Grid).data().toString(), QString("64,1,1"));
        QCOMPARE(model.index(sgemm, KernelStatsView::Block).data().toString(), QString("128,1,1"));
        QCOMPARE(model.index(sgemm, KernelStatsView::Op).data().toString(), QString("aten::mm"));
        QCOMPARE(model.index(1, KernelStatsView::Op).data().toString(), QString("aten::relu"));

        // Filter by op name (a second filter column).
        view.table()->filterBox()->setText("aten::relu");
        QCOMPARE(view.table()->proxy()->rowCount(), 1);
        QStringList csv = view.table()->csv().split("\r\n", Qt::SkipEmptyParts);
        QCOMPARE(csv.size(), 2);
        QVERIFY(csv[1].startsWith("2,relu_kernel,16,0 B,\"256,1,1\",\"8,1,1\""));
        view.table()->filterBox()->clear();

        QSignalSpy spy(&selection, &TraceSelection::slicesHighlighted);
        doubleClickSourceRow(*view.table(), sgemm);
        QCOMPARE(highlighted(spy), (std::vector<SliceRef>{{kGpuTrack, 0}, {kGpuTrack, 2}}));
        selection.selectSlice({kGpuTrack, 1});
        QCOMPARE(view.table()->currentSourceRow(), 1);
        selection.selectSlice({kHostTrack, 0});  // not a kernel: the selection stays
        QCOMPARE(view.table()->currentSourceRow(), 1);
    }

    void overview() {
        OverviewView view;
        view.resize(1400, 900);
        QVERIFY(waitForResult(view, trace_));
        const Overview& o = *view.result();
        // Two ProfilerStep#N markers of 1000 ns each.
        QCOMPARE(o.steps.steps.size(), size_t(2));
        QVERIFY(view.summaryField("Steps").startsWith("2 "));
        QVERIFY(view.summaryField("Average step time").startsWith("1.00 µs"));
        QCOMPARE(view.summaryField("Devices"), QString("1"));
        QVERIFY(view.stepChart()->seriesCount() >= 1);
        auto& top = *view.topOpsModel();
        QAbstractItemModelTester tester(&top, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(top.rowCount(), int(o.topDeviceOps.size()));
        QCOMPARE(top.index(0, 0).data().toString(), QString("aten::mm"));
        QCOMPARE(raw(top, 0, 2), 250);
    }

    void inputPipeline() {
        InputPipelineView view;
        TraceSelection selection;
        view.setSelection(&selection);
        view.resize(1400, 900);
        view.show();
        QVERIFY(waitForResult(view, trace_));
        auto& ops = *view.opsModel();
        QAbstractItemModelTester tester(&ops, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(view.deviceStatsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t3(view.hostCategoryModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(ops.rowCount(), 1);  // the DataLoader annotation, 30 ns
        QVERIFY(ops.index(0, InputPipelineView::Name).data().toString().startsWith("enumerate(DataLoader)"));
        QCOMPARE(ops.index(0, InputPipelineView::Category).data().toString(), QString("Preprocessing"));
        QCOMPARE(raw(ops, 0, InputPipelineView::Count), 1);
        QCOMPARE(raw(ops, 0, InputPipelineView::Total), 30);
        // Wait time and wait % over the 2 steps, then one row per step-time category with time.
        auto& stats = *view.deviceStatsModel();
        QVERIFY(stats.rowCount() >= 3);
        QCOMPARE(stats.index(0, 0).data().toString(), QString("Input wait time"));
        QCOMPARE(stats.index(1, 0).data().toString(), QString("Input wait % (per-step mean)"));
        QVERIFY(stats.index(1, 1).data().toString().endsWith("%"));
        QVERIFY(findRow(stats, 0, "Device compute") >= 2);
        QVERIFY(stats.index(findRow(stats, 0, "Device compute"), 5).data().toString().endsWith("%"));
        QCOMPARE(view.hostCategoryModel()->rowCount(), 4);
        QSignalSpy spy(&selection, &TraceSelection::slicesHighlighted);
        doubleClickSourceRow(*view.opsTable(), 0);
        QCOMPARE(highlighted(spy), (std::vector<SliceRef>{{kHostTrack, 1}}));
        view.opsTable()->view()->clearSelection();
        selection.selectSlice({kHostTrack, 1});
        QCOMPARE(view.opsTable()->currentSourceRow(), 0);
    }

    void scopeTree() {
        ScopeTreeView view;
        TraceSelection selection;
        view.setSelection(&selection);
        view.resize(1400, 900);
        view.show();
        QVERIFY(waitForResult(view, trace_));
        QAbstractItemModelTester tester(view.treeModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(view.treeProxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester opTester(view.opModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const ScopeTree& tree = *view.treeModel()->tree();
        // The model shows the tree: top-level rows are the root's children, in order.
        QCOMPARE(view.treeModel()->rowCount(), int(tree.nodes[0].children.size()));
        for (int r = 0; r < view.treeModel()->rowCount(); ++r) {
            QModelIndex idx = view.treeModel()->index(r, ScopeTreeModel::Scope);
            const ScopeNode& n = tree.nodes[view.treeModel()->nodeOf(idx)];
            QCOMPARE(idx.data().toString(), QString::fromStdString(n.name));
            QCOMPARE(view.treeModel()->index(r, ScopeTreeModel::Total).data(AnalysisTableModel::SortRole).toLongLong(),
                     n.totalNs);
        }
        // Op view: aten::mm 2 occurrences, 500 ns; aten::relu 1, 100 ns.
        auto& ops = *view.opModel();
        int mm = findRow(ops, ScopeTreeView::Type, "aten::mm");
        QVERIFY(mm >= 0);
        QCOMPARE(raw(ops, mm, ScopeTreeView::Occurrences), 2);
        QCOMPARE(raw(ops, mm, ScopeTreeView::Total), 500);
        QCOMPARE(raw(ops, findRow(ops, ScopeTreeView::Type, "aten::relu"), ScopeTreeView::Total), 100);
        // Device time sits on the op that launched it: the two sgemm kernels (150 + 100) on aten::mm.
        QCOMPARE(raw(ops, mm, ScopeTreeView::Device), 250);
        QCOMPARE(raw(ops, findRow(ops, ScopeTreeView::Type, "aten::relu"), ScopeTreeView::Device), 20);
        QCOMPARE(findRow(ops, ScopeTreeView::Type, "kernel"), -1);
        // The module span [50,450) is one event of Linear_0: time 400, self 400 - 300 (its aten::mm).
        bool sawModule = false;
        for (int r = 0; r < view.treeModel()->rowCount(); ++r) {
            const ScopeNode& n = tree.nodes[view.treeModel()->nodeOf(view.treeModel()->index(r, 0))];
            if (n.name != "Linear_0") continue;
            sawModule = true;
            QCOMPARE(view.treeModel()->index(r, ScopeTreeModel::Occurrences).data(AnalysisTableModel::SortRole).toLongLong(), 1);
            QCOMPARE(view.treeModel()->index(r, ScopeTreeModel::Total).data(AnalysisTableModel::SortRole).toLongLong(), 400);
            QCOMPARE(view.treeModel()->index(r, ScopeTreeModel::Self).data(AnalysisTableModel::SortRole).toLongLong(), 100);
        }
        QVERIFY(sawModule);
        QVERIFY(view.treeModel()->headerData(ScopeTreeModel::Total, Qt::Horizontal, Qt::ToolTipRole).toString().contains("wall time"));

        QSignalSpy spy(&selection, &TraceSelection::slicesHighlighted);
        doubleClickSourceRow(*view.opView(), mm);
        // Its two slices and the kernels they launched.
        QCOMPARE(highlighted(spy),
                 (std::vector<SliceRef>{{kHostTrack, 3}, {kHostTrack, 8}, {kGpuTrack, 0}, {kGpuTrack, 2}}));

        // Selecting the first aten::mm selects its scope node (path ends in aten::mm) and op row.
        selection.selectSlice({kHostTrack, 3});
        const uint32_t node = view.currentNode();
        QVERIFY(node != 0);
        QVERIFY(QString::fromStdString(tree.nodes[node].path).endsWith("aten::mm"));
        QCOMPARE(view.opView()->currentSourceRow(), mm);
        // Double-clicking that node highlights at least that slice.
        QModelIndex proxyIndex = view.treeProxy()->mapFromSource(view.treeModel()->indexOfNode(node));
        const QPoint at = view.treeView()->visualRect(proxyIndex).center();
        QTest::mousePress(view.treeView()->viewport(), Qt::LeftButton, {}, at);
        QTest::mouseDClick(view.treeView()->viewport(), Qt::LeftButton, {}, at);
        std::vector<SliceRef> h = highlighted(spy);
        QVERIFY(std::find(h.begin(), h.end(), SliceRef{kHostTrack, 3}) != h.end());

        // The tree CSV lists each visible node once (children indented).
        QStringList csv = view.treeCsv().split("\r\n", Qt::SkipEmptyParts);
        QVERIFY(csv[0].startsWith("Scope,Occurrences,Time,Self time"));
        QVERIFY(csv.size() >= 2);
        view.treeFilter()->setText("relu");
        QVERIFY(view.treeProxy()->rowCount() >= 1);
    }

    void closingTheTraceClearsPages() {
        OpStatsView view;
        QVERIFY(waitForXProfResult(view, trace_));
        QVERIFY(view.model()->rowCount() > 0);
        view.setTrace(nullptr);
        QCOMPARE(view.model()->rowCount(), 0);
        QVERIFY(view.result() == nullptr);
    }

    void emptyTraceShowsMessages() {
        TraceBuilder b("chrome-json");
        b.addTrack(b.addProcess(ProcessKind::Host, 1, "p"), TrackKind::Thread, "t", 1);
        std::shared_ptr<const Trace> empty(b.finish());
        for (const ViewFactory& f : analysisViewFactories()) {
            std::unique_ptr<TraceView> v(f.create(nullptr));
            auto* av = qobject_cast<AnalysisView*>(v.get());
            QVERIFY(av);
            QVERIFY2(waitForResult(*av, empty), qPrintable(f.id));
        }
    }
};

QTEST_MAIN(AnalysisViewsTest)
#include "tst_analysis_views.moc"
