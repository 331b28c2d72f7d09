// The XLA Ops page lays out the store's HLO op profile and roofline: on the JAX-on-ROCm capture
// its table holds a row per HLO op that ran (20, program jit_loss_fn(17)), its summary quotes
// the device's peaks and the programs, the roofline chart draws the ops with a known cost and the
// program, a double click highlights an op's activities and selecting one of them in the timeline
// selects its row; a trace without XLA programs says so. The figures themselves are checked
// against XProf (peers_xprof_hlo_*), JAX's cost analysis (peers_jax_hlo_costs) and by hand
// (tst_hlo_cost).
#include "model/import/import.h"
#include "model/results/hlo_results.h"
#include "views/tables/table_page.h"
#include "views/tables/value_format.h"
#include "views/trace_selection.h"
#include "views/pipeline/pipeline_graph_view.h"
#include "views/xla/roofline_chart.h"
#include "views/xla/xla_ops_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QTabWidget>
#include <QTableView>
#include <QtTest>

using namespace tracescope;

namespace {

std::shared_ptr<const Trace> load(const char* relative) {
    ImportResult r = importTrace(std::string(TRACESCOPE_SHARED_DIR) + "/testdata/" + relative);
    return r.ok() ? std::shared_ptr<const Trace>(std::move(r.trace)) : nullptr;
}

bool finished(const XlaOpsView& v) {
    return v.state() != AnalysisView::State::Queued && v.state() != AnalysisView::State::Running;
}

// The page shown at 1280x800 with `trace`, until its analysis ends (false after a minute).
bool showUntilDone(XlaOpsView& page, const std::shared_ptr<const Trace>& trace) {
    page.resize(1280, 800);
    page.show();
    page.setTrace(trace);
    return QTest::qWaitFor([&] { return finished(page); }, 60000);
}

}  // namespace

class XlaOpsViewTest : public QObject {
    Q_OBJECT
private slots:
    void showsTheStoreResults() {
        auto trace = load("public/tracelens/934987a2fc2f.xplane.pb");
        QVERIFY(trace);
        XlaOpsView page;
        QVERIFY(showUntilDone(page, trace));
        QCOMPARE(page.state(), AnalysisView::State::Done);
        const XlaOpsView::Computed* c = page.computed();
        QVERIFY(c && c->profile);
        QCOMPARE(c->profile.get(), hloOpProfileOf(*ResultStore::of(trace)).get());  // the store's, not a copy
        QCOMPARE(page.table()->view()->model()->rowCount(), 20);
        QVERIFY(page.summaryText().contains(QStringLiteral("<b>9</b> XLA programs")));
        QVERIFY(page.summaryText().contains(QStringLiteral("AMD gfx950")));
        // 15 ops with a known cost and FLOPs (4 attention calls have none, input_concatenate_fusion
        // and the converts have few but some), and the program.
        int drawable = 0;
        for (const RooflinePoint& p : c->roofline.ops) drawable += p.intensity > 0 && p.flopsPerSecond > 0;
        QCOMPARE(page.roofline()->pointCount(), 0);  // built when its tab is first shown
        QVERIFY(page.showPart(QStringLiteral("roofline")));
        QCOMPARE(page.roofline()->pointCount(), drawable + 1);
        QVERIFY(drawable >= 10);

        // The Memory tab: every program in the choice (device time first), the first shown: its
        // peak heap (equal to XProf's memory viewer: peers_xprof_hlo_*) and its buffers at the peak.
        QCOMPARE(page.memoryProgram()->count(), 9);
        QVERIFY(page.memoryProgram()->itemText(0).startsWith(QStringLiteral("jit_loss_fn(17): peak ")));
        QCOMPARE(page.memoryTable()->view()->model()->rowCount(), int(c->memory[0]->view.liveAtPeak.size()));
        QVERIFY(page.memorySummaryText().contains(formatBytes(c->memory[0]->view.peakBytes)));
        page.memoryProgram()->setCurrentIndex(2);
        QCOMPARE(page.memoryTable()->view()->model()->rowCount(), int(c->memory[2]->view.liveAtPeak.size()));

        TraceSelection selection;
        page.setSelection(&selection);
        std::vector<SliceRef> highlighted;
        connect(&selection, &TraceSelection::slicesHighlighted, this,
                [&](std::vector<SliceRef> slices, QString) { highlighted = std::move(slices); });
        const HloOpRow& first = c->profile->profile.ops[0];
        emit page.table()->sourceRowActivated(0);
        QCOMPARE(highlighted.size(), size_t(first.metrics.occurrences));
        QVERIFY(highlighted == first.activities);
        // An activity selected in the timeline selects its op's row.
        const HloOpRow& other = c->profile->profile.ops[5];
        selection.selectSlice(other.activities.back());
        QCOMPARE(page.table()->currentSourceRow(), 5);
    }

    // The Graph tab centres on the table's current op: the longest op first; selecting another
    // row moves it there; clicking a node selects that op's row and highlights its activities.
    void graphFollowsTheTable() {
        auto trace = load("public/tracelens/934987a2fc2f.xplane.pb");
        QVERIFY(trace);
        XlaOpsView page;
        QVERIFY(showUntilDone(page, trace));
        const HloOpProfile& p = page.computed()->profile->profile;
        const auto centre = [&] {
            for (int k = 0; k < page.graph()->nodeCount(); ++k)
                if (page.graph()->selectedNode() == k) return page.graphNodes()[size_t(k)]->name();
            return std::string();
        };
        QCOMPARE(page.graph()->nodeCount(), 0);  // laid out when its tab is first shown
        QVERIFY(page.showPart(QStringLiteral("hlo-graph")));
        QCOMPARE(centre(), p.ops[0].name);
        page.table()->selectSourceRow(4);  // a gemm fusion
        QCOMPARE(centre(), p.ops[4].name);
        // Away from the tab, a new row leaves the drawn graph alone until the tab is back.
        QVERIFY(page.showPart(QStringLiteral("hlo-ops")));
        page.table()->selectSourceRow(0);
        QCOMPARE(centre(), p.ops[4].name);
        QVERIFY(page.showPart(QStringLiteral("hlo-graph")));
        QCOMPARE(centre(), p.ops[0].name);
        page.table()->selectSourceRow(4);
        QVERIFY(page.graphInsideFusion()->isEnabled());
        page.graphInsideFusion()->setChecked(true);  // its fused computation: the dot and its operands
        bool hasDot = false;
        for (const auto* op : page.graphNodes()) hasDot |= op->opcode() == "dot";
        QVERIFY(hasDot);
        page.graphInsideFusion()->setChecked(false);
        TraceSelection selection;
        page.setSelection(&selection);
        std::vector<SliceRef> highlighted;
        connect(&selection, &TraceSelection::slicesHighlighted, this,
                [&](std::vector<SliceRef> slices, QString) { highlighted = std::move(slices); });
        // A neighbour with a row of its own.
        int neighbour = -1, row = -1;
        for (int k = 0; k < page.graph()->nodeCount() && neighbour < 0; ++k)
            for (size_t r = 0; r < p.ops.size(); ++r)
                if (p.ops[r].op == page.graphNodes()[size_t(k)] && int(r) != 4) neighbour = k, row = int(r);
        QVERIFY(neighbour >= 0);
        emit page.graph()->nodeClicked(neighbour);
        QCOMPARE(page.table()->currentSourceRow(), row);
        QVERIFY(highlighted == p.ops[size_t(row)].activities);
    }

    void withoutPrograms() {
        auto trace = load("gpu/torch2.11_cu130_h100_kineto_trace.json.gz");
        QVERIFY(trace);
        XlaOpsView page;
        page.setTrace(trace);
        QVERIFY(QTest::qWaitFor([&] { return finished(page); }, 60000));
        QVERIFY(page.statusText().contains(QStringLiteral("No XLA programs")));
    }
};

QTEST_MAIN(XlaOpsViewTest)
#include "tst_xla_ops_view.moc"
