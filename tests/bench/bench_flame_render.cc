// Flame graph frame time once a selection is aggregated.
//
//   bench_flame_render [--frames N] [FILE]
//
// Builds the call tree of a synthetic trace with 1M host slices (synthetic_ml_trace.h, 2.5M events),
// or of FILE, and of a range holding a tenth of it, then paints the Flame Graph page's widget into a 1280x800 image:
// zoomed out, zoomed into the heaviest frame, with a search active, and bottom-up; prints the
// median frame time of each, and of a zoom click (layout and paint; the target for all: at most
// 16 ms, a 60 Hz frame).
#include "model/analysis/call_tree.h"
#include "model/import/import.h"
#include "synthetic_ml_trace.h"
#include "views/flame/flame_graph_widget.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace tracescope;

namespace {

double medianFrameMs(FlameGraphWidget& w, int frames) {
    QImage image(w.size(), QImage::Format_ARGB32_Premultiplied);
    std::vector<double> ms;
    for (int i = 0; i < frames; ++i) {
        QElapsedTimer t;
        t.start();
        w.render(&image);
        ms.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    int frames = 20;
    const char* file = nullptr;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--frames") && i + 1 < argc) frames = std::max(1, std::atoi(argv[++i]));
        else file = argv[i];
    }
    std::shared_ptr<const Trace> trace;
    if (file) {
        ImportResult r = importTrace(file);
        if (!r.ok()) {
            std::fprintf(stderr, "cannot load %s: %s\n", file, r.error.c_str());
            return 1;
        }
        trace = std::move(r.trace);
    } else {
        trace = bench::buildSyntheticMlTrace(2'500'000);
    }
    const ClassifiedTrace ct = classifyTrace(*trace);
    CallTreeOptions tenth;
    tenth.range =
        std::make_pair(trace->startNs + trace->spanNs() * 45 / 100, trace->startNs + trace->spanNs() * 55 / 100);
    for (const auto& [label, options] : {std::pair{"whole trace", CallTreeOptions{}}, std::pair{"a tenth", tenth}}) {
        QElapsedTimer t;
        t.start();
        auto top = std::make_shared<const CallTree>(computeCallTree(ct, options));
        auto up = std::make_shared<const CallTree>(invertCallTree(*top));
        const double aggregateMs = double(t.nsecsElapsed()) / 1e6;
        std::printf("%s: %llu slices, %zu stacks, aggregated in %.0f ms\n", label, (unsigned long long)top->slices,
                    top->nodes.size() - 1, aggregateMs);
        FlameGraphWidget w;
        w.resize(1280, 800);
        w.setTree(top);
        w.resize(1280, w.height());
        std::printf("  zoomed out          %6.2f ms per frame (%zu rectangles)\n", medianFrameMs(w, frames),
                    w.layout().rects.size());
        if (!top->root().children.empty()) {
            const uint32_t first = top->root().children.front();
            w.setFocusNode(first);
            std::printf("  zoomed into a frame %6.2f ms per frame\n", medianFrameMs(w, frames));
            // A click that zooms: the layout made again, then the frame painted.
            QImage image(w.size(), QImage::Format_ARGB32_Premultiplied);
            std::vector<double> ms;
            for (int i = 0; i < frames; ++i) {
                QElapsedTimer z;
                z.start();
                w.setFocusNode(i % 2 ? first : kCallRoot);
                w.render(&image);
                ms.push_back(double(z.nsecsElapsed()) / 1e6);
            }
            std::sort(ms.begin(), ms.end());
            std::printf("  zoom click (layout + paint) %6.2f ms\n", ms[ms.size() / 2]);
            w.setFocusNode(kCallRoot);
        }
        w.setSearch(QStringLiteral("a"));
        std::printf("  searching           %6.2f ms per frame\n", medianFrameMs(w, frames));
        w.setSearch({});
        w.setTree(up);
        std::printf("  bottom-up           %6.2f ms per frame\n", medianFrameMs(w, frames));
    }
    return 0;
}
