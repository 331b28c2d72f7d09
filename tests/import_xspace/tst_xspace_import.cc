// XSpace import against the shared test data. Expected counts come from
// tests/tools/count_xspace.py (a hand-written wire-format walker, no protobuf),
// committed as tests/data/xspace_expected_counts.json; stat values below were
// read from the files with `count_xspace.py --event NAME FILE`.
#include "model/import/import.h"
#include "model/import/logdir.h"
#include "model/import/xspace_importer.h"
#include "model/analysis/hlo_program.h"
#include "model/proto/hlo.pb.h"
#include "model/proto/xplane.pb.h"
#include "model/query/counter_layout.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <cstring>
#include <random>

#include "tests/gzip_text.h"

using namespace tracescope;
namespace fs = std::filesystem;

namespace {

const std::string kTestData = std::string(TRACESCOPE_SHARED_DIR) + "/testdata/";
const std::string kTf24 = kTestData + "public/tfprofiler/34.83.195.179_6003.xplane.pb";
const std::string kJaxMlp = kTestData + "gpu/jax_mlp_h100.xplane.pb";
const std::string kTw003 = kTestData + "public/tracelens/tw003.xplane.pb";

nlohmann::json expectedCounts() {
    std::ifstream in(std::string(TRACESCOPE_SOURCE_DIR) + "/tests/data/xspace_expected_counts.json");
    return nlohmann::json::parse(in);
}

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

const Process* findProcess(const Trace& t, std::string_view name) {
    for (const Process& p : t.processes)
        if (p.name == name) return &p;
    return nullptr;
}

// The track of a process with this name (not an overflow lane).
const Track* findTrack(const Trace& t, const Process& p, std::string_view name) {
    for (TrackIndex ti : p.tracks)
        if (t.tracks[ti].name == name && t.tracks[ti].overflowOf == kNoIndex) return &t.tracks[ti];
    return nullptr;
}

// Slices and instants of a track plus its overflow lanes.
std::pair<size_t, size_t> trackEventCounts(const Trace& t, const Track& track) {
    const auto self = TrackIndex(&track - t.tracks.data());
    size_t slices = track.slices.size(), instants = track.instants.size();
    for (const Track& o : t.tracks)
        if (o.overflowOf == self) {
            slices += o.slices.size();
            instants += o.instants.size();
        }
    return {slices, instants};
}

std::optional<ArgValue> arg(const Trace& t, const Track& track, ArgsOffset offset, std::string_view key) {
    for (const Arg& a : decodeArgs(track.argsView(), offset))
        if (t.str(a.key) == key) return a.value;
    return std::nullopt;
}

std::string argText(const Trace& t, const Track& track, ArgsOffset offset, std::string_view key) {
    auto v = arg(t, track, offset, key);
    return v ? v->toString(t.strings) : std::string("<missing>");
}

int64_t argInt(const Trace& t, const Track& track, ArgsOffset offset, std::string_view key) {
    auto v = arg(t, track, offset, key);
    int64_t out = INT64_MIN;
    if (v) v->toInt64(out);
    return out;
}

std::string processProperty(const Process& p, std::string_view key) {
    for (const auto& [k, v] : p.properties)
        if (k == key) return v;
    return "<missing>";
}

std::string metadata(const Trace& t, std::string_view key) {
    const std::string* v = t.metadataValue(key);
    return v ? *v : "<missing>";
}

// Hand-made protobuf bytes, written from xplane.proto's field numbers.
std::string varintBytes(uint64_t v) {
    std::string s;
    while (v >= 0x80) {
        s += char(0x80 | (v & 0x7f));
        v >>= 7;
    }
    return s + char(v);
}
std::string pbVarint(int field, uint64_t v) { return varintBytes(uint64_t(field) << 3) + varintBytes(v); }
std::string pbBytes(int field, const std::string& payload) {
    return varintBytes(uint64_t(field) << 3 | 2) + varintBytes(payload.size()) + payload;
}
std::string pbDouble(int field, double d) {
    std::string s = varintBytes(uint64_t(field) << 3 | 1);
    char b[8];
    std::memcpy(b, &d, 8);
    return s + std::string(b, 8);
}
// event_metadata / stat_metadata map entry: key 1, value 2 { id 1, name 2 }.
std::string pbMetadataEntry(int field, int64_t id, const std::string& name) {
    return pbBytes(field, pbVarint(1, uint64_t(id)) + pbBytes(2, pbVarint(1, uint64_t(id)) + pbBytes(2, name)));
}

ImportResult open(const std::string& path) {
    ImportResult r = importTrace(path);
    if (!r.ok()) qWarning("%s: %s", path.c_str(), r.error.c_str());
    return r;
}

}  // namespace

class XSpaceImportTest : public QObject {
    Q_OBJECT
private slots:
    // A gzipped XSpace (one member, or two as `cat a.gz b.gz` makes) reads as the plain file;
    // a cut or damaged one is refused with a reason, never read as half a profile.
    void gzippedXSpaceReadsAsThePlainFile() {
        const std::string plain = std::string(TRACESCOPE_SOURCE_DIR) + "/tests/data/peers/jax_train_steps.xplane.pb";
        std::ifstream in(plain, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QVERIFY(bytes.size() > 1000);
        auto gzip = testsupport::gzipText;
        QTemporaryDir dir;
        auto write = [&](const char* name, const std::string& data) {
            const std::string path = dir.filePath(name).toStdString();
            std::ofstream(path, std::ios::binary) << data;
            return path;
        };
        const std::string one = gzip(bytes);
        const std::string two = gzip(bytes.substr(0, bytes.size() / 2)) + gzip(bytes.substr(bytes.size() / 2));
        ImportResult expected = importTrace(plain);
        QVERIFY(expected.ok());
        const TraceCounts want = expected.trace->counts();
        for (const std::string& path : {write("one.xplane.pb.gz", one), write("two.xplane.pb.gz", two)}) {
            QCOMPARE(detectFormat(path), TraceFormat::XSpace);
            ImportResult r = importTrace(path);
            QVERIFY2(r.ok(), r.error.c_str());
            const TraceCounts got = r.trace->counts();
            QCOMPARE(got.slices, want.slices);
            QCOMPARE(got.instants, want.instants);
            QCOMPARE(got.counterSamples, want.counterSamples);
            QCOMPARE(got.flows, want.flows);
            QCOMPARE(r.trace->spanNs(), expected.trace->spanNs());
        }
        ImportResult cut = importTrace(write("cut.xplane.pb.gz", one.substr(0, one.size() * 2 / 3)));
        QVERIFY(!cut.ok());
        QVERIFY2(cut.error.find("cut short") != std::string::npos, cut.error.c_str());
        std::string damaged = one;
        for (size_t i = damaged.size() / 2; i < damaged.size() / 2 + 64; ++i) damaged[i] = char(~damaged[i]);
        ImportResult bad = importTrace(write("bad.xplane.pb.gz", damaged));
        QVERIFY(!bad.ok());
        QVERIFY2(!bad.error.empty(), "no reason given");
    }

    void countsPerPlaneAndLine_data() {
        QTest::addColumn<QString>("file");
        const nlohmann::json all = expectedCounts();
        for (auto& [file, counts] : all.items()) QTest::newRow(file.c_str()) << QString::fromStdString(file);
    }

    // Every line's slices (duration > 0) and instants (duration 0) against the script's counts.
    void countsPerPlaneAndLine() {
        QFETCH(QString, file);
        const nlohmann::json expected = expectedCounts()[file.toStdString()];
        ImportResult r = open(kTestData + file.toStdString());
        QVERIFY(r.ok());
        const Trace& t = *r.trace;
        QCOMPARE(t.format, std::string("xspace"));
        QCOMPARE(t.hosts.size(), size_t(1));

        size_t drawnPlanes = 0;
        for (const auto& plane : expected["planes"]) {
            const std::string name = plane["name"];
            const size_t events = plane["duration_gt0"].get<size_t>() + plane["duration_eq0"].get<size_t>();
            const Process* p = findProcess(t, name);
            if (name == "/host:metadata" || name == "Task Environment" || events == 0) {
                QVERIFY2(p == nullptr, name.c_str());  // metadata and empty planes are not drawn
                continue;
            }
            ++drawnPlanes;
            QVERIFY2(p != nullptr, name.c_str());
            for (const auto& line : plane["lines"]) {
                std::string lineName = line["display_name"];
                if (lineName.empty()) lineName = line["name"];
                const size_t gt0 = line["duration_gt0"], eq0 = line["duration_eq0"];
                const Track* track = findTrack(t, *p, lineName);
                if (gt0 + eq0 == 0) continue;
                QVERIFY2(track != nullptr, (name + " / " + lineName).c_str());
                const auto [slices, instants] = trackEventCounts(t, *track);
                QCOMPARE(slices, gt0);
                QCOMPARE(instants, eq0);
            }
        }
        QCOMPARE(t.processes.size(), drawnPlanes);
        const TraceCounts c = t.counts();
        QCOMPARE(c.slices, expected["duration_gt0"].get<size_t>());
        QCOMPARE(c.instants, expected["duration_eq0"].get<size_t>());
        QCOMPARE(expected["num_occurrences"].get<size_t>(), size_t(0));
        QVERIFY(t.metadataValue("xspace.aggregated_events") == nullptr);

        // Flows: one arrow per device activity whose correlation id a host call carries, and
        // every producer/consumer pair.
        size_t launch = 0, context = 0;
        for (const Flow& f : t.flows) {
            if (t.str(t.flowCategory(f)) == "launch") ++launch;
            if (t.str(t.flowCategory(f)) == "producer_consumer") ++context;
        }
        QCOMPARE(launch, expected["launch_flows"].get<size_t>());
        QCOMPARE(context, expected["context_flows"].get<size_t>());
        QCOMPARE(t.flows.size(), launch + context);
    }

    // Launch arrows go from a host API call to device activity with the same correlation id.
    void launchFlowsJoinCorrelationIds() {
        ImportResult r = open(kJaxMlp);
        QVERIFY(r.ok());
        const Trace& t = *r.trace;
        size_t checked = 0;
        for (const Flow& f : t.flows) {
            if (t.str(t.flowCategory(f)) != "launch") continue;
            const Track& from = t.tracks[f.from.track];
            const Track& to = t.tracks[f.to.track];
            QCOMPARE(t.processes[from.process].kind, ProcessKind::Host);
            QCOMPARE(t.processes[to.process].kind, ProcessKind::Device);
            const int64_t a = argInt(t, from, from.slices.args[f.from.index], "correlation_id");
            const int64_t b = argInt(t, to, to.slices.args[f.to.index], "correlation_id");
            QCOMPARE(a, b);
            QCOMPARE(t.str(from.slices.category[f.from.index]), std::string_view("cuda_driver"));
            const std::string_view kind = t.str(to.slices.category[f.to.index]);
            QVERIFY(kind == "kernel" || kind == "gpu_memset");
            ++checked;
        }
        QCOMPARE(checked, size_t(310));
        // One CUDA graph launch (correlation id 18, 10 launches) feeds the graph's kernels.
        size_t fromGraphLaunch = 0;
        for (const Flow& f : t.flows) {
            const Track& from = t.tracks[f.from.track];
            if (t.str(from.slices.name[f.from.index]) == "cuGraphLaunch (CudaGraph:18)") ++fromGraphLaunch;
        }
        QVERIFY(fromGraphLaunch > 10);
    }

    // Device stream categories: kernels have kernel_details, memsets Memset_details.
    void deviceCategories() {
        ImportResult r = open(kJaxMlp);
        QVERIFY(r.ok());
        const Trace& t = *r.trace;
        const Process* gpu = findProcess(t, "/device:GPU:0");
        QVERIFY(gpu);
        std::map<std::string, size_t> byCategory;
        for (TrackIndex ti : gpu->tracks)
            for (StringId c : t.tracks[ti].slices.category) ++byCategory[std::string(t.str(c))];
        QCOMPARE(byCategory["kernel"], size_t(300));
        QCOMPARE(byCategory["gpu_memset"], size_t(10));
        QCOMPARE(byCategory.size(), size_t(2));
    }

    // A kernel's stats (event stats resolved by stat name; ref values to their text).
    void kernelStats() {
        ImportResult r = open(kJaxMlp);
        QVERIFY(r.ok());
        const Trace& t = *r.trace;
        const Process* gpu = findProcess(t, "/device:GPU:0");
        QVERIFY(gpu);
        const Track* stream = findTrack(t, *gpu, "Stream #14(Memset,Compute)");
        QVERIFY(stream);
        // loop_reduce_fusion at 14252773000 ps, 2976000 ps long.
        bool found = false;
        for (size_t i = 0; i < stream->slices.size(); ++i) {
            if (t.str(stream->slices.name[i]) != "loop_reduce_fusion") continue;
            if (t.originNs + stream->slices.start[i] != 14252773) continue;
            found = true;
            const ArgsOffset a = stream->slices.args[i];
            QCOMPARE(stream->slices.duration[i], TimeNs(2976));
            QCOMPARE(argInt(t, *stream, a, "correlation_id"), int64_t(18));
            QCOMPARE(argText(t, *stream, a, "context_id"), std::string("$$1"));
            QCOMPARE(argText(t, *stream, a, "kernel_details"),
                     std::string("regs:28 static_shared:0 dynamic_shared:0 grid:1024,1,1 block:128,1,1 occ_pct:100"));
            QCOMPARE(argText(t, *stream, a, "tf_op"), std::string("XlaModule:"));
            QCOMPARE(argText(t, *stream, a, "hlo_op"), std::string("command_buffer_1"));
            QCOMPARE(argText(t, *stream, a, "hlo_module"), std::string("jit_step"));
            QCOMPARE(argInt(t, *stream, a, "program_id"), int64_t(11937));
            QCOMPARE(arg(t, *stream, a, "theoretical_occupancy_pct")->toDouble(), 100.0);
            QCOMPARE(argInt(t, *stream, a, "scope_range_id"), int64_t(281474976710658));
            QCOMPARE(t.str(stream->slices.category[i]), std::string_view("kernel"));
        }
        QVERIFY(found);
    }

    // Device properties, versions and the profile start time.
    void planeStatsAndTaskEnvironment() {
        ImportResult r = open(kJaxMlp);
        QVERIFY(r.ok());
        const Trace& t = *r.trace;
        const Process* gpu = findProcess(t, "/device:GPU:0");
        QVERIFY(gpu);
        QCOMPARE(processProperty(*gpu, "core_count"), std::string("132"));
        QCOMPARE(processProperty(*gpu, "compute_cap_major"), std::string("9"));
        QCOMPARE(processProperty(*gpu, "compute_cap_minor"), std::string("0"));
        QCOMPARE(processProperty(*gpu, "gpu_device_name"), std::string("NVIDIA H100 80GB HBM3"));
        QCOMPARE(processProperty(*gpu, "clock_rate"), std::string("1980000"));
        QCOMPARE(metadata(t, "device./device:GPU:0.memory_size"), std::string("85017493504"));
        QCOMPARE(metadata(t, "device./device:GPU:0.memory_bandwidth"), std::string("3352320000000"));
        QCOMPARE(metadata(t, "jax_version"), std::string("0.11.2"));
        QCOMPARE(metadata(t, "cuda_version"), std::string("13000"));
        QCOMPARE(metadata(t, "xla.programs"), std::string("19"));
        QCOMPARE(metadata(t, "profile_start_time"), std::string("1795338009167228964"));
        QCOMPARE(metadata(t, "profile_stop_time"), std::string("1795338009198022413"));
        QVERIFY(t.originUnixNs.has_value());
        // Line times are relative to the profile start: time 0 is profile_start_time.
        QCOMPARE(*t.originUnixNs - t.originNs, int64_t(1795338009167228964));
        QCOMPARE(t.hosts, std::vector<std::string>{"vm"});
        QCOMPARE(t.processes.front().kind, ProcessKind::Device);
        QCOMPARE(t.processes.back().name, std::string("/host:CPU"));
    }

    // TF 2.4 memory events: instants on the allocating thread with every stat (strings as str_value).
    void memoryEventsStrValues() {
        ImportResult r = open(kTf24);
        QVERIFY(r.ok());
        const Trace& t = *r.trace;
        const Process* host = findProcess(t, "/host:CPU");
        QVERIFY(host);
        const Track* py = findTrack(t, *host, "python3");
        QVERIFY(py);
        bool found = false;
        size_t memoryInstants = 0;
        for (size_t i = 0; i < py->instants.size(); ++i) {
            const ArgsOffset a = py->instants.args[i];
            if (t.str(py->instants.category[i]) == "memory") ++memoryInstants;
            if (argInt(t, *py, a, "addr") != 139760685864448 || t.str(py->instants.name[i]) != "MemoryAllocation")
                continue;
            if (t.originNs + py->instants.time[i] != 128685703) continue;
            found = true;
            QCOMPARE(argText(t, *py, a, "allocator_name"), std::string("gpu_host_bfc"));
            QCOMPARE(argInt(t, *py, a, "bytes_allocated"), int64_t(579328));
            QCOMPARE(argInt(t, *py, a, "bytes_available"), int64_t(68718897408));
            QCOMPARE(argInt(t, *py, a, "peak_bytes_in_use"), int64_t(134217728));
            QCOMPARE(argInt(t, *py, a, "requested_bytes"), int64_t(8));
            QCOMPARE(argInt(t, *py, a, "allocation_bytes"), int64_t(256));
            QCOMPARE(argText(t, *py, a, "tf_op"), std::string("__inference_train_single_step_318906"));
            QCOMPARE(argInt(t, *py, a, "data_type"), int64_t(0));
        }
        QVERIFY(found);
        QCOMPARE(memoryInstants, size_t(686));  // all instants of python3 are memory events
    }

    // JAX 0.8 (ROCm): allocator names as ref_value, resolved to the referenced stat name.
    void memoryEventsRefValues() {
        ImportResult r = open(kTw003);
        QVERIFY(r.ok());
        const Trace& t = *r.trace;
        const Process* host = findProcess(t, "/host:CPU");
        QVERIFY(host);
        const Track* th = findTrack(t, *host, "py_xla_execute/-1472503042444199177");
        QVERIFY(th);
        bool found = false;
        for (size_t i = 0; i < th->instants.size(); ++i) {
            const ArgsOffset a = th->instants.args[i];
            if (argInt(t, *th, a, "addr") != 139867669397504 || t.originNs + th->instants.time[i] != 1965813) continue;
            found = true;
            QCOMPARE(t.str(th->instants.name[i]), std::string_view("MemoryAllocation"));
            QCOMPARE(argText(t, *th, a, "allocator_name"), std::string("GPU_0_bfc"));
            QCOMPARE(argInt(t, *th, a, "bytes_allocated"), int64_t(1151099648));
            QCOMPARE(argText(t, *th, a, "fragmentation"), std::string("0.557062"));
            QCOMPARE(argInt(t, *th, a, "requested_bytes"), int64_t(572026880));
        }
        QVERIFY(found);
    }

    // Display names are shown; the full name is kept as long_name. Derived lines come first.
    void displayNamesAndTrackOrder() {
        ImportResult r = open(kTf24);
        QVERIFY(r.ok());
        const Trace& t = *r.trace;
        std::vector<std::string> processes;
        for (const Process& p : t.processes) processes.push_back(p.name);
        QCOMPARE(processes, (std::vector<std::string>{"/device:GPU:1", "/device:GPU:4", "/device:GPU:6", "/host:CPU"}));
        const Process* gpu = findProcess(t, "/device:GPU:4");
        QVERIFY(gpu);
        std::vector<std::string> tracks;
        for (TrackIndex ti : gpu->tracks)
            if (t.tracks[ti].overflowOf == kNoIndex) tracks.push_back(t.tracks[ti].name);
        QCOMPARE(tracks, (std::vector<std::string>{"Steps", "TensorFlow Ops", "TensorFlow Name Scope",
                                                   "Stream #63(MemcpyH2D)", "Stream #134(Compute)",
                                                   "Stream #135(MemcpyH2D)", "Stream #136(MemcpyD2H)"}));
        const Track* ops = findTrack(t, *gpu, "TensorFlow Ops");
        QVERIFY(ops);
        bool found = false;
        for (size_t i = 0; i < ops->slices.size(); ++i) {
            if (t.originNs + ops->slices.start[i] != 1921299828) continue;
            found = true;
            QCOMPARE(t.str(ops->slices.name[i]), std::string_view("RandomUniform"));
            QCOMPARE(ops->slices.duration[i], TimeNs(57343));
            QCOMPARE(argText(t, *ops, ops->slices.args[i], "long_name"),
                     std::string("replica_4/bert_span_labeler/bert_encoder_1/transformer/layer_5/dropout_1/dropout/"
                                 "random_uniform/RandomUniform:RandomUniform"));
            QCOMPARE(argInt(t, *ops, ops->slices.args[i], "group_id"), int64_t(0));
            QCOMPARE(t.str(ops->slices.category[i]), std::string_view("tf_op"));
        }
        QVERIFY(found);
        const Track* steps = findTrack(t, *gpu, "Steps");
        QVERIFY(steps && steps->slices.size() == 1);
        QCOMPARE(t.str(steps->slices.category[0]), std::string_view("step"));
        // Host threads are sorted by name.
        const Process* host = findProcess(t, "/host:CPU");
        QVERIFY(host);
        QCOMPARE(t.tracks[host->tracks.front()].name, std::string("collective_ops/1737528048"));
    }

    void detectsFormatsByContent() {
        const nlohmann::json all = expectedCounts();
        for (auto& [file, counts] : all.items()) QCOMPARE(detectFormat(kTestData + file), TraceFormat::XSpace);
        QTemporaryDir dir;
        // A hand-made RunMetadata: step_stats { dev_stats { device: "/job:localhost/.../CPU:0" node_stats {} } }.
        const std::string device = "/job:localhost/replica:0/task:0/device:CPU:0";
        std::string devStats = "\x0a" + std::string(1, char(device.size())) + device + std::string("\x12\x00", 2);
        std::string stepStats = "\x0a" + std::string(1, char(devStats.size())) + devStats;
        std::string runMetadata = "\x0a" + std::string(1, char(stepStats.size())) + stepStats;
        const std::string rm = dir.filePath("run.pb").toStdString();
        writeBytes(rm, runMetadata);
        QCOMPARE(detectFormat(rm), TraceFormat::RunMetadata);
        // A PNG and random bytes are not traces.
        const std::string png = dir.filePath("x.png").toStdString();
        writeBytes(png, std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10", 20));
        std::string error;
        QCOMPARE(detectFormat(png, &error), TraceFormat::Unknown);
        QVERIFY(error.find("not a trace") != std::string::npos);
        ImportResult r = importTrace(png);
        QVERIFY(!r.ok());
        QVERIFY(r.error.find("not a trace") != std::string::npos);
        std::mt19937 rng(7);
        std::string noise(4096, '\0');
        for (char& c : noise) c = char(rng());
        const std::string rnd = dir.filePath("noise.bin").toStdString();
        writeBytes(rnd, noise);
        QVERIFY(!importTrace(rnd).ok());
        const std::string empty = dir.filePath("empty.xplane.pb").toStdString();
        writeBytes(empty, "");
        QVERIFY(!importTrace(empty).ok());
        QVERIFY(!importXSpace(empty).ok());
        QVERIFY(!importXSpace(png).ok());
    }

    // Two hosts of one run open as one trace: processes doubled, named "<host>: <plane>".
    void multiHostRun() {
        QTemporaryDir dir;
        const fs::path run = fs::path(dir.path().toStdString()) / "plugins/profile/2024_07_17_14_53_22";
        fs::create_directories(run);
        fs::copy_file(kJaxMlp, run / "hostA_9012.xplane.pb");
        fs::copy_file(kJaxMlp, run / "hostB_9012.xplane.pb");
        ImportResult single = importXSpace(kJaxMlp);
        QVERIFY(single.ok());
        const TraceCounts one = single.trace->counts();

        ImportResult r = open(dir.path().toStdString());
        QVERIFY(r.ok());
        const Trace& t = *r.trace;
        QCOMPARE(t.hosts, (std::vector<std::string>{"hostA_9012", "hostB_9012"}));
        QCOMPARE(t.processes.size(), 2 * single.trace->processes.size());
        const TraceCounts two = t.counts();
        QCOMPARE(two.slices, 2 * one.slices);
        QCOMPARE(two.instants, 2 * one.instants);
        QCOMPARE(two.flows, 2 * one.flows);
        const Process* a = findProcess(t, "hostA_9012: /device:GPU:0");
        const Process* b = findProcess(t, "hostB_9012: /host:CPU");
        QVERIFY(a && b);
        QCOMPARE(a->host, std::string("hostA_9012"));
        QCOMPARE(b->host, std::string("hostB_9012"));
        // Devices of all hosts first.
        QCOMPARE(t.processes[0].kind, ProcessKind::Device);
        QCOMPARE(t.processes[1].kind, ProcessKind::Device);
        // Same start time on both hosts: the two copies line up exactly.
        QCOMPARE(t.spanNs(), single.trace->spanNs());
        QCOMPARE(metadata(t, "hostA_9012.profile_start_time"), std::string("1795338009167228964"));
        // Flows never cross hosts.
        for (const Flow& f : t.flows)
            QCOMPARE(t.processes[t.tracks[f.from.track].process].host, t.processes[t.tracks[f.to.track].process].host);
    }

    // A logdir, its plugins/profile folder and a run folder; the newest run opens by default.
    void logdirForms() {
        QTemporaryDir dir;
        const fs::path logdir = dir.path().toStdString();
        const fs::path profile = logdir / "plugins" / "profile";
        fs::create_directories(profile / "2023_01_02_03_04_05");
        fs::create_directories(profile / "2024_07_17_14_53_22");
        fs::create_directories(profile / "not_a_run");  // no profile files
        fs::copy_file(kTw003, profile / "2023_01_02_03_04_05" / "old.xplane.pb");
        fs::copy_file(kJaxMlp, profile / "2024_07_17_14_53_22" / "new.xplane.pb");

        for (const fs::path& p : {logdir, profile}) {
            const auto runs = listRuns(p.string());
            QCOMPARE(runs.size(), size_t(2));
            QCOMPARE(runs[0].name, std::string("2024_07_17_14_53_22"));
            QVERIFY(runs[0].timeFromName);
            QCOMPARE(runs[0].hosts, std::vector<std::string>{"new"});
            QCOMPARE(runs[1].name, std::string("2023_01_02_03_04_05"));
            QCOMPARE(detectFormat(p.string()), TraceFormat::Directory);
            ImportResult r = open(p.string());
            QVERIFY(r.ok());
            QCOMPARE(r.trace->counts().slices, size_t(1129));  // the newest run: jax_mlp_h100
            QCOMPARE(r.trace->hosts, std::vector<std::string>{"new"});
        }
        const fs::path oldRun = profile / "2023_01_02_03_04_05";
        QCOMPARE(listRuns(oldRun.string()).size(), size_t(1));
        ImportResult r = importRun(oldRun.string());
        QVERIFY(r.ok());
        QCOMPARE(r.trace->counts().slices, size_t(3195));  // tw003
        // Nested TensorBoard runs: <logdir>/<sub-run>/plugins/profile/<run>.
        const fs::path nested = logdir / "train" / "plugins" / "profile" / "2025_01_01_00_00_00";
        fs::create_directories(nested);
        fs::copy_file(kJaxMlp, nested / "w.xplane.pb");
        const auto runs = listRuns(logdir.string());
        QCOMPARE(runs.size(), size_t(3));
        QCOMPARE(runs[0].name, std::string("train/2025_01_01_00_00_00"));
        // Folders without profiles give a clear error.
        QTemporaryDir emptyDir;
        ImportResult none = importTrace(emptyDir.path().toStdString());
        QVERIFY(!none.ok());
        QVERIFY(none.error.find("no profile runs") != std::string::npos);
    }

    void runTimestamps() {
        int64_t s = 0;
        QVERIFY(parseRunTimestamp("2024_07_17_14_53_22", s));
        QCOMPARE(s, int64_t(1721228002));
        QVERIFY(!parseRunTimestamp("2024_07_17_14_53", s));
        QVERIFY(!parseRunTimestamp("2024-07-17_14_53_22", s));
        QVERIFY(!parseRunTimestamp("2024_13_17_14_53_22", s));
    }

    // A file cut anywhere: an error, or every plane before the cut plus a warning.
    void truncatedFiles() {
        const std::string bytes = readBytes(kTf24);
        ImportResult full = importXSpace(kTf24);
        QVERIFY(full.ok());
        QTemporaryDir dir;
        const std::string path = dir.filePath("cut.xplane.pb").toStdString();
        for (size_t cut : {size_t(1), size_t(2), size_t(10), size_t(1000), bytes.size() / 4, bytes.size() / 2,
                           bytes.size() * 3 / 4, bytes.size() * 9 / 10, bytes.size() - 1}) {
            writeBytes(path, bytes.substr(0, cut));
            ImportResult r = importXSpace(path);
            if (!r.ok()) {
                QVERIFY2(!r.error.empty(), std::to_string(cut).c_str());
                continue;
            }
            bool warned = false;
            for (const ImportWarning& w : r.trace->warnings) warned = warned || w.kind == WarningKind::Truncated;
            QVERIFY2(warned, std::to_string(cut).c_str());
            QVERIFY(r.trace->counts().slices <= full.trace->counts().slices);
        }
        // Cutting the last byte loses only the last plane (/device:GPU:7, no events).
        writeBytes(path, bytes.substr(0, bytes.size() - 1));
        ImportResult r = importXSpace(path);
        QVERIFY(r.ok());
        QCOMPARE(r.trace->counts().slices, full.trace->counts().slices);
        QCOMPARE(r.trace->counts().instants, full.trace->counts().instants);
        // The host plane comes first: a cut inside it keeps the events before the cut (nameless:
        // the plane's metadata follows its lines); the later the cut, the more events.
        size_t previous = 0;
        for (int percent : {1, 10, 25, 50}) {
            writeBytes(path, bytes.substr(0, bytes.size() * size_t(percent) / 100));
            ImportResult cut = importXSpace(path);
            QVERIFY(cut.ok());
            const Process* host = findProcess(*cut.trace, "/host:CPU");
            QVERIFY(host);
            const size_t events = cut.trace->counts().slices + cut.trace->counts().instants;
            QVERIFY(events > previous);
            QVERIFY(events < full.trace->counts().slices + full.trace->counts().instants);
            previous = events;
            bool salvaged = false;
            for (const ImportWarning& w : cut.trace->warnings)
                salvaged = salvaged || warningText(w).find("without event and stat names") != std::string::npos;
            QVERIFY(salvaged);
        }
    }

    // Damaged bytes anywhere: never a crash; a clear error or a trace (with warnings when parts were lost).
    void corruptedBytes() {
        const std::string bytes = readBytes(kJaxMlp);
        QTemporaryDir dir;
        const std::string path = dir.filePath("bad.xplane.pb").toStdString();
        std::mt19937 rng(12345);
        size_t loaded = 0, failed = 0;
        for (int round = 0; round < 150; ++round) {
            std::string damaged = bytes;
            const int flips = 1 + int(rng() % 8);
            for (int k = 0; k < flips; ++k) damaged[rng() % damaged.size()] = char(rng());
            writeBytes(path, damaged);
            ImportResult r = importTrace(path);
            if (r.ok()) {
                ++loaded;
                QVERIFY(r.trace->counts().slices + r.trace->counts().instants > 0 || !r.trace->warnings.empty());
            } else {
                ++failed;
                QVERIFY(!r.error.empty());
            }
        }
        QCOMPARE(loaded + failed, size_t(150));
        // Huge lengths and counts in an otherwise valid outline.
        std::string hostile = "\x0a\xff\xff\xff\xff\x0f";  // plane of 4 GB declared
        writeBytes(path, hostile);
        QVERIFY(!importXSpace(path).ok());
        hostile = std::string("\x0a\x05\x12\x03") + "abc";  // plane name cut short inside the plane
        writeBytes(path, hostile);
        ImportResult r = importXSpace(path);
        QVERIFY(!r.ok() || r.trace->counts().slices == 0);
    }

    // XLA programs too large to parse with the others: a 70 MB program is read on its own, one of
    // over 2 GiB (protobuf reads no larger message) is named with a note, and the rest is shown.
    // The 2 GiB of the large proto are a hole in a sparse file: nothing reads them.
    void xlaProgramsOverTwoGigabytes() {
        namespace pb = tensorflow::profiler;
        auto program = [](const std::string& name, size_t padding) {
            xla::HloProto proto;
            xla::HloModuleProto* m = proto.mutable_hlo_module();
            m->set_name(name);
            xla::HloComputationProto* c = m->add_computations();
            c->set_id(1);
            c->set_name("main");
            xla::HloInstructionProto* i = c->add_instructions();
            i->set_id(1);
            i->set_name("p0");
            i->set_opcode("parameter");
            i->mutable_shape()->set_element_type(xla::F32);
            if (padding) i->set_backend_config(std::string(padding, 'x'));
            c->set_root_id(1);
            return proto.SerializeAsString();
        };
        pb::XSpace space;
        pb::XPlane* meta = space.add_planes();
        meta->set_id(1);
        meta->set_name("/host:metadata");
        (*meta->mutable_stat_metadata())[1].set_id(1);
        (*meta->mutable_stat_metadata())[1].set_name("hlo_proto");
        const std::pair<int64_t, std::string> programs[] = {{1, program("jit_small", 0)},
                                                             {2, program("jit_wide", size_t(70) << 20)}};
        for (const auto& [id, bytes] : programs) {
            pb::XEventMetadata& md = (*meta->mutable_event_metadata())[id];
            md.set_id(id);
            md.set_name(id == 1 ? "jit_small" : "jit_wide");
            md.add_stats()->set_metadata_id(1);
            md.mutable_stats(0)->set_bytes_value(bytes);
        }
        pb::XSpace gpuSpace;
        pb::XPlane* gpu = gpuSpace.add_planes();
        gpu->set_id(2);
        gpu->set_name("/device:GPU:0");
        (*gpu->mutable_event_metadata())[1].set_name("loop_fusion");
        pb::XLine* line = gpu->add_lines();
        line->set_id(7);
        line->set_name("Stream #7");
        line->set_timestamp_ns(1000);
        pb::XEvent* e = line->add_events();
        e->set_metadata_id(1);
        e->set_duration_ps(5000);
        gpuSpace.add_hostnames("bighost");

        // The third program, by hand: event_metadata { key 3 value { id 3 name "jit_huge"
        // stats { metadata_id 1 bytes_value <2^31 + 16 bytes> } } }, its bytes left out.
        auto varint = [](uint64_t v) {
            std::string s;
            for (; v >= 0x80; v >>= 7) s += char(0x80 | (v & 0x7f));
            return s + char(v);
        };
        auto key = [&](int field, int type) { return varint(uint64_t(field) << 3 | uint64_t(type)); };
        const uint64_t hugeBytes = (uint64_t(1) << 31) + 16;
        const std::string statHead = key(1, 0) + varint(1) + key(6, 2) + varint(hugeBytes);
        const uint64_t statSize = statHead.size() + hugeBytes;
        const std::string mdHead = key(1, 0) + varint(3) + key(2, 2) + varint(8) + "jit_huge" + key(5, 2) + varint(statSize);
        const uint64_t mdSize = mdHead.size() + statSize;
        const std::string entryHead = key(1, 0) + varint(3) + key(2, 2) + varint(mdSize);
        const uint64_t entrySize = entryHead.size() + mdSize;
        const std::string fieldHead = key(4, 2) + varint(entrySize);
        const std::string metaPlane = meta->SerializeAsString();
        const uint64_t planeSize = metaPlane.size() + fieldHead.size() + entrySize;
        const std::string head = key(1, 2) + varint(planeSize) + metaPlane + fieldHead + entryHead + mdHead + statHead;

        QTemporaryDir dir;
        const std::string path = dir.filePath("huge.xplane.pb").toStdString();
        writeBytes(path, head);
        fs::resize_file(path, head.size() + hugeBytes);  // a hole: no disk, no memory
        std::ofstream(path, std::ios::binary | std::ios::app) << gpuSpace.SerializeAsString();

        ImportResult r = importXSpace(path);
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace& t = *r.trace;
        QCOMPARE(t.counts().slices, size_t(1));  // the GPU plane after it is read
        QCOMPARE(t.xlaPrograms.size(), size_t(3));
        QCOMPARE(t.xlaPrograms[2].programId, int64_t(3));
        QCOMPARE(t.xlaPrograms[2].name, std::string("jit_huge"));
        QVERIFY(t.xlaPrograms[2].hloProto.empty());
        const HloProgramIndex index = indexHloPrograms(t);
        QCOMPARE(index.programs.size(), size_t(2));
        QCOMPARE(index.programs[0]->moduleName(), std::string("jit_small"));
        QCOMPARE(index.programs[1]->moduleName(), std::string("jit_wide"));
        QCOMPARE(index.programs[1]->instructionCount(), size_t(1));
        QCOMPARE(index.problems.size(), size_t(1));
        QCOMPARE(index.problems[0],
                 std::string("program 3 (jit_huge): its HLO (2.0 GB) is larger than protobuf reads (2 GiB): not read"));
    }

    // An XSpace given as bytes (e.g. a capture reply) and an aggregated (num_occurrences) event.
    void bytesInputAndAggregatedEvents() {
        // XSpace { planes { id 1 name "/device:GPU:0"
        //   lines { id 7 name "Stream #7" timestamp_ns 1000
        //           events { metadata_id 1 offset_ps 1500 duration_ps 2500 }
        //           events { metadata_id 1 num_occurrences 3 } }
        //   event_metadata { key 1 value { id 1 name "k" } } } }
        auto ld = [](int field, const std::string& payload) {
            return std::string(1, char(field << 3 | 2)) + char(payload.size()) + payload;
        };
        auto varint = [](int field, int value) {  // values < 16384
            std::string s(1, char(field << 3));
            if (value < 128) return s + char(value);
            return s + char(0x80 | (value & 0x7f)) + char(value >> 7);
        };
        const std::string e1 = varint(1, 1) + varint(2, 1500) + varint(3, 2500);
        const std::string e2 = varint(1, 1) + varint(5, 3);
        const std::string line = varint(1, 7) + ld(2, "Stream #7") + varint(3, 1000) + ld(4, e1) + ld(4, e2);
        const std::string md = ld(2, varint(1, 1) + ld(2, "k"));
        const std::string entry = varint(1, 1) + md;
        const std::string plane = varint(1, 1) + ld(2, "/device:GPU:0") + ld(3, line) + ld(4, entry);
        const std::string space = ld(1, plane) + ld(4, "myhost");
        ImportResult r = importXSpaces({XSpaceSource{"", "", space}});
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace& t = *r.trace;
        QCOMPARE(t.hosts, std::vector<std::string>{"myhost"});
        QCOMPARE(t.counts().slices, size_t(1));
        QCOMPARE(metadata(t, "xspace.aggregated_events"), std::string("1"));
        const Track& track = t.tracks[t.processes[0].tracks[0]];
        QCOMPARE(track.name, std::string("Stream #7"));
        // Start (1000 ns * 1000 + 1500 ps) rounds to 1002 ns, end (+2500 ps = 1004000 ps) to 1004 ns.
        QCOMPARE(t.originNs + track.slices.start[0], TimeNs(1002));
        QCOMPARE(track.slices.duration[0], TimeNs(2));
        QCOMPARE(t.str(track.slices.category[0]), std::string_view("kernel"));
    }

    // Cancel and progress.
    void cancelAndProgress() {
        std::atomic<bool> cancel{true};
        ImportOptions cancelled;
        cancelled.cancel = &cancel;
        ImportResult r = importXSpace(kTf24, cancelled);
        QVERIFY(!r.ok());
        QVERIFY(r.cancelled);
        ImportOptions progress;
        uint64_t lastDone = 0, lastTotal = 0;
        bool monotonic = true;
        progress.progress = [&](uint64_t done, uint64_t total) {
            monotonic = monotonic && done >= lastDone && done <= total;
            lastDone = done;
            lastTotal = total;
        };
        QVERIFY(importXSpace(kTf24, progress).ok());
        QVERIFY(monotonic);
        QCOMPARE(lastTotal, uint64_t(fs::file_size(kTf24)));
        QVERIFY(lastDone > lastTotal / 2);
    }

    // Hosts are aligned on their Task Environment profile_start_time.
    void hostsAlignedOnProfileStart() {
        auto space = [](uint64_t startUnixNs) {
            const std::string event = pbVarint(1, 1) + pbVarint(2, 5000) + pbVarint(3, 1000000);  // 5 ns, 1 us
            const std::string line = pbVarint(1, 3) + pbBytes(2, "worker") + pbVarint(3, 100) + pbBytes(4, event);
            const std::string host = pbBytes(2, "/host:CPU") + pbBytes(3, line) + pbMetadataEntry(4, 1, "step");
            const std::string env = pbBytes(2, "Task Environment") + pbMetadataEntry(5, 7, "profile_start_time") +
                                    pbBytes(6, pbVarint(1, 7) + pbVarint(3, startUnixNs));
            return pbBytes(1, host) + pbBytes(1, env);
        };
        const std::string a = space(1700000000000000000ull), b = space(1700000000000250000ull);  // b starts 250 us later
        ImportResult r = importXSpaces({XSpaceSource{"a", "", a}, XSpaceSource{"b", "", b}});
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace& t = *r.trace;
        QCOMPARE(t.hosts, (std::vector<std::string>{"a", "b"}));
        const Process* pa = findProcess(t, "a: /host:CPU");
        const Process* pb = findProcess(t, "b: /host:CPU");
        QVERIFY(pa && pb);
        const Track& ta = t.tracks[pa->tracks[0]];
        const Track& tb = t.tracks[pb->tracks[0]];
        QCOMPARE(tb.slices.start[0] - ta.slices.start[0], TimeNs(250000));
        QVERIFY(t.originUnixNs.has_value());
        // Time 0 of host a is its profile start; its event starts 100 ns + 5 ns later.
        QCOMPARE(*t.originUnixNs + ta.slices.start[0], int64_t(1700000000000000000ll + 105));
        QCOMPARE(metadata(t, "b.profile_start_time"), std::string("1700000000000250000"));
    }

    // Extreme 64-bit times and durations: no overflow trap, no crash.
    void extremeValues() {
        const uint64_t big = uint64_t(INT64_MAX), negative = uint64_t(INT64_MIN);
        const std::string events = pbBytes(4, pbVarint(1, 1) + pbVarint(2, big) + pbVarint(3, big)) +
                                   pbBytes(4, pbVarint(1, 2) + pbVarint(2, negative) + pbVarint(3, 5)) +
                                   pbBytes(4, pbVarint(1, 99) + pbVarint(2, 0) + pbVarint(3, negative));
        const std::string line = pbVarint(1, 1) + pbBytes(2, "t") + pbVarint(3, big) + events;
        const std::string plane = pbBytes(2, "/host:CPU") + pbBytes(3, line) + pbMetadataEntry(4, 1, "a") +
                                  pbMetadataEntry(4, 2, "b") + pbMetadataEntry(5, uint64_t(INT64_MIN), "s");
        ImportResult r = importXSpaces({XSpaceSource{"h", "", pbBytes(1, plane)}});
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.trace->counts().slices + r.trace->counts().instants, size_t(3));
    }

    // "_counters_" lines become counter tracks, one per counter name.
    void counterLines() {
        auto sample = [](uint64_t offsetPs, double v) {
            return pbBytes(4, pbVarint(1, 1) + pbVarint(2, offsetPs) + pbBytes(4, pbVarint(1, 9) + pbDouble(2, v)));
        };
        const std::string line = pbVarint(1, 1) + pbBytes(2, "_counters_") + sample(1000, 0.5) + sample(3000, 0.75);
        const std::string plane = pbVarint(1, 0) + pbBytes(2, "/device:TPU:0") + pbBytes(3, line) +
                                  pbMetadataEntry(4, 1, "hbm_util") + pbMetadataEntry(5, 9, "hbm_util");
        ImportResult r = importXSpaces({XSpaceSource{"h", "", pbBytes(1, plane)}});
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace& t = *r.trace;
        QCOMPARE(t.counts().counterTracks, size_t(1));
        QCOMPARE(t.counts().counterSamples, size_t(2));
        const Track& c = t.tracks[t.processes[0].tracks[0]];
        QCOMPARE(c.kind, TrackKind::Counter);
        QCOMPARE(c.name, std::string("hbm_util"));
        QCOMPARE(c.counter.value[1], 0.75);
        QCOMPARE(c.counter.time[1] - c.counter.time[0], TimeNs(2));
        // Sampled hardware measurements: the timeline joins them with lines (model/query/counter_layout.h).
        QCOMPARE(defaultCounterDrawMode(t.format), CounterDrawMode::Line);
    }
};

QTEST_GUILESS_MAIN(XSpaceImportTest)
#include "tst_xspace_import.moc"
