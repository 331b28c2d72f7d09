// The tf.data page (offscreen) on the hand-built pipelines of tf_data_cases.cc: the table, the
// graph of the selected call laid out by Graphviz without overlapping boxes, node styles from
// the critical path, clicking a box highlights that iterator's events of the call in the
// timeline and shows the box's figures in the Details panel (call, events summed, a link per
// event), selecting an iterator event elsewhere shows its call and box (and its details say
// which box it counted in), and a trace without tf.data events shows what to record.
#include "model/import/import.h"
#include "model/import/xspace_importer.h"
#include "tests/tfdata/tf_data_cases.h"
#include "views/details/details_panel.h"
#include "views/pipeline/pipeline_graph_view.h"
#include "views/pipeline/tf_data_view.h"
#include "views/tables/table_page.h"
#include "views/trace_selection.h"

#include <QLabel>
#include <QTableView>
#include <QTreeWidget>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace tracescope;

Q_DECLARE_METATYPE(std::vector<tracescope::SliceRef>)

namespace {

std::shared_ptr<const Trace> load(const xspace::SpaceWriter& space) {
    QTemporaryDir dir;
    const std::string path = dir.filePath("worker-0.xplane.pb").toStdString();
    std::string error;
    if (!space.writeFile(path, error)) return nullptr;
    ImportResult r = importXSpace(path);
    return std::shared_ptr<const Trace>(std::move(r.trace));
}

bool waitForResult(AnalysisView& view, const std::shared_ptr<const Trace>& trace) {
    QSignalSpy ready(&view, &AnalysisView::resultReady);
    view.setTrace(trace);
    return ready.wait(20000) && !view.isComputing();
}

int nodeOf(const TfDataView& view, uint64_t id) {
    const auto& ids = view.nodeIterators();
    for (size_t i = 0; i < ids.size(); ++i)
        if (ids[i] == id) return int(i);
    return -1;
}

QTreeWidgetItem* row(const DetailsPanel& panel, const QString& key) {
    const auto items = panel.sliceTree()->findItems(key, Qt::MatchExactly | Qt::MatchRecursive, 0);
    return items.isEmpty() ? nullptr : items.front();
}

}  // namespace

class TfDataViewTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { qRegisterMetaType<std::vector<SliceRef>>(); }

    void graphAndNavigation() {
        auto trace = load(tfdatacases::interleaveTfRecord());
        QVERIFY(trace);
        TfDataView view;
        TraceSelection selection;
        view.setSelection(&selection);
        view.resize(1400, 1000);
        view.show();
        QVERIFY(waitForResult(view, trace));
        QVERIFY(view.notesLabel()->isHidden());  // an XSpace has the hand-offs
        QCOMPARE(view.pipelinesTable()->view()->model()->rowCount(), 1);
        QCOMPARE(view.shownPipeline(), 0);
        QCOMPARE(view.shownRank(), 0);
        PipelineGraphView* g = view.graph();
        QCOMPARE(g->nodeCount(), 8);
        QVERIFY(g->laidOutByGraphviz());
        // No two boxes overlap; parents sit above their children (top-down from the root).
        for (int a = 0; a < g->nodeCount(); ++a)
            for (int b = a + 1; b < g->nodeCount(); ++b)
                QVERIFY2(!g->nodeRect(a).intersects(g->nodeRect(b)), qPrintable(QStringLiteral("%1 %2").arg(a).arg(b)));
        const int root = nodeOf(view, 11), interleave = nodeOf(view, 15), record = nodeOf(view, 18);
        QVERIFY(root == 0 && interleave > 0 && record > 0);
        QVERIFY(g->nodeRect(root).bottom() < g->nodeRect(interleave).top());
        QVERIFY(g->nodeRect(interleave).bottom() < g->nodeRect(record).top());

        // The box's tooltip names the call its figures are summed over.
        QVERIFY2(view.nodeToolTip(record).startsWith(QStringLiteral("TFRecord [1] in call #0 (the slowest of 2): 1 event summed")),
                 qPrintable(view.nodeToolTip(record)));
        // Interleave, BatchV2 and Shuffle began before the call (at 9020, 9005, 9010 us; the call at 10000).
        QVERIFY(view.nodeToolTip(interleave).contains(QStringLiteral("start −980 µs")));
        QVERIFY(view.nodeToolTip(interleave).contains(QStringLiteral("before the call began")));

        // Clicking the bottleneck box highlights its one event of the slowest call, and the
        // Details panel shows the box's figures (not the event's alone).
        DetailsPanel panel;
        panel.setTrace(trace);
        panel.setSelection(&selection);
        QSignalSpy spy(&selection, &TraceSelection::slicesHighlighted);
        const QPoint at = g->mapFromScene(g->nodeRect(record).center());
        QTest::mouseClick(g->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(spy.count(), 1);
        const auto slices = spy.last()[0].value<std::vector<SliceRef>>();
        QCOMPARE(slices.size(), size_t(1));
        QCOMPARE(g->selectedNode(), record);
        const Track& track = trace->tracks[slices[0].track];
        QCOMPARE(track.slices.duration[slices[0].index], TimeNs(1'480'000));
        const QString title = panel.sliceTree()->topLevelItem(0)->text(0);
        QVERIFY2(title.contains(QStringLiteral("TFRecord [1] in call #0 (the slowest of 2)")), qPrintable(title));
        QVERIFY2(title.contains(QStringLiteral("1 event summed")), qPrintable(title));
        QVERIFY(panel.fieldText(QStringLiteral("Events summed")).startsWith(QStringLiteral("1 ")));
        QVERIFY(panel.fieldText(QStringLiteral("Total")).startsWith(QStringLiteral("1.48 ms")));
        QVERIFY(panel.fieldText(QStringLiteral("Self (tf.data)")).startsWith(QStringLiteral("1.48 ms")));
        QVERIFY(panel.fieldText(QStringLiteral("Call")).startsWith(QStringLiteral("#0 of 2, slowest first; its root event · Iterator::Root")));
        QTreeWidgetItem* list = row(panel, QStringLiteral("Events"));
        QVERIFY(list);
        QCOMPARE(list->childCount(), 1);
        QCOMPARE(list->child(0)->text(0), QStringLiteral("#1"));
        QVERIFY(list->child(0)->text(1).startsWith(QStringLiteral("self 1.48 ms · Iterator::TFRecord")));
        // Its Interleave box: 2 events, begun 980 us before the call (9020 vs 10000 us), 980 us of
        // its 2870 ahead ([9020, 10400) has 980 before 10000, [10425, 11915) none).
        view.activateNode(interleave);
        QVERIFY(panel.sliceTree()->topLevelItem(0)->text(0).contains(QStringLiteral("2 events summed")));
        QVERIFY(panel.fieldText(QStringLiteral("Start")).startsWith(QStringLiteral("−980 µs")));
        QVERIFY(panel.fieldText(QStringLiteral("Before the call")).startsWith(QStringLiteral("980 µs")));
        QVERIFY(panel.fieldText(QStringLiteral("Self (tf.data)")).contains(QStringLiteral("(TensorSlice, TFRecord [0], TFRecord [1])")));
        QCOMPARE(row(panel, QStringLiteral("Events"))->childCount(), 2);
        // A link of the list selects that event (its own details follow).
        QTreeWidgetItem* first = row(panel, QStringLiteral("Events"))->child(0);
        emit panel.sliceTree()->itemActivated(first, 1);
        QVERIFY(selection.selectedSlice().valid());
        QCOMPARE(trace->tracks[selection.selectedSlice().track].slices.duration[selection.selectedSlice().index],
                 TimeNs(1'380'000));

        // The reverse: the fast call's TFRecord event selected in the timeline shows rank 1.
        const TfDataResult* r = view.result();
        const std::vector<SliceRef> fast = tfDataEventsOf(*r, 0, 1, 18);
        QCOMPARE(fast.size(), size_t(1));
        selection.selectSlice(fast[0]);
        QCOMPARE(view.shownRank(), 1);
        QCOMPARE(g->nodeCount(), 6);
        QCOMPARE(g->selectedNode(), nodeOf(view, 18));
        // Its details say which box it counted in, with a way to the box's figures.
        QCOMPARE(panel.fieldText(QStringLiteral("tf.data")),
                 QStringLiteral("TFRecord [1]: event 1 of 1 in call #1 of 2 (slowest first) of Host:0"));
        QTreeWidgetItem* box = row(panel, QStringLiteral("In the graph"));
        QVERIFY(box);
        QVERIFY(box->text(1).contains(QStringLiteral("total 460 µs, self 460 µs")));
        emit panel.sliceTree()->itemActivated(box, 1);
        QVERIFY(panel.sliceTree()->topLevelItem(0)->text(0).contains(QStringLiteral("in call #1 of 2")));
        QCOMPARE(view.shownRank(), 1);
        // Not an iterator event (the prefetch thread's first slice, PrefetchProduce at 9000 us): no tf.data rows.
        const SliceRef produce{slices[0].track, 0};
        QCOMPARE(trace->str(trace->tracks[produce.track].slices.name[produce.index]), std::string_view("PrefetchProduce"));
        selection.selectSlice(produce);
        QCOMPARE(panel.fieldText(QStringLiteral("Name")), QStringLiteral("PrefetchProduce"));
        QVERIFY(panel.fieldText(QStringLiteral("tf.data")).isEmpty());
    }

    void twoRanksAndPipelines() {
        auto trace = load(tfdatacases::mapBatchPrefetch());
        QVERIFY(trace);
        TfDataView view;
        view.resize(1400, 1000);
        view.show();
        QVERIFY(waitForResult(view, trace));
        QCOMPARE(view.graph()->nodeCount(), 5);
        view.showPipeline(0, 1);
        QCOMPARE(view.shownRank(), 1);
        QCOMPARE(view.graph()->nodeCount(), 5);
        // To look at the non-blocking styles: TFDATA_VIEW_PNG=out.png saves the page showing rank 1.
        QTest::qWait(50);  // let the labels' heights follow their new text
        if (qEnvironmentVariableIsSet("TFDATA_VIEW_PNG")) view.grab().save(qEnvironmentVariable("TFDATA_VIEW_PNG"));
        view.showPipeline(0, 7);  // clamped to the last call
        QCOMPARE(view.shownRank(), 1);
    }

    // XProf's trace JSON without *Produce/*Consume: a note above the summary says the bottleneck
    // (Prefetch here) is computed without cross-thread hand-offs and to open the .xplane.pb.
    void jsonWithoutHandOffs() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("worker-0.trace.json").toStdString();
        std::ofstream(path) << tfdatacases::xprofJsonPrefetchMap(false);
        ImportResult r = importTrace(path);
        QVERIFY(r.ok());
        std::shared_ptr<const Trace> trace(std::move(r.trace));
        TfDataView view;
        view.resize(1200, 800);
        view.show();
        QVERIFY(waitForResult(view, trace));
        QVERIFY(view.notesLabel()->isVisible());
        QVERIFY(view.notesLabel()->text().contains(QStringLiteral("*Produce/*Consume")));
        QVERIFY(view.notesLabel()->text().contains(QStringLiteral(".xplane.pb")));
        QCOMPARE(view.graph()->nodeCount(), 2);  // Root and Prefetch: Map is not reached
    }

    void nothingRecorded() {
        auto trace = load(tfdatacases::noTfData());
        QVERIFY(trace);
        TfDataView view;
        view.resize(1200, 800);
        view.show();
        QVERIFY(waitForResult(view, trace));
        QCOMPARE(view.graph()->nodeCount(), 0);
        bool explained = false;
        for (QLabel* l : view.findChildren<QLabel*>())
            if (l->isVisible() && l->text().contains(QStringLiteral("host_tracer_level=2"))) explained = true;
        QVERIFY(explained);
    }
};

QTEST_MAIN(TfDataViewTest)
#include "tst_tf_data_view.moc"
