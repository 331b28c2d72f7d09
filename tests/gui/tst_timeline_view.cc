// The timeline widget: track list, zoom / pan anchoring, click selection and
// the details panel, search, range aggregate, cross-navigation. Offscreen.
#include "hand_trace.h"
#include "model/import/import.h"
#include "model/trace/args.h"
#include "views/details/details_panel.h"
#include "views/details/range_aggregate_model.h"
#include "views/timeline/counter_style.h"
#include "views/timeline/time_format.h"
#include "views/timeline/timeline_canvas.h"
#include "views/timeline/timeline_view.h"
#include "views/trace_selection.h"

#include <QMenu>
#include <QPainter>
#include <QSignalSpy>
#include <QTreeWidget>
#include <QtTest>

#include <algorithm>
#include <cctype>

using namespace tracescope;
using testing::buildHandTrace;
using testing::findSlice;

namespace {

struct Fixture {
    std::shared_ptr<const Trace> trace = buildHandTrace();
    TraceSelection selection;
    TimelineView view;
    DetailsPanel details;

    Fixture() {
        view.resize(1200, 700);
        view.setSelection(&selection);
        details.setSelection(&selection);
        view.setTrace(trace);
        details.setTrace(trace);
        view.show();
        view.waitUntilReady();
        QCoreApplication::processEvents();
    }
    TimelineCanvas* canvas() const { return view.canvas(); }
};

void sendWheel(QWidget* w, QPointF pos, int delta, Qt::KeyboardModifiers mods) {
    QWheelEvent e(pos, w->mapToGlobal(pos), QPoint(), QPoint(0, delta), Qt::NoButton, mods, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(w, &e);
}

void sendMouse(QWidget* w, QEvent::Type type, QPointF pos, Qt::MouseButton button, Qt::MouseButtons buttons,
               Qt::KeyboardModifiers mods = {}) {
    QMouseEvent e(type, pos, w->mapToGlobal(pos), button, buttons, mods);
    QCoreApplication::sendEvent(w, &e);
}

}  // namespace

class TimelineViewTest : public QObject {
    Q_OBJECT
private slots:
    void trackListMatchesTrace() {
        Fixture f;
        // Expected order worked out by hand: the device first, with the derived queue length of
        // its stream after its tracks, then the host with its counter before its threads, the
        // overflow lane right after its thread.
        const QStringList expected = {"/device:GPU:0", "Stream 7", "Queue length · stream 7", "python3", "Memory",
                                      "main",          "worker",   "worker (overflow)"};
        QStringList got;
        for (const LayoutRow& row : f.canvas()->layout().rows())
            got << QString::fromStdString(row.kind == LayoutRow::Kind::Process ? f.trace->processes[row.process].name
                                          : row.kind == LayoutRow::Kind::Derived
                                              ? f.canvas()->controller().derived()->tracks[row.track].name
                                              : f.trace->tracks[row.track].name);
        QCOMPARE(got, expected);
        // main nests 4 levels deep (step > forward > aten::mm > cudaLaunchKernel).
        const LayoutRow* main = f.canvas()->layout().rowOfTrack(findSlice(*f.trace, "step", 0).track);
        QVERIFY(main);
        QCOMPARE(main->depths, 4u);
        // Collapsing the device hides its stream and its queue length.
        f.canvas()->setProcessCollapsed(0, true);
        QCOMPARE(int(f.canvas()->layout().rows().size()), expected.size() - 2);
        QVERIFY(!f.canvas()->layout().rowOfTrack(findSlice(*f.trace, "gemm_kernel", 1000).track));
        // Clicking the process header expands it again.
        const LayoutRow* proc = f.canvas()->layout().rowOfProcess(0);
        QTest::mouseClick(f.canvas(), Qt::LeftButton, {}, QPoint(10, f.canvas()->controller().contentTop() + proc->y + 5));
        QCOMPARE(int(f.canvas()->layout().rows().size()), expected.size());
    }

    void zoomKeepsTimeUnderCursor() {
        Fixture f;
        TimelineCanvas* c = f.canvas();
        c->setVisibleRange(3000, 6000);  // room to zoom out without hitting the trace bounds
        const double x = c->headerWidth() + 333;
        const double before = c->axis().time(x - c->headerWidth());
        sendWheel(c, QPointF(x, 200), 120, Qt::ControlModifier);  // zoom in
        QVERIFY(c->visibleEnd() - c->visibleBegin() < 3000 * 0.9);
        QVERIFY(std::fabs(c->axis().time(x - c->headerWidth()) - before) < c->axis().nsPerPx());
        sendWheel(c, QPointF(x, 200), -240, Qt::ControlModifier);  // zoom out
        QVERIFY(std::fabs(c->axis().time(x - c->headerWidth()) - before) < c->axis().nsPerPx());
        // W zooms at the mouse position too.
        sendMouse(c, QEvent::MouseMove, QPointF(x, 200), Qt::NoButton, Qt::NoButton);
        const double span = c->visibleEnd() - c->visibleBegin();
        QTest::keyClick(c, Qt::Key_W);
        QVERIFY(c->visibleEnd() - c->visibleBegin() < span);
        QVERIFY(std::fabs(c->axis().time(x - c->headerWidth()) - before) < c->axis().nsPerPx());
        // Plain wheel scrolls vertically, not in time.
        const double b0 = c->visibleBegin();
        sendWheel(c, QPointF(x, 200), -120, {});
        QCOMPARE(c->visibleBegin(), b0);
    }

    void dragPansWithTheCursor() {
        Fixture f;
        TimelineCanvas* c = f.canvas();
        c->setVisibleRange(2000, 6000);
        const QPointF from(c->headerWidth() + 500, 300), to(c->headerWidth() + 300, 300);
        const double grabbed = c->axis().time(from.x() - c->headerWidth());
        sendMouse(c, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
        sendMouse(c, QEvent::MouseMove, (from + to) / 2, Qt::NoButton, Qt::LeftButton);
        sendMouse(c, QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton);
        sendMouse(c, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
        QVERIFY(std::fabs(c->axis().time(to.x() - c->headerWidth()) - grabbed) < c->axis().nsPerPx());
        QVERIFY(!c->selectedSlice().valid());  // a drag is not a click
        // D pans right by a tenth of the width.
        const double b = c->visibleBegin();
        QTest::keyClick(c, Qt::Key_D);
        QVERIFY(std::fabs(c->visibleBegin() - (b + 0.1 * (c->visibleEnd() - c->visibleBegin()))) < 2 * c->axis().nsPerPx());
        QTest::keyClick(c, Qt::Key_0);
        QVERIFY(c->visibleBegin() <= 0 && c->visibleEnd() >= 10000);
    }

    // Dragging the name column's edge resizes it; the visible time window stays, and it
    // is clamped to [120 px, half the width].
    void headerEdgeDragResizesNames() {
        Fixture f;
        TimelineCanvas* c = f.canvas();
        c->setVisibleRange(2000, 6000);
        const int before = c->headerWidth();
        const QPointF edge(before, 300), to(before + 80, 300);
        sendMouse(c, QEvent::MouseButtonPress, edge, Qt::LeftButton, Qt::LeftButton);
        sendMouse(c, QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton);
        sendMouse(c, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
        QCOMPARE(c->headerWidth(), before + 80);
        QCOMPARE(c->axis().width(), c->width() - before - 80);
        QVERIFY(std::fabs(c->visibleBegin() - 2000) < 1e-6 && std::fabs(c->visibleEnd() - 6000) < 1e-6);
        QVERIFY(!c->selectedSlice().valid());  // not a click on a slice
        c->setHeaderWidth(10);
        QCOMPARE(c->headerWidth(), 120);
        c->setHeaderWidth(5000);
        QCOMPARE(c->headerWidth(), c->width() / 2);
    }

    // Tooltips name what the cursor is over: an instant in the marker strip, and for a
    // folded bar how many slices share it.
    void tooltipsForInstantsAndFoldedBars() {
        Fixture f;
        TimelineCanvas* c = f.canvas();
        const SliceRef mm = testing::findSlice(*f.trace, "aten::mm", 1000);
        const SliceRef step = testing::findSlice(*f.trace, "step", 0);
        QVERIFY(mm.valid() && step.valid());
        c->setVisibleRange(0, 10000);
        // The marker strip sits just above depth 0 of the main thread.
        const QRectF stepRect = c->sliceRect(step);
        const QPoint onMark(int(c->headerWidth() + c->axis().x(4200)), int(stepRect.top()) - 4);
        QVERIFY2(c->tooltipAt(onMark).contains("mark"), qPrintable(c->tooltipAt(onMark)));
        QVERIFY(!c->tooltipAt(onMark + QPoint(200, 0)).contains("mark"));
        // A wide slice gets no fold note.
        QVERIFY(!c->tooltipAt(c->sliceRect(mm).center().toPoint()).contains("slices in this bar"));

        // 1000 slices of 10 ns every 20 ns: at fit-all each is under a pixel, folded into one bar.
        TraceBuilder b("dense");
        const TrackIndex t = b.addTrack(b.addProcess(ProcessKind::Host, 1, "p"), TrackKind::Thread, "t", 1);
        const StringId name = b.intern("tiny");
        for (int i = 0; i < 1000; ++i) b.addSlice(t, TimeNs(20 * i), 10, name, kEmptyString);
        TimelineView view;
        view.resize(1200, 400);
        view.setTrace(b.finish());
        view.show();
        view.waitUntilReady();
        TimelineCanvas* dense = view.canvas();
        dense->fitAll();
        const double nsPerPx = dense->axis().nsPerPx();
        QVERIFY(nsPerPx > 10 && nsPerPx < 40);
        const QPoint onBar(int(dense->headerWidth() + dense->axis().x(10000)), int(dense->sliceRect({t, 500}).center().y()));
        const QString tip = dense->tooltipAt(onBar);
        // The bar under the cursor spans ~3 px: 3 * nsPerPx / 20 ns slices, give or take one.
        QRegularExpressionMatch m = QRegularExpression("(\\d+) slices in this bar").match(tip);
        QVERIFY2(m.hasMatch(), qPrintable(tip));
        const double expected = 3 * nsPerPx / 20;
        QVERIFY2(std::fabs(m.captured(1).toDouble() - expected) <= 1.5, qPrintable(tip));
    }

    // The counter track says its value under the cursor in a tooltip and draws a marker on the
    // curve there: at 4000 ns the Memory counter holds 100 (set at 2000 ns), the top of its 0..100 scale.
    void counterValueUnderTheCursor() {
        Fixture f;
        TimelineCanvas* c = f.canvas();
        c->setVisibleRange(0, 10000);
        CounterStyleSetting::instance().setMode(CounterDrawMode::Step);  // View > Counters > All as Steps
        TrackIndex memory = kNoIndex;
        for (TrackIndex t = 0; t < f.trace->tracks.size(); ++t)
            if (f.trace->tracks[t].name == "Memory") memory = t;
        const LayoutRow* row = c->layout().rowOfTrack(memory);
        QVERIFY(row);
        const int top = c->controller().contentTop() + c->layout().viewY(*row, c->scrollY());
        const QPoint at(int(c->headerWidth() + c->axis().x(4000)), top + row->height / 2);
        const QString tip = c->tooltipAt(at);
        QVERIFY2(tip.contains("100 since " + formatDurationExact(2000)), qPrintable(tip));
        QVERIFY2(tip.contains("sample 2 of 3"), qPrintable(tip));
        QVERIFY2(tip.contains("next: 50 at " + formatDurationExact(6000)), qPrintable(tip));

        QImage before(c->size(), QImage::Format_RGB32);
        {
            QPainter p(&before);
            c->render(p, c->size());
        }
        sendMouse(c, QEvent::MouseMove, at, Qt::NoButton, Qt::NoButton);
        QImage after(c->size(), QImage::Format_RGB32);
        {
            QPainter p(&after);
            c->render(p, c->size());
        }
        // The marker: at the cursor's x, on the value's y (the plot's top, 3 px under the row's top,
        // for the scale's maximum), the picture changed; far from the cursor on the same row it did not.
        // The marker is a dot in the accent colour (230, 120, 0 in a light palette), 2 px right of the cursor line.
        const int markerY = top + 3;
        const QColor dot = after.pixelColor(at.x() + 2, markerY);
        QVERIFY2(std::abs(dot.red() - 230) < 12 && std::abs(dot.green() - 120) < 12 && dot.blue() < 12,
                 qPrintable(dot.name()));
        QVERIFY(before.pixelColor(at.x() + 2, markerY) != dot);
        QCOMPARE(before.pixel(at.x() - 150, markerY + 20), after.pixel(at.x() - 150, markerY + 20));
        // As a line the value at 4000 ns is read on the segment from 100 @ 2000 to 50 @ 6000.
        CounterStyleSetting::instance().setMode(CounterDrawMode::Line);
        QVERIFY2(c->tooltipAt(at).contains("on the line from"), qPrintable(c->tooltipAt(at)));
        CounterStyleSetting::instance().setMode(std::nullopt);
    }

    // The hidden-tracks list has one entry per hidden track, which shows that track again.
    void hiddenTracksListBringsOneBack() {
        Fixture f;
        TimelineController& ctl = f.canvas()->controller();
        TrackIndex worker = kNoIndex, memory = kNoIndex;
        for (TrackIndex t = 0; t < f.trace->tracks.size(); ++t) {
            if (f.trace->tracks[t].name == "worker") worker = t;
            if (f.trace->tracks[t].name == "Memory") memory = t;
        }
        ctl.setTrackHidden(worker, true);
        ctl.setTrackHidden(memory, true);
        QMenu menu;
        f.canvas()->fillHiddenTracksMenu(menu);
        QAction* showWorker = nullptr;
        for (QAction* a : menu.actions())
            if (a->text() == QStringLiteral("Show python3 › worker")) showWorker = a;
        QVERIFY(showWorker);
        showWorker->trigger();
        QVERIFY(ctl.layout().rowOfTrack(worker));
        QVERIFY(!ctl.layout().rowOfTrack(memory));
        QCOMPARE(ctl.hiddenTracks(), std::vector<TrackIndex>{memory});
    }

    void clickSelectsSliceAndShowsDetails() {
        Fixture f;
        TimelineCanvas* c = f.canvas();
        c->setVisibleRange(0, 10000);
        QSignalSpy spy(&f.selection, &TraceSelection::sliceSelected);
        const SliceRef mm = findSlice(*f.trace, "aten::mm", 1000);
        const QRectF r = c->sliceRect(mm);
        QVERIFY(r.width() > 10);
        QTest::mouseClick(c, Qt::LeftButton, {}, r.center().toPoint());
        QCOMPARE(c->selectedSlice(), mm);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(f.selection.selectedSlice(), mm);
        QCOMPARE(f.details.fieldText("Name"), QString("aten::mm"));
        QCOMPARE(f.details.fieldText("Duration"), QString("2 µs"));
        QCOMPARE(f.details.fieldText("Self time"), QString("1.8 µs"));
        QCOMPARE(f.details.fieldText("Start"), QString("1 µs"));
        QVERIFY(f.details.fieldText("Parent").startsWith("forward"));
        QCOMPARE(f.details.fieldText("Children"), QString("1"));

        // A kernel: all arg types decoded, and the flow back to its launch.
        const SliceRef kernel = findSlice(*f.trace, "gemm_kernel", 1000);
        QTest::mouseClick(c, Qt::LeftButton, {}, c->sliceRect(kernel).center().toPoint());
        QCOMPARE(c->selectedSlice(), kernel);
        QCOMPARE(f.details.fieldText("grid"), QString("128"));
        QCOMPARE(f.details.fieldText("ratio"), QString("0.5"));
        QCOMPARE(f.details.fieldText("label"), QString("abc"));
        QCOMPARE(f.details.fieldText("flag"), QString("true"));
        QCOMPARE(f.details.fieldText("Flows"), QString("1"));
        QCOMPARE(f.details.fieldText("Category"), QString("kernel"));

        // Following the flow link selects the launch and brings it into view.
        const auto links = f.details.sliceTree()->findItems("← from (ac2g)", Qt::MatchExactly | Qt::MatchRecursive, 0);
        QCOMPARE(links.size(), 1);
        c->setVisibleRange(7000, 9000);  // launch out of view
        emit f.details.sliceTree()->itemActivated(links.front(), 1);
        const SliceRef launch = findSlice(*f.trace, "cudaLaunchKernel", 600);
        QCOMPARE(c->selectedSlice(), launch);
        QVERIFY(c->visibleBegin() <= 600 && c->visibleEnd() >= 900);

        // Clicking empty space clears the selection.
        QTest::mouseClick(c, Qt::LeftButton, {}, QPoint(c->width() - 5, c->height() - 5));
        QVERIFY(!c->selectedSlice().valid());
    }

    void flowArrowsOfTheSelectionAreDrawn() {
        Fixture f;
        TimelineCanvas* c = f.canvas();
        c->setVisibleRange(0, 5000);
        auto arrowPixels = [&] {
            QImage img(c->size(), QImage::Format_ARGB32);
            QPainter p(&img);
            c->render(p, img.size());
            p.end();
            // The light palette's flow colour is a saturated blue no slice uses.
            int n = 0;
            for (int y = 0; y < img.height(); ++y)
                for (int x = c->headerWidth(); x < img.width(); ++x) {
                    const QColor px = img.pixelColor(x, y);
                    n += px.blue() > 150 && px.red() < 90 && px.green() < 140 && px.blue() - px.red() > 100;
                }
            return n;
        };
        const int before = arrowPixels();
        c->setSelectedSlice(findSlice(*f.trace, "cudaLaunchKernel", 600), false);
        QVERIFY(arrowPixels() > before + 50);  // a curve from the launch to its kernel
    }

    void tinySlicesAreClickable() {
        // A 50 ns slice inside a 10 ms one: at fit-all it is far narrower than a pixel.
        TraceBuilder b("tiny");
        const ProcessIndex p = b.addProcess(ProcessKind::Host, 1, "p");
        const TrackIndex t = b.addTrack(p, TrackKind::Thread, "t", 1);
        b.addSlice(t, 0, 10'000'000, b.intern("long"), kEmptyString);
        b.addSlice(t, 5'000'000, 50, b.intern("tiny"), kEmptyString);
        std::shared_ptr<const Trace> trace = b.finish();
        TimelineView view;
        view.resize(1000, 400);
        view.setTrace(trace);
        view.show();
        view.waitUntilReady();
        TimelineCanvas* c = view.canvas();
        const SliceRef tiny = findSlice(*trace, "tiny", 5'000'000);
        const QRectF r = c->sliceRect(tiny);
        QVERIFY(r.width() <= 1.0);
        QCOMPARE(c->sliceAtPoint(QPoint(int(r.x()) + 2, int(r.center().y()))), tiny);
        QCOMPARE(c->sliceAtPoint(QPoint(int(r.x()) - 2, int(r.center().y()))), tiny);
        QVERIFY(!c->sliceAtPoint(QPoint(int(r.x()) + 40, int(r.center().y()))).valid());
    }

    void idleGapsShadedWithLegendAndTooltip() {
        // A stream whose second kernel is launched 1 ms after the first ended: one host-wait gap
        // (HTA's rule), shaded on the stream's row while View > Show GPU Idle Gaps is on.
        TraceBuilder b("chrome-json");
        const ProcessIndex host = b.addProcess(ProcessKind::Host, 1, "python3");
        const ProcessIndex dev = b.addProcess(ProcessKind::Device, 0, "GPU 0");
        const TrackIndex ht = b.addTrack(host, TrackKind::Thread, "main", 1);
        const TrackIndex st = b.addTrack(dev, TrackKind::Thread, "stream 7", 7);
        auto corr = [&](int64_t id) {
            ArgsWriter w;
            w.add(b.intern("correlation"), ArgValue::integer(id));
            return w;
        };
        b.addSlice(ht, 0, 1'000, b.intern("cudaLaunchKernel"), b.intern("cuda_runtime"), corr(1));
        b.addSlice(st, 2'000, 100'000, b.intern("K1"), b.intern("kernel"), corr(1));
        b.addSlice(ht, 1'102'000, 1'000, b.intern("cudaLaunchKernel"), b.intern("cuda_runtime"), corr(2));
        b.addSlice(st, 1'104'000, 100'000, b.intern("K2"), b.intern("kernel"), corr(2));
        std::shared_ptr<const Trace> trace = b.finish();
        TimelineView view;
        view.resize(1000, 400);
        view.setTrace(trace);
        view.show();
        view.waitUntilReady();
        TimelineCanvas* c = view.canvas();
        TimelineController& ctl = view.controller();
        QVERIFY(ctl.idleGaps());
        QCOMPARE(ctl.idleGaps()->visible(st, 0, 2'000'000).size(), size_t(1));
        const SliceRef k1 = findSlice(*trace, "K1", 2'000), k2 = findSlice(*trace, "K2", 1'104'000);
        const QRectF r1 = c->sliceRect(k1), r2 = c->sliceRect(k2);
        const QPoint inGap(int((r1.right() + r2.left()) / 2), int(r1.center().y()));
        QVERIFY(c->tooltipAt(inGap).contains(QStringLiteral("host wait")));
        QImage on(c->size(), QImage::Format_ARGB32_Premultiplied);
        {
            QPainter p(&on);
            c->render(p, c->size());
        }
        ctl.setIdleGapsShown(false);
        QVERIFY(!ctl.idleGaps());
        QVERIFY(c->tooltipAt(inGap).isEmpty());
        QImage off(c->size(), QImage::Format_ARGB32_Premultiplied);
        {
            QPainter p(&off);
            c->render(p, c->size());
        }
        // Shaded (orange over the background) only while shown.
        const QColor shaded = on.pixelColor(inGap), plain = off.pixelColor(inGap);
        QVERIFY2(shaded != plain, qPrintable(shaded.name() + " vs " + plain.name()));
        QVERIFY(shaded.red() > shaded.blue());
    }

    void overlappedCommunicationMarked() {
        // An NCCL kernel [0, 1 ms) on stream 7 and a GEMM [500 us, 2 ms) on stream 8: the NCCL
        // kernel's last half ran beside compute (HTA's overlap), marked by a band along the foot of
        // its row while Timeline > Show Overlapped Communication is on; its first half is not.
        TraceBuilder b("chrome-json");
        const ProcessIndex dev = b.addProcess(ProcessKind::Device, 0, "GPU 0");
        const TrackIndex s7 = b.addTrack(dev, TrackKind::Thread, "stream 7", 7);
        const TrackIndex s8 = b.addTrack(dev, TrackKind::Thread, "stream 8", 8);
        b.addSlice(s7, 0, 1'000'000, b.intern("ncclDevKernel_AllReduce_Sum_f32_RING_LL"), b.intern("kernel"));
        b.addSlice(s8, 500'000, 1'500'000, b.intern("gemm"), b.intern("kernel"));
        std::shared_ptr<const Trace> trace = b.finish();
        TimelineView view;
        view.resize(1000, 400);
        view.setTrace(trace);
        view.show();
        view.waitUntilReady();
        TimelineCanvas* c = view.canvas();
        TimelineController& ctl = view.controller();
        QVERIFY(ctl.commOverlap());
        QCOMPARE(ctl.commOverlap()->total().communicationNs, TimeNs(1'000'000));
        QCOMPARE(ctl.commOverlap()->total().overlappedNs, TimeNs(500'000));
        const auto parts = ctl.commOverlap()->visible(s7, 0, 2'000'000);
        QCOMPARE(parts.size(), size_t(1));
        QCOMPARE(parts[0].first, TimeNs(500'000));
        QCOMPARE(parts[0].second, TimeNs(1'000'000));
        QVERIFY(ctl.commOverlap()->visible(s8, 0, 2'000'000).empty());
        const QRectF k = c->sliceRect(findSlice(*trace, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 0));
        const int foot = int(k.bottom()) - 1;
        const QPoint overlapped(int(k.left() + k.width() * 0.75), foot), alone(int(k.left() + k.width() * 0.25), foot);
        auto render = [&] {
            QImage img(c->size(), QImage::Format_ARGB32_Premultiplied);
            QPainter p(&img);
            c->render(p, c->size());
            return img;
        };
        const QImage on = render();
        ctl.setCommOverlapShown(false);
        QVERIFY(!ctl.commOverlap());
        const QImage off = render();
        QVERIFY(on.pixelColor(overlapped) != off.pixelColor(overlapped));
        QCOMPARE(on.pixelColor(alone), off.pixelColor(alone));
    }

    void searchCountsAndNavigation() {
        Fixture f;
        f.view.setSearchText("CUDA");
        f.view.waitUntilReady();
        // Independent count: names containing "cuda" in any case, over all slice columns.
        size_t expect = 0;
        for (const Track& t : f.trace->tracks)
            for (StringId n : t.slices.name) {
                std::string s(f.trace->str(n));
                std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
                expect += s.find("cuda") != std::string::npos;
            }
        QCOMPARE(expect, size_t(2));
        QCOMPARE(f.view.searchMatches().size(), expect);
        QVERIFY(f.canvas()->highlight().active());
        f.view.nextMatch();
        QCOMPARE(f.selection.selectedSlice(), findSlice(*f.trace, "cudaLaunchKernel", 600));
        f.view.nextMatch();
        QCOMPARE(f.selection.selectedSlice(), findSlice(*f.trace, "cudaLaunchKernel", 1100));
        f.view.nextMatch();  // wraps
        QCOMPARE(f.selection.selectedSlice(), findSlice(*f.trace, "cudaLaunchKernel", 600));
        f.view.previousMatch();
        QCOMPARE(f.selection.selectedSlice(), findSlice(*f.trace, "cudaLaunchKernel", 1100));

        f.view.setSearchText("^aten::(mm|add)$", true);
        f.view.waitUntilReady();
        QCOMPARE(f.view.searchMatches().size(), size_t(3));
        f.view.setSearchText("");
        QVERIFY(!f.canvas()->highlight().active());
    }

    void shiftDragAggregatesRange() {
        Fixture f;
        TimelineCanvas* c = f.canvas();
        c->setVisibleRange(0, 10000);
        QObject::connect(&f.view, &TimelineView::rangeSelected, &f.details, &DetailsPanel::showRange);
        // Drag from t=500 to t=5500 with Shift.
        const auto xOf = [&](double t) { return c->headerWidth() + c->axis().x(t); };
        const QPointF a(xOf(500), 300), b(xOf(5500), 300);
        sendMouse(c, QEvent::MouseButtonPress, a, Qt::LeftButton, Qt::LeftButton, Qt::ShiftModifier);
        sendMouse(c, QEvent::MouseMove, (a + b) / 2, Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
        sendMouse(c, QEvent::MouseMove, b, Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
        sendMouse(c, QEvent::MouseButtonRelease, b, Qt::LeftButton, Qt::NoButton, Qt::ShiftModifier);
        const auto range = c->rangeSelection();
        QVERIFY(range.has_value());
        const double tol = c->axis().nsPerPx();
        QVERIFY(std::fabs(double(range->first) - 500) <= tol);
        QVERIFY(std::fabs(double(range->second) - 5500) <= tol);
        // Set the exact range (pixel rounding aside) and check the table against the hand count.
        c->setRangeSelection(500, 5500);
        f.details.waitForRange();
        const RangeAggregate& agg = f.details.rangeModel()->aggregate();
        QCOMPARE(agg.sliceCount, size_t(10));
        QCOMPARE(f.details.rangeModel()->rowCount(), 8);
        QCOMPARE(f.details.rangeModel()->data(f.details.rangeModel()->index(0, RangeAggregateModel::Name)).toString(),
                 QString("backward"));
        QCOMPARE(f.details.rangeModel()->data(f.details.rangeModel()->index(0, RangeAggregateModel::Total)).toString(),
                 QString("4 µs"));
        QTest::keyClick(c, Qt::Key_Escape);
        QVERIFY(!c->rangeSelection().has_value());
    }

    void highlightFromOtherViews() {
        Fixture f;
        TimelineCanvas* c = f.canvas();
        c->setVisibleRange(7000, 9000);
        const SliceRef a = findSlice(*f.trace, "aten::mm", 1000), b = findSlice(*f.trace, "aten::mm", 5500);
        f.selection.highlightSlices({b, a}, "aten::mm: 2 occurrences");
        QVERIFY(c->highlight().refs.count(TimelineHighlight::key(a)));
        QVERIFY(c->highlight().refs.count(TimelineHighlight::key(b)));
        QCOMPARE(c->selectedSlice(), a);  // the earliest, brought into view
        QVERIFY(c->visibleBegin() <= 1000 && c->visibleEnd() >= 3000);
        // A selection made elsewhere is revealed.
        f.selection.selectSlice(b);
        QCOMPARE(c->selectedSlice(), b);
        QVERIFY(c->visibleBegin() <= 5500 && c->visibleEnd() >= 6000);
    }

    void detailsCompactAndCallStackFrames() {
        QCOMPARE(DetailsPanel::callStackFrames(QStringLiteral("a.py(3): f;b.py(9): g; ;c.py(1): <module>")),
                 QStringList({"a.py(3): f", "b.py(9): g", "c.py(1): <module>"}));
        QVERIFY(DetailsPanel::isCallStackKey(QStringLiteral("Call stack")));
        QVERIFY(!DetailsPanel::isCallStackKey(QStringLiteral("Input Dims")));
        // A Kineto op with a recorded stack: one row per frame under "Call stack".
        ImportResult r = importTrace(TRACESCOPE_SHARED_DIR "/testdata/public/kineto/worker0.1623143089861.pt.trace.json.gz");
        QVERIFY(r.ok());
        std::shared_ptr<const Trace> trace(std::move(r.trace));
        DetailsPanel details;
        QSignalSpy empty(&details, &DetailsPanel::emptyChanged);
        details.setTrace(trace);
        QVERIFY(details.isEmpty());
        SliceRef withStack;
        QString stackText;
        for (TrackIndex t = 0; t < trace->tracks.size() && !withStack.valid(); ++t) {
            const Track& track = trace->tracks[t];
            for (uint32_t k = 0; k < track.slices.size() && !withStack.valid(); ++k)
                for (const Arg& a : decodeArgs(track.argsView(), track.slices.args[k]))
                    if (trace->str(a.key) == "Call stack") {
                        withStack = {t, k};
                        stackText = QString::fromStdString(a.value.toString(trace->strings));
                    }
        }
        QVERIFY(withStack.valid());
        details.showSlice(withStack);
        QVERIFY(!details.isEmpty());
        QCOMPARE(empty.count(), 1);
        const int frames = int(stackText.count(QLatin1Char(';'))) + 1 - (stackText.endsWith(QLatin1Char(';')) ? 1 : 0);
        const auto items = details.sliceTree()->findItems(QStringLiteral("Call stack"), Qt::MatchExactly | Qt::MatchRecursive, 0);
        QCOMPARE(items.size(), 1);
        QCOMPARE(items.front()->childCount(), frames);
        QCOMPARE(items.front()->text(1), QStringLiteral("%1 frames").arg(frames));
        details.clear();
        QVERIFY(details.isEmpty());
        QCOMPARE(empty.count(), 2);
    }

    void hiddenCanvasUsesItsNewSize() {
        // resize() on a hidden widget sends no resize event until it is shown; the
        // window set right after must still span the new width (benchmarks render so).
        TimelineCanvas canvas;
        canvas.resize(1920, 1080);
        canvas.setTrace(testing::buildHandTrace());
        canvas.setVisibleRange(1000, 3000);
        QCOMPARE(canvas.axis().width(), 1920 - canvas.headerWidth());
        QImage img(1920, 1080, QImage::Format_ARGB32);
        QPainter p(&img);
        canvas.render(p, img.size());
        QCOMPARE(qRound(canvas.visibleEnd()), 3000);
    }

    void rendersWithoutIndexAndEmpty() {
        TimelineView view;
        view.resize(800, 400);
        QImage img(800, 400, QImage::Format_ARGB32);
        QPainter p(&img);
        view.canvas()->render(p, img.size());  // no trace
        p.end();
        TraceBuilder b("empty");
        view.setTrace(b.finish());
        view.waitUntilReady();
        QVERIFY(!view.grab().isNull());
    }

    void timeFormatting() {
        QCOMPARE(formatDuration(830), QString("830 ns"));
        QCOMPARE(formatDuration(1500), QString("1.5 µs"));
        QCOMPARE(formatDuration(12'345'678), QString("12.35 ms"));
        QCOMPARE(formatDurationExact(1'234'567), QString("1.234567 ms"));
        TimeNs t = 0;
        QVERIFY(parseTime("1.5ms", t));
        QCOMPARE(t, TimeNs(1'500'000));
        QVERIFY(parseTime("2 us", t));
        QCOMPARE(t, TimeNs(2000));
        QVERIFY(parseTime("700", t));
        QCOMPARE(t, TimeNs(700));
        QVERIFY(!parseTime("abc", t));
        TimeNs a = 0, b = 0;
        QVERIFY(parseTimeRange("1.5ms:2ms", a, b));
        QCOMPARE(a, TimeNs(1'500'000));
        QCOMPARE(b, TimeNs(2'000'000));
        QVERIFY(!parseTimeRange("2ms:1ms", a, b));
    }
};

QTEST_MAIN(TimelineViewTest)
#include "tst_timeline_view.moc"
