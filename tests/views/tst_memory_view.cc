// The Memory Profile page and the timeline's derived memory tracks on the PyTorch H100
// trace: the page shows the analysis' numbers (data/.. of tests/memory: the raw-file
// reference), the chart draws the peak and stays within a few points per pixel column,
// hover and click work, the breakdown exports CSV; a trace without memory data explains
// what to record; the timeline lays out one allocated and one reserved track per memory id
// under the device's process.
#include "model/analysis/memory_profile.h"
#include "model/import/import.h"
#include "model/query/track_layout.h"
#include "views/memory/memory_chart.h"
#include "views/memory/memory_profile_view.h"
#include "views/memory/memory_runs_item.h"
#include "views/tables/table_page.h"
#include "views/timeline/timeline_canvas.h"
#include "views/timeline/timeline_index.h"
#include "views/timeline/timeline_view.h"
#include "views/trace_selection.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLabel>
#include <QLineSeries>
#include <QtTest>

using namespace tracescope;

namespace {

std::shared_ptr<const Trace> load(const char* relative) {
    ImportResult r = importTrace(std::string(TRACESCOPE_SHARED_DIR) + "/testdata/" + relative);
    return r.ok() ? std::shared_ptr<const Trace>(std::move(r.trace)) : nullptr;
}

}  // namespace

class TestMemoryView : public QObject {
    Q_OBJECT

private slots:
    // The runs item's pixels, worked out by hand: a plot 4 x 100 px at (10, 20), values up to 100.
    // Layer 1 over columns [0, 2): 40 (its fill from y 20 + 60 = 80 down to the plot's foot,
    // its edge one pixel at y 80); layer 2 over the same columns: 70 (its fill from y 50 down to
    // layer 1's 40 at y 80, exclusive). Fills are translucent (alpha 200 over white), edges opaque.
    void runsItemPixels() {
        const QColor fill1(0, 0, 255, 200), fill2(255, 0, 0, 200), edge1(0, 0, 128), edge2(128, 0, 0);
        MemoryRunsItem item(nullptr);
        std::vector<MemoryRunsItem::Layer> layers{{fill1, edge1, {{0, 2, 40, 40}}}, {fill2, edge2, {{0, 2, 70, 70}}}};
        item.setFrame(QRectF(10, 20, 4, 100), 100, std::move(layers), {}, Qt::black);
        QImage image(30, 130, QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter p(&image);
        item.paint(&p, nullptr, nullptr);
        p.end();
        const auto over = [](const QColor& c) {  // c at alpha 200 over white
            const auto ch = [&](int v) { return (v * 200 + 255 * 55) / 255; };
            return QColor(ch(c.red()), ch(c.green()), ch(c.blue()));
        };
        const auto near = [](QRgb a, const QColor& b) {
            return std::abs(qRed(a) - b.red()) <= 1 && std::abs(qGreen(a) - b.green()) <= 1 &&
                   std::abs(qBlue(a) - b.blue()) <= 1;
        };
        QVERIFY(near(image.pixel(10, 100), over(fill1)));  // layer 1's fill
        QVERIFY(near(image.pixel(11, 119), over(fill1)));  // down to the foot
        QVERIFY(near(image.pixel(10, 80), edge1));         // layer 1's edge over its fill
        QVERIFY(near(image.pixel(11, 60), over(fill2)));   // layer 2's fill
        QVERIFY(near(image.pixel(10, 50), edge2));         // layer 2's edge
        QVERIFY(near(image.pixel(10, 40), Qt::white));     // above the data
        QVERIFY(near(image.pixel(12, 100), Qt::white));    // a column without runs
        QVERIFY(near(image.pixel(5, 100), Qt::white));     // left of the plot
    }

    void pageOnTorchTrace() {
        auto trace = load("gpu/torch_mlp_memory_h100.json");
        QVERIFY(trace);
        TraceSelection selection;
        MemoryProfileView page;
        page.setSelection(&selection);
        page.resize(1600, 1000);
        page.show();
        QSignalSpy ready(&page, &AnalysisView::resultReady);
        page.setTrace(trace);
        QVERIFY(ready.wait(30000));
        QCoreApplication::processEvents();
        const MemoryProfileResult* res = page.result();
        QVERIFY(res);
        // The busiest memory id is shown first: cuda:0 (peak 466.94 MiB) over cpu.
        QCOMPARE(page.memoryIdBox()->count(), 2);
        QCOMPARE(page.memoryIdBox()->currentText(), QStringLiteral("cuda:0"));
        const MemoryIdProfile& m = res->ids[size_t(page.memoryIdBox()->currentIndex())];
        QCOMPARE(page.breakdownModel()->rowCount(), int(m.breakdown.size()));
        QVERIFY(page.summaryLabel()->text().contains(QStringLiteral("467 MiB")));
        // The chart: at most one run per pixel column and layer (allocated, reserved), at the
        // plot area's width: the series Qt Charts fills hold no points (their fill of a
        // polygon zigzagging through every column took seconds).
        MemoryChart* chart = page.chart();
        QVERIFY(chart->runsDrawn() > 0);
        const int plotWidth = int(chart->chart()->plotArea().width());
        QCOMPARE(chart->columnsDrawn(), plotWidth);
        QVERIFY(chart->runsDrawn() <= size_t(2 * plotWidth));
        for (QAbstractSeries* s : chart->chart()->series())
            if (auto* area = qobject_cast<QAreaSeries*>(s)) QCOMPARE(area->upperSeries()->count(), 0);
        QVERIFY(chart->windowBegin() <= m.peakTimeNs && m.peakTimeNs <= chart->windowEnd());
        const QString hover = chart->hoverTextAt(m.peakTimeNs);
        QVERIFY2(hover.contains(QStringLiteral("Memory in use: 467 MiB")), qPrintable(hover));
        // Zoom into a window and back.
        chart->setWindow(m.peakTimeNs - 1'000'000, m.peakTimeNs + 1'000'000);
        QCOMPARE(chart->windowBegin(), m.peakTimeNs - 1'000'000);
        chart->showAll();
        // A click on the chart asks the timeline for that time.
        QSignalSpy jump(&selection, &TraceSelection::timeRequested);
        QChartView* view = chart->chartView();
        const QPoint mid = chart->chart()->plotArea().center().toPoint();
        QTest::mousePress(view->viewport(), Qt::LeftButton, {}, mid);
        QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, mid);
        QCOMPARE(jump.size(), 1);
        const qint64 t = jump[0][0].toLongLong();
        QVERIFY(t >= chart->windowBegin() && t <= chart->windowEnd());
        // CSV export of the breakdown.
        const QString csv = page.breakdownTable()->csv();
        QVERIFY2(csv.startsWith(QStringLiteral("Op name,Allocation size")), qPrintable(csv.left(80)));
        QCOMPARE(csv.count(QLatin1Char('\n')), int(m.breakdown.size()) + 1);
        // Switching memory id refills the page.
        page.memoryIdBox()->setCurrentIndex(0);
        QCOMPARE(page.breakdownModel()->rowCount(), int(res->ids[0].breakdown.size()));
    }

    void pageWithoutMemoryData() {
        auto trace = load("public/catapult/trivial_trace.json");
        QVERIFY(trace);
        MemoryProfileView page;
        page.resize(800, 600);
        page.show();
        QSignalSpy ready(&page, &AnalysisView::resultReady);
        page.setTrace(trace);
        QVERIFY(ready.wait(30000));
        QCoreApplication::processEvents();
        bool explained = false;
        for (QLabel* l : page.findChildren<QLabel*>())
            explained |= l->isVisible() && l->text().contains(QStringLiteral("profile_memory=True"));
        QVERIFY(explained);
    }

    // The timeline's derived tracks: per memory id allocated (+ reserved for PyTorch), under the
    // GPU's process for cuda:0; the Trace itself gains no track.
    void timelineDerivedTracks() {
        auto trace = load("gpu/torch_mlp_memory_h100.json");
        QVERIFY(trace);
        const size_t tracksBefore = trace->tracks.size();
        auto index = TimelineDerivedTracks::of(
            *trace, std::make_shared<MemoryProfileResult>(computeMemoryProfile(*trace)), nullptr);
        QVERIFY(index && index->memory);
        QCOMPARE(index->tracks.size(), size_t(4));  // cpu and cuda:0, allocated and reserved
        QCOMPARE(trace->tracks.size(), tracksBefore);
        TrackLayoutOptions options;
        options.collapsed.assign(trace->processes.size(), 0);
        for (const auto& d : index->tracks) options.derived.push_back({d.process, d.name});
        TrackLayout layout;
        layout.build(*trace, options);
        int derivedRows = 0;
        for (const LayoutRow& row : layout.rows()) {
            if (row.kind != LayoutRow::Kind::Derived) continue;
            ++derivedRows;
            const DerivedCounterTrack& d = index->tracks[row.track];
            QCOMPARE(row.process, d.process);
            if (d.name.find("cuda:0") != std::string::npos)
                QCOMPARE(trace->processes[row.process].kind, ProcessKind::Device);
            QCOMPARE(index->ranges[row.track].size(), d.series.size());
        }
        QCOMPARE(derivedRows, 4);
        const MemoryIdProfile& cuda = index->memory->ids[1];
        QCOMPARE(cuda.memoryId, std::string("cuda:0"));
        QCOMPARE(index->ranges[2].globalMax(), double(cuda.peakBytes));
    }

    // Clicking the cuda:0 memory track at the peak's time sends that event (for Details).
    void clickOnDerivedTrackShowsTheEvent() {
        auto trace = load("gpu/torch_mlp_memory_h100.json");
        QVERIFY(trace);
        TimelineView view;
        view.resize(1400, 900);
        view.show();
        view.setTrace(trace);
        view.waitUntilReady();
        TimelineController& c = view.canvas()->controller();
        const TimelineDerivedTracks* index = c.derived();  // arrived with the store's memory profile
        QVERIFY(index && index->memory);
        const MemoryIdProfile& cuda = index->memory->ids[1];
        const LayoutRow* target = nullptr;
        for (const LayoutRow& row : c.layout().rows())
            if (row.kind == LayoutRow::Kind::Derived && index->tracks[row.track].name == "Memory cuda:0: allocated")
                target = &row;
        QVERIFY(target);
        c.setVisibleRange(double(cuda.peakTimeNs) - 1000, double(cuda.peakTimeNs) + 1000);  // 2 ns per px
        c.setScrollY(std::max(0, target->y - 20));
        const QPoint p(c.headerWidth() + int(std::lround(c.axis().x(double(cuda.peakTimeNs)))) + 1,
                       c.contentTop() + target->y + target->height / 2 - c.scrollY());
        QSignalSpy clicked(&c, &TimelineController::derivedPointClicked);
        QSignalSpy shown(&view, &TimelineView::memoryPointSelected);
        c.press(p, Qt::LeftButton, {});
        c.release(p, Qt::LeftButton);
        QCOMPARE(clicked.size(), 1);
        QVERIFY(std::abs(clicked[0][1].toLongLong() - cuda.peakTimeNs) <= 4);
        QCOMPARE(shown.size(), 1);
        const QString html = shown[0][0].toString();
        QVERIFY2(html.contains(QStringLiteral("Memory in use: 467 MiB")), qPrintable(html));
    }
};

QTEST_MAIN(TestMemoryView)
#include "tst_memory_view.moc"
