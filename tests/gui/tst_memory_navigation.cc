// No dead ends from the memory profile, on the PyTorch H100 trace: a click on the Memory page's
// chart opens the timeline at that moment (a few percent of the data wide, marked, no 1 ns range)
// with the allocations alive then listed in Details (at cuda:0's peak, the 15 allocations of
// 169,217,536 bytes that tests/tools/memory_reference.py matches by address in the raw file:
// tests/memory/data/memory_reference.json); and the timeline's derived memory tracks hide from
// their context menu and come back from the hidden-tracks list, like the trace's own tracks.
#include "app/gui/main_window.h"
#include "model/import/import.h"
#include "model/query/user_layout.h"
#include "views/details/details_panel.h"
#include "views/memory/memory_chart.h"
#include "views/memory/memory_profile_view.h"
#include "views/timeline/timeline_canvas.h"
#include "views/timeline/timeline_view.h"
#include "views/trace_selection.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QMenu>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTreeWidget>
#include <QtTest>

using namespace tracescope;

namespace {

std::shared_ptr<const Trace> torchMemoryTrace() {
    ImportResult r = importTrace(std::string(TRACESCOPE_SHARED_DIR) + "/testdata/gpu/torch_mlp_memory_h100.json");
    return r.ok() ? std::shared_ptr<const Trace>(std::move(r.trace)) : nullptr;
}

int derivedRows(const TimelineController& c, const std::string& name = {}) {
    int n = 0;
    for (const LayoutRow& row : c.layout().rows())
        if (row.kind == LayoutRow::Kind::Derived && (name.empty() || c.derived()->tracks[row.track].name == name)) ++n;
    return n;
}

}  // namespace

class MemoryNavigationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void chartClickShowsTheMomentAndWhatWasAlive() {
        auto trace = torchMemoryTrace();
        QVERIFY(trace);
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        w.setTrace(trace, QStringLiteral("torch_mlp_memory_h100.json"));
        w.timeline()->waitUntilReady();
        QVERIFY(w.showView(QStringLiteral("memory")));
        auto* page = w.findChild<MemoryProfileView*>();
        QVERIFY(page);
        QTRY_VERIFY_WITH_TIMEOUT(page->result() != nullptr, 30000);
        QCoreApplication::processEvents();
        QCOMPARE(page->memoryIdBox()->currentText(), QStringLiteral("cuda:0"));

        // A real click in the middle of the plot.
        QSignalSpy asked(w.selection(), &TraceSelection::timeRequested);
        QChartView* view = page->chart()->chartView();
        const QPoint mid = page->chart()->chart()->plotArea().center().toPoint();
        QTest::mousePress(view->viewport(), Qt::LeftButton, {}, mid);
        QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, mid);
        QCOMPARE(asked.size(), 1);
        const TimeNs t = asked[0][0].toLongLong();
        auto* tabs = w.findChild<QTabWidget*>();
        QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(w.timeline()));
        TimelineCanvas* c = w.timeline()->canvas();
        QCOMPARE(c->controller().markedMoment(), std::optional<TimeNs>(t));
        QVERIFY(!c->rangeSelection());  // no 1 ns range ("0 slices starting in it")
        // 5% of the data's extent, centred on t. The extent leaves out the one event after a long
        // empty stretch: Kineto's "Record Window End" instant at 30,794.975 µs, 4 ms after the
        // "PyTorch Profiler (0)" slice [0, 26,770.659 µs) that holds everything else (raw file).
        const DataExtent extent = c->controller().index()->extent;
        QCOMPARE(extent.begin, trace->startNs);
        QCOMPARE(extent.end, trace->startNs + 26'770'659);
        QCOMPARE(extent.strayAfter, uint64_t(1));
        const double width = c->visibleEnd() - c->visibleBegin();
        QVERIFY2(std::abs(width - 0.05 * double(extent.end - extent.begin)) < 0.001 * width,
                 qPrintable(QString::number(width)));
        QVERIFY(std::abs((c->visibleBegin() + c->visibleEnd()) / 2 - double(t)) < 0.01 * width);
        auto* details = w.findChild<DetailsPanel*>();
        QVERIFY(details && !details->isEmpty());
        QVERIFY(details->isVisible());
        QTreeWidget* tree = details->sliceTree();
        QVERIFY2(tree->topLevelItem(0)->text(0).startsWith(QStringLiteral("Memory cuda:0 at ")),
                 qPrintable(tree->topLevelItem(0)->text(0)));

        // At the peak: the reference's allocations, largest first, each row showing its lifetime.
        const MemoryIdProfile& cuda = page->result()->ids[size_t(page->memoryIdBox()->currentIndex())];
        emit page->chart()->timeClicked(cuda.peakTimeNs);
        const QString title = tree->topLevelItem(0)->text(0);
        QVERIFY2(title.contains(QStringLiteral(": 15 allocations alive, ")), qPrintable(title));
        QCOMPARE(tree->topLevelItem(1)->text(0), QStringLiteral("In use"));
        QCOMPARE(tree->topLevelItemCount(), 2 + 15);
        QTreeWidgetItem* largest = tree->topLevelItem(2);
        QVERIFY2(largest->text(1).contains(QStringLiteral(" · allocated at ")), qPrintable(largest->text(1)));
        const double before = c->visibleBegin();
        emit tree->itemActivated(largest, 1);
        QVERIFY(c->visibleBegin() != before);
        QCOMPARE(c->controller().markedMoment(), std::optional<TimeNs>(cuda.peakTimeNs));  // the mark stays
        QCOMPARE(tree->topLevelItemCount(), 2 + 15);                                       // and so does the list
    }

    void derivedTrackHidesAndComesBack() {
        auto trace = torchMemoryTrace();
        QVERIFY(trace);
        TimelineView view;
        view.setLayoutPersistence(false);
        view.resize(1400, 900);
        view.show();
        view.setTrace(trace);
        view.waitUntilReady();
        TimelineController& c = view.canvas()->controller();
        QVERIFY(c.derived());
        // Four memory tracks and the queue length of the stream with launches.
        QCOMPARE(derivedRows(c), 5);
        QCOMPARE(derivedRows(c, "Queue length · stream 7"), 1);
        const std::string name = "Memory cuda:0: allocated";
        const LayoutRow* row = nullptr;
        for (const LayoutRow& r : c.layout().rows())
            if (r.kind == LayoutRow::Kind::Derived && c.derived()->tracks[r.track].name == name) row = &r;
        QVERIFY(row);
        c.setScrollY(std::max(0, row->y - 20));
        const QPoint onName(40, c.contentTop() + c.layout().viewY(*row, c.scrollY()) + row->height / 2);

        // Its context menu offers to hide it.
        QString offered;
        QTimer::singleShot(0, this, [&] {
            auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
            if (!menu) return;
            for (QAction* a : menu->actions())
                if (a->text().startsWith(QStringLiteral("Hide Track"))) {
                    offered = a->text();
                    a->trigger();
                }
            menu->close();
        });
        QContextMenuEvent menuEvent(QContextMenuEvent::Mouse, onName, view.canvas()->mapToGlobal(onName));
        QApplication::sendEvent(view.canvas(), &menuEvent);
        QCOMPARE(offered, QStringLiteral("Hide Track “Memory cuda:0: allocated”"));
        QCOMPARE(derivedRows(c, name), 0);
        QCOMPARE(derivedRows(c), 4);
        QCOMPARE(c.hiddenCount(), size_t(1));
        QVERIFY(serializeUserLayout(c.userLayout()).find("hidden-derived " + name) != std::string::npos);

        // Recomputed derived tracks (a new delivery) stay hidden: hiding goes by name.
        c.setDerivedTracks(std::make_shared<TimelineDerivedTracks>(*c.derived()));
        QCOMPARE(derivedRows(c, name), 0);

        // The hidden-tracks list brings it back.
        QMenu hidden;
        view.canvas()->fillHiddenTracksMenu(hidden);
        QAction* show = nullptr;
        for (QAction* a : hidden.actions())
            if (a->text() == QStringLiteral("Show Memory cuda:0: allocated")) show = a;
        QVERIFY(show);
        show->trigger();
        QCOMPARE(derivedRows(c), 5);
        QCOMPARE(c.hiddenCount(), size_t(0));
    }
};

QTEST_MAIN(MemoryNavigationTest)
#include "tst_memory_navigation.moc"
