// The Query page runs SQL in the background over the hand trace (tests/gui/hand_trace.h): the
// table shows the rows in the query's order, a row with a slice id selects that slice, errors
// show their position, Cancel stops an endless query, Export all writes every row, and the
// history keeps what ran. The answers themselves are checked elsewhere (tst_trace_sql, and
// cli_sql_exact against Python's sqlite3).
#include "hand_trace.h"
#include "model/analysis/call_tree.h"
#include "views/flame/flame_graph_widget.h"
#include "views/query/query_result_model.h"
#include "views/query/query_view.h"
#include "views/tables/table_page.h"
#include "views/timeline/timeline_canvas.h"
#include "views/timeline/timeline_view.h"
#include "views/trace_selection.h"

#include <QFile>
#include <QPlainTextEdit>
#include <QSettings>
#include <QTemporaryDir>
#include <QAbstractItemModelTester>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QComboBox>
#include <QMenu>
#include <QToolButton>
#include <QtTest>

using namespace tracescope;
using testing::buildHandTrace;
using testing::findSlice;

class QueryViewTest : public QObject {
    Q_OBJECT
    QTemporaryDir settingsDir_;

    static bool ready(const QueryView& v) {
        return v.state() != AnalysisView::State::Queued && v.state() != AnalysisView::State::Running;
    }
    // The page at 1280x800 with `trace`, its database ready.
    static bool showOn(QueryView& page, std::shared_ptr<const Trace> trace) {
        page.resize(1280, 800);
        page.show();
        page.setTrace(std::move(trace));
        return QTest::qWaitFor([&] { return ready(page); }, 30000);
    }
    static bool run(QueryView& page, const QString& sql) {
        page.editor()->setPlainText(sql);
        page.runQuery();
        return QTest::qWaitFor([&] { return !page.isRunning(); }, 30000);
    }

private slots:
    void initTestCase() {
        // The history lives in the settings: a scratch place, not the user's.
        QCoreApplication::setOrganizationName(QStringLiteral("tracescope-tests"));
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir_.path());
    }

    void runsAndSelects() {
        std::shared_ptr<const Trace> trace = buildHandTrace();
        QueryView page;
        TraceSelection selection;
        page.setSelection(&selection);
        QVERIFY(showOn(page, trace));
        QCOMPARE(page.state(), AnalysisView::State::Done);
        QVERIFY(page.schemaModel()->rowCount() >= 13);  // 9 trace tables, the analyses, 2 views
        QAbstractItemModelTester schemaTester(page.schemaModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);

        QVERIFY(run(page, "SELECT id, ts, dur, name FROM slice WHERE track_id = 0 ORDER BY ts DESC"));
        QueryResultModel* m = page.resultModel();
        QCOMPARE(m->columns(), QStringList({"id", "ts", "dur", "name"}));
        QCOMPARE(m->rowCount(), 7);
        // The query's order (latest first), not a column's.
        QCOMPARE(m->cell(0, 1).toLongLong(), 5500);
        QCOMPARE(page.table()->view()->model()->index(0, 3).data().toString(), QStringLiteral("aten::mm"));
        QVERIFY2(page.statusText().startsWith(QStringLiteral("7 rows in")), qPrintable(page.statusText()));
        // A row with an id beside ts and dur is a slice: activating it selects that slice.
        QSignalSpy selected(&selection, &TraceSelection::sliceSelected);
        const SliceRef expected = findSlice(*trace, "aten::mm", 5500);
        QCOMPARE(page.sliceOfRow(0), expected);
        emit page.table()->sourceRowActivated(0);
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected[0][0].value<SliceRef>(), expected);
        // Without ts and dur an id is not taken for a slice; slice_id always is.
        QVERIFY(run(page, "SELECT id FROM track"));
        QVERIFY(!page.sliceOfRow(0).valid());
        QVERIFY(run(page, "SELECT slice_in AS slice_id FROM flow ORDER BY id"));
        QCOMPARE(page.sliceOfRow(0), findSlice(*trace, "gemm_kernel", 1000));
        QVERIFY(page.history().size() >= 3);
        QCOMPARE(page.history().front(), QStringLiteral("SELECT slice_in AS slice_id FROM flow ORDER BY id"));

        // An error says where; the table keeps nothing stale.
        QVERIFY(run(page, "SELECT name\nFROM slice\nWHER dur > 5"));
        QVERIFY2(page.statusText().contains(QStringLiteral("line 3, column 6")), qPrintable(page.statusText()));
        // The editor's cursor is put there, on the word SQLite stopped at.
        QCOMPARE(page.editor()->textCursor().selectedText(), QStringLiteral("dur"));
        QCOMPARE(m->rowCount(), 0);
    }

    void addAsTrack() {
        std::shared_ptr<const Trace> trace = buildHandTrace();
        QueryView page;
        QVERIFY(showOn(page, trace));
        std::vector<DerivedCounterTrack> made;
        connect(&page, &QueryView::trackRequested, this, [&](DerivedCounterTrack t) { made.push_back(std::move(t)); });
        auto addAndWait = [&] {
            const size_t before = made.size();
            QString error;
            if (!page.addAsTrack(&error)) return false;
            return QTest::qWaitFor([&] { return !page.isRunning(); }, 30000) && made.size() == before + 1;
        };

        // Without ts and value there is no track to make.
        QVERIFY(run(page, "SELECT name, ts FROM slice"));
        QVERIFY(!page.addTrackButton()->isEnabled());
        QString error;
        QVERIFY(!page.addAsTrack(&error));
        QVERIFY2(error.contains(QStringLiteral("value")), qPrintable(error));

        // The kernels' durations, latest first: the track holds them in time order, under the
        // GPU's process (from track_id), named by the name column. The shown result's query is
        // the one used, not what the editor holds since.
        QVERIFY(run(page, "SELECT ts, dur AS value, track_id, name FROM slice WHERE category = 'kernel' "
                          "ORDER BY ts DESC"));
        QVERIFY(page.addTrackButton()->isEnabled());
        page.editor()->setPlainText(QStringLiteral("SELECT 1"));
        QVERIFY(addAndWait());
        const DerivedCounterTrack& kernels = made.back();
        QCOMPARE(kernels.source, DerivedSource::Query);
        QCOMPARE(kernels.name, std::string("gemm_kernel"));
        QCOMPARE(kernels.process, trace->tracks[findSlice(*trace, "gemm_kernel", 1000).track].process);
        QCOMPARE(kernels.series.time, (std::vector<TimeNs>{1000, 4000}));
        QCOMPARE(kernels.series.value, (std::vector<double>{2000, 500}));
        QVERIFY(kernels.query.find("ORDER BY ts DESC") != std::string::npos);

        // A row whose value is NULL is left out and counted; without a name column the track
        // is numbered.
        QVERIFY(run(page, "SELECT ts, CASE WHEN dur > 1000 THEN dur END AS value FROM slice "
                          "WHERE category = 'kernel'"));
        QVERIFY(addAndWait());
        QCOMPARE(made.back().name, std::string("query 1"));
        QCOMPARE(made.back().series.time, (std::vector<TimeNs>{1000}));
        QVERIFY2(page.statusText().contains(QStringLiteral("1 row without")), qPrintable(page.statusText()));

        // With ts and dur the rows are boxes: the worker's three slices in two lanes (overlap
        // starts inside aten::add), labelled by name; the track is numbered.
        QVERIFY(run(page, "SELECT ts, dur, name, track_id FROM thread_slice WHERE tid = 2"));
        QVERIFY(page.addTrackButton()->isEnabled());
        QVERIFY(addAndWait());
        QCOMPARE(made.back().name, std::string("query 2"));
        QCOMPARE(made.back().spans.count, uint64_t(3));
        QCOMPARE(made.back().spans.lanes.size(), size_t(2));
        QVERIFY2(page.statusText().contains(QStringLiteral("3 boxes in 2 lanes")), qPrintable(page.statusText()));

        // The timeline shows the tracks after its own derived tracks, replaces one of the same
        // name, and forgets them with the trace.
        TimelineView timeline;
        timeline.resize(1200, 700);
        timeline.show();
        timeline.setTrace(trace);
        timeline.waitUntilReady();
        timeline.addQueryTrack(made[0]);
        timeline.addQueryTrack(made[1]);
        timeline.addQueryTrack(made[2]);
        timeline.addQueryTrack(made[0]);
        QCOMPARE(timeline.queryTracks().size(), size_t(3));
        const TimelineDerivedTracks* shown = timeline.canvas()->controller().derived();
        QVERIFY(shown);
        size_t fromQueries = 0;
        for (const DerivedCounterTrack& d : shown->tracks) fromQueries += d.source == DerivedSource::Query;
        QCOMPARE(fromQueries, size_t(3));
        QCOMPARE(shown->tracks.size(), shown->ranges.size());
        // The boxes' row holds a slice row per lane (and at least a counter's height).
        const auto& rows = timeline.canvas()->controller().layout().rows();
        int boxesHeight = 0;
        for (const LayoutRow& r : rows)
            if (r.kind == LayoutRow::Kind::Derived && shown->tracks[r.track].isSpans()) boxesHeight = r.height;
        const TrackMetrics& m = timeline.canvas()->controller().layout().metrics();
        QCOMPARE(boxesHeight, std::max(m.counterTrack, 2 * m.trackPadding + 2 * m.sliceRow));
        QVERIFY(!timeline.grab().toImage().isNull());

        // The page's Tracks menu lists the timeline's query tracks (wired as the main window
        // does): Load puts a track's query in the editor, Remove takes it off the timeline.
        connect(&timeline, &TimelineView::queryTracksChanged, &page,
                [&] { page.setQueryTracks(timeline.queryTracks()); });
        connect(&page, &QueryView::trackRemovalRequested, &timeline,
                [&](QString name) { timeline.removeQueryTrack(name.toStdString()); });
        page.setQueryTracks(timeline.queryTracks());
        QCOMPARE(page.tracksButton()->text(), QStringLiteral("Tracks (3)"));
        QVERIFY(page.tracksButton()->isEnabled());
        const QList<QAction*> entries = page.tracksButton()->menu()->actions();
        QCOMPARE(entries.size(), 3);
        QCOMPARE(entries[0]->text(), QStringLiteral("gemm_kernel"));
        const QList<QAction*> actions = entries[0]->menu()->actions();
        QCOMPARE(actions.size(), 2);
        actions[0]->trigger();
        QCOMPARE(page.editor()->toPlainText().toStdString(), made[0].query);
        actions[1]->trigger();
        QCOMPARE(timeline.queryTracks().size(), size_t(2));
        QCOMPARE(page.tracksButton()->text(), QStringLiteral("Tracks (2)"));

        timeline.setTrace(trace);
        QVERIFY(timeline.queryTracks().empty());
        QCOMPARE(page.tracksButton()->text(), QStringLiteral("Tracks (0)"));
        QVERIFY(!page.tracksButton()->isEnabled());
    }

    void flameGraph() {
        std::shared_ptr<const Trace> trace = buildHandTrace();
        QueryView page;
        QVERIFY(showOn(page, trace));
        auto flameAndWait = [&] {
            QString error;
            return page.showFlameGraph(&error) && QTest::qWaitFor([&] { return !page.isRunning(); }, 30000);
        };
        QVERIFY(run(page, "SELECT 1 AS stack"));
        QVERIFY(!page.flameButton()->isEnabled());
        QVERIFY(!page.resultTabs()->isTabEnabled(1));

        // Literal stacks: a;b 10, a;c 5, and a row without a stack, left out.
        QVERIFY(run(page, "SELECT 'a;b' AS stack, 10 AS value UNION ALL SELECT 'a;c', 5 UNION ALL SELECT NULL, 3"));
        QVERIFY(page.flameButton()->isEnabled());
        QVERIFY(flameAndWait());
        const CallTree* tree = page.flameGraph()->tree();
        QVERIFY(tree);
        QCOMPARE(tree->root().totalNs, TimeNs(15));
        QCOMPARE(tree->nodes.size(), size_t(4));  // the root, a, b, c
        QCOMPARE(page.resultTabs()->currentIndex(), 1);
        QVERIFY2(page.statusText().contains(QStringLiteral("1 row without")), qPrintable(page.statusText()));
        // Bottom-up: the leaves b (10) and c (5) at the top, each with its caller a below.
        page.flameDirection()->setCurrentIndex(1);
        const CallTree* up = page.flameGraph()->tree();
        QVERIFY(up && up->bottomUp);
        QCOMPARE(up->root().totalNs, TimeNs(15));
        QCOMPARE(up->nodes.size(), size_t(5));  // the root, b, c, and a under each
        page.flameDirection()->setCurrentIndex(0);
        QCOMPARE(page.flameGraph()->tree(), tree);

        // The stacks of the call_tree table, folded by a recursive query, are the Flame page's tree.
        QVERIFY(run(page, "WITH RECURSIVE p(id, stack) AS (SELECT id, name FROM call_tree WHERE parent_id = 0 "
                          "UNION ALL SELECT c.id, p.stack || ';' || c.name FROM call_tree c JOIN p ON c.parent_id = p.id) "
                          "SELECT stack, self_ns AS value FROM p JOIN call_tree USING (id)"));
        QVERIFY(!page.resultTabs()->isTabEnabled(1));  // a new result: the old flame graph is gone
        QVERIFY(flameAndWait());
        const CallTree expected = computeCallTree(classifyTrace(*trace));
        QVERIFY(page.flameGraph()->tree());
        QCOMPARE(page.flameGraph()->tree()->root().subtreeSelfNs, expected.root().subtreeSelfNs);
        QCOMPARE(page.flameGraph()->tree()->nodes.size(), expected.nodes.size());
        QVERIFY(page.flameGraph()->grab().toImage().size().width() > 0);
        if (qEnvironmentVariableIsSet("TRACESCOPE_TEST_SHOTS")) {
            page.resize(1280, 800);
            page.grab().save(qEnvironmentVariable("TRACESCOPE_TEST_SHOTS") + "/query_flame.png");
        }
    }

    void cancelAndExportAll() {
        QueryView page;
        QVERIFY(showOn(page, buildHandTrace()));
        page.editor()->setPlainText(
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c");
        page.runQuery();
        QVERIFY(page.isRunning());
        QTest::qWait(200);
        page.cancel();
        QVERIFY(QTest::qWaitFor([&] { return !page.isRunning(); }, 10000));
        QVERIFY2(page.statusText().contains(QStringLiteral("cancelled")), qPrintable(page.statusText()));

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("all.csv"));
        QString error;
        QVERIFY(!page.exportAll(path, /*wait=*/true, &error));  // the cancelled run shows no rows
        QVERIFY(run(page, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 150000) "
                          "SELECT x, x * 2 AS twice, 'a,b' AS text FROM c"));
        // The table keeps at most kMaxShownRows and says so.
        QCOMPARE(size_t(page.resultModel()->rowCount()), QueryView::kMaxShownRows);
        QVERIFY2(page.statusText().contains(QStringLiteral("Export all")), qPrintable(page.statusText()));
        // Export all runs the shown result's query, not what the editor holds since.
        page.editor()->setPlainText("SELECT 1");
        QVERIFY2(page.exportAll(path, /*wait=*/true, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QCOMPARE(lines.size(), 150000 + 2);  // header, rows, the empty piece after the last newline
        QCOMPARE(lines[0], QByteArray("x,twice,text"));
        QCOMPARE(lines[150000], QByteArray("150000,300000,\"a,b\""));
    }
};

QTEST_MAIN(QueryViewTest)
#include "tst_query_view.moc"
