#include "app/gui/screenshot.h"

#include "app/gui/main_window.h"
#include "model/analysis/slice_queries.h"
#include "model/import/import.h"
#include "views/timeline/time_format.h"
#include "views/timeline/timeline_view.h"
#include "views/trace_selection.h"

#include <QApplication>
#include <QElapsedTimer>
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

int runScreenshot(const ScreenshotOptions& o) {
    TimeNs rangeBegin = 0, rangeEnd = 0;
    if (!o.range.isEmpty() && !parseTimeRange(o.range, rangeBegin, rangeEnd))
        return fail(QStringLiteral("bad --range '%1' (expected A:B, e.g. 1.5ms:2ms)").arg(o.range));

    ImportResult result = importTrace(o.input.toStdString());
    if (!result.ok()) return fail(QStringLiteral("cannot open %1: %2").arg(o.input, QString::fromStdString(result.error)));
    std::shared_ptr<const Trace> trace(std::move(result.trace));

    MainWindow window;
    window.resize(o.size);
    window.setTrace(trace, o.input);
    if (!window.showView(o.view))
        return fail(QStringLiteral("unknown --view '%1' (available: %2)").arg(o.view, window.viewIds().join(", ")));
    window.show();
    window.resize(o.size);
    settle(50);
    TimelineView* timeline = window.timeline();
    timeline->waitUntilReady();

    if (!o.select.isEmpty()) {
        const SliceRef s = firstSliceNamed(*trace, o.select.toStdString());
        if (!s.valid()) return fail(QStringLiteral("--select: no slice named '%1'").arg(o.select));
        window.selection()->selectSlice(s);
    }
    if (!o.search.isEmpty()) {
        timeline->setSearchText(o.search);
        timeline->waitUntilReady();
    }
    if (!o.range.isEmpty()) timeline->canvas()->setVisibleRange(double(rangeBegin), double(rangeEnd));
    settle(300);

    const QPixmap pixmap = window.grab();
    if (pixmap.isNull() || !pixmap.save(o.output, "PNG")) return fail(QStringLiteral("cannot write %1").arg(o.output));
    std::printf("wrote %s (%dx%d)\n", o.output.toLocal8Bit().constData(), pixmap.width(), pixmap.height());
    return 0;
}

}  // namespace tracescope
