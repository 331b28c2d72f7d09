#include "app/gui/screenshot.h"

#include <QRegularExpression>

#include "views/name_style.h"

#include <QLineEdit>

#include "app/gui/main_window.h"
#include "model/results/summary_run.h"
#include "app/gui/guide_window.h"
#include "app/gui/run_loader.h"
#include "model/import/import_preview.h"
#include "model/import/import.h"
#include "model/query/slice_queries.h"
#include "views/analysis_view.h"
#include "views/capture/capture_dialog.h"
#include "views/capture/launch_dialog.h"
#include "views/flame/range_flame_panel.h"
#include "views/query/query_view.h"
#include "views/step_marker_choice.h"
#include "views/tables/op_stats_view.h"
#include "views/timeline/counter_style.h"
#include "views/timeline/time_format.h"
#include "views/timeline/timeline_view.h"
#include "views/trace_selection.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLayout>
#include <QMouseEvent>
#include <QPlainTextEdit>
#include <QPixmap>

#include <cstdio>

namespace tracescope {

namespace {

int fail(const QString& message) {
    std::fprintf(stderr, "tracescope: %s\n", message.toLocal8Bit().constData());
    return 1;
}

// Lets queued work (watchers' finished signals, layouts, other views' async jobs) run for a moment.
void settle(int ms) {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < ms) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
}

}  // namespace

namespace {

// --dialog NAME: the dialog as a user first sees it (fields from the saved settings).
int grabDialog(QDialog& dialog, const ScreenshotOptions& o) {
    dialog.resize(o.size);
    dialog.show();
    settle(200);
    const QPixmap pixmap = dialog.grab();
    // Quality 0: PNG's strongest compression (the guide's pictures live in the repository).
    if (pixmap.isNull() || !pixmap.save(o.output, "PNG", 0)) return fail(QStringLiteral("cannot write %1").arg(o.output));
    std::printf("wrote %s (%dx%d)\n", o.output.toLocal8Bit().constData(), pixmap.width(), pixmap.height());
    return 0;
}

int runDialogScreenshot(const ScreenshotOptions& o) {
    if (o.dialog == QLatin1String("capture")) {
        CaptureDialog dialog;
        return grabDialog(dialog, o);
    }
    if (o.dialog == QLatin1String("launch")) {
        LaunchDialog dialog;
        return grabDialog(dialog, o);
    }
    if (o.dialog == QLatin1String("shortcuts")) {  // Help › Keyboard Shortcuts of an empty window
        MainWindow window;
        window.showShortcuts();
        auto* dialog = window.findChild<QDialog*>();
        if (!dialog) return fail(QStringLiteral("no shortcuts dialog"));
        return grabDialog(*dialog, o);
    }
    if (o.dialog == QLatin1String("guide")) {  // Help › User Guide, at its contents page
        if (!GuideWindow::available()) return fail(QStringLiteral("this viewer was built without the user guide"));
        GuideWindow guide;
        return grabDialog(guide, o);
    }
    return fail(QStringLiteral("unknown --dialog '%1' (available: capture, launch, shortcuts, guide)").arg(o.dialog));
}

// The theme the picture is taken in (System: the desktop's, once the portal has answered).
void applyScreenshotTheme(ThemeChoice theme) {
    ThemeManager::instance()->apply(theme);
    ThemeManager::instance()->waitForDesktop(2000);
}

}  // namespace

int runScreenshot(const ScreenshotOptions& o) {
    applyScreenshotTheme(o.theme);
    if (!o.dialog.isEmpty()) return runDialogScreenshot(o);
    TimeNs rangeBegin = 0, rangeEnd = 0;
    if (!o.range.isEmpty() && !parseTimeRange(o.range, rangeBegin, rangeEnd))
        return fail(QStringLiteral("bad --range '%1' (expected A:B, e.g. 1.5ms:2ms)").arg(o.range));

    // Several files, a folder of several workers' files, or a profile run of several hosts: one run.
    const std::string first = o.input.toStdString();
    const bool manyWorkers =
        !o.moreInputs.isEmpty() || (QFileInfo(o.input).isDir() && expandWorkerPaths({first}).size() > 1);
    std::shared_ptr<const Trace> trace;
    LoadedRun loadedRun;
    // Rank summaries (a tracescope-pod folder, *.summary.json): the run is read from them.
    std::vector<std::string> inputs{first};
    for (const QString& m : o.moreInputs) inputs.push_back(m.toStdString());
    const std::vector<std::string> summaries = summaryPaths(inputs);
    if (!summaries.empty()) {
    } else if (manyWorkers) {
        QString error;
        loadedRun = RunLoader::load(QStringList{o.input} + o.moreInputs, &error);
        if (!error.isEmpty()) return fail(QStringLiteral("cannot open the workers: %1").arg(error));
        trace = loadedRun.merged;
    } else if (o.previewBytes) {
        if (detectFormat(first) != TraceFormat::ChromeJson && detectFormat(first) != TraceFormat::XSpace)
            return fail(QStringLiteral("--preview: %1 is neither Chrome trace JSON nor an XSpace").arg(o.input));
        ImportResult result = importPreview(first, o.previewBytes);
        if (!result.ok())
            return fail(QStringLiteral("cannot open %1: %2").arg(o.input, QString::fromStdString(result.error)));
        trace = std::shared_ptr<const Trace>(std::move(result.trace));
    } else {
        ImportResult result = importTrace(first);
        if (!result.ok())
            return fail(QStringLiteral("cannot open %1: %2").arg(o.input, QString::fromStdString(result.error)));
        trace = std::shared_ptr<const Trace>(std::move(result.trace));
    }
    std::shared_ptr<const Trace> compareTrace;
    if (!o.compare.isEmpty()) {
        ImportResult result = importTrace(o.compare.toStdString());
        if (!result.ok())
            return fail(QStringLiteral("cannot open %1: %2").arg(o.compare, QString::fromStdString(result.error)));
        compareTrace = std::shared_ptr<const Trace>(std::move(result.trace));
    }

    MainWindow window;
    NameStyleSetting::instance().setStyle(o.shortNames ? NameStyle::Short : NameStyle::Full);
    CounterStyleSetting::instance().setMode(o.counters == QLatin1String("step")   ? std::optional(CounterDrawMode::Step)
                                            : o.counters == QLatin1String("line") ? std::optional(CounterDrawMode::Line)
                                                                                  : std::nullopt);
    // The PNG has exactly the requested size, even below the widgets' preferred minimum.
    window.layout()->setSizeConstraint(QLayout::SetNoConstraint);
    window.setMinimumSize(0, 0);
    window.resize(o.size);
    window.timeline()->setLayoutPersistence(false);  // the options alone say what the picture shows
    if (!summaries.empty()) {
        if (!window.openSummaries(summaries, runLabel(QStringList{o.input} + o.moreInputs)))
            return fail(QStringLiteral("no rank summary could be read in %1").arg(o.input));
    } else if (manyWorkers) {
        window.setRun(loadedRun.run, trace, runLabel(QStringList{o.input} + o.moreInputs));
    } else if (o.previewBytes) {
        window.showLoadingPreview(trace, o.input, o.previewBytes);
    } else {
        window.setTrace(trace, o.input);
    }
    window.stepMarker()->setMarker(o.stepMarker);
    window.stepMarker()->setAllSteps(o.allSteps);  // never the choice remembered for the file
    if (compareTrace) window.setCompareTrace(compareTrace, o.compare);
    if (!window.showView(o.view))
        return fail(QStringLiteral("unknown --view '%1' (available: %2)").arg(o.view, window.viewIds().join(", ")));
    if (!o.convention.isEmpty())
        for (OpStatsView* v : window.findChildren<OpStatsView*>())
            v->setConvention(o.convention == QLatin1String("pytorch") ? OpStatsView::Convention::PyTorch
                                                                      : OpStatsView::Convention::XProf);
    window.show();
    window.resize(o.size);
    settle(50);
    TimelineView* timeline = window.timeline();
    timeline->waitUntilReady();

    if (!o.select.isEmpty()) {
        const SliceRef s = firstSliceNamed(*trace, o.select.toStdString());
        if (!s.valid()) return fail(QStringLiteral("--select: no slice named '%1'").arg(o.select));
        window.selection()->selectSlice(s);
        // Zoom in so the selection is visible with some context around it.
        const SliceColumns& c = trace->tracks[s.track].slices;
        const double d = std::max<double>(double(c.duration[s.index]), 1000.0);
        const double mid = double(c.start[s.index]) + d / 2;
        timeline->setVisibleRange(mid - 6 * d, mid + 6 * d);
        timeline->revealSlice(s);
    }
    if (!o.trackFilter.isEmpty()) timeline->trackFilterBox()->setText(o.trackFilter);
    TimelineController& ctl = timeline->controller();
    ctl.setMinimapVisible(o.minimap);
    for (const auto& [pattern, pin] : {std::pair{o.pin, true}, std::pair{o.hide, false}}) {
        if (pattern.isEmpty()) continue;
        const QRegularExpression re(pattern);
        if (!re.isValid()) return fail(QStringLiteral("bad regular expression '%1'").arg(pattern));
        for (TrackIndex t = 0; t < trace->tracks.size(); ++t) {
            const Track& track = trace->tracks[t];
            const QString process = QString::fromStdString(trace->processes[track.process].name);
            if (!re.match(QString::fromStdString(track.name)).hasMatch() && !re.match(process).hasMatch()) continue;
            if (pin) ctl.setTrackPinned(t, true);
            else ctl.setTrackHidden(t, true);
        }
        // Derived tracks (memory) hide the same way; they are not pinned.
        if (!pin && ctl.derived())
            for (const DerivedCounterTrack& d : ctl.derived()->tracks) {
                const QString process = QString::fromStdString(trace->processes[d.process].name);
                if (re.match(QString::fromStdString(d.name)).hasMatch() || re.match(process).hasMatch())
                    ctl.setDerivedHidden(d.name, true);
            }
    }
    for (const QString& b : o.bookmarks) {
        const qsizetype colon = b.indexOf(QLatin1Char(':'));
        TimeNs at = 0;
        if (colon <= 0 || !parseTime(b.left(colon), at))
            return fail(QStringLiteral("bad --bookmark '%1' (expected TIME:LABEL, e.g. 1.5ms:warmup)").arg(b));
        ctl.addBookmark(at, b.mid(colon + 1).toStdString());
    }
    if (!o.search.isEmpty()) {
        timeline->setSearchText(o.search);
        timeline->waitUntilReady();
    }
    if (!o.range.isEmpty()) timeline->setVisibleRange(double(rangeBegin), double(rangeEnd));
    if (!o.selectRange.isEmpty()) {
        TimeNs begin = 0, end = 0;
        if (!parseTimeRange(o.selectRange, begin, end))
            return fail(QStringLiteral("bad --select-range '%1' (expected A:B, e.g. 1.5ms:2ms)").arg(o.selectRange));
        timeline->controller().setRangeSelection(begin, end);
        for (RangeFlamePanel* panel : window.findChildren<RangeFlamePanel*>()) panel->waitForTrees();
    }
    if (!o.hover.isEmpty()) {
        const qsizetype colon = o.hover.indexOf(QLatin1Char(':'));
        TimeNs at = 0;
        if (colon <= 0 || !parseTime(o.hover.left(colon), at))
            return fail(QStringLiteral("bad --hover '%1' (expected TIME:REGEX, e.g. 2ms:Memory)").arg(o.hover));
        const QRegularExpression re(o.hover.mid(colon + 1));
        if (!re.isValid()) return fail(QStringLiteral("bad regular expression '%1'").arg(o.hover.mid(colon + 1)));
        const TimelineDerivedTracks* tracks = ctl.derived();
        const LayoutRow* found = nullptr;
        for (const LayoutRow& row : ctl.layout().rows()) {
            if (row.kind == LayoutRow::Kind::Process) continue;
            const bool derived = row.kind == LayoutRow::Kind::Derived;
            if (derived && (!tracks || row.track >= tracks->tracks.size())) continue;
            const QString name =
                QString::fromStdString(derived ? tracks->tracks[row.track].name : trace->tracks[row.track].name);
            const QString process = QString::fromStdString(
                trace->processes[derived ? tracks->tracks[row.track].process : trace->tracks[row.track].process].name);
            if (re.match(name).hasMatch() || re.match(process).hasMatch()) {
                found = &row;
                break;
            }
        }
        if (!found) return fail(QStringLiteral("--hover: no shown track matches '%1'").arg(o.hover.mid(colon + 1)));
        // Scroll the row into view, then put the mouse on its middle.
        if (!found->pinned) ctl.setScrollY(std::max(0, found->y - 40));
        const int y = ctl.contentTop() + ctl.layout().viewY(*found, ctl.scrollY()) + found->height / 2;
        ctl.move(QPoint(ctl.headerWidth() + int(std::lround(ctl.axis().x(double(at)))), y), 1000);
    }
    // The page shown computes in the background: wait for its result (bounded), then let layouts
    // settle. The pages not shown are not waited for (they compute only when shown, or ahead).
    QElapsedTimer waited;
    waited.start();
    auto computing = [&] {
        for (const AnalysisView* v : window.findChildren<AnalysisView*>())
            if (v->isVisible() && v->isComputing()) return true;
        return false;
    };
    while (computing() && waited.elapsed() < 120'000) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    settle(300);
    if (!o.query.isEmpty()) {
        QueryView* page = nullptr;
        for (QueryView* v : window.findChildren<QueryView*>())
            if (v->isVisible()) page = v;
        if (!page) return fail(QStringLiteral("--query needs --view query"));
        page->editor()->setPlainText(o.query);
        page->runQuery();
        while (page->isRunning() && waited.elapsed() < 240'000) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        settle(200);
    }
    for (const QPoint& click : o.clicks) {
        QWidget* target = window.childAt(click);
        if (!target) return fail(QStringLiteral("--click: no widget at %1,%2").arg(click.x()).arg(click.y()));
        const QPointF local = target->mapFrom(&window, QPointF(click));
        const QPointF global = target->mapToGlobal(local);
        QMouseEvent press(QEvent::MouseButtonPress, local, global, Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
        QMouseEvent release(QEvent::MouseButtonRelease, local, global, Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(target, &press);
        QApplication::sendEvent(target, &release);
        settle(300);
        timeline->waitUntilReady();
        settle(100);
    }

    const QPixmap pixmap = window.grab();
    // Quality 0: PNG's strongest compression (the guide's pictures live in the repository).
    if (pixmap.isNull() || !pixmap.save(o.output, "PNG", 0)) return fail(QStringLiteral("cannot write %1").arg(o.output));
    std::printf("wrote %s (%dx%d)\n", o.output.toLocal8Bit().constData(), pixmap.width(), pixmap.height());
    return 0;
}

}  // namespace tracescope
