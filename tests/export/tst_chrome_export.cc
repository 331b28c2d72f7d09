// Chrome JSON export. The written JSON is read back with nlohmann::json (not
// our importer) and its events are counted by phase against Trace::counts();
// exact values come from hand-built traces. When our Chrome JSON importer is
// part of the build, every written file is also re-imported and must give the
// same counts and span as the original, for hand-built traces and real files.
#include "model/export/chrome_json_writer.h"
#include "model/export/json_text.h"
#include "model/import/run_metadata_importer.h"
#include "model/trace/trace_builder.h"
#include "tests/tools/run_metadata_fixture.h"

#ifdef TRACESCOPE_HAVE_CHROME_IMPORTER
#include "model/import/chrome_json_importer.h"
#include "model/import/import.h"
#endif

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <tuple>

using namespace tracescope;
using Json = nlohmann::json;

namespace {

std::string readGzip(const std::string& path) {
    std::string out;
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) return out;
    char buf[65536];
    for (int n; (n = gzread(f, buf, sizeof buf)) > 0;) out.append(buf, size_t(n));
    gzclose(f);
    return out;
}

std::string readPlain(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Named {
    std::string name;
    TimeNs start, dur;
};

// The hand-built trace (times in ns):
//   process "GPU 0" (Device, pid 7, labels "H100")
//     thread "stream 1": outer [1000,11000) > inner [1000,3000), inner2 [5000,6000);
//       partial [9000,15000) overlaps outer -> overflow lane; precise [1234567,1234568);
//       unfinished from 20000 (ends at the trace end 1234568); instant "mark" at 2000
//     counters "util" (0:1.5, 5000:2.25, 10000:0) and a second "util" (1000:7)
//     async "requests": req1 [0,4000), req2 [2000,6000); markers: "Iteration Start" at 3000
//   process "python (7)" (Host, pid 7 again)
//     thread "main" tid 7: step [0,30000) > launch [500,1500) (args of every type)
//     thread "worker" tid 7 again: work [100,200)
//   flows: f1 launch -> inner, f2 step -> outer, f3 inner2 -> launch (goes back
//   in time: launch ends before inner2 starts, not writable), f4 inner2 -> step
//   (step starts earlier but is still running at 5000)
// Counts: 2 processes, 3 thread tracks, 9 slices, 2 instants, 4 counter samples,
// 2 async slices, 4 flows (3 writable); span 1234568.
std::unique_ptr<Trace> handBuiltTrace() {
    TraceBuilder b("test");
    auto gpu = b.addProcess(ProcessKind::Device, 7, "GPU 0");
    b.process(gpu).labels = "H100";
    auto host = b.addProcess(ProcessKind::Host, 7, "python (7)");
    const StringId cat = b.intern("kernel");
    auto stream = b.addTrack(gpu, TrackKind::Thread, "stream 1", 1);
    b.addSlice(stream, 1000, 10000, b.intern("outer"), cat);
    const uint32_t inner = b.addSlice(stream, 1000, 2000, b.intern("inner"), cat);
    const uint32_t inner2 = b.addSlice(stream, 5000, 1000, b.intern("inner2"), cat);
    b.addSlice(stream, 9000, 6000, b.intern("partial"), cat);
    b.addSlice(stream, 1234567, 1, b.intern("precise"), cat);
    b.addSlice(stream, 20000, 0, b.intern("unfinished"), cat, kNoArgs, true);
    b.addInstant(stream, 2000, b.intern("mark"), kEmptyString);
    auto util = b.addTrack(gpu, TrackKind::Counter, "util", 0);
    b.addCounterSample(util, 0, 1.5);
    b.addCounterSample(util, 5000, 2.25);
    b.addCounterSample(util, 10000, 0);
    auto util2 = b.addTrack(gpu, TrackKind::Counter, "util", 1);
    b.addCounterSample(util2, 1000, 7);
    auto async = b.addTrack(gpu, TrackKind::Async, "requests", 0);
    b.addSlice(async, 0, 4000, b.intern("req1"), b.intern("rpc"));
    b.addSlice(async, 2000, 4000, b.intern("req2"), b.intern("rpc"));
    auto markers = b.addTrack(gpu, TrackKind::Markers, "markers", 0);
    b.addInstant(markers, 3000, b.intern("Iteration Start"), kEmptyString);

    auto main = b.addTrack(host, TrackKind::Thread, "main", 7);
    const uint32_t step = b.addSlice(main, 0, 30000, b.intern("step"), b.intern("cpu_op"));
    ArgsWriter args;
    args.add(b.intern("i"), ArgValue::integer(-5));
    args.add(b.intern("u"), ArgValue::unsignedInteger(UINT64_MAX));
    args.add(b.intern("d"), ArgValue::real(0.5));
    args.add(b.intern("s"), ArgValue::string(b.intern("quote\" and \\ and \n")));
    args.add(b.intern("bad"), ArgValue::string(b.intern("\xff\xfeok")));
    args.add(b.intern("j"), ArgValue::json(b.intern("{\"a\":[1,2]}")));
    args.add(b.intern("t"), ArgValue::boolean(true));
    args.add(b.intern("n"), ArgValue::null());
    args.add(b.intern("nan"), ArgValue::real(std::nan("")));
    const uint32_t launch = b.addSlice(main, 500, 1000, b.intern("launch"), b.intern("cuda_runtime"), args);
    auto worker = b.addTrack(host, TrackKind::Thread, "worker", 7);
    b.addSlice(worker, 100, 100, b.intern("work"), kEmptyString);

    using FE = TraceBuilder::FlowEnd;
    b.addFlow(FE::ofSlice(main, launch), FE::ofSlice(stream, inner), b.intern("f1"), b.intern("ac2g"), 42);
    b.addFlow(FE::ofSlice(main, step), FE::enclosing(stream, 4000), b.intern("f2"), b.intern("ac2g"), 42);
    b.addFlow(FE::ofSlice(stream, inner2), FE::ofSlice(main, launch), b.intern("f3"), kEmptyString, 0);
    b.addFlow(FE::ofSlice(stream, inner2), FE::ofSlice(main, step), b.intern("f4"), kEmptyString, 0);
    b.addMetadata("hostname", "node-1");
    b.addMetadata("config", "{\"batch\":32}");
    b.addMetadata("traceEvents", "must not clobber the events");
    b.setOriginUnixNs(1700000000000000000);
    return b.finish();
}

// Events of a written file, counted by phase, read with nlohmann::json only.
struct PhaseCounts {
    std::map<std::string, size_t> phases;
    std::set<int64_t> pids;
    std::set<std::pair<int64_t, int64_t>> sortedThreads;  // (pid, tid) with thread_sort_index
    size_t processNames = 0;
    size_t processSortIndices = 0;
    bool flowIdsPaired = true;
    bool asyncIdsPaired = true;
    bool negativeDurations = false;
    bool flowsGoForward = true;  // every f at or after its s
    size_t count(const std::string& ph) const {
        auto it = phases.find(ph);
        return it == phases.end() ? 0 : it->second;
    }
};

PhaseCounts countPhases(const Json& doc) {
    PhaseCounts c;
    std::map<uint64_t, std::pair<int, int>> flowIds, asyncIds;
    std::map<uint64_t, double> flowStart;
    for (const Json& e : doc.at("traceEvents")) {
        const std::string ph = e.at("ph").get<std::string>();
        ++c.phases[ph];
        c.pids.insert(e.at("pid").get<int64_t>());
        if (ph == "M") {
            const std::string name = e.at("name").get<std::string>();
            if (name == "process_name") ++c.processNames;
            if (name == "process_sort_index") ++c.processSortIndices;
            if (name == "thread_sort_index") c.sortedThreads.insert({e.at("pid").get<int64_t>(), e.at("tid").get<int64_t>()});
        }
        if (ph == "s") {
            ++flowIds[e.at("id").get<uint64_t>()].first;
            flowStart[e.at("id").get<uint64_t>()] = e.at("ts").get<double>();
        }
        if (ph == "f") {
            ++flowIds[e.at("id").get<uint64_t>()].second;
            auto it = flowStart.find(e.at("id").get<uint64_t>());
            if (it == flowStart.end() || e.at("ts").get<double>() < it->second) c.flowsGoForward = false;
        }
        if (ph == "b") ++asyncIds[e.at("id").get<uint64_t>()].first;
        if (ph == "e") ++asyncIds[e.at("id").get<uint64_t>()].second;
        if (ph == "X") {
            if (e.at("dur").get<double>() < 0) c.negativeDurations = true;
        }
    }
    for (const auto& [id, n] : flowIds)
        if (n.first != 1 || n.second != 1) c.flowIdsPaired = false;
    for (const auto& [id, n] : asyncIds)
        if (n.first != 1 || n.second != 1) c.asyncIdsPaired = false;
    return c;
}

// The written JSON holds exactly the trace's events (minus what the writer says it left out).
void checkPhaseCounts(const Trace& t, const ChromeJsonWriteResult& r, const std::string& text) {
    QVERIFY(r.ok);
    const Json doc = Json::parse(text);
    const PhaseCounts p = countPhases(doc);
    const TraceCounts c = t.counts();
    QCOMPARE(p.count("X") + p.count("B"), c.slices - r.droppedSlices);
    QCOMPARE(p.count("E"), size_t(0));
    QCOMPARE(p.count("b"), c.asyncSlices);
    QCOMPARE(p.count("e"), c.asyncSlices);
    QCOMPARE(p.count("i"), c.instants);
    QCOMPARE(p.count("C"), c.counterSamples - r.droppedCounterSamples);
    QCOMPARE(p.count("s"), c.flows - r.droppedFlows);
    QCOMPARE(p.count("f"), c.flows - r.droppedFlows);
    QVERIFY(p.flowIdsPaired);
    QVERIFY(p.asyncIdsPaired);
    QVERIFY(!p.negativeDurations);
    QVERIFY(p.flowsGoForward);
    QCOMPARE(p.processSortIndices, c.processes);
    QCOMPARE(p.pids.size(), c.processes);
    QCOMPARE(p.sortedThreads.size(), c.tracks);
    size_t named = 0;
    for (const Process& proc : t.processes) named += !proc.name.empty();
    QCOMPARE(p.processNames, named);
    size_t events = 0;
    for (const auto& [ph, n] : p.phases) events += n;
    QCOMPARE(uint64_t(events), r.events);
}

// The deepest X event on (pid, tid) whose [ts, ts+dur] holds `at` (inclusive ends).
std::string enclosingName(const Json& doc, int64_t pid, int64_t tid, double at) {
    std::string best;
    double bestStart = -1e300;
    for (const Json& e : doc.at("traceEvents")) {
        if (e.at("ph") != "X" || e.at("pid").get<int64_t>() != pid || e.at("tid").get<int64_t>() != tid) continue;
        const double ts = e.at("ts").get<double>();
        const double end = ts + e.at("dur").get<double>();
        if (ts <= at + 1e-9 && at <= end + 1e-9 && ts >= bestStart) {
            bestStart = ts;
            best = e.at("name").get<std::string>();
        }
    }
    return best;
}

#ifdef TRACESCOPE_HAVE_CHROME_IMPORTER
// Re-importing the written file gives the original's counts and span.
void checkRoundTrip(const Trace& t, const ChromeJsonWriteResult& r, const std::string& path) {
    ImportResult back = importChromeJson(path);
    QVERIFY2(back.ok(), back.error.c_str());
    const TraceCounts a = t.counts();
    const TraceCounts b = back.trace->counts();
    QCOMPARE(b.processes, a.processes);
    QCOMPARE(b.tracks, a.tracks);
    QCOMPARE(b.slices, a.slices - r.droppedSlices);
    QCOMPARE(b.instants, a.instants);
    QCOMPARE(b.counterSamples, a.counterSamples - r.droppedCounterSamples);
    QCOMPARE(b.flows, a.flows - r.droppedFlows);
    QCOMPARE(b.asyncSlices, a.asyncSlices);
    QCOMPARE(back.trace->spanNs(), t.spanNs());
    // Every slice, instant and counter sample comes back with its name and exact ns times.
    auto events = [](const Trace& tr) {
        std::vector<std::tuple<int, std::string, TimeNs, TimeNs, double>> out;
        for (const Track& k : tr.tracks) {
            const int kind = int(k.kind);
            for (size_t i = 0; i < k.slices.size(); ++i)
                out.emplace_back(kind, std::string(tr.str(k.slices.name[i])), k.slices.start[i], k.slices.duration[i], 0);
            for (size_t i = 0; i < k.instants.size(); ++i)
                out.emplace_back(-1, std::string(tr.str(k.instants.name[i])), k.instants.time[i], 0, 0);
            for (size_t i = 0; i < k.counter.size(); ++i)
                out.emplace_back(kind, std::string(), k.counter.time[i], 0, k.counter.value[i]);
        }
        std::sort(out.begin(), out.end());
        return out;
    };
    if (r.droppedSlices == 0 && r.droppedCounterSamples == 0) QVERIFY(events(t) == events(*back.trace));
}
#endif

}  // namespace

class ChromeExportTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::string tempPath(const std::string& name) { return dir_.filePath(QString::fromStdString(name)).toStdString(); }

private slots:
    void exactText() {
        std::string s;
        jsontext::appendMicros(s, 1234567);
        QCOMPARE(s, std::string("1234.567"));
        s.clear();
        jsontext::appendMicros(s, -1);
        QCOMPARE(s, std::string("-0.001"));
        s.clear();
        jsontext::appendMicros(s, 0);
        QCOMPARE(s, std::string("0.000"));
        s.clear();
        jsontext::appendMicros(s, INT64_MAX);
        QCOMPARE(s, std::string("9223372036854775.807"));
        s.clear();
        jsontext::appendMicros(s, INT64_MIN);
        QCOMPARE(s, std::string("-9223372036854775.808"));
        s.clear();
        jsontext::appendMicros(s, 1700000000123456789);  // epoch ns: every digit kept
        QCOMPARE(s, std::string("1700000000123456.789"));

        s.clear();
        jsontext::appendString(s, std::string("a\"b\\c\n\x01\xc3\xa9\xff\xed\xa0\x80z", 14));
        QCOMPARE(Json::parse(s).get<std::string>(), std::string("a\"b\\c\n\x01\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd"
                                                                "\xef\xbf\xbd\xef\xbf\xbdz"));
        s.clear();
        QVERIFY(jsontext::appendDouble(s, 0.1));
        QCOMPARE(s, std::string("0.1"));
        s.clear();
        QVERIFY(!jsontext::appendDouble(s, INFINITY));
        QVERIFY(s.empty());
    }

    void handBuiltEvents() {
        auto t = handBuiltTrace();
        const TraceCounts c = t->counts();
        // The hand count of the trace itself (see handBuiltTrace).
        QCOMPARE(c.processes, size_t(2));
        QCOMPARE(c.tracks, size_t(3));
        QCOMPARE(c.slices, size_t(9));
        QCOMPARE(c.instants, size_t(2));
        QCOMPARE(c.counterSamples, size_t(4));
        QCOMPARE(c.asyncSlices, size_t(2));
        QCOMPARE(c.flows, size_t(4));
        QCOMPARE(t->spanNs(), TimeNs(1234568));

        ChromeJsonWriteResult r;
        const std::string text = chromeJsonString(*t, &r);
        checkPhaseCounts(*t, r, text);
        if (QTest::currentTestFailed()) return;
        QCOMPARE(r.droppedFlows, uint64_t(1));  // f3
        QCOMPARE(r.droppedSlices + r.droppedCounterSamples, uint64_t(0));
        QVERIFY(text.find("\"ts\":1234.567,\"dur\":0.001,\"name\":\"precise\"") != std::string::npos);
        QVERIFY(text.find("{\"ph\":\"B\"") != std::string::npos);  // the unfinished slice

        const Json doc = Json::parse(text);
        QCOMPARE(doc.at("baseTimeNanoseconds").get<int64_t>(), int64_t(1700000000000000000));
        QCOMPARE(doc.at("hostname").get<std::string>(), std::string("node-1"));
        QCOMPARE(doc.at("config").at("batch").get<int>(), 32);
        QVERIFY(doc.at("traceEvents").is_array());

        // Both processes had pid 7 and both host threads tid 7: all must be told apart.
        std::map<std::string, int64_t> pidOf;
        std::map<std::string, std::pair<int64_t, int64_t>> threadOf;
        for (const Json& e : doc.at("traceEvents")) {
            if (e.at("ph") != "M") continue;
            if (e.at("name") == "process_name") pidOf[e.at("args").at("name")] = e.at("pid");
            if (e.at("name") == "thread_name") threadOf[e.at("args").at("name")] = {e.at("pid"), e.at("tid")};
            if (e.at("name") == "process_labels") QCOMPARE(e.at("args").at("labels").get<std::string>(), std::string("H100"));
        }
        QCOMPARE(pidOf.size(), size_t(2));
        QVERIFY(pidOf["GPU 0"] != pidOf["python (7)"]);
        QCOMPARE(threadOf.size(), size_t(3));
        QVERIFY(threadOf["main"] != threadOf["worker"]);
        QCOMPARE(threadOf["main"].first, pidOf["python (7)"]);

        int counters = 0;
        std::set<std::string> counterNames;
        for (const Json& e : doc.at("traceEvents")) {
            const std::string ph = e.at("ph");
            const std::string name = e.value("name", "");
            if (ph == "X" && name == "launch") {
                const Json& a = e.at("args");
                QCOMPARE(a.at("i").get<int64_t>(), int64_t(-5));
                QCOMPARE(a.at("u").get<uint64_t>(), UINT64_MAX);
                QCOMPARE(a.at("d").get<double>(), 0.5);
                QCOMPARE(a.at("s").get<std::string>(), std::string("quote\" and \\ and \n"));
                QCOMPARE(a.at("bad").get<std::string>(), std::string("\xef\xbf\xbd\xef\xbf\xbdok"));
                QCOMPARE(a.at("j").at("a").size(), size_t(2));
                QCOMPARE(a.at("t").get<bool>(), true);
                QVERIFY(a.at("n").is_null());
                QCOMPARE(a.at("nan").get<std::string>(), std::string("NaN"));
                QCOMPARE(e.at("cat").get<std::string>(), std::string("cuda_runtime"));
                QCOMPARE(e.at("ts").get<double>(), 0.5);
                QCOMPARE(e.at("dur").get<double>(), 1.0);
            }
            if (ph == "X" && name == "unfinished") QFAIL("unfinished slice written as X");
            if (ph == "i" && name == "mark") {
                QCOMPARE(e.at("s").get<std::string>(), std::string("t"));
                QCOMPARE(e.at("ts").get<double>(), 2.0);
            }
            if (ph == "i" && name == "Iteration Start") QCOMPARE(e.at("s").get<std::string>(), std::string("p"));
            if (ph == "C") {
                ++counters;
                counterNames.insert(name);
                QVERIFY(e.at("args").at("value").is_number());
            }
            if (ph == "b" && name == "req2") QCOMPARE(e.at("cat").get<std::string>(), std::string("rpc"));
        }
        QCOMPARE(counters, 4);
        QCOMPARE(counterNames, (std::set<std::string>{"util", "util (2)"}));

        // Each flow end, bound the way readers bind it (enclosing slice at ts),
        // lands on the slice it came from.
        std::map<std::string, std::pair<std::string, std::string>> flowEnds;
        for (const Json& e : doc.at("traceEvents")) {
            const std::string ph = e.at("ph");
            if (ph != "s" && ph != "f") continue;
            if (ph == "f") QCOMPARE(e.at("bp").get<std::string>(), std::string("e"));
            const std::string slice = enclosingName(doc, e.at("pid"), e.at("tid"), e.at("ts").get<double>());
            auto& ends = flowEnds[e.at("name")];
            (ph == "s" ? ends.first : ends.second) = slice;
        }
        QCOMPARE(flowEnds["f1"].first, std::string("launch"));
        QCOMPARE(flowEnds["f1"].second, std::string("inner"));
        QCOMPARE(flowEnds["f2"].first, std::string("step"));
        QCOMPARE(flowEnds["f2"].second, std::string("outer"));
        QCOMPARE(flowEnds.count("f3"), size_t(0));
        QCOMPARE(flowEnds["f4"].first, std::string("inner2"));
        QCOMPARE(flowEnds["f4"].second, std::string("step"));
    }

    void filesPlainAndGzip() {
        auto t = handBuiltTrace();
        const std::string expected = chromeJsonString(*t);
        const std::string plain = tempPath("hand.json");
        const std::string gz = tempPath("hand.json.gz");
        ChromeJsonWriteResult r1 = writeChromeJson(*t, plain);
        QVERIFY2(r1.ok, r1.error.c_str());
        ChromeJsonWriteResult r2 = writeChromeJson(*t, gz);
        QVERIFY2(r2.ok, r2.error.c_str());
        QCOMPARE(readPlain(plain), expected);
        const std::string raw = readPlain(gz);
        QVERIFY(raw.size() > 2 && uint8_t(raw[0]) == 0x1f && uint8_t(raw[1]) == 0x8b);
        QCOMPARE(readGzip(gz), expected);
        QVERIFY(!std::filesystem::exists(plain + ".partial"));
#ifdef TRACESCOPE_HAVE_CHROME_IMPORTER
        checkRoundTrip(*t, r1, plain);
        checkRoundTrip(*t, r2, gz);
#endif
    }

    void writeErrorsAndCancel() {
        auto t = handBuiltTrace();
        ChromeJsonWriteResult bad = writeChromeJson(*t, tempPath("no/such/dir/out.json"));
        QVERIFY(!bad.ok);
        QVERIFY2(bad.error.find("cannot write") != std::string::npos, bad.error.c_str());

        // A trace big enough to pass a cancel checkpoint (1 MiB of JSON).
        TraceBuilder b("big");
        auto p = b.addProcess(ProcessKind::Host, 1, "p");
        auto th = b.addTrack(p, TrackKind::Thread, "t", 1);
        for (int i = 0; i < 50000; ++i) b.addSlice(th, i * 10, 5, b.intern("s"), kEmptyString);
        auto big = b.finish();
        std::atomic<bool> cancel{true};
        ChromeJsonWriteOptions options;
        options.cancel = &cancel;
        const std::string out = tempPath("cancelled.json");
        ChromeJsonWriteResult r = writeChromeJson(*big, out, options);
        QVERIFY(!r.ok);
        QVERIFY(r.cancelled);
        QVERIFY(!std::filesystem::exists(out));
        QVERIFY(!std::filesystem::exists(out + ".partial"));

        uint64_t lastDone = 0, lastTotal = 0;
        ChromeJsonWriteOptions progress;
        progress.progress = [&](uint64_t done, uint64_t total) { lastDone = done; lastTotal = total; };
        ChromeJsonWriteResult ok = writeChromeJson(*big, tempPath("big.json"), progress);
        QVERIFY(ok.ok);
        QCOMPARE(lastTotal, uint64_t(50000));
        QCOMPARE(lastDone, uint64_t(50000));
    }

    void runMetadataExport() {
        const std::string pb = tempPath("step.pb");
        {
            std::ofstream out(pb, std::ios::binary);
            out << fixture::buildStep().SerializeAsString();
        }
        ImportResult in = importRunMetadata(pb);
        QVERIFY2(in.ok(), in.error.c_str());
        ChromeJsonWriteResult r;
        const std::string text = chromeJsonString(*in.trace, &r);
        checkPhaseCounts(*in.trace, r, text);
        if (QTest::currentTestFailed()) return;
        // Hand counts of the fixture (tests/tools/run_metadata_fixture.h).
        const PhaseCounts p = countPhases(Json::parse(text));
        QCOMPARE(p.count("X"), size_t(9));
        QCOMPARE(p.count("C"), size_t(5));
        QCOMPARE(p.count("s"), size_t(5));
        QCOMPARE(p.processNames, size_t(4));
        QVERIFY(text.find("\"ts\":35.123,\"dur\":4.567,\"name\":\"Identity\"") != std::string::npos);
        QCOMPARE(Json::parse(text).at("baseTimeNanoseconds").get<int64_t>(), fixture::kT0 * 1000);
#ifdef TRACESCOPE_HAVE_CHROME_IMPORTER
        const std::string path = tempPath("step.json");
        ChromeJsonWriteResult w = writeChromeJson(*in.trace, path);
        QVERIFY(w.ok);
        checkRoundTrip(*in.trace, w, path);
#endif
    }

    void realFiles() {
#ifndef TRACESCOPE_HAVE_CHROME_IMPORTER
        QSKIP("the Chrome JSON importer is not part of this build: real files cannot be imported");
#else
        const std::string shared = TRACESCOPE_SHARED_DIR "/testdata";
        std::vector<std::string> files = {
            shared + "/public/catapult/flow_simple.json",
            shared + "/public/perfetto/flow_events_json_v1.json",
            shared + "/public/catapult/nestable_async.json",
            shared + "/public/catapult/instant_events.json",
            shared + "/public/catapult/instance_counters.json",
            shared + "/public/kineto/before_fix_trace.json",
            shared + "/gpu/torch_mlp_memory_h100.json",
            shared + "/gpu/torch2.11_cu130_h100_kineto_trace.json.gz",
            shared + "/public/hta/sampled_rank-0.json.gz",
            shared + "/public/catapult/main_thread_has_unclosed_slices.json",  // B without E
            shared + "/public/catapult/async_begin_end.json",
            shared + "/public/catapult/nanoseconds.json",
            shared + "/public/perfetto/flow_events_json_v2.json",
            shared + "/public/speedscope/invalid-x-nesting.json",  // partial overlap: overflow lane
            shared + "/public/speedscope/only-begin-events.json",
        };
        std::error_code ec;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(shared, ec)) {
            const std::string p = entry.path().string();
            if (p.ends_with(".xplane.pb")) files.push_back(p);
        }
        int exported = 0;
        for (const std::string& file : files) {
            if (!std::filesystem::exists(file)) continue;
            ImportResult in = importTrace(file);
            if (!in.ok()) {
#ifdef TRACESCOPE_HAVE_XSPACE_IMPORTER
                QFAIL((file + ": " + in.error).c_str());
#endif
                qWarning("cannot import %s: %s", file.c_str(), in.error.c_str());
                continue;
            }
            const std::string out = tempPath("real.json.gz");
            ChromeJsonWriteResult w = writeChromeJson(*in.trace, out);
            QVERIFY2(w.ok, (file + ": " + w.error).c_str());
            checkPhaseCounts(*in.trace, w, readGzip(out));
            if (QTest::currentTestFailed()) {
                qWarning("phase counts differ for %s", file.c_str());
                return;
            }
            checkRoundTrip(*in.trace, w, out);
            if (QTest::currentTestFailed()) {
                qWarning("round trip differs for %s", file.c_str());
                return;
            }
            const TraceCounts c = in.trace->counts();
            qInfo("%s: %zu slices, %zu async, %zu instants, %zu counter samples, %zu flows (%llu left out): round trip equal",
                  std::filesystem::path(file).filename().c_str(), c.slices, c.asyncSlices, c.instants,
                  c.counterSamples, c.flows, static_cast<unsigned long long>(w.droppedFlows));
            ++exported;
        }
        QVERIFY(exported >= 5);
#endif
    }
};

QTEST_GUILESS_MAIN(ChromeExportTest)
#include "tst_chrome_export.moc"
