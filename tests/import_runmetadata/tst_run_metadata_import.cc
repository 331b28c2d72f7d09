// TF1 RunMetadata import. The files are built here with our own proto classes
// (same field numbers as TensorFlow's), from a hand-made step whose expected
// processes, lanes, slices, flows and memory samples are worked out by hand in
// tests/tools/run_metadata_fixture.h; truncated and corrupted variants must give clear errors.
#include "model/import/run_metadata_importer.h"
#include "model/proto/run_metadata.pb.h"
#include "tests/tools/run_metadata_fixture.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>

using namespace tracescope;
using namespace tracescope::fixture;

namespace {

std::string writeFile(const QTemporaryDir& dir, const std::string& name, const std::string& bytes) {
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    return path;
}

const Process* processNamed(const Trace& t, const std::string& name) {
    for (const Process& p : t.processes)
        if (p.name == name) return &p;
    return nullptr;
}

struct FoundSlice {
    TrackIndex track = kNoIndex;
    uint32_t index = 0;
};

// The slice whose "name" arg is `node`.
FoundSlice sliceOfNode(const Trace& t, const std::string& node) {
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        const Track& tr = t.tracks[ti];
        for (uint32_t i = 0; i < tr.slices.size(); ++i)
            for (const Arg& a : decodeArgs(tr.argsView(), tr.slices.args[i]))
                if (t.str(a.key) == "name" && a.value.toString(t.strings) == node) return {ti, i};
    }
    return {};
}

std::map<std::string, std::string> argsOf(const Trace& t, FoundSlice s) {
    std::map<std::string, std::string> out;
    const Track& tr = t.tracks[s.track];
    for (const Arg& a : decodeArgs(tr.argsView(), tr.slices.args[s.index]))
        out[std::string(t.str(a.key))] = a.value.toString(t.strings);
    return out;
}

const Track* counterNamed(const Trace& t, const std::string& name) {
    for (const Track& tr : t.tracks)
        if (tr.kind == TrackKind::Counter && tr.name == name) return &tr;
    return nullptr;
}

bool hasWarningWith(const Trace& t, const std::string& text) {
    for (const auto& w : t.warnings)
        if (warningText(w).find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

class RunMetadataImportTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string bytes_;
    std::string path_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        bytes_ = buildStep().SerializeAsString();
        path_ = writeFile(dir_, "step.pb", bytes_);
    }

    void detectsByContent() {
        auto looks = [](const std::string& s) {
            return looksLikeRunMetadata(reinterpret_cast<const uint8_t*>(s.data()), s.size());
        };
        QVERIFY(looks(bytes_));
        QVERIFY(looks(buildStep().step_stats().SerializeAsString()));  // bare StepStats
        QVERIFY(looks(bytes_.substr(0, 40)));                          // a head is enough
        QVERIFY(!looks("{\"traceEvents\": []}"));
        QVERIFY(!looks(""));
        QVERIFY(!looks(std::string("\x0a\x05\x08\x01\x12\x01\x41", 7)));  // XSpace-like: plane id first
        QVERIFY(!looks(std::string(64, '\xff')));
    }

    void realFilesAreNotRunMetadata() {
        // Every real trace in the shared test data (XSpace protos, JSON) is told apart.
        size_t checked = 0;
        std::error_code ec;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(TRACESCOPE_SHARED_DIR "/testdata", ec)) {
            if (!entry.is_regular_file()) continue;
            std::ifstream in(entry.path(), std::ios::binary);
            std::vector<uint8_t> head(64 * 1024);
            in.read(reinterpret_cast<char*>(head.data()), std::streamsize(head.size()));
            head.resize(size_t(in.gcount()));
            QVERIFY2(!looksLikeRunMetadata(head.data(), head.size()), entry.path().c_str());
            ++checked;
        }
        QVERIFY(checked > 10);
    }

    void processesAndCounts() {
        ImportResult r = importRunMetadata(path_);
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace& t = *r.trace;
        QCOMPARE(t.format, std::string("runmetadata"));
        const TraceCounts c = t.counts();
        QCOMPARE(c.processes, size_t(4));
        QCOMPARE(c.tracks, size_t(5));  // GPU:0 3 lanes, CPU:0 1, stream:7 1
        QCOMPARE(c.counterTracks, size_t(3));
        QCOMPARE(c.slices, size_t(9));
        QCOMPARE(c.counterSamples, size_t(5));
        QCOMPARE(c.flows, size_t(5));
        QCOMPARE(c.instants, size_t(0));
        QVERIFY(t.originUnixNs.has_value());
        QCOMPARE(*t.originUnixNs, kT0 * 1000);
        QCOMPARE(t.spanNs(), TimeNs(55000));  // h ends at 55 µs

        // Devices first (GPU:0, its stream), then the CPU host, then Allocators.
        QCOMPARE(t.processes[0].name, std::string(kGpu));
        QCOMPARE(t.processes[1].name, std::string(kStream));
        QCOMPARE(t.processes[2].name, std::string(kCpu));
        QCOMPARE(t.processes[3].name, std::string("Allocators"));
        QVERIFY(t.processes[0].kind == ProcessKind::Device);
        QVERIFY(t.processes[1].kind == ProcessKind::Device);
        QVERIFY(t.processes[2].kind == ProcessKind::Host);
        const Process* gpu = processNamed(t, kGpu);
        QCOMPARE(gpu->tracks.size(), size_t(3));
        for (size_t l = 0; l < 3; ++l) QCOMPARE(t.tracks[gpu->tracks[l]].name, "lane " + std::to_string(l));
    }

    void lanesNeverOverlap() {
        ImportResult r = importRunMetadata(path_);
        QVERIFY(r.ok());
        const Trace& t = *r.trace;
        for (const Track& tr : t.tracks) {
            if (tr.kind != TrackKind::Thread) continue;
            QCOMPARE(tr.overflowOf, kNoIndex);
            for (size_t i = 0; i + 1 < tr.slices.size(); ++i) QVERIFY(tr.slices.end(i) <= tr.slices.start[i + 1]);
            for (size_t i = 0; i < tr.slices.size(); ++i) QCOMPARE(tr.slices.depth(i), uint16_t(0));
        }
        const std::map<std::string, std::string> expectedLane = {
            {"a", "lane 0"}, {"b", "lane 1"}, {"c", "lane 0"}, {"d", "lane 1"}, {"e", "lane 2"}, {"f", "lane 0"},
            {"g", "lane 0"}, {"h", "lane 0"}};
        for (const auto& [node, lane] : expectedLane) {
            const FoundSlice s = sliceOfNode(t, node);
            QVERIFY2(s.track != kNoIndex, node.c_str());
            QCOMPARE(t.tracks[s.track].name, lane);
        }
        QCOMPARE(t.processes[t.tracks[sliceOfNode(t, "g").track].process].name, std::string(kCpu));
    }

    void sliceNamesTimesAndArgs() {
        ImportResult r = importRunMetadata(path_);
        QVERIFY(r.ok());
        const Trace& t = *r.trace;
        struct Expect {
            const char* node;
            const char* op;
            TimeNs start, dur;
        };
        const Expect expected[] = {{"a", "Const", 0, 10000},          {"b", "Const", 2000, 5000},
                                   {"c", "MatMul", 10000, 20000},     {"d", "Relu", 8000, 4000},
                                   {"e", "AddN", 9000, 3000},         {"f", "f", 40000, 0},
                                   {"g", "Identity", 35123, 4567},    {"h", "Sum", 50000, 5000}};
        for (const Expect& x : expected) {
            const FoundSlice s = sliceOfNode(t, x.node);
            QVERIFY2(s.track != kNoIndex, x.node);
            const SliceColumns& c = t.tracks[s.track].slices;
            QCOMPARE(t.str(c.name[s.index]), std::string_view(x.op));
            QCOMPARE(t.str(c.category[s.index]), std::string_view("Op"));
            QCOMPARE(c.start[s.index], x.start);
            QCOMPARE(c.duration[s.index], x.dur);
            QCOMPARE(argsOf(t, s)["op"], std::string(x.op));
        }
        auto e = argsOf(t, sliceOfNode(t, "e"));
        QCOMPARE(e["input0"], std::string("a"));
        QCOMPARE(e["input1"], std::string("b:1"));
        QCOMPARE(e["input2"], std::string("^ctrl"));
        QCOMPARE(e.count("input3"), size_t(0));
        QCOMPARE(e["thread_id"], std::string("0"));
        QCOMPARE(e.count("scheduled_micros"), size_t(0));
        QCOMPARE(argsOf(t, sliceOfNode(t, "a")).count("input0"), size_t(0));  // "Const()": no inputs
        auto h = argsOf(t, sliceOfNode(t, "h"));
        QCOMPARE(h["thread_id"], std::string("7"));
        QCOMPARE(h["thread_name"], std::string("worker-7"));
        QCOMPARE(h["scheduled_micros"], std::to_string(kT0 + 48));
        QCOMPARE(h["input0"], std::string("g"));
        QCOMPARE(argsOf(t, sliceOfNode(t, "b"))["output_bytes"], std::string("48"));  // 16 + 32

        // The GPU kernel: name and op from the "@@name:Op#" label.
        const FoundSlice k = sliceOfNode(t, "c");
        QVERIFY(k.track != kNoIndex);
        const Process* stream = processNamed(t, kStream);
        const Track& kt = t.tracks[stream->tracks[0]];
        QCOMPARE(kt.slices.size(), size_t(1));
        QCOMPARE(t.str(kt.slices.name[0]), std::string_view("MatMul"));
        QCOMPARE(kt.slices.start[0], TimeNs(12000));
        QCOMPARE(kt.slices.duration[0], TimeNs(6000));
        auto ka = decodeArgs(kt.argsView(), kt.slices.args[0]);
        std::map<std::string, std::string> km;
        for (const Arg& a : ka) km[std::string(t.str(a.key))] = a.value.toString(t.strings);
        QCOMPARE(km["name"], std::string("c"));
        QCOMPARE(km["label"], std::string("volta_sgemm_128x64_nn @@c:MatMul#id=3#"));
    }

    void dataflowArrows() {
        ImportResult r = importRunMetadata(path_);
        QVERIFY(r.ok());
        const Trace& t = *r.trace;
        std::vector<std::pair<std::string, std::string>> arrows;  // (producer node, consumer node)
        auto nodeOf = [&](SliceRef s) {
            const Track& tr = t.tracks[s.track];
            for (const Arg& a : decodeArgs(tr.argsView(), tr.slices.args[s.index]))
                if (t.str(a.key) == "name") return a.value.toString(t.strings);
            return std::string();
        };
        for (const Flow& f : t.flows) arrows.emplace_back(nodeOf(f.from), nodeOf(f.to));
        std::sort(arrows.begin(), arrows.end());
        const std::vector<std::pair<std::string, std::string>> expected = {
            {"a", "e"}, {"b", "c"}, {"b", "e"}, {"c", "d"}, {"c", "g"}};
        QCOMPARE(arrows.size(), expected.size());
        for (size_t i = 0; i < arrows.size(); ++i) {
            QCOMPARE(arrows[i].first, expected[i].first);
            QCOMPARE(arrows[i].second, expected[i].second);
        }
    }

    void allocatorCounters() {
        ImportResult r = importRunMetadata(path_);
        QVERIFY(r.ok());
        const Trace& t = *r.trace;
        const Track* bfc = counterNamed(t, "GPU_0_bfc");
        QVERIFY(bfc);
        QCOMPARE(t.processes[bfc->process].name, std::string("Allocators"));
        QCOMPARE(bfc->counter.time, (std::vector<TimeNs>{8000, 10000, 25000}));
        QCOMPARE(bfc->counter.value, (std::vector<double>{300, 1300, 900}));
        const Track* cpu = counterNamed(t, "cpu");
        QVERIFY(cpu);
        QCOMPARE(cpu->counter.time, (std::vector<TimeNs>{55000}));
        QCOMPARE(cpu->counter.value, (std::vector<double>{2048}));
        const Track* host = counterNamed(t, "cuda_host_bfc (bytes per node)");
        QVERIFY(host);
        QCOMPARE(host->counter.time, (std::vector<TimeNs>{39690}));
        QCOMPARE(host->counter.value, (std::vector<double>{64}));
    }

    void handWiredFile() {
        // Bytes written without protobuf by tests/tools/make_handwired_run_metadata.py,
        // with the values it says a reader must find.
        const std::string dataDir = TRACESCOPE_TEST_DATA_DIR;
        ImportResult r = importRunMetadata(dataDir + "/handwired.pb");
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace& t = *r.trace;
        std::ifstream in(dataDir + "/handwired.expected.json");
        const nlohmann::json expected = nlohmann::json::parse(in);
        QCOMPARE(*t.originUnixNs, expected["origin_unix_ns"].get<int64_t>());
        QVERIFY(processNamed(t, expected["device"].get<std::string>()));
        QCOMPARE(t.counts().slices, expected["slices"].size());
        for (const auto& x : expected["slices"]) {
            const FoundSlice s = sliceOfNode(t, x["name"].get<std::string>());
            QVERIFY(s.track != kNoIndex);
            const SliceColumns& c = t.tracks[s.track].slices;
            QCOMPARE(std::string(t.str(c.name[s.index])), x["op"].get<std::string>());
            QCOMPARE(c.start[s.index], x["start_ns"].get<TimeNs>());
            QCOMPARE(c.duration[s.index], x["dur_ns"].get<TimeNs>());
            QCOMPARE(t.tracks[s.track].name, x["lane"].get<std::string>());
            auto args = argsOf(t, s);
            const auto& inputs = x["inputs"];
            for (size_t i = 0; i < inputs.size(); ++i)
                QCOMPARE(args["input" + std::to_string(i)], inputs[i].get<std::string>());
            QCOMPARE(args.count("input" + std::to_string(inputs.size())), size_t(0));
            if (x.contains("thread_name")) QCOMPARE(args["thread_name"], x["thread_name"].get<std::string>());
        }
        QCOMPARE(t.flows.size(), expected["flows"].size());
        const Track* counter = counterNamed(t, expected["counter"]["name"].get<std::string>());
        QVERIFY(counter);
        QCOMPARE(counter->counter.time, expected["counter"]["time_ns"].get<std::vector<TimeNs>>());
        QCOMPARE(counter->counter.value, expected["counter"]["value"].get<std::vector<double>>());
    }

    void bareStepStats() {
        const std::string path = writeFile(dir_, "step_stats.pb", buildStep().step_stats().SerializeAsString());
        ImportResult r = importRunMetadata(path);
        QVERIFY2(r.ok(), r.error.c_str());
        const TraceCounts c = r.trace->counts();
        QCOMPARE(c.slices, size_t(9));
        QCOMPARE(c.tracks, size_t(5));
        QCOMPARE(*r.trace->metadataValue("source"), std::string("TensorFlow StepStats"));
    }

    void truncatedFiles() {
        // Every cut gives either a clear error or the complete nodes before it plus a warning.
        size_t partial = 0;
        for (size_t cut = 1; cut < bytes_.size(); ++cut) {
            const std::string path = writeFile(dir_, "cut.pb", bytes_.substr(0, cut));
            ImportResult r = importRunMetadata(path);
            if (!r.ok()) {
                QVERIFY(!r.error.empty());
                continue;
            }
            ++partial;
            QVERIFY(r.trace->counts().slices <= 9);
            QVERIFY2(hasWarningWith(*r.trace, "truncated") || hasWarningWith(*r.trace, "cut by the end"),
                     std::to_string(cut).c_str());
        }
        QVERIFY(partial > 0);
        // Cut inside the first node: nothing complete yet.
        ImportResult early = importRunMetadata(writeFile(dir_, "early.pb", bytes_.substr(0, 60)));
        QVERIFY(!early.ok());
        QVERIFY2(early.error.find("truncated") != std::string::npos, early.error.c_str());
        // Cut just before the last byte: everything but the last device's kernel survives.
        ImportResult late = importRunMetadata(writeFile(dir_, "late.pb", bytes_.substr(0, bytes_.size() - 1)));
        QVERIFY(late.ok());
        QCOMPARE(late.trace->counts().slices, size_t(8));
    }

    void corruptedFiles() {
        ImportResult missing = importRunMetadata(dir_.filePath("nope.pb").toStdString());
        QVERIFY(!missing.ok());
        QVERIFY(missing.error.find("cannot open") != std::string::npos);

        ImportResult empty = importRunMetadata(writeFile(dir_, "empty.pb", ""));
        QVERIFY(!empty.ok());
        QVERIFY(empty.error.find("empty file") != std::string::npos);

        ImportResult garbage = importRunMetadata(writeFile(dir_, "garbage.pb", std::string(1000, '\xfe')));
        QVERIFY(!garbage.ok());
        QVERIFY2(garbage.error.find("not a TensorFlow RunMetadata") != std::string::npos, garbage.error.c_str());

        // A bad field tag after a valid step: the step is kept, the warning names the byte.
        ImportResult tail = importRunMetadata(writeFile(dir_, "tail.pb", bytes_ + "\x0f\x01"));
        QVERIFY(tail.ok());
        QCOMPARE(tail.trace->counts().slices, size_t(9));
        bool namesByte = false;
        for (const ImportWarning& w : tail.trace->warnings)
            namesByte = namesByte || (w.kind == WarningKind::Corrupted && w.byteOffset == bytes_.size());
        QVERIFY2(namesByte, tail.trace->warnings.empty() ? "" : warningText(tail.trace->warnings[0]).c_str());
        QVERIFY(hasWarningWith(*tail.trace, "invalid protobuf field"));

        // Out-of-range times are skipped with a warning, not wrapped around.
        tensorflow::RunMetadata run = buildStep();
        run.mutable_step_stats()->mutable_dev_stats(0)->mutable_node_stats(0)->set_all_start_micros(INT64_MAX);
        ImportResult huge = importRunMetadata(writeFile(dir_, "huge.pb", run.SerializeAsString()));
        QVERIFY(huge.ok());
        QCOMPARE(huge.trace->counts().slices, size_t(8));
        QVERIFY(hasWarningWith(*huge.trace, "out-of-range"));

        // A name that is not UTF-8 (proto3 strings would reject the record): the node is kept.
        tensorflow::RunMetadata latin1 = buildStep();
        latin1.mutable_step_stats()->mutable_dev_stats(0)->mutable_node_stats(0)->set_node_name("caf\xe9");
        ImportResult named = importRunMetadata(writeFile(dir_, "latin1.pb", latin1.SerializeAsString()));
        QVERIFY(named.ok());
        QCOMPARE(named.trace->counts().slices, size_t(9));
        QVERIFY(sliceOfNode(*named.trace, "caf\xe9").track != kNoIndex);

        // No node executions at all.
        tensorflow::RunMetadata none;
        none.mutable_step_stats()->add_dev_stats()->set_device(kGpu);
        ImportResult nothing = importRunMetadata(writeFile(dir_, "none.pb", none.SerializeAsString()));
        QVERIFY(!nothing.ok());
        QVERIFY(nothing.error.find("no node executions") != std::string::npos);

        // Random byte flips: never a crash or hang.
        std::mt19937 rng(1234);
        for (int i = 0; i < 400; ++i) {
            std::string s = bytes_;
            for (int k = 0; k < 4; ++k) s[rng() % s.size()] = char(rng() & 0xff);
            ImportResult r = importRunMetadata(writeFile(dir_, "flip.pb", s));
            QVERIFY(r.ok() || !r.error.empty());
        }
    }

    void manyOverlappingOps() {
        // 1500 ops all running at once: lanes stop at 1024, every op is kept.
        tensorflow::RunMetadata run;
        auto* dev = run.mutable_step_stats()->add_dev_stats();
        dev->set_device(kCpu);
        for (int i = 0; i < 1500; ++i) addNode(dev, "n" + std::to_string(i), "", i, 100000);
        ImportResult r = importRunMetadata(writeFile(dir_, "crowded.pb", run.SerializeAsString()));
        QVERIFY2(r.ok(), r.error.c_str());
        const TraceCounts c = r.trace->counts();
        QCOMPARE(c.tracks, size_t(1024));
        QCOMPARE(c.slices, size_t(1500));
        QVERIFY(hasWarningWith(*r.trace, "476 op(s) overlap more than 1024"));
    }

    void cancelStops() {
        std::atomic<bool> cancel{true};
        ImportOptions options;
        options.cancel = &cancel;
        ImportResult r = importRunMetadata(path_, options);
        QVERIFY(!r.ok());
        QVERIFY(r.cancelled);
    }
};

QTEST_GUILESS_MAIN(RunMetadataImportTest)
#include "tst_run_metadata_import.moc"
