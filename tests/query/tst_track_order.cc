// The timeline's default track order (model/query/track_order.h) on real files
// with sort indices, read independently from the files' metadata events:
// sort indices first, the producer's convention otherwise, empty processes and
// tracks left out; and the track layout follows it.
#include "model/import/import.h"
#include "model/query/track_layout.h"
#include "model/query/track_order.h"
#include "model/trace/trace_builder.h"

#include <QtTest>

using namespace tracescope;

namespace {

std::shared_ptr<const Trace> load(const std::string& relative) {
    ImportResult r = importTrace(std::string(TRACESCOPE_SHARED_DIR) + "/testdata/" + relative);
    if (!r.ok()) return nullptr;
    return std::shared_ptr<const Trace>(std::move(r.trace));
}

std::vector<std::string> trackNames(const Trace& t, const std::vector<OrderedProcess>& order) {
    std::vector<std::string> out;
    for (const auto& op : order)
        for (TrackIndex k : op.tracks) out.push_back(t.tracks[k].name);
    return out;
}

bool hasTrack(const Trace& t, const std::vector<OrderedProcess>& order, const std::string& name) {
    const auto names = trackNames(t, order);
    return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

class TrackOrderTest : public QObject {
    Q_OBJECT
private slots:
    void kinetoHostBeforeGpu() {
        // process_sort_index: python3 (pid 539) 539, GPU 0 5000000.
        auto t = load("gpu/torch2.11_cu130_h100_kineto_trace.json.gz");
        QVERIFY(t);
        const auto order = defaultTrackOrder(*t);
        QVERIFY(order.size() >= 2);
        QCOMPARE(t->processes[order[0].process].pid, int64_t(539));
        QCOMPARE(t->processes[order[0].process].kind, ProcessKind::Host);
        QCOMPARE(t->processes[order[1].process].pid, int64_t(0));
        QCOMPARE(t->processes[order[1].process].kind, ProcessKind::Device);
        // The layout shows the same order.
        TrackLayout layout;
        layout.build(*t, std::vector<uint8_t>(t->processes.size(), 0));
        QCOMPARE(layout.rows()[0].process, order[0].process);
        QVERIFY(layout.rowOfProcess(order[1].process)->y > layout.rowOfProcess(order[0].process)->y);
    }

    void kinetoEmptyGpusHidden() {
        // GPUs 1..15 have a process_sort_index but no events (no process, no row); Spans (536870912)
        // comes after GPU 0 (5000000).
        auto t = load("public/kineto/before_fix_trace.json");
        QVERIFY(t);
        const auto order = defaultTrackOrder(*t);
        std::vector<std::string> names;
        for (const auto& op : order) {
            QVERIFY(!op.tracks.empty());
            names.push_back(t->processes[op.process].name);
        }
        QCOMPARE(t->processes[order[0].process].pid, int64_t(392793));
        QCOMPARE(t->processes[order[1].process].pid, int64_t(0));
        QCOMPARE(QString::fromStdString(t->processes[order[2].process].name), QStringLiteral("Spans"));
        size_t gpus = 0;
        for (const auto& op : order) gpus += t->processes[op.process].kind == ProcessKind::Device;
        QCOMPARE(gpus, size_t(1));
    }

    void catapultThreadSortIndex() {
        // Renderer: CrRendererMain has thread_sort_index -1 and comes first; Chrome_ChildIOThread and
        // HTMLParserThread have only metadata and are left out.
        auto t = load("public/catapult/x_event_trace.json");
        QVERIFY(t);
        const auto order = defaultTrackOrder(*t);
        QCOMPARE(order.size(), size_t(1));
        const auto names = trackNames(*t, order);
        QCOMPARE(QString::fromStdString(names.front()), QStringLiteral("CrRendererMain"));
        QVERIFY(!hasTrack(*t, order, "Chrome_ChildIOThread"));
        QVERIFY(!hasTrack(*t, order, "HTMLParserThread"));
        QVERIFY(hasTrack(*t, order, "Compositor"));
        QVERIFY(hasTrack(*t, order, "CompositorRasterWorker1/14752"));
    }

    void catapultEmptyProcessHidden() {
        // Browser (pid 23828) has a process_sort_index and thread names but no events.
        auto t = load("public/catapult/flow.json");
        QVERIFY(t);
        const auto order = defaultTrackOrder(*t);
        QCOMPARE(order.size(), size_t(3));
        for (const auto& op : order) QVERIFY(t->processes[op.process].pid != 23828);
    }

    void kinetoWithoutSortIndicesHostFirst() {
        // This Kineto trace has no *_sort_index: the producer's convention, host before devices.
        auto t = load("public/kineto/worker0.1623143089861.pt.trace.json.gz");
        QVERIFY(t);
        QVERIFY(isKinetoTrace(*t));
        const auto order = defaultTrackOrder(*t);
        QCOMPARE(t->processes[order[0].process].kind, ProcessKind::Host);
        bool deviceSeen = false;
        for (const auto& op : order) {
            const ProcessKind k = t->processes[op.process].kind;
            if (k == ProcessKind::Device) deviceSeen = true;
            if (k == ProcessKind::Host) QVERIFY2(!deviceSeen, "a host process after a device");
        }
        QVERIFY(deviceSeen);
    }

    void withoutSortIndicesDevicesFirst() {
        TraceBuilder b("hand");
        const ProcessIndex host = b.addProcess(ProcessKind::Host, 1, "host");
        const ProcessIndex dev = b.addProcess(ProcessKind::Device, 2, "gpu");
        const StringId n = b.intern("x");
        b.addSlice(b.addTrack(host, TrackKind::Thread, "main", 1), 0, 10, n, kEmptyString);
        b.addSlice(b.addTrack(dev, TrackKind::Thread, "stream", 7), 0, 10, n, kEmptyString);
        b.addTrack(dev, TrackKind::Thread, "empty stream", 8);
        auto t = b.finish();
        const auto order = defaultTrackOrder(*t);
        QCOMPARE(order.size(), size_t(2));
        QCOMPARE(t->processes[order[0].process].name, std::string("gpu"));
        QCOMPARE(order[0].tracks.size(), size_t(1));  // the empty stream is left out
        QCOMPARE(t->processes[order[1].process].name, std::string("host"));
    }

    void xspaceDevicePlanesFirst() {
        auto t = load("gpu/jax_mlp_h100.xplane.pb");
        QVERIFY(t);
        const auto order = defaultTrackOrder(*t);
        QVERIFY(!order.empty());
        QCOMPARE(t->processes[order[0].process].kind, ProcessKind::Device);
    }
};

QTEST_GUILESS_MAIN(TrackOrderTest)
#include "tst_track_order.moc"
