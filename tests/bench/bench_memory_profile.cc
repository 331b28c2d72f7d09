// Memory profile: analysis time and chart frame time vs the number of memory events.
//
//   bench_memory_profile [--events N]
//
// Builds PyTorch-shaped traces (one thread: ProfilerStep#N > aten::linear > aten::empty
// slices, one [memory] instant per aten::empty, allocations freed a few events later, so
// a few hundred stay alive) of N/10 and N memory events (N = 1,000,000 by default), and
// prints for each: computeMemoryProfile time, the time to find the runs of a 1,600 px
// chart (fit-all and a 1% window), and the chart's full frame (runs + Qt Charts paint
// into a 1,600 x 500 image). Times are this thread's CPU time (medians of 5), and the
// ratios big/small show how each scales with the event count.
#include "model/analysis/memory_downsample.h"
#include "model/analysis/memory_profile.h"
#include "model/trace/threads.h"
#include "model/trace/trace_builder.h"
#include "views/memory/memory_chart.h"

#include <QApplication>
#include <QChartView>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

using namespace tracescope;

namespace {

double threadCpuMs() { return threadCpuSeconds() * 1e3; }

double medianMs(int runs, const std::function<void()>& f) {
    std::vector<double> t;
    for (int i = 0; i < runs; ++i) {
        const double a = threadCpuMs();
        f();
        t.push_back(threadCpuMs() - a);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

std::unique_ptr<Trace> buildTrace(size_t events) {
    TraceBuilder b("chrome-json");
    const auto p = b.addProcess(ProcessKind::Host, 1, "python3");
    const auto t = b.addTrack(p, TrackKind::Thread, "main", 1);
    const StringId ua = b.intern("user_annotation"), op = b.intern("cpu_op"), cat = b.intern("cpu_instant_event");
    const StringId linear = b.intern("aten::linear"), empty = b.intern("aten::empty"), mem = b.intern("[memory]");
    const StringId kTotal = b.intern("Total Allocated"), kReserved = b.intern("Total Reserved"), kBytes = b.intern("Bytes"),
                   kAddr = b.intern("Addr"), kType = b.intern("Device Type"), kId = b.intern("Device Id");
    const size_t perStep = 10'000;
    int64_t total = 0;
    std::vector<std::pair<uint64_t, int64_t>> live;  // (addr, bytes), freed in FIFO order
    size_t head = 0;
    ArgsWriter w;
    for (size_t i = 0; i < events; ++i) {
        const TimeNs at = TimeNs(i) * 1000;
        if (i % perStep == 0)
            b.addSlice(t, at, TimeNs(perStep) * 1000 - 1, b.intern("ProfilerStep#" + std::to_string(i / perStep)), ua);
        const bool alloc = live.size() - head < 300 || (i % 2 == 0 && live.size() - head < 600);
        int64_t bytes;
        uint64_t addr;
        if (alloc) {
            bytes = int64_t(512 << (i % 12));
            addr = 0x10000 + i * 64;
            live.push_back({addr, bytes});
            b.addSlice(t, at - 100, 400, linear, op);
            b.addSlice(t, at - 50, 100, empty, op);
        } else {
            addr = live[head].first;
            bytes = -live[head].second;
            ++head;
        }
        total += bytes;
        w.clear();
        w.add(kTotal, ArgValue::integer(total));
        w.add(kReserved, ArgValue::integer(std::max<int64_t>(total, 1) * 5 / 4));
        w.add(kBytes, ArgValue::integer(bytes));
        w.add(kAddr, ArgValue::integer(int64_t(addr)));
        w.add(kType, ArgValue::integer(1));
        w.add(kId, ArgValue::integer(0));
        b.addInstant(t, at, mem, cat, w);
    }
    return b.finish();
}

struct Times {
    double analysis = 0, noSteps = 0, pointsAll = 0, pointsZoom = 0, frame = 0;
    size_t points = 0;
};

Times measure(size_t events) {
    auto trace = buildTrace(events);
    Times r;
    MemoryProfileResult res;
    r.analysis = medianMs(5, [&] { res = computeMemoryProfile(*trace); });
    r.noSteps = medianMs(5, [&] { (void)computeMemoryProfile(*trace, false); });
    const MemoryIdProfile& p = res.ids.at(0);
    const TimeNs b = p.timeline.front().time, e = p.timeline.back().time;
    const std::vector<MemoryQuantity> layers = memoryChartLayers(p, true);
    r.pointsAll = medianMs(5, [&] { r.points = memoryRuns(p, layers, b, e, 1600).front().size(); });
    r.pointsZoom = medianMs(5, [&] { memoryRuns(p, layers, b + (e - b) / 2, b + (e - b) / 2 + (e - b) / 100, 1600); });
    MemoryChart chart;
    chart.resize(1600, 500);
    chart.setProfile(&p, trace->startNs, trace->endNs);
    QImage img(1600, 500, QImage::Format_ARGB32_Premultiplied);
    r.frame = medianMs(5, [&] {
        chart.showAll();  // finds the runs again
        QPainter painter(&img);
        chart.chartView()->render(&painter);
    });
    std::printf("%9zu events: analysis %8.1f ms (%.1f ms without finding steps), runs fit-all %6.2f ms (%zu runs), 1%% window %6.2f ms, "
                "chart frame %7.1f ms; peak %lld B, %zu breakdown rows\n",
                events, r.analysis, r.noSteps, r.pointsAll, r.points, r.pointsZoom, r.frame, (long long)p.peakBytes,
                p.breakdown.size());
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    size_t events = 1'000'000;
    for (int i = 1; i + 1 < argc; ++i)
        if (!std::strcmp(argv[i], "--events")) events = size_t(std::stoull(argv[i + 1]));
    const Times small = measure(events / 10);
    const Times big = measure(events);
    std::printf("ratio big/small (10x events): analysis %.1f, points fit-all %.1f, chart frame %.1f\n",
                big.analysis / small.analysis, big.pointsAll / std::max(small.pointsAll, 1e-3),
                big.frame / std::max(small.frame, 1e-3));
    return 0;
}
