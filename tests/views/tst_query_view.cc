// The Query page runs SQL in the background over the hand trace (tests/gui/hand_trace.h): the
// table shows the rows in the query's order, a row with a slice id selects that slice, errors
// show their position, Cancel stops an endless query, Export all writes every row, and the
// history keeps what ran. The answers themselves are checked elsewhere (tst_trace_sql, and
// cli_sql_exact against Python's sqlite3).
#include "hand_trace.h"
#include "views/query/query_result_model.h"
#include "views/query/query_view.h"
#include "views/tables/table_page.h"
#include "views/trace_selection.h"

#include <QFile>
#include <QPlainTextEdit>
#include <QSettings>
#include <QTemporaryDir>
#include <QTreeWidget>
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
        page.resize(1280, 800);
        page.show();
        TraceSelection selection;
        page.setSelection(&selection);
        page.setTrace(trace);
        QVERIFY(QTest::qWaitFor([&] { return ready(page); }, 30000));
        QCOMPARE(page.state(), AnalysisView::State::Done);
        QVERIFY(page.schemaTree()->topLevelItemCount() >= 13);  // 9 trace tables, 4 analyses, 2 views

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
        QCOMPARE(m->rowCount(), 0);
    }

    void cancelAndExportAll() {
        QueryView page;
        page.resize(1280, 800);
        page.show();
        page.setTrace(buildHandTrace());
        QVERIFY(QTest::qWaitFor([&] { return ready(page); }, 30000));
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
        page.editor()->setPlainText(
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 150000) "
            "SELECT x, x * 2 AS twice, 'a,b' AS text FROM c");
        QString error;
        QVERIFY2(page.exportAll(path, /*wait=*/true, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QCOMPARE(lines.size(), 150000 + 2);  // header, rows, the empty piece after the last newline
        QCOMPARE(lines[0], QByteArray("x,twice,text"));
        QCOMPARE(lines[150000], QByteArray("150000,300000,\"a,b\""));
        // The table keeps at most kMaxShownRows and says so.
        QVERIFY(run(page, page.editor()->toPlainText()));
        QCOMPARE(size_t(page.resultModel()->rowCount()), QueryView::kMaxShownRows);
        QVERIFY2(page.statusText().contains(QStringLiteral("Export all")), qPrintable(page.statusText()));
    }
};

QTEST_MAIN(QueryViewTest)
#include "tst_query_view.moc"
