// Hand-checked sanity cases for the Chrome JSON importer (expected values are
// worked out by hand from the tiny inputs written here), a multi-chunk file with
// brackets and escaped quotes inside strings, and "every shared trace loads".
#include "model/import/chrome_json_importer.h"
#include "model/trace/args.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace tracescope;

namespace {

const Track* trackNamed(const Trace& t, std::string_view name) {
    for (const Track& tr : t.tracks)
        if (tr.name == name) return &tr;
    return nullptr;
}

bool warned(const Trace& t, std::string_view what) {
    for (const auto& w : t.warnings)
        if (warningText(w).find(what) != std::string::npos) return true;
    return false;
}

}  // namespace

// Temporary files for the cases. (Test bodies live outside the QObject class:
// moc cannot tokenize some of the raw string literals they use.)
struct Fixture {
    QTemporaryDir dir;

    std::string write(const char* name, const std::string& text) {
        const std::string path = dir.filePath(name).toStdString();
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }
    ImportResult load(const char* name, const std::string& text) { return importChromeJson(write(name, text)); }
};

void exactEpochTimestamps(Fixture& fx);
void beginEndMatching(Fixture& fx);
void argsKeepBigNumbersAndJson(Fixture& fx);
void processesInstantsCountersAsyncFlows(Fixture& fx);
void truncatedAndBrokenFiles(Fixture& fx);
void manyChunks(Fixture& fx);
void allSharedTracesLoad(Fixture& fx);

class ChromeSmokeTest : public QObject {
    Q_OBJECT
    Fixture fx_;

private slots:
    void exactEpochTimestamps() { ::exactEpochTimestamps(fx_); }
    void beginEndMatching() { ::beginEndMatching(fx_); }
    void argsKeepBigNumbersAndJson() { ::argsKeepBigNumbersAndJson(fx_); }
    void processesInstantsCountersAsyncFlows() { ::processesInstantsCountersAsyncFlows(fx_); }
    void truncatedAndBrokenFiles() { ::truncatedAndBrokenFiles(fx_); }
    void manyChunks() { ::manyChunks(fx_); }
    void allSharedTracesLoad() { ::allSharedTracesLoad(fx_); }
};

void exactEpochTimestamps(Fixture& fx) {
    // 3 decimals of epoch microseconds are nanoseconds; a double would lose them.
    auto r = fx.load("epoch.json", R"([{"ph":"X","pid":1,"tid":1,"ts":1712345678901234.567,"dur":0.0015,"name":"a"},
                                    {"ph":"X","pid":1,"tid":1,"ts":"1712345678901240.0004","dur":"3","name":"b"}])");
    QVERIFY2(r.ok(), r.error.c_str());
    const Trace& t = *r.trace;
    QCOMPARE(t.originNs, TimeNs(1712345678901234567));
    QVERIFY(t.originUnixNs.has_value());
    QCOMPARE(*t.originUnixNs, int64_t(1712345678901234567));  // epoch us: ts*1000 is Unix ns
    const SliceColumns& s = t.tracks[0].slices;
    QCOMPARE(s.duration[0], TimeNs(2));                         // 1.5 ns rounds to 2
    QCOMPARE(s.start[1], TimeNs(1712345678901240000 - 1712345678901234567));
    QCOMPARE(s.duration[1], TimeNs(3000));
}

void beginEndMatching(Fixture& fx) {
    // Out of file order; at ts 10 the E (closing "outer") sorts before the B.
    auto r = fx.load("be.json", R"([{"ph":"E","pid":1,"tid":1,"ts":10},
        {"ph":"B","pid":1,"tid":"1","ts":0,"name":"outer","args":{"a":1}},
        {"ph":"B","pid":1,"tid":1,"ts":10,"name":"second"},
        {"ph":"E","pid":1,"tid":1,"ts":20,"name":"other","args":{"b":2}},
        {"ph":"E","pid":1,"tid":1,"ts":30},
        {"ph":"B","pid":1,"tid":1,"ts":40,"name":"open"},
        {"ph":"X","pid":1,"tid":1,"ts":50,"dur":5,"name":"x"}])");
    QVERIFY2(r.ok(), r.error.c_str());
    const Trace& t = *r.trace;
    const TraceCounts c = t.counts();
    QCOMPARE(c.slices, size_t(4));  // 3 B + 1 X
    QCOMPARE(c.tracks, size_t(1));  // "1" and 1 are one thread
    const SliceColumns& s = t.tracks[0].slices;
    QCOMPARE(s.duration[0], TimeNs(10000));  // outer: 0..10 us
    QCOMPARE(s.duration[1], TimeNs(10000));  // second: 10..20 us, closed by "other"
    QVERIFY(s.unfinished(2));                // open: never ended, runs to 55 us
    QCOMPARE(s.start[2] + s.duration[2], TimeNs(55000));
    const auto args = decodeArgs(t.tracks[0].argsView(), s.args[1]);
    QCOMPARE(args.size(), size_t(1));        // E args merged into the B
    QCOMPARE(t.str(args[0].key), std::string_view("b"));
    QVERIFY(warned(t, "without an open B"));  // the E at 30
    QVERIFY(warned(t, "another name"));
    QVERIFY(warned(t, "never ended"));
}

void argsKeepBigNumbersAndJson(Fixture& fx) {
    auto r = fx.load("args.json", R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":"a",
        "args":{"u":10159970886766084423,"big":123456789012345678901234,"d":2.5,"s":"x","j":{"k":[1, 2]},"n":null,"t":true}}]})");
    QVERIFY2(r.ok(), r.error.c_str());
    const Trace& t = *r.trace;
    const auto args = decodeArgs(t.tracks[0].argsView(), t.tracks[0].slices.args[0]);
    QCOMPARE(args.size(), size_t(7));
    QCOMPARE(args[0].value.type, ArgValue::Type::UInt);
    QCOMPARE(args[0].value.u, uint64_t(10159970886766084423ull));
    QCOMPARE(args[1].value.type, ArgValue::Type::String);
    QCOMPARE(t.str(args[1].value.s), std::string_view("123456789012345678901234"));
    QCOMPARE(args[2].value.d, 2.5);
    QCOMPARE(args[4].value.type, ArgValue::Type::Json);
    QCOMPARE(t.str(args[4].value.s), std::string_view(R"({"k":[1, 2]})"));
    QCOMPARE(args[5].value.type, ArgValue::Type::Null);
    QCOMPARE(args[6].value.type, ArgValue::Type::True);
}

void processesInstantsCountersAsyncFlows(Fixture& fx) {
    auto r = fx.load("mix.json", R"({"traceEvents":[
        {"ph":"M","pid":7,"name":"process_name","args":{"name":"/device:GPU:0"}},
        {"ph":"M","pid":8,"name":"process_name","args":{"name":"only metadata"}},
        {"ph":"M","pid":7,"tid":3,"name":"thread_name","args":{"name":"stream 3"}},
        {"ph":"X","pid":7,"tid":3,"ts":0,"dur":10,"name":"k1"},
        {"ph":"X","pid":7,"tid":3,"ts":20,"dur":10,"name":"k2"},
        {"ph":"i","pid":7,"tid":3,"ts":5,"s":"g","name":"global"},
        {"ph":"i","pid":7,"tid":3,"ts":6,"s":"p","name":"proc"},
        {"ph":"I","pid":7,"tid":3,"ts":7,"name":"thread"},
        {"ph":"C","pid":7,"ts":1,"name":"mem","id":"0x1","args":{"a":1,"b":"2.5","c":"x"}},
        {"ph":"b","pid":7,"tid":3,"ts":1,"cat":"io","id":"0x10","name":"outer"},
        {"ph":"b","pid":7,"tid":3,"ts":2,"cat":"io","id":"0x10","name":"inner"},
        {"ph":"n","pid":7,"tid":3,"ts":3,"cat":"io","id":"0x10","name":"mark"},
        {"ph":"e","pid":7,"tid":3,"ts":4,"cat":"io","id":"0x10"},
        {"ph":"e","pid":7,"tid":3,"ts":9,"cat":"io","id":"0x10"},
        {"ph":"e","pid":7,"tid":3,"ts":9,"cat":"io","id":16},
        {"ph":"s","pid":7,"tid":3,"ts":5,"cat":"c","name":"f","id":1},
        {"ph":"f","pid":7,"tid":3,"ts":15,"cat":"c","name":"f","id":1},
        {"ph":"f","pid":7,"tid":3,"ts":16,"cat":"c","name":"f","id":"1"},
        {"ph":"P","pid":7,"ts":1},{"name":"no phase"},{}],
        "traceName":"after events"})");
    QVERIFY2(r.ok(), r.error.c_str());
    const Trace& t = *r.trace;
    const TraceCounts c = t.counts();
    QCOMPARE(c.processes, size_t(2));        // pid 7 and "Global"; pid 8 has only metadata
    QCOMPARE(c.tracks, size_t(1));
    QCOMPARE(c.slices, size_t(2));
    QCOMPARE(c.instants, size_t(4));         // g, p, I and n
    QCOMPARE(c.counterTracks, size_t(2));    // "mem[0x1] a" and "mem[0x1] b"
    QCOMPARE(c.counterSamples, size_t(2));
    QCOMPARE(c.asyncSlices, size_t(2));
    QCOMPARE(c.flows, size_t(1));            // s(in k1) -> next slice at/after 15 us: k2
    QVERIFY(trackNamed(t, "mem[0x1] b") != nullptr);
    QVERIFY(trackNamed(t, "stream 3") != nullptr);
    QVERIFY(trackNamed(t, "outer") != nullptr);  // async track named after the outermost span
    QCOMPARE(t.processes[0].name, std::string("/device:GPU:0"));
    QCOMPARE(t.processes[0].kind, ProcessKind::Device);
    const Flow& f = t.flows[0];
    QCOMPARE(t.str(t.tracks[f.from.track].slices.name[f.from.index]), std::string_view("k1"));
    QCOMPARE(t.str(t.tracks[f.to.track].slices.name[f.to.index]), std::string_view("k2"));
    QVERIFY(t.metadataValue("traceName") && *t.metadataValue("traceName") == "\"after events\"");
    QVERIFY(warned(t, "P:1"));
    QVERIFY(warned(t, "(no ph):1"));       // {"name":...}; the terminating {} is no event
    QVERIFY(warned(t, "async end"));          // the e with the numeric id 16 (not "0x10")
    QVERIFY(warned(t, "without an open s"));  // the f with the string id "1"
}

void truncatedAndBrokenFiles(Fixture& fx) {
    const std::string ev = R"({"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":"a"})";
    struct Case {
        std::string text;
        size_t slices;
        bool truncated;
    };
    const Case cases[] = {
        {"[" + ev + "," + ev, 2, true},                       // no ']'
        {"[" + ev + ",", 1, true},                            // trailing comma
        {"[" + ev + ",\n  ", 1, true},                        // trailing whitespace
        {"[" + ev + "," + ev.substr(0, 20), 1, true},         // cut inside an event
        {R"({"traceEvents":[)" + ev + "]", 1, true},          // object without '}'
        {R"({"traceEvents":[)" + ev + "," + ev + "]}", 2, false},
        {"[" + ev + "," + ev + ",]", 2, false},               // trailing comma before ']' is tolerated
    };
    for (const Case& c : cases) {
        auto r = fx.load("cut.json", c.text);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.trace->counts().slices, c.slices);
        QCOMPARE(warned(*r.trace, "truncated at byte"), c.truncated);
    }
    auto r = fx.load("trailing.json", "[" + ev + "] garbage");
    QVERIFY(r.ok() && warned(*r.trace, "after the end"));
    for (const std::string& bad : {std::string(), std::string("garbage"), std::string(100000, '['),
                                   std::string("[nonsense, 1, 2]")}) {
        auto b = fx.load("bad.json", bad);
        QVERIFY2(!b.ok(), bad.substr(0, 20).c_str());
        QVERIFY(!b.error.empty() && b.error.find('\n') == std::string::npos);
    }
    auto u = fx.load("utf8.json", "[{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,\"name\":\"a\xff\"}]");
    QVERIFY2(u.ok(), u.error.c_str());
    QCOMPARE(u.trace->counts().slices, size_t(1));
    QVERIFY(warned(*u.trace, "UTF-8"));
}

// Over 16 MB: several chunks, cut where strings hold brackets, quotes and escapes.
void manyChunks(Fixture& fx) {
    const std::string path = fx.dir.filePath("big.json").toStdString();
    std::ofstream out(path, std::ios::binary);
    out << "{\"otherData\":{\"x\":\"]}\"},\"traceEvents\":[\n";
    const int n = 150000;
    for (int i = 0; i < n; ++i) {
        if (i) out << ",\n";
        out << R"({"ph":"X","pid":1,"tid":)" << (i % 3) << R"(,"ts":)" << i * 10 << R"(.125,"dur":5,"name":"n\"},{[)"
            << (i % 5) << R"(\\","args":{"s":"]]}}{{\"\\\"","pad":")" << std::string(60 + i % 50, 'p') << "\"}}";
    }
    out << "],\"displayTimeUnit\":\"ns\"}\n";
    out.close();
    QVERIFY(std::filesystem::file_size(path) > (size_t(20) << 20));
    auto r = importChromeJson(path);
    QVERIFY2(r.ok(), r.error.c_str());
    const Trace& t = *r.trace;
    QCOMPARE(t.counts().slices, size_t(n));
    QCOMPARE(t.counts().tracks, size_t(3));
    QVERIFY2(t.warnings.empty(), t.warnings.empty() ? "" : warningText(t.warnings[0]).c_str());
    QCOMPARE(t.spanNs(), TimeNs((n - 1) * 10000 + 5000));
    QVERIFY(t.strings.find("n\"},{[3\\") != kNoIndex);
    QVERIFY(t.metadataValue("displayTimeUnit") != nullptr);
}

// Every Chrome trace in the shared test data loads without error.
void allSharedTracesLoad(Fixture& fx) {
    const std::string root = std::string(TRACESCOPE_SHARED_DIR) + "/testdata";
    size_t files = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
        const std::string p = e.path().string();
        if (!e.is_regular_file() || (p.find(".json") == std::string::npos)) continue;
        auto r = importChromeJson(p);
        QVERIFY2(r.ok(), (p + ": " + r.error).c_str());
        ++files;
    }
    QVERIFY(files >= 40);
}

QTEST_GUILESS_MAIN(ChromeSmokeTest)
#include "tst_chrome_smoke.moc"
