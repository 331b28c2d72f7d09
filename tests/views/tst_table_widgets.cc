// The generic table pieces: value formatting, the row table model (checked with
// QAbstractItemModelTester), filter + numeric sort, CSV of what the table shows,
// pie folding and the slice -> row index. Expected values are worked out by hand.
#include "model/query/slice_row_index.h"
#include "views/charts/pie_chart.h"
#include "views/charts/stacked_column_chart.h"
#include "views/name_style.h"
#include "views/tables/analysis_table_model.h"
#include "views/tables/csv_export.h"
#include "views/tables/table_filter_proxy.h"
#include "views/tables/table_page.h"
#include "views/tables/value_format.h"
#include "views/tables/wrapping_header_view.h"
#include "views/wrapping_label.h"

#include <QAbstractItemModelTester>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QStackedBarSeries>
#include <QValueAxis>
#include <QApplication>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>

using namespace tracescope;

namespace {

struct Op {
    QString name;
    qint64 count;
    qint64 ns;
    double pct;
};

using OpModel = RowTableModel<Op>;

std::vector<OpModel::Column> columns() {
    return {
        {{"Name", ColumnKind::Text, {}}, [](const Op& o) { return QVariant(o.name); }},
        {{"Count", ColumnKind::Integer, {}}, [](const Op& o) { return QVariant(o.count); }},
        {{"Time", ColumnKind::Duration, {}}, [](const Op& o) { return QVariant(o.ns); }},
        {{"Share", ColumnKind::Percent, {}}, [](const Op& o) { return QVariant(o.pct); }},
    };
}

std::vector<Op> sampleRows() {
    return {{"MatMul", 9, 1500000, 60.0},
            {"Conv2D, fused", 10, 999, 0.04},  // a comma: must be quoted in CSV
            {"say \"hi\"", 100, 20000, 39.96},
            {"matmul_grad", 2, 2500000000LL, 0}};
}

// Minimal RFC 4180 reader for checking our own output.
QList<QStringList> parseCsv(const QString& text) {
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (int i = 0; i < text.size(); ++i) {
        QChar c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') { field += '"'; ++i; }
            else if (c == '"') quoted = false;
            else field += c;
        } else if (c == '"') quoted = true;
        else if (c == ',') { row << field; field.clear(); }
        else if (c == '\r') {}
        else if (c == '\n') { row << field; field.clear(); rows << row; row.clear(); }
        else field += c;
    }
    if (!field.isEmpty() || !row.isEmpty()) { row << field; rows << row; }
    return rows;
}

}  // namespace

class TableWidgetsTest : public QObject {
    Q_OBJECT
private slots:
    void nameColumnsShortInCellsFullElsewhere() {
        std::vector<OpModel::Column> cols = columns();
        cols[0].spec.names = true;
        OpModel model(cols);
        QAbstractItemModelTester tester(&model);
        model.setRows({{"void a::k<float>(float*)", 1, 10, 50},
                       {"void b::k<float>(float*)", 1, 10, 50},
                       {"MatMul", 1, 10, 0}});
        NameStyleSetting::instance().setStyle(NameStyle::Short);
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("a::k<float>"));  // told apart from b::k
        QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("b::k<float>"));
        QCOMPARE(model.index(2, 0).data().toString(), QStringLiteral("MatMul"));
        QCOMPARE(model.index(0, 0).data(Qt::ToolTipRole).toString(), QStringLiteral("void a::k<float>(float*)"));
        const QList<QStringList> csv = parseCsv(modelToCsv(model, nullptr));
        QCOMPARE(csv[1][0], QStringLiteral("void a::k<float>(float*)"));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        NameStyleSetting::instance().setStyle(NameStyle::Full);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("void a::k<float>(float*)"));
        NameStyleSetting::instance().setStyle(NameStyle::Short);
    }

    void formatsValues() {
        QCOMPARE(formatDuration(0), QString("0 ns"));
        QCOMPARE(formatDuration(999), QString("999 ns"));
        QCOMPARE(formatDuration(1000), QString("1.00 µs"));
        QCOMPARE(formatDuration(12345), QString("12.3 µs"));
        QCOMPARE(formatDuration(4560000), QString("4.56 ms"));
        QCOMPARE(formatDuration(123456789), QString("123 ms"));
        QCOMPARE(formatDuration(2500000000LL), QString("2.500 s"));
        QCOMPARE(formatPercent(12.345), QString("12.3 %"));
        QCOMPARE(formatPercent(0.04), QString("0.04 %"));
        QCOMPARE(formatPercent(0), QString("0 %"));
        QCOMPARE(formatBytes(512), QString("512 B"));
        QCOMPARE(formatBytes(1536), QString("1.50 KiB"));
        QCOMPARE(formatBytes(3 * 1024 * 1024 + 256 * 1024), QString("3.25 MiB"));
        QCOMPARE(formatCount(1234567), QString("1,234,567"));
        QCOMPARE(formatCount(-1000), QString("-1,000"));
        QCOMPARE(formatCount(std::numeric_limits<int64_t>::min()), QString("-9,223,372,036,854,775,808"));
    }

    void rowModelPassesTester() {
        OpModel model(columns());
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(sampleRows());
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), 4);
        QCOMPARE(model.index(0, 2).data().toString(), QString("1.50 ms"));
        QCOMPARE(model.index(0, 2).data(AnalysisTableModel::SortRole).toLongLong(), 1500000LL);
        QCOMPARE(model.index(0, 2).data(Qt::ToolTipRole).toString(), QString("1,500,000 ns"));
        QCOMPARE(model.index(2, 1).data().toString(), QString("100"));
        QCOMPARE(Qt::Alignment(model.index(0, 1).data(Qt::TextAlignmentRole).toInt()) & Qt::AlignRight, Qt::AlignRight);
        QCOMPARE(Qt::Alignment(model.index(0, 0).data(Qt::TextAlignmentRole).toInt()) & Qt::AlignLeft, Qt::AlignLeft);
        QCOMPARE(model.headerData(3, Qt::Horizontal).toString(), QString("Share"));
        model.setRows({});
        QCOMPARE(model.rowCount(), 0);
    }

    void proxySortsNumbersAndFilters() {
        OpModel model(columns());
        model.setRows(sampleRows());
        TableFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // By time, descending: 2.5 s, 1.5 ms, 20 µs, 999 ns (text order would put "999 ns" first).
        proxy.sort(2, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, 0).data().toString(), QString("matmul_grad"));
        QCOMPARE(proxy.index(1, 0).data().toString(), QString("MatMul"));
        QCOMPARE(proxy.index(3, 0).data().toString(), QString("Conv2D, fused"));
        // Counts ascending: 2, 9, 10, 100.
        proxy.sort(1, Qt::AscendingOrder);
        QCOMPARE(proxy.index(2, 1).data().toString(), QString("10"));
        proxy.setNameFilter("matmul");  // case-insensitive substring
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setFilterColumns({0, 2});
        proxy.setNameFilter("2.500");  // matches the display text of another column
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setNameFilter("");
        QCOMPARE(proxy.rowCount(), 4);
    }

    // Help › What's This on a column's header or cell: the column's definition, named.
    void columnsAnswerWhatsThis() {
        std::vector<OpModel::Column> cols = columns();
        cols[2].spec.tooltip = "Self time summed over occurrences";
        OpModel model(cols);
        model.setRows(sampleRows());
        const QString header = model.headerData(2, Qt::Horizontal, Qt::WhatsThisRole).toString();
        QVERIFY(header.contains("Time") && header.contains("Self time summed over occurrences"));
        QCOMPARE(model.index(1, 2).data(Qt::WhatsThisRole).toString(), header);
        QVERIFY(!model.headerData(0, Qt::Horizontal, Qt::WhatsThisRole).isValid());  // no definition
        QVERIFY(!model.index(0, 0).data(Qt::WhatsThisRole).isValid());
    }

    // The sorted column's keys are read once and kept: new rows (a reset) sort by their own
    // values, in both orders, ties in source order; text ignores case; an empty cell first.
    void proxySortKeysFollowNewRows() {
        OpModel model(columns());
        model.setRows(sampleRows());
        TableFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(1, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, 0).data().toString(), QString("say \"hi\""));  // count 100
        // New rows: counts 5, 7, 5, 1 -> descending 7, 5 (b), 5 (d), 1; the old keys are gone.
        model.setRows({{"b", 5, 0, 0}, {"a", 7, 0, 0}, {"d", 5, 0, 0}, {"c", 1, 0, 0}});
        QStringList names;
        for (int r = 0; r < proxy.rowCount(); ++r) names << proxy.index(r, 0).data().toString();
        QCOMPARE(names, QStringList({"a", "b", "d", "c"}));
        proxy.sort(0, Qt::AscendingOrder);
        model.setRows({{"beta", 0, 0, 0}, {"Alpha", 0, 0, 0}, {"", 0, 0, 0}, {"alpha2", 0, 0, 0}});
        names.clear();
        for (int r = 0; r < proxy.rowCount(); ++r) names << proxy.index(r, 0).data().toString();
        QCOMPARE(names, QStringList({"", "Alpha", "alpha2", "beta"}));
        // Percent (a double) against its integers' order: 0.5 < 2 < 10.
        proxy.sort(3, Qt::AscendingOrder);
        model.setRows({{"x", 0, 0, 10.0}, {"y", 0, 0, 0.5}, {"z", 0, 0, 2.0}});
        QCOMPARE(proxy.index(0, 0).data().toString(), QString("y"));
        QCOMPARE(proxy.index(2, 0).data().toString(), QString("x"));
    }

    // Rows given in their first order are shown as given, under the header's indicator; a click
    // on the header sorts them (here: the other way).
    void presortedTableKeepsTheRowsOrder() {
        OpModel model(columns());
        TablePage page;
        page.setPresortedSourceModel(&model, 2, Qt::DescendingOrder);
        // Deliberately not in time order: the page must not sort them itself.
        model.setRows({{"first", 1, 10, 0}, {"second", 1, 30, 0}, {"third", 1, 20, 0}});
        QTableView* view = page.view();
        QCOMPARE(view->horizontalHeader()->sortIndicatorSection(), 2);
        QCOMPARE(view->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
        QCOMPARE(view->model()->index(0, 0).data().toString(), QString("first"));
        QCOMPARE(view->model()->index(2, 0).data().toString(), QString("third"));
        view->horizontalHeader()->setSortIndicator(2, Qt::AscendingOrder);  // as a click does
        QCOMPARE(view->model()->index(0, 0).data().toString(), QString("first"));   // 10
        QCOMPARE(view->model()->index(1, 0).data().toString(), QString("third"));   // 20
        QCOMPARE(view->model()->index(2, 0).data().toString(), QString("second"));  // 30
    }

    void csvIsWhatTheTableShows() {
        QCOMPARE(csvField("plain"), QString("plain"));
        QCOMPARE(csvField("a,b"), QString("\"a,b\""));
        QCOMPARE(csvField("say \"hi\""), QString("\"say \"\"hi\"\"\""));
        QCOMPARE(csvField("two\nlines"), QString("\"two\nlines\""));

        OpModel model(columns());
        model.setRows(sampleRows());
        TablePage page;
        page.setSourceModel(&model, 2, Qt::DescendingOrder);
        page.view()->setColumnHidden(3, true);                  // hidden columns are not exported
        page.view()->horizontalHeader()->moveSection(1, 2);     // on-screen order wins: Name, Time, Count
        QList<QStringList> rows = parseCsv(page.csv());
        QCOMPARE(rows.size(), 5);
        QCOMPARE(rows[0], (QStringList{"Name", "Time", "Count"}));
        QCOMPARE(rows[1], (QStringList{"matmul_grad", "2.500 s", "2"}));
        QCOMPARE(rows[2], (QStringList{"MatMul", "1.50 ms", "9"}));
        QCOMPARE(rows[3], (QStringList{"say \"hi\"", "20.0 µs", "100"}));
        QCOMPARE(rows[4], (QStringList{"Conv2D, fused", "999 ns", "10"}));
        // Every exported cell equals what the view shows at that position.
        for (int r = 0; r < page.proxy()->rowCount(); ++r)
            for (int visual = 0; visual < 3; ++visual) {
                int logical = page.view()->horizontalHeader()->logicalIndex(visual);
                QCOMPARE(rows[r + 1][visual], page.proxy()->index(r, logical).data().toString());
            }
        page.filterBox()->setText("MAT");
        rows = parseCsv(page.csv());
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows[2][0], QString("MatMul"));

        // Round trip through a file.
        QTemporaryDir dir;
        QString path = dir.filePath("t.csv"), error;
        QVERIFY(writeTextFile(path, page.csv(), &error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()), page.csv());
        QVERIFY(!writeTextFile(dir.filePath("no/such/dir/t.csv"), "x", &error));
        QVERIFY(!error.isEmpty());
    }

    // Multi-word titles go on two lines at the space that makes the wider line narrowest, so the
    // numbers' columns are as narrow as their numbers; the name column keeps one line, and a page
    // with many columns shows them all in a 1280 px window. The model's titles stay one line (CSV).
    // A wrapping label's remembered heights are QLabel's own for every width, and follow a new
    // text, font and style sheet (never a stale height).
    void wrappingLabelHeightsAreQLabels() {
        WrappingLabel cached;
        QLabel plain;
        plain.setWordWrap(true);
        auto same = [&] {
            for (int width : {80, 200, 200, 640, 80})
                if (cached.heightForWidth(width) != plain.heightForWidth(width)) return false;
            return true;
        };
        const QString text = QStringLiteral("<b>9</b> programs ran for <b>12.1 ms</b> of 13.0 ms; ") +
                             QStringLiteral("a long note that wraps at narrow widths. ").repeated(6);
        cached.setText(text);
        plain.setText(text);
        QVERIFY(same());
        QVERIFY(cached.heightForWidth(80) > cached.heightForWidth(640));
        cached.setText(QStringLiteral("short"));
        plain.setText(QStringLiteral("short"));
        QVERIFY(same());
        QFont big = cached.font();
        big.setPointSizeF(big.pointSizeF() * 2);
        cached.setText(text);
        plain.setText(text);
        cached.setFont(big);
        plain.setFont(big);
        QVERIFY(same());
        const QString padded = QStringLiteral("QLabel { padding: 12px 30px; }");
        cached.setStyleSheet(padded);
        plain.setStyleSheet(padded);
        cached.ensurePolished();
        plain.ensurePolished();
        QVERIFY(same());
    }

    void headersWrapSoColumnsFit() {
        const QFontMetrics fm(QApplication::font());
        // "Self CUDA %": after "Self" the wider line is "CUDA %", after "CUDA" it is "Self CUDA";
        // the narrower of the two wins (measured with the same font, not assumed).
        const QString a = "Self\nCUDA %", b = "Self CUDA\n%";
        const int wa = std::max(fm.horizontalAdvance("Self"), fm.horizontalAdvance("CUDA %"));
        const int wb = std::max(fm.horizontalAdvance("Self CUDA"), fm.horizontalAdvance("%"));
        QCOMPARE(WrappingHeaderView::wrapped("Self CUDA %", fm), wa <= wb ? a : b);
        QCOMPARE(WrappingHeaderView::wrapped("Occurrences", fm), QString("Occurrences"));  // one word
        // A parenthesised part is never split: the only space outside "(B − A)" is after "Δ".
        QCOMPARE(WrappingHeaderView::wrapped(QString::fromUtf8("Δ (B − A)"), fm), QString::fromUtf8("Δ\n(B − A)"));

        std::vector<OpModel::Column> many = columns();
        for (int k = 0; k < 8; ++k)  // on one line their titles alone would not fit
            many.push_back({{QStringLiteral("Long metric %1 total").arg(k), ColumnKind::Duration, {}},
                            [](const Op& o) { return QVariant(o.ns); }});
        OpModel model(many);
        std::vector<Op> rows = sampleRows();
        rows[0].name = QString(60, QLatin1Char('k'));  // a long kernel name
        model.setRows(rows);
        TablePage page;
        page.setSourceModel(&model, 2, Qt::DescendingOrder);
        page.setElasticColumn(0, 180);
        page.resize(1260, 600);
        page.show();
        page.fitColumns();
        QHeaderView* header = page.view()->horizontalHeader();
        int total = 0;
        for (int c = 0; c < header->count(); ++c) total += header->sectionSize(c);
        QVERIFY2(total <= page.view()->viewport()->width(),
                 qPrintable(QStringLiteral("%1 px of columns in %2").arg(total).arg(page.view()->viewport()->width())));
        QVERIFY(header->sectionSize(0) >= 180);
        // A wrapped title is narrower than on one line, the name's title is not wrapped.
        QVERIFY(header->sectionSizeHint(5) < fm.horizontalAdvance("Long metric 1 total"));
        QCOMPARE(parseCsv(page.csv())[0][5], QString("Long metric 1 total"));
    }

    void headerMenuHidesColumns() {
        OpModel model(columns());
        model.setRows(sampleRows());
        TablePage page;
        page.setSourceModel(&model, 1, Qt::AscendingOrder);
        QMenu menu;
        page.fillColumnMenu(menu);
        QCOMPARE(menu.actions().size(), 4);
        for (QAction* a : menu.actions()) QVERIFY(a->isChecked());
        menu.actions()[2]->setChecked(false);  // "Time"
        QVERIFY(page.view()->horizontalHeader()->isSectionHidden(2));
        const QList<QStringList> csv = parseCsv(modelToCsv(*page.view()->model(), page.view()->horizontalHeader()));
        QCOMPARE(csv[0], QStringList({"Name", "Count", "Share"}));
        page.setColumnShown(2, true);
        QVERIFY(!page.view()->horizontalHeader()->isSectionHidden(2));
    }

    void pageSelectsAndActivatesSourceRows() {
        OpModel model(columns());
        model.setRows(sampleRows());
        TablePage page;
        page.resize(800, 400);
        page.setSourceModel(&model, 1, Qt::AscendingOrder);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.filterBox()->setText("conv");
        // Selecting a row the filter hides clears the filter.
        QVERIFY(page.selectSourceRow(0));
        QCOMPARE(page.filterBox()->text(), QString());
        QCOMPARE(page.currentSourceRow(), 0);
        QVERIFY(!page.selectSourceRow(4));
        QSignalSpy spy(&page, &TablePage::sourceRowActivated);
        // Sorted by count ascending, view row 0 is matmul_grad = source row 3.
        QRect rect = page.view()->visualRect(page.proxy()->index(0, 0));
        // Qt 6 QTest::mouseDClick sends no press first; a view needs the press to accept the double-click.
        QTest::mousePress(page.view()->viewport(), Qt::LeftButton, {}, rect.center());
        QTest::mouseDClick(page.view()->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(spy.size(), 1);
        QCOMPARE(spy[0][0].toInt(), 3);
    }

    void pieFoldsSmallSlices() {
        std::vector<ChartSlice> in{{"a", 1}, {"b", 5}, {"c", 3}, {"zero", 0}, {"d", 2}, {"e", 1}};
        auto out = pieSlices(in, 3);
        QCOMPARE(out.size(), size_t(3));
        QCOMPARE(out[0].label, QString("b"));
        QCOMPARE(out[1].label, QString("c"));
        QCOMPARE(out[2].value, 4.0);  // d + a + e
        QVERIFY(out[2].label.startsWith("Other"));
        QCOMPARE(pieSlices(in, 10).size(), size_t(5));  // zero dropped, nothing folded
        PieChart chart("t");
        chart.setEntries(in, 3);
        QCOMPARE(chart.sliceCount(), 3);
        chart.setEntries({});
        QCOMPARE(chart.sliceCount(), 0);
    }

    // The analysis already folded 7 entries into its remainder; the chart folds 2 more named
    // ones and that remainder: "Other (9)", not "Other (3)". A real op called "other" is named.
    void pieOtherCountsAnalysisFoldedEntries() {
        std::vector<ChartSlice> in{{"a", 9}, {"b", 8}, {"other", 7}, {"c", 2}, {"d", 1}, {"other", 5, 7}};
        auto out = pieSlices(in, 4);
        QCOMPARE(out.size(), size_t(4));
        QCOMPARE(out[2].label, QString("other"));
        QCOMPARE(out[3].label, QString("Other (9)"));
        QCOMPARE(out[3].value, 8.0);  // c + d + the analysis' 5
        QCOMPARE(out[3].folded, size_t(9));
        // Nothing to fold: the analysis' remainder keeps its own count.
        auto kept = pieSlices({{"a", 9}, {"other", 5, 7}}, 4);
        QCOMPARE(kept[1].label, QString("Other (7)"));
    }

    void stackedChartSkipsEmptySeries() {
        StackedColumnChart chart("t");
        chart.setData({"1", "2"}, {{"a", {1, 2}}, {"never", {0, 0}}, {"b", {0, 3}}}, "ms");
        QCOMPARE(chart.seriesCount(), 2);
        chart.setData({}, {}, {});
        QCOMPARE(chart.seriesCount(), 0);
    }

    // 3,000 steps: 300 columns of 10 steps each, their mean; a click names the column's first step.
    void stackedChartGroupsManyColumns() {
        StackedColumnChart chart("Step time");
        QStringList steps;
        std::vector<double> values;
        for (int i = 0; i < 3000; ++i) {
            steps << QString::number(i + 1);
            values.push_back(i % 10 == 0 ? 10.0 : 0.0);  // the first of every ten steps
        }
        chart.setData(steps, {{"a", values, QColor()}}, "ms");
        auto* view = chart.findChild<QChartView*>();
        QVERIFY(view);
        QCOMPARE(view->chart()->title(), QString("Step time — steps 1 … 3000 (mean of 10 per column)"));
        auto* bars = qobject_cast<QStackedBarSeries*>(view->chart()->series().value(0));
        QVERIFY(bars);
        QBarSet* set = bars->barSets().value(0);
        QCOMPARE(set->count(), 300);
        QCOMPARE(set->at(0), 1.0);
        QCOMPARE(set->at(299), 1.0);
        // Past 40 columns the axis has no labels (the title names the range): positions only.
        auto* axis = qobject_cast<QValueAxis*>(view->chart()->axes(Qt::Horizontal).value(0));
        QVERIFY(axis);
        QVERIFY(!axis->labelsVisible());
        QCOMPARE(axis->max(), 299.5);
        QSignalSpy clicked(&chart, &StackedColumnChart::columnClicked);
        emit bars->clicked(2, set);
        QCOMPARE(clicked.value(0).value(0).toInt(), 20);
        // 301 categories: columns of 2, the last of one.
        steps = steps.mid(0, 301);
        chart.setData(steps, {{"a", std::vector<double>(301, 4.0), QColor()}}, "ms");
        bars = qobject_cast<QStackedBarSeries*>(view->chart()->series().value(0));
        QCOMPARE(bars->barSets().value(0)->count(), 151);
        QCOMPARE(bars->barSets().value(0)->at(150), 4.0);
    }

    void sliceRowIndexInvertsOccurrences() {
        std::vector<std::vector<SliceRef>> occ{{{0, 5}, {2, 1}}, {{0, 1}}, {}, {{2, 1}, {1, 9}}};
        SliceRowIndex index = SliceRowIndex::build(occ.size(), [&](size_t r) { return occ[r]; });
        QCOMPARE(index.size(), size_t(4));  // {2,1} kept once
        QCOMPARE(index.rowOf({0, 5}).value(), 0u);
        QCOMPARE(index.rowOf({2, 1}).value(), 0u);  // first row wins
        QCOMPARE(index.rowOf({1, 9}).value(), 3u);
        QVERIFY(!index.rowOf({0, 2}).has_value());
        QVERIFY(!SliceRowIndex().rowOf({0, 0}).has_value());
    }
};

QTEST_MAIN(TableWidgetsTest)
#include "tst_table_widgets.moc"
