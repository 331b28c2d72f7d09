// Timeline frame time vs trace size.
//
//   bench_timeline_render [--frames N] [--png-dir DIR] [--fit-all-only] [--highlight TEXT]
//                         [--sweep] [--overlays] [SMALL.json BIG.json]
//
// Renders the timeline into a 1920x1080 QImage at fit-all, a mid zoom (20 ms
// window) and a deep zoom (200 µs window) for a ~100k and a ~10M slice trace,
// and prints the median frame time of each and the ratio big/small per zoom.
// The two traces have the same event density per unit of time, so the windows
// hold the same amount of work and the ratio shows how frame time scales with
// the total event count (the goal: ~1, i.e. O(pixels x depth x log n)).
// --sweep also zooms in from fit-all at the middle, 1.6x per step for 20 steps (as
// bench_ui_stall's navigation does), and prints each step's frame time: the window sizes between
// the coarse levels and the exact path, which the three fixed zooms may miss.
// --overlays computes the GPU utilisation and the communication overlap first and shows their
// marks (idle gaps, overlap band), as the viewer does once those results arrive.
// Without files it builds both traces with TraceBuilder (synthetic_ml_trace.h);
// with files (e.g. from shared/bench/gen_chrome_trace.py) it imports them.
#include "model/analysis/gpu_utilization.h"
#include "model/import/import.h"
#include "model/query/comm_overlap_index.h"
#include "model/query/idle_gap_index.h"
#include "model/trace/threads.h"
#include "synthetic_ml_trace.h"
#include "views/timeline/timeline_canvas.h"
#include "views/timeline/timeline_index.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cstdio>
#include <cstring>

using namespace tracescope;

namespace {

// CPU time of this thread: the machines these run on are shared, and wall time
// mostly measures the neighbours.
double threadCpuMs() { return threadCpuSeconds() * 1e3; }

struct Loaded {
    std::shared_ptr<const Trace> trace;
    std::string label;
    double loadSeconds = 0;
};

Loaded load(const char* path, size_t syntheticEvents) {
    QElapsedTimer timer;
    timer.start();
    Loaded l;
    if (path) {
        ImportResult r = importTrace(path);
        if (!r.ok()) {
            std::fprintf(stderr, "cannot import %s: %s\n", path, r.error.c_str());
            std::exit(1);
        }
        l.trace = std::move(r.trace);
        l.label = path;
    } else {
        l.trace = bench::buildSyntheticMlTrace(syntheticEvents);
        l.label = "synthetic " + std::to_string(syntheticEvents);
    }
    l.loadSeconds = timer.elapsed() / 1000.0;
    return l;
}

struct Zoom {
    const char* name;
    double windowNs;  // 0 = fit all
};
constexpr Zoom kZooms[] = {{"fit-all", 0}, {"mid (20 ms)", 20e6}, {"deep (200 us)", 200e3}};

struct Options {
    int frames = 15;
    QString pngDir;
    bool fitAllOnly = false;          // for profiling the zoomed-out frame alone
    const char* highlight = nullptr;  // highlight slices whose name contains this, as a search does
    bool sweep = false;
    bool overlays = false;
};

// Median ms per frame for each zoom.
std::vector<double> measure(const Loaded& l, const Options& o, const char* tag) {
    const int frames = o.frames;
    const char* highlight = o.highlight;
    TimelineCanvas canvas;
    canvas.resize(1920, 1080);
    canvas.setTrace(l.trace);
    const auto setOverlays = [&] {
        QElapsedTimer timer;
        timer.start();
        const ClassifiedTrace ct = classifyTrace(*l.trace);
        auto gaps = std::make_shared<const IdleGapIndex>(
            std::make_shared<const GpuUtilizationResult>(computeGpuUtilization(ct)));
        auto overlap = std::make_shared<const CommOverlapIndex>(ct);
        size_t gapCount = 0;
        for (TrackIndex t = 0; t < l.trace->tracks.size(); ++t)
            gapCount += gaps->visible(t, l.trace->startNs, l.trace->startNs + l.trace->spanNs() + 1).size();
        std::printf(
            "  overlays: %zu idle gaps over every track (overflow lanes count their stream's again), "
            "overlap on %s, in %.2f s\n",
            gapCount, overlap->empty() ? "no track" : "some tracks", timer.elapsed() / 1000.0);
        canvas.controller().setIdleGaps(std::move(gaps));
        canvas.controller().setCommOverlap(std::move(overlap));
    };
    if (highlight) {
        // As a search does: mark the names that contain the text.
        TimelineHighlight h;
        h.nameMatches.assign(l.trace->strings.size(), 0);
        for (StringId id = 0; id < l.trace->strings.size(); ++id)
            h.nameMatches[id] = l.trace->str(id).find(highlight) != std::string_view::npos;
        canvas.setHighlight(std::move(h));
    }
    QElapsedTimer timer;
    timer.start();
    const std::shared_ptr<const TimelineIndex> index = TimelineIndex::build(*l.trace);
    const double slices = double(std::max<size_t>(1, l.trace->counts().slices));
    std::printf("  %s: %zu slices, index built in %.2f s: depth lists %.2f B/slice, coarse levels %.2f B/slice\n",
                l.label.c_str(), l.trace->counts().slices, timer.elapsed() / 1000.0,
                double(index->depths.memoryBytes()) / slices, double(index->coarse.memoryBytes()) / slices);
    canvas.setIndex(index);
    QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);
    const auto medianFrameMs = [&](int n) {
        std::vector<double> times;
        for (int f = 0; f < n; ++f) {
            QPainter p(&image);
            const double t0 = threadCpuMs();
            canvas.render(p, image.size());
            p.end();
            times.push_back(threadCpuMs() - t0);
        }
        std::sort(times.begin(), times.end());
        return times[times.size() / 2];
    };
    if (o.overlays) {
        // The same frame without the marks first, for the ratio in this run.
        canvas.fitAll();
        medianFrameMs(1);
        const double without = medianFrameMs(frames);
        setOverlays();
        medianFrameMs(1);
        const double with = medianFrameMs(frames);
        std::printf("    fit-all with the overlays / without: %.2f ms / %.2f ms = %.2fx\n", with, without,
                    with / without);
    }
    std::vector<double> medians;
    for (const Zoom& z : kZooms) {
        if (o.fitAllOnly && z.windowNs != 0) break;
        if (z.windowNs == 0) {
            canvas.fitAll();
        } else {
            // A window 40% into the trace, where every track is busy.
            const double mid = double(l.trace->startNs) + 0.4 * double(l.trace->spanNs());
            canvas.setVisibleRange(mid, mid + z.windowNs);
        }
        std::vector<double> times, wall;
        for (int f = 0; f < frames + 1; ++f) {
            QPainter p(&image);
            const double t0 = threadCpuMs();
            QElapsedTimer frameTimer;
            frameTimer.start();
            canvas.render(p, image.size());
            p.end();
            if (f > 0) {  // frame 0 warms caches (glyphs, colours)
                times.push_back(threadCpuMs() - t0);
                wall.push_back(double(frameTimer.nsecsElapsed()) / 1e6);
            }
        }
        std::sort(times.begin(), times.end());
        std::sort(wall.begin(), wall.end());
        medians.push_back(times[times.size() / 2]);
        std::printf("    %-14s CPU %.2f ms, wall %.2f ms (median)\n", z.name, medians.back(), wall[wall.size() / 2]);
        if (!o.pngDir.isEmpty())
            image.save(QDir(o.pngDir).filePath(QStringLiteral("bench_%1_%2.png").arg(tag).arg(medians.size())));
    }
    if (o.sweep) {
        canvas.fitAll();
        std::printf("    zoom sweep (1.6x per step at the middle), CPU ms per frame (median of 3):");
        for (int step = 0; step < 20; ++step) {
            canvas.zoomAt(canvas.width() / 2.0, 1.6);
            std::printf("%s%.1f", step ? ", " : " ", medianFrameMs(3));
        }
        std::printf("\n");
    }
    return medians;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    Options o;
    std::vector<const char*> files;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--frames") && i + 1 < argc) o.frames = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--png-dir") && i + 1 < argc) o.pngDir = argv[++i];
        else if (!std::strcmp(argv[i], "--fit-all-only")) o.fitAllOnly = true;
        else if (!std::strcmp(argv[i], "--highlight") && i + 1 < argc) o.highlight = argv[++i];
        else if (!std::strcmp(argv[i], "--sweep")) o.sweep = true;
        else if (!std::strcmp(argv[i], "--overlays")) o.overlays = true;
        else files.push_back(argv[i]);
    }
    if (!files.empty() && files.size() != 2) {
        std::fprintf(stderr,
                     "usage: bench_timeline_render [--frames N] [--png-dir DIR] [--fit-all-only] [--highlight TEXT] "
                     "[--sweep] [--overlays] [SMALL BIG]\n");
        return 2;
    }
    std::printf("timeline render, 1920x1080 QImage, median thread CPU time of %d frames\n", o.frames);
    const Loaded small = load(files.empty() ? nullptr : files[0], 100'000);
    const std::vector<double> a = measure(small, o, "small");
    const Loaded big = load(files.empty() ? nullptr : files[1], 10'000'000);
    const std::vector<double> b = measure(big, o, "big");
    std::printf("\n| zoom | %s (ms/frame) | %s (ms/frame) | ratio |\n|---|---|---|---|\n", small.label.c_str(),
                big.label.c_str());
    for (size_t z = 0; z < std::min(a.size(), b.size()); ++z)
        std::printf("| %s | %.2f | %.2f | %.2f |\n", kZooms[z].name, a[z], b[z], b[z] / a[z]);
    return 0;
}
