// The XSpace writer: a hand-built space is read back with the generated protobuf classes
// (ids, offsets, interning) and opened by our XSpace importer (names, times, stats), with
// values fixed by the construction below.
#include "model/export/xspace_writer.h"
#include "model/import/xspace_importer.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace tracescope;
namespace xp = tensorflow::profiler;

namespace {

constexpr int64_t kT0 = 1'700'000'000'000'000'000;  // an absolute Unix time in ns

// host: thread 11 "main": step [t0, t0+1000 ns) with two "matmul" launches inside
// device 0: stream 7: kernel "gemm" [t0+100, +250 ns), kernel "gemm" [t0+600, +300 ns)
xspace::SpaceWriter buildSpace() {
    xspace::SpaceWriter space;
    space.addHostname("worker0");
    xspace::PlaneWriter& host = space.addPlane(1, "/host:CPU");
    xspace::LineWriter main = host.addLine(11, "main");
    main.addEvent("step", kT0, 1000).add("step_num", int64_t(3));
    main.addEvent("matmul", kT0 + 10, 50).add("correlation_id", uint64_t(1));
    main.addEvent("matmul", kT0 + 500, 40).add("correlation_id", uint64_t(2));
    xspace::PlaneWriter& gpu = space.addPlane(2, "/device:GPU:0");
    gpu.stats().add("compute_cap_major", int64_t(9)).add("compute_cap_minor", int64_t(0));
    xspace::LineWriter stream = gpu.addLine(7, "Stream #7(Compute)");
    stream.addEvent("gemm", kT0 + 100, 250).add("correlation_id", uint64_t(1)).addRef("tf_op", "dense/MatMul");
    stream.addEvent("gemm", kT0 + 600, 300).add("correlation_id", uint64_t(2)).add("occupancy", 0.5);
    return space;
}

}  // namespace

class XSpaceWriterTest : public QObject {
    Q_OBJECT
private slots:
    void protoReadsBack() {
        xp::XSpace space;
        QVERIFY(space.ParseFromString(buildSpace().serialize()));
        QCOMPARE(space.planes_size(), 2);
        QCOMPARE(space.hostnames(0), std::string("worker0"));
        const xp::XPlane& host = space.planes(0);
        QCOMPARE(host.event_metadata_size(), 2);  // "step" and "matmul", interned once each
        const xp::XLine& main = host.lines(0);
        QCOMPARE(main.timestamp_ns(), kT0);
        QCOMPARE(main.events_size(), 3);
        QCOMPARE(main.events(2).offset_ps(), int64_t(500'000));
        QCOMPARE(main.events(2).duration_ps(), int64_t(40'000));
        QCOMPARE(main.events(1).metadata_id(), main.events(2).metadata_id());
        QCOMPARE(host.event_metadata().at(main.events(1).metadata_id()).name(), std::string("matmul"));
        const xp::XPlane& gpu = space.planes(1);
        // Stats: compute_cap_major/minor, correlation_id, tf_op, occupancy and the ref'd string.
        QCOMPARE(gpu.stat_metadata_size(), 6);
        const xp::XStat& ref = gpu.lines(0).events(0).stats(1);
        QCOMPARE(gpu.stat_metadata().at(int64_t(ref.ref_value())).name(), std::string("dense/MatMul"));
        for (const auto& [id, metadata] : gpu.stat_metadata()) QCOMPARE(metadata.id(), id);
    }

    void importerOpensIt() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("worker0.xplane.pb").toStdString();
        std::string error;
        QVERIFY2(buildSpace().writeFile(path, error), error.c_str());
        ImportResult result = importXSpace(path);
        QVERIFY2(result.ok(), result.error.c_str());
        const Trace& trace = *result.trace;
        QCOMPARE(trace.counts().slices, size_t(5));
        const Track* stream = nullptr;
        for (const Track& t : trace.tracks)
            if (t.name.find("Stream #7") != std::string::npos) stream = &t;
        QVERIFY(stream);
        QCOMPARE(stream->slices.size(), size_t(2));
        QCOMPARE(trace.str(stream->slices.name[1]), std::string_view("gemm"));
        QCOMPARE(stream->slices.duration[1], TimeNs(300));
        QCOMPARE(stream->slices.start[1] - stream->slices.start[0], TimeNs(500));
        bool sawTfOp = false;
        for (const Arg& a : decodeArgs(stream->argsView(), stream->slices.args[0]))
            if (trace.str(a.key) == "tf_op") sawTfOp = a.value.toString(trace.strings) == "dense/MatMul";
        QVERIFY(sawTfOp);
    }
};

QTEST_GUILESS_MAIN(XSpaceWriterTest)
#include "tst_xspace_writer.moc"
