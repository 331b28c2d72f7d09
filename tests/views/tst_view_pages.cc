// Every analysis page on real traces from ../shared/testdata: the analysis runs off the
// UI thread and the page fills; every item model on the page passes
// QAbstractItemModelTester on real results; kernel stats on the PyTorch H100 trace agree
// with tests/tools/kernel_totals.py (data/torch_mlp_memory_h100.kernels.json); each
// page renders at 1600x1000. With TRACESCOPE_SCREENSHOT_DIR set, the renders are saved
// there as PNG (<file>_<view>.png) to look at.
#include "model/import/import.h"
#include "model/trace/trace_builder.h"
#include "views/analysis_view.h"
#include "views/tables/kernel_stats_view.h"
#include "views/tables/op_stats_view.h"
#include "views/tables/table_filter_proxy.h"
#include "views/tables/table_page.h"
#include "views/tables/value_format.h"
#include "views/trace_selection.h"
#include "views/view_catalog.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace tracescope;

namespace {

QString sharedFile(const char* relative) { return QStringLiteral(TRACESCOPE_SHARED_DIR "/testdata/") + relative; }

std::shared_ptr<const Trace> load(const QString& path) {
    ImportResult r = importTrace(path.toStdString());
    if (!r.ok()) qWarning("import of %s failed: %s", qPrintable(path), r.error.c_str());
    return r.ok() ? std::shared_ptr<const Trace>(std::move(r.trace)) : nullptr;
}

// Distinct non-background colours in a coarse sample: an empty-looking page has very few.
int distinctColours(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y) & 0xF0F0F0);
    return colours.size();
}

}  // namespace

class ViewPagesTest : public QObject {
    Q_OBJECT
private slots:
    void pagesOnRealFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("torch-h100") << sharedFile("gpu/torch_mlp_memory_h100.json");
        QTest::newRow("jax-h100") << sharedFile("gpu/jax_mlp_h100.xplane.pb");
        QTest::newRow("jax-steady") << sharedFile("gpu/jax0.11.2_h100_steady_emit_xspace.xplane.pb");
        QTest::newRow("kineto-worker0") << sharedFile("public/kineto/worker0.1623143089861.pt.trace.json.gz");
        QTest::newRow("catapult-cpu") << sharedFile("public/catapult/simple_trace.json");
    }

    void pagesOnRealFiles() {
        QFETCH(QString, file);
        if (!QFileInfo::exists(file)) QSKIP("test data not present");
        std::shared_ptr<const Trace> trace = load(file);
        QVERIFY(trace);
        const QString outDir = qEnvironmentVariable("TRACESCOPE_SCREENSHOT_DIR");
        TraceSelection selection;
        for (const ViewFactory& f : analysisViewFactories()) {
            std::unique_ptr<TraceView> view(f.create(nullptr));
            auto* page = qobject_cast<AnalysisView*>(view.get());
            QVERIFY(page);
            page->setSelection(&selection);
            page->resize(1600, 1000);
            page->show();
            QSignalSpy ready(page, &AnalysisView::resultReady);
            page->setTrace(trace);
            QVERIFY2(ready.wait(30000), qPrintable(f.id));
            QCoreApplication::processEvents();
            // Every model on the page is consistent.
            std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
            for (QAbstractItemModel* m : page->findChildren<QAbstractItemModel*>())
                testers.push_back(std::make_unique<QAbstractItemModelTester>(
                    m, QAbstractItemModelTester::FailureReportingMode::QtTest));
            QImage image = page->grab().toImage();
            QCOMPARE(image.size(), QSize(1600, 1000));
            QVERIFY2(distinctColours(image) > 3, qPrintable(f.id));
            if (!outDir.isEmpty())
                image.save(QStringLiteral("%1/%2_%3.png").arg(outDir, QString::fromLatin1(QTest::currentDataTag()), f.id));
            // Navigation on the real result: activating every first row does not crash
            // and publishes only valid slices.
            if (auto* table = page->findChild<TablePage*>(); table && table->proxy()->rowCount() > 0) {
                QSignalSpy spy(&selection, &TraceSelection::slicesHighlighted);
                emit table->sourceRowActivated(table->proxy()->mapToSource(table->proxy()->index(0, 0)).row());
                for (const auto& args : spy)
                    for (const SliceRef& s : args[0].value<std::vector<SliceRef>>()) {
                        QVERIFY(s.track < trace->tracks.size());
                        QVERIFY(s.index < trace->tracks[s.track].slices.size());
                    }
            }
        }
    }

    void hloGroupingOnXSpace() {
        const QString file = sharedFile("gpu/jax0.11.2_h100_steady_emit_xspace.xplane.pb");
        if (!QFileInfo::exists(file)) QSKIP("test data not present");
        std::shared_ptr<const Trace> trace = load(file);
        QVERIFY(trace);
        // Regrouping moves time between rows, never changes the side's total.
        OpStatsOptions byName, byHlo;
        byHlo.grouping = OpGrouping::ByHloOp;
        const OpStatsResult a = computeOpStats(*trace, byName), b = computeOpStats(*trace, byHlo);
        QCOMPARE(b.deviceTotalSelfNs, a.deviceTotalSelfNs);
        QCOMPARE(b.hostTotalSelfNs, a.hostTotalSelfNs);
        size_t deviceRows = 0;
        for (const OpStatsRow& r : b.rows)
            if (r.side == OpSide::Device && !r.isIdle) {
                ++deviceRows;
                QVERIFY2(r.name != "XlaModule:", r.name.c_str());  // the HLO op, not JAX's empty tf_op
            }
        QVERIFY(deviceRows > 1);  // custom-call.1 and gemm_fusion_dot_general.1 in this run
        // The page offers the grouping for XSpace files.
        OpStatsView view;
        QSignalSpy ready(&view, &AnalysisView::resultReady);
        view.setTrace(trace);
        QVERIFY(ready.wait(30000));
        const int hlo = view.groupBox()->findData(int(OpGrouping::ByHloOp));
        QVERIFY(hlo >= 0);
        view.groupBox()->setCurrentIndex(hlo);
        QVERIFY(ready.wait(30000));
        QCOMPARE(view.result()->options.grouping, OpGrouping::ByHloOp);
    }

    void kernelTotalsMatchTheRawFile() {
        const QString file = sharedFile("gpu/torch_mlp_memory_h100.json");
        if (!QFileInfo::exists(file)) QSKIP("test data not present");
        QFile expectedFile(QStringLiteral(TRACESCOPE_TEST_DATA_DIR "/torch_mlp_memory_h100.kernels.json"));
        QVERIFY(expectedFile.open(QIODevice::ReadOnly));
        const QJsonObject expected = QJsonDocument::fromJson(expectedFile.readAll()).object();
        std::shared_ptr<const Trace> trace = load(file);
        QVERIFY(trace);
        KernelStatsView view;
        QSignalSpy ready(&view, &AnalysisView::resultReady);
        view.setTrace(trace);
        QVERIFY(ready.wait(30000));
        // Sum the table as shown (raw values of the Occurrences and Total columns).
        auto* model = view.model();
        qint64 count = 0, total = 0;
        for (int r = 0; r < model->rowCount(); ++r) {
            count += model->index(r, KernelStatsView::Occurrences).data(AnalysisTableModel::SortRole).toLongLong();
            total += model->index(r, KernelStatsView::Total).data(AnalysisTableModel::SortRole).toLongLong();
        }
        QCOMPARE(count, qint64(expected["kernelCount"].toInteger()));
        QCOMPARE(total, qint64(expected["totalKernelNs"].toInteger()));
        // The CSV has one line per row plus the header.
        QCOMPARE(view.table()->csv().count("\r\n"), model->rowCount() + 1);
    }

    // A trace with more distinct kernel configurations than a table shows: the table
    // keeps the kMaxTableRows with the most time (ranked), the summary says so.
    void kernelTableKeepsTheTopRows() {
        TraceBuilder b("many kernels");
        const ProcessIndex gpu = b.addProcess(ProcessKind::Device, 0, "/device:GPU:0");
        const TrackIndex stream = b.addTrack(gpu, TrackKind::Thread, "Stream #7", 7);
        const StringId name = b.intern("void gemm<float>(float*)"), kernel = b.intern("kernel"), grid = b.intern("grid");
        const size_t extra = 7, n = kMaxTableRows + extra;
        TimeNs t = 0;
        for (size_t i = 0; i < n; ++i) {
            // Kernel i: its own grid, so its own row, lasting 1000 + i ns.
            ArgsWriter args;
            args.add(grid, ArgValue::json(b.intern("[" + std::to_string(i + 1) + ",1,1]")));
            b.addSlice(stream, t, TimeNs(1000 + i), name, kernel, args);
            t += TimeNs(2000 + i);
        }
        std::shared_ptr<const Trace> trace = b.finish();
        KernelStatsView view;
        QSignalSpy ready(&view, &AnalysisView::resultReady);
        view.setTrace(trace);
        QVERIFY(ready.wait(30000));
        auto* model = view.model();
        QCOMPARE(size_t(model->rowCount()), kMaxTableRows);
        qint64 minTotal = INT64_MAX, maxTotal = 0;
        for (int r = 0; r < model->rowCount(); ++r) {
            const qint64 total = model->index(r, KernelStatsView::Total).data(AnalysisTableModel::SortRole).toLongLong();
            minTotal = std::min(minTotal, total);
            maxTotal = std::max(maxTotal, total);
        }
        QCOMPARE(minTotal, qint64(1000 + extra));  // the `extra` shortest are left out
        QCOMPARE(maxTotal, qint64(1000 + n - 1));
        QVERIFY(view.summaryText().contains(formatCount(qint64(kMaxTableRows)) + " with the most time"));
    }
};

QTEST_MAIN(ViewPagesTest)
#include "tst_view_pages.moc"
