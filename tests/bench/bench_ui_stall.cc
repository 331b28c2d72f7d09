// How long the UI thread stays blocked while a trace loads and is analysed.
//
//   bench_ui_stall FILE [--size WxH]
//
// Opens FILE in the main window (offscreen) the way File > Open does, and a
// 5 ms timer on the UI thread notes how late each tick runs: a late tick is
// a stretch in which the window could not repaint or react. It goes through
// six phases: showing the empty window, the background load, the timeline
// index and analysis pages computing, a tour of every tab, timeline
// navigation (zooms and pans, each repainted), and another trace replacing it. It prints, per phase, the wall
// time and the longest stall, and the count of stalls over 50 ms, and what the UI thread did during the
// longest (getrusage of the thread: its CPU time, major page faults, and how often it blocked or was
// preempted), which tells computing on the UI thread from waiting on a lock or the disk. The goal: no
// stall longer than a frame or two (16-33 ms). After the table: how long after the
// import the timeline was usable (its index built) and each analysis page was done,
// skipped for memory, or failed, and the process's peak resident memory, with the resident memory
// after the import, after every page was done and after the tab tour, what the trace's result
// store holds then and its largest results, and the highest resident memory sampled while the
// pages computed with the pages running then (where a peak above `info`'s comes from). `first
// pixels` is the time from the open request to the first timeline frame that drew a slice
// (checked every 20 ms). Last, the process's CPU time (user + system, every thread) spent on the
// import and on everything after it up to the end of the tab tour (the timeline index, every
// page's analysis, the tour): tests/bench/viewer_vs_cli.py sets it against the CLI commands that
// print the same pages.
#include "app/gui/main_window.h"
#include "model/results/job_runner.h"
#include "model/results/process_memory.h"
#include "model/results/result_store.h"
#include "model/trace/trace_builder.h"
#include "views/analysis_view.h"
#include "views/timeline/timeline_canvas.h"
#include "views/timeline/timeline_view.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace tracescope;

namespace {

struct Phase {
    std::string name;
    double wallMs = 0;
    double longestStallMs = 0;
    int stallsOver50 = 0;
    std::string longestAt;  // what was on screen during the longest stall (the tab tour)
    // The UI thread during the longest stall (RUSAGE_THREAD): CPU, major page faults, voluntary
    // context switches (it waited: a lock, the disk) and involuntary ones (preempted).
    double longestCpuMs = 0;
    long longestMajorFaults = 0, longestWaits = 0, longestPreempted = 0;
};

rusage uiThreadUsage() {
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return u;
}

double cpuMs(const rusage& u) {
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

// Runs the event loop until `done` returns true, measuring the UI thread's stalls meanwhile.
template <typename Done>
Phase runPhase(const char* name, Done done, int timeoutMs = 600'000, std::function<std::string()> where = {}) {
    Phase phase;
    phase.name = name;
    QElapsedTimer wall, sinceTick;
    wall.start();
    sinceTick.start();
    rusage lastTick = uiThreadUsage();
    constexpr double kTickMs = 5;
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        const double late = double(sinceTick.nsecsElapsed()) / 1e6 - kTickMs;
        sinceTick.restart();
        const rusage now = uiThreadUsage();
        if (late > phase.longestStallMs) {
            phase.longestStallMs = late;
            if (where) phase.longestAt = where();
            phase.longestCpuMs = cpuMs(now) - cpuMs(lastTick);
            phase.longestMajorFaults = now.ru_majflt - lastTick.ru_majflt;
            phase.longestWaits = now.ru_nvcsw - lastTick.ru_nvcsw;
            phase.longestPreempted = now.ru_nivcsw - lastTick.ru_nivcsw;
        }
        lastTick = now;
        if (late > 50) ++phase.stallsOver50;
    });
    ticker.start(int(kTickMs));
    // An event loop that checks `done` every 20 ms: the UI thread idles between events as
    // in the app (a processEvents() loop would spin and take a core from the workers).
    QEventLoop loop;
    QTimer check;
    QObject::connect(&check, &QTimer::timeout, [&] {
        if (done() || wall.elapsed() >= timeoutMs) loop.quit();
    });
    check.start(20);
    loop.exec();
    ticker.stop();
    phase.wallMs = double(wall.elapsed());
    return phase;
}

// The process's resident memory now, in bytes (Linux: /proc/self/statm's second field, in pages).
double residentBytes() {
    std::ifstream statm("/proc/self/statm");
    double size = 0, resident = 0;
    statm >> size >> resident;
    return resident * double(sysconf(_SC_PAGESIZE));
}

// CPU time of the whole process (every thread, user + system), in seconds.
double processCpuSeconds() {
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    auto seconds = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

}  // namespace

int main(int argc, char** argv) {
    tracescope::preferReturnableMemory();  // as the viewer's main does
    Q_INIT_RESOURCE(resources);            // the main window's icons live in the static tracescope_gui library
    QApplication app(argc, argv);
    const char* file = nullptr;
    QSize size(1600, 1000);
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--size") && i + 1 < argc) {
            int w = 0, h = 0;
            if (std::sscanf(argv[++i], "%dx%d", &w, &h) == 2) size = QSize(w, h);
        } else {
            file = argv[i];
        }
    }
    if (!file) {
        std::fprintf(stderr, "usage: bench_ui_stall FILE [--size WxH]\n");
        return 2;
    }

    MainWindow window;
    window.resize(size);
    window.show();
    std::vector<Phase> phases;

    // The empty window first, as a user sees it before opening a file (its first paint
    // loads fonts and styles: a one-off, not the trace's doing).
    QElapsedTimer shown;
    shown.start();
    phases.push_back(runPhase("show the empty window", [&] { return shown.elapsed() > 500; }));

    const double cpuBeforeOpen = processCpuSeconds();
    QElapsedTimer sinceOpen;
    double firstPixelsS = -1;
    auto notePixels = [&] {
        if (firstPixelsS < 0 && window.timeline()->canvas()->lastFrameBoxes() > 0)
            firstPixelsS = double(sinceOpen.elapsed()) / 1000;
    };
    sinceOpen.start();
    window.openPath(QString::fromLocal8Bit(file));
    phases.push_back(runPhase("load (background import)", [&] {
        notePixels();
        return !window.loading();
    }));
    if (!window.trace()) {
        std::fprintf(stderr, "cannot load %s\n", file);
        return 1;
    }

    const double afterImport = residentBytes();
    const double cpuAfterImport = processCpuSeconds();
    // When, after the import, the timeline got its index and each page stopped computing.
    QElapsedTimer sinceImport;
    sinceImport.start();
    double timelineUsableS = -1;
    const QList<AnalysisView*> pages = window.findChildren<AnalysisView*>();
    std::vector<double> pageDoneS(size_t(pages.size()), -1);
    // The highest resident memory sampled in the analyses phase, and the pages running then.
    double highestResident = 0;
    std::string runningAtHighest;
    auto computing = [&] {
        notePixels();
        if (const double now = residentBytes(); now > highestResident) {
            highestResident = now;
            runningAtHighest.clear();
            for (AnalysisView* page : pages)
                if (page->state() == AnalysisView::State::Running)
                    runningAtHighest +=
                        std::string(runningAtHighest.empty() ? "" : ", ") + page->metaObject()->className();
        }
        const double now = double(sinceImport.elapsed()) / 1000;
        if (timelineUsableS < 0 && window.timeline()->canvas()->hasIndex()) timelineUsableS = now;
        bool any = false;
        for (qsizetype i = 0; i < pages.size(); ++i) {
            if (pages[i]->isComputing()) any = true;
            else if (pageDoneS[size_t(i)] < 0) pageDoneS[size_t(i)] = now;
        }
        return any;
    };
    phases.push_back(runPhase("index + analyses (background)", [&] {
        const bool busy = computing();
        return window.timeline()->canvas()->hasIndex() && !busy;
    }));

    const double afterPages = residentBytes();
    // Where each page stands when the analyses phase ends (and again after the tour, which asks
    // for every page at its priority): the trace is replaced at the end.
    auto statesNow = [&] {
        std::vector<AnalysisView::State> states;
        for (AnalysisView* page : pages) states.push_back(page->state());
        return states;
    };
    const std::vector<AnalysisView::State> statesAfterPages = statesNow();
    // Every tab, one after the other, each given time to lay out and paint.
    const QStringList ids = window.viewIds();
    int next = 0;
    QElapsedTimer onTab;
    onTab.start();
    phases.push_back(runPhase(
        "visit every tab",
        [&] {
            if (onTab.elapsed() < 300) return false;
            if (next >= ids.size()) return true;
            window.showView(ids[next++]);
            onTab.restart();
            return false;
        },
        600'000, [&] { return next > 0 ? ids[next - 1].toStdString() : std::string(); }));

    const double afterTour = residentBytes();
    const double cpuAfterTour = processCpuSeconds();
    const std::vector<AnalysisView::State> statesAfterTour = statesNow();
    const double heldByStore = double(ResultStore::of(window.trace())->heldBytes());
    const auto heldByName = ResultStore::of(window.trace())->heldByName();
    const auto cpuByName = ResultStore::of(window.trace())->cpuSecondsByName();
    // Timeline navigation: zoom in step by step at the middle, pan, fit all; one repaint each.
    window.showView(QStringLiteral("timeline"));
    TimelineCanvas* canvas = window.timeline()->canvas();
    int step = 0;
    phases.push_back(runPhase("timeline: 40 zooms/pans, each repainted", [&] {
        if (step >= 40) return true;
        if (step < 20) canvas->zoomAt(canvas->width() / 2.0, 1.6);
        else if (step < 38) canvas->panPixels(step % 2 ? 400 : -300);
        else canvas->fitAll();
        canvas->repaint();
        ++step;
        return false;
    }));

    // Another trace replaces it (as opening the next file does): the old one and its results go.
    bool replaced = false;
    phases.push_back(runPhase("replace it with another trace", [&] {
        if (replaced) return JobRunner::shared().running() == 0 && JobRunner::shared().queued() == 0;
        TraceBuilder empty("another");
        window.setTrace(std::shared_ptr<const Trace>(empty.finish()), QStringLiteral("another.json"));
        replaced = true;
        return false;
    }));

    std::printf("UI thread stalls while opening %s (%dx%d window)\n\n", file, size.width(), size.height());
    std::printf(
        "| phase | wall (s) | longest stall (ms) | stalls > 50 ms | in the longest: UI thread CPU ms, major faults, "
        "waits, preempted |\n|---|---|---|---|---|\n");
    for (const Phase& p : phases)
        std::printf("| %s | %.1f | %.0f%s%s | %d | %.0f, %ld, %ld, %ld |\n", p.name.c_str(), p.wallMs / 1000,
                    p.longestStallMs, p.longestAt.empty() ? "" : " on ", p.longestAt.c_str(), p.stallsOver50,
                    p.longestCpuMs, p.longestMajorFaults, p.longestWaits, p.longestPreempted);
    std::printf("\nfirst pixels: %.1f s after open\n", firstPixelsS);
    std::printf(
        "\ntimeline usable %.1f s after the import\n\n| page | after the analyses phase | done after the import (s) | "
        "after the tab tour |\n|---|---|---|---|\n",
        timelineUsableS);
    auto outcome = [](AnalysisView::State state) {
        switch (state) {
        case AnalysisView::State::NoTrace: return "no trace";
        case AnalysisView::State::Queued: return "waiting";
        case AnalysisView::State::Running: return "running";
        case AnalysisView::State::Done: return "done";
        case AnalysisView::State::Skipped: return "skipped (memory)";
        case AnalysisView::State::Failed: return "failed";
        case AnalysisView::State::Cancelled: return "cancelled";
        }
        return "?";
    };
    for (qsizetype i = 0; i < pages.size(); ++i) {
        const size_t k = size_t(i);
        char done[32] = "-";  // not done within the phase
        if (pageDoneS[k] >= 0) std::snprintf(done, sizeof done, "%.1f", pageDoneS[k]);
        std::printf("| %s | %s | %s | %s |\n", pages[i]->metaObject()->className(), outcome(statesAfterPages[k]), done,
                    outcome(statesAfterTour[k]));
    }
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("\npeak resident memory %.2f GB\n",
                double(usage.ru_maxrss) * 1024.0 / 1e9);  // ru_maxrss: KiB; GB: 10^9 B
    std::printf(
        "resident after the import %.2f GB, after every page was done %.2f GB, after the tab tour %.2f GB; "
        "the result store holds %.2f GB\n",
        afterImport / 1e9, afterPages / 1e9, afterTour / 1e9, heldByStore / 1e9);
    std::printf("highest resident sampled while the pages computed %.2f GB, with %s running\n", highestResident / 1e9,
                runningAtHighest.empty() ? "no page" : runningAtHighest.c_str());
    std::printf("largest results:");
    for (size_t i = 0; i < heldByName.size() && i < 6; ++i)
        std::printf("%s %s %.1f MB", i ? "," : "", heldByName[i].first.c_str(), double(heldByName[i].second) / 1e6);
    std::printf("\n");
    std::printf("\nprocess CPU: import %.1f s, then index, analyses and the tab tour %.1f s\n",
                cpuAfterImport - cpuBeforeOpen, cpuAfterTour - cpuAfterImport);
    std::printf("result store CPU by result (its own, results computed inside it apart):");
    for (size_t i = 0; i < cpuByName.size() && i < 10; ++i)
        std::printf("%s %s %.2f s", i ? "," : "", cpuByName[i].first.c_str(), cpuByName[i].second);
    std::printf("\n");
    return 0;
}
