// The timeline's controller without a widget: input in widget coordinates
// turns into window, scroll, selection and range changes, and the signals the
// view listens to. Numbers from the hand trace (hand_trace.h).
#include "hand_trace.h"
#include "model/trace/trace_builder.h"
#include "views/timeline/timeline_controller.h"
#include "views/timeline/timeline_index.h"

#include <QSignalSpy>
#include <QtTest>

using namespace tracescope;

namespace {

struct Setup {
    std::shared_ptr<const Trace> trace = testing::buildHandTrace();
    TimelineController c;
    Setup() {
        c.setSize(QSize(1260, 800));  // a 1000 px track area with the default 260 px name column
        c.setTrace(trace);
        c.setIndex(TimelineIndex::build(*trace));
        c.setVisibleRange(0, 10000);  // 10 ns per px
    }
    // Widget point of time `t` at nesting `depth` of a track.
    QPoint at(TrackIndex track, double t, uint32_t depth) const {
        const LayoutRow* row = c.layout().rowOfTrack(track);
        return QPoint(c.headerWidth() + int(c.axis().x(t)),
                      c.contentTop() + c.layout().depthTop(*row, depth) + 5 - c.scrollY());
    }
    TrackIndex trackNamed(const char* name) const {
        for (TrackIndex t = 0; t < trace->tracks.size(); ++t)
            if (trace->tracks[t].name == name) return t;
        return kNoIndex;
    }
};

}  // namespace

class TimelineControllerTest : public QObject {
    Q_OBJECT
private slots:
    void wheelZoomKeepsTimeUnderCursor() {
        Setup s;
        QCOMPARE(s.c.axis().width(), 1000);
        QSignalSpy view(&s.c, &TimelineController::viewChanged);
        const double x = s.c.headerWidth() + 250;  // 2500 ns
        QVERIFY(s.c.wheel(QPointF(x, 300), QPoint(0, 120), Qt::ControlModifier));
        QVERIFY(s.c.axis().end() - s.c.axis().begin() < 10000);
        QCOMPARE(qRound(s.c.axis().time(x - s.c.headerWidth())), 2500);
        QVERIFY(view.count() >= 1);
        // W zooms in at the middle, S back out; A / D pan by a tenth of the width.
        s.c.setVisibleRange(0, 10000);
        QVERIFY(s.c.key(Qt::Key_W));
        QCOMPARE(qRound(s.c.axis().end() - s.c.axis().begin()), 8000);
        QVERIFY(s.c.key(Qt::Key_S));
        QCOMPARE(qRound(s.c.axis().end() - s.c.axis().begin()), 10000);
        s.c.setVisibleRange(0, 5000);  // pan stays inside the trace (plus a margin): leave room
        QVERIFY(s.c.key(Qt::Key_D));
        QCOMPARE(qRound(s.c.axis().begin()), 500);
        QVERIFY(!s.c.key(Qt::Key_Q));  // not ours
    }

    void dragPansAndScrolls() {
        Setup s;
        s.c.setSize(QSize(1260, 120));  // short: the content scrolls
        s.c.setVisibleRange(0, 5000);
        QVERIFY(s.c.maxScrollY() > 0);
        const QPoint p0(s.c.headerWidth() + 500, 80);
        s.c.press(p0, Qt::LeftButton, {});
        s.c.move(p0 + QPoint(-100, -10), 4);
        s.c.release(p0 + QPoint(-100, -10), Qt::LeftButton);
        QCOMPARE(qRound(s.c.axis().begin()), 500);  // 100 px at 5 ns/px
        QCOMPARE(s.c.scrollY(), 10);
    }

    void clickSelectsAndEscapeClears() {
        Setup s;
        QSignalSpy clicked(&s.c, &TimelineController::sliceClicked);
        const TrackIndex main = s.trackNamed("main");
        QVERIFY(main != kNoIndex);
        const QPoint p = s.at(main, 2000, 2);  // aten::mm [1000,3000) at depth 2
        s.c.press(p, Qt::LeftButton, {});
        s.c.release(p, Qt::LeftButton);
        QCOMPARE(clicked.count(), 1);
        const SliceRef sel = s.c.selectedSlice();
        QVERIFY(sel.valid());
        QCOMPARE(s.trace->str(s.trace->tracks[sel.track].slices.name[sel.index]), std::string_view("aten::mm"));
        QVERIFY(s.c.key(Qt::Key_Escape));
        QVERIFY(!s.c.selectedSlice().valid());
        QCOMPARE(clicked.count(), 2);
        // Double-click zooms to the slice: [1000, 3000) plus a tenth either side.
        s.c.doubleClick(p);
        QCOMPARE(qRound(s.c.axis().begin()), 800);
        QCOMPARE(qRound(s.c.axis().end()), 3200);
    }

    void shiftDragSelectsRange() {
        Setup s;
        QSignalSpy range(&s.c, &TimelineController::rangeSelected);
        QSignalSpy cleared(&s.c, &TimelineController::rangeCleared);
        const QPoint a(s.c.headerWidth() + 100, 200), b(s.c.headerWidth() + 400, 220);
        s.c.press(a, Qt::LeftButton, Qt::ShiftModifier);
        s.c.move(b, 4);
        s.c.release(b, Qt::LeftButton);
        QCOMPARE(range.count(), 1);
        QCOMPARE(range.at(0).at(0).toLongLong(), 1000);
        QCOMPARE(range.at(0).at(1).toLongLong(), 4000);
        QVERIFY(s.c.rangeSelection().has_value());
        // F zooms to the range; Esc clears it.
        QVERIFY(s.c.key(Qt::Key_F));
        QCOMPARE(qRound(s.c.axis().begin()), 1000);
        QVERIFY(s.c.key(Qt::Key_Escape));
        QCOMPARE(cleared.count(), 1);
        QVERIFY(!s.c.rangeSelection());
    }

    void hideFilterAndCollapseAll() {
        Setup s;
        const TrackIndex worker = s.trackNamed("worker");
        QVERIFY(s.c.layout().rowOfTrack(worker));
        s.c.setTrackHidden(worker, true);
        QVERIFY(!s.c.layout().rowOfTrack(worker));
        QCOMPARE(s.c.hiddenTracks(), std::vector<TrackIndex>{worker});
        s.c.showAllTracks();
        QVERIFY(s.c.layout().rowOfTrack(worker));
        // Filter by track name: only "main" stays, with its process header.
        s.c.setTrackFilter("MAIN");
        size_t tracks = 0;
        for (const LayoutRow& r : s.c.layout().rows()) tracks += r.kind == LayoutRow::Kind::Track;
        QCOMPARE(tracks, size_t(1));
        QVERIFY(s.c.layout().rowOfTrack(s.trackNamed("main")));
        s.c.setTrackFilter("");
        s.c.setAllCollapsed(true);
        for (const LayoutRow& r : s.c.layout().rows()) QCOMPARE(r.kind, LayoutRow::Kind::Process);
        s.c.setAllCollapsed(false);
        QVERIFY(s.c.layout().rowOfTrack(worker));
    }

    void headerClickCollapsesAndEdgeDragResizes() {
        Setup s;
        QSignalSpy height(&s.c, &TimelineController::contentHeightChanged);
        const int before = s.c.layout().contentHeight();
        const LayoutRow& first = s.c.layout().rows().front();
        QCOMPARE(first.kind, LayoutRow::Kind::Process);
        const QPoint header(40, s.c.contentTop() + first.y + 5);
        s.c.press(header, Qt::LeftButton, {});
        s.c.release(header, Qt::LeftButton);
        QVERIFY(s.c.processCollapsed(first.process));
        QVERIFY(s.c.layout().contentHeight() < before);
        QVERIFY(height.count() >= 1);
        // Dragging the name column's edge.
        const double begin = s.c.axis().begin(), end = s.c.axis().end();
        s.c.press(QPoint(s.c.headerWidth(), 300), Qt::LeftButton, {});
        s.c.move(QPoint(320, 300), 4);
        s.c.release(QPoint(320, 300), Qt::LeftButton);
        QCOMPARE(s.c.headerWidth(), 320);
        QCOMPARE(s.c.axis().width(), 940);
        QCOMPARE(s.c.axis().begin(), begin);  // the window stays
        QVERIFY(qAbs(s.c.axis().end() - end) < 1e-6);
    }

    // A pinned track leaves its process for the strip at the top and stays there while the
    // rest scrolls; clicks on it still select its slices.
    void pinnedTrackStaysOnTop() {
        Setup s;
        s.c.setSize(QSize(1260, 120));  // short: the content scrolls
        QSignalSpy saved(&s.c, &TimelineController::layoutChanged);
        const TrackIndex stream = s.trackNamed("Stream 7");
        s.c.setTrackPinned(stream, true);
        QCOMPARE(saved.count(), 1);
        const LayoutRow* row = s.c.layout().rowOfTrack(stream);
        QVERIFY(row && row->pinned && row->y == 0);
        s.c.setScrollY(s.c.maxScrollY());
        QVERIFY(s.c.scrollY() > 0);
        // Still at the top of the track area, whatever the scroll.
        const QPoint onIt(s.c.headerWidth() + 5, s.c.contentTop() + row->slicesTop + 5);
        QCOMPARE(s.c.rowAtPoint(onIt), row);
        QCOMPARE(s.c.userLayout().options.pinnedTracks[stream], uint8_t(1));
        s.c.resetLayout();
        QVERIFY(!s.c.layout().rowOfTrack(stream)->pinned);
    }

    // Dragging a track's name onto another track of its process moves it there; a click on
    // a process header still collapses it.
    void dragMovesTrack() {
        Setup s;
        const TrackIndex main = s.trackNamed("main"), worker = s.trackNamed("worker");
        const LayoutRow* mainRow = s.c.layout().rowOfTrack(main);
        const LayoutRow* workerRow = s.c.layout().rowOfTrack(worker);
        QVERIFY(mainRow->y < workerRow->y);
        const QPoint from(40, s.c.contentTop() + mainRow->y + 4);
        const QPoint to(40, s.c.contentTop() + workerRow->y + workerRow->height - 3);  // lower half: after it
        s.c.press(from, Qt::LeftButton, {});
        s.c.move(to, 4);
        QVERIFY(s.c.dropIndicatorY().has_value());
        s.c.release(to, Qt::LeftButton);
        QVERIFY(s.c.layout().rowOfTrack(worker)->y < s.c.layout().rowOfTrack(main)->y);
        QVERIFY(!s.c.dropIndicatorY().has_value());
    }

    // M asks for a bookmark at the selected slice's start; bookmarks stay sorted, and going to
    // one centres the window on it with the same zoom.
    void bookmarks() {
        Setup s;
        QSignalSpy asked(&s.c, &TimelineController::bookmarkRequested);
        const TrackIndex main = s.trackNamed("main");
        s.c.setSelectedSlice({main, 0}, false);
        QVERIFY(s.c.key(Qt::Key_M));
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked[0][0].toLongLong(), qint64(s.trace->tracks[main].slices.start[0]));
        s.c.addBookmark(7000, "late");
        s.c.addBookmark(2000, "early");
        QCOMPARE(s.c.bookmarks().front().label, std::string("early"));
        s.c.setVisibleRange(0, 1000);
        s.c.goToBookmark(1);
        QCOMPARE(qRound(s.c.axis().begin()), 6500);
        QCOMPARE(qRound(s.c.axis().end()), 7500);
        s.c.removeBookmark(0);
        QCOMPARE(s.c.bookmarks().size(), size_t(1));
    }

    // A click in the overview strip centres the window on that time; the strip can be turned off.
    void minimapMovesTheWindow() {
        Setup s;
        s.c.setVisibleRange(0, 1000);
        const double target = double(s.trace->startNs) + double(s.trace->spanNs()) * 0.75;
        const QPoint click(int(std::lround(s.c.minimapX(target))), TimelineController::kRulerHeight + 10);
        QVERIFY(s.c.inMinimap(click));
        s.c.press(click, Qt::LeftButton, {});
        s.c.release(click, Qt::LeftButton);
        QVERIFY(std::abs((s.c.axis().begin() + s.c.axis().end()) / 2 - target) < double(s.trace->spanNs()) / 500);
        QCOMPARE(qRound(s.c.axis().end() - s.c.axis().begin()), 1000);
        const int top = s.c.contentTop();
        s.c.setMinimapVisible(false);
        QCOMPARE(s.c.contentTop(), top - TimelineController::kMinimapHeight);
        QVERIFY(!s.c.inMinimap(click));
    }

    // The mouse over the Memory counter (0 @ 0, 100 @ 2000, 50 @ 6000 ns) at 4000 ns: drawn as steps the
    // sample in effect is 100 @ 2000; as a line, halfway from 100 to 50: 75. The track's own choice wins
    // over the View menu's and is saved with the layout; leaving the canvas ends the readout.
    void counterHoverReadsTheValue() {
        Setup s;
        const TrackIndex memory = s.trackNamed("Memory");
        const LayoutRow* row = s.c.layout().rowOfTrack(memory);
        QVERIFY(row);
        QVERIFY(!s.c.counterHover());
        QCOMPARE(s.c.counterMode(*row), CounterDrawMode::Step);  // not an XSpace: steps
        const QPoint at(s.c.headerWidth() + 400, s.c.contentTop() + s.c.layout().viewY(*row, s.c.scrollY()) + row->height / 2);
        QSignalSpy changed(&s.c, &TimelineController::changed);
        s.c.move(at, 4);
        QVERIFY(changed.count() >= 1);  // repaint for the marker
        auto h = s.c.counterHover();
        QVERIFY(h);
        QCOMPARE(h->row.track, memory);
        QVERIFY(h->hover.valid);
        QCOMPARE(h->hover.sample, size_t(1));
        QCOMPARE(h->hover.sampleTime, TimeNs(2000));
        QCOMPARE(h->hover.value, 100.0);

        s.c.setGlobalCounterMode(CounterDrawMode::Line);
        QCOMPARE(s.c.counterHover()->hover.value, 75.0);
        s.c.setCounterModeOverride(*row, CounterDrawMode::Step);
        QCOMPARE(s.c.counterMode(*row), CounterDrawMode::Step);
        QCOMPARE(s.c.counterHover()->hover.value, 100.0);
        const std::string saved = serializeUserLayout(s.c.userLayout());
        QVERIFY2(saved.find("counter-steps " + std::to_string(memory)) != std::string::npos, saved.c_str());
        s.c.setCounterModeOverride(*row, std::nullopt);
        QCOMPARE(s.c.counterMode(*row), CounterDrawMode::Line);
        s.c.applyUserLayout(parseUserLayout(saved, *s.trace));
        QCOMPARE(s.c.counterMode(*s.c.layout().rowOfTrack(memory)), CounterDrawMode::Step);

        // Over a thread track there is no counter readout; after leaving, none either.
        s.c.move(s.at(s.trackNamed("main"), 4000, 0), 4);
        QVERIFY(!s.c.counterHover());
        s.c.move(at, 4);
        QVERIFY(s.c.counterHover());
        s.c.leave();
        QVERIFY(!s.c.counterHover());
    }

    // Fit All shows the span with data: a counter sampled once at 0 and 200 slices from 58 s
    // (tst_data_extent works the extent out: [58 s, 59.995 s]). The trace opens on its whole
    // span, the index narrows it to the data; Shift+Home shows the whole span, 0 the data again.
    void fitAllLeavesOutLongEmptyMargins() {
        constexpr TimeNs kS = 1'000'000'000, kMs = 1'000'000;
        TraceBuilder b("hand");
        const ProcessIndex p = b.addProcess(ProcessKind::Host, 1, "python3");
        const TrackIndex main = b.addTrack(p, TrackKind::Thread, "main", 1);
        b.addCounterSample(b.addTrack(p, TrackKind::Counter, "Memory"), 0, 1);
        for (int i = 0; i < 200; ++i) b.addSlice(main, 58 * kS + i * 10 * kMs, 5 * kMs, b.intern("op"), kEmptyString);
        std::shared_ptr<const Trace> trace = b.finish();
        TimelineController c;
        c.setSize(QSize(1260, 800));
        c.setTrace(trace);
        auto shows = [&](double begin, double end) {
            const double margin = (end - begin) * 0.01;
            return std::abs(c.axis().begin() - (begin - margin)) < 1e3 &&
                   std::abs(c.axis().end() - (end + margin)) < 1e3;
        };
        QVERIFY(shows(0, double(trace->endNs)));  // before the index: the whole span
        c.setIndex(TimelineIndex::build(*trace));
        QVERIFY(shows(58 * kS, 58 * kS + 1995 * kMs));
        QVERIFY(c.key(Qt::Key_Home, Qt::ShiftModifier));
        QVERIFY(shows(0, double(trace->endNs)));
        QVERIFY(c.key(Qt::Key_0));
        QVERIFY(shows(58 * kS, 58 * kS + 1995 * kMs));
        c.fitWholeSpan();
        QVERIFY(shows(0, double(trace->endNs)));
        // A window the user chose before the index arrived stays.
        c.setTrace(trace);
        c.setVisibleRange(10 * kS, 20 * kS);
        c.setIndex(TimelineIndex::build(*trace));
        QCOMPARE(c.axis().begin(), double(10 * kS));
    }

    // A moment sent from another page: centred, 5% of the data wide (10 ns of the hand trace's
    // 10 µs would be under the 1 µs floor: 1 µs), marked without a range; Esc clears the mark.
    void showMomentCentresAndMarks() {
        Setup s;
        QSignalSpy ranges(&s.c, &TimelineController::rangeSelected);
        s.c.showMoment(4000);
        QCOMPARE(s.c.axis().begin(), 3500.0);
        QCOMPARE(qRound(s.c.axis().end()), 4500);
        QCOMPARE(s.c.markedMoment(), std::optional<TimeNs>(4000));
        QVERIFY(!s.c.hasRange());
        QCOMPARE(ranges.count(), 0);
        s.c.showSpan(1000, 3000);  // an allocation's lifetime, 5% of room either side but at least 0.5 µs
        QCOMPARE(s.c.axis().begin(), 500.0);
        QCOMPARE(qRound(s.c.axis().end()), 3500);
        QCOMPARE(s.c.markedMoment(), std::optional<TimeNs>(4000));
        QVERIFY(s.c.key(Qt::Key_Escape));
        QVERIFY(!s.c.markedMoment());
    }
};

QTEST_GUILESS_MAIN(TimelineControllerTest)
#include "tst_timeline_controller.moc"
