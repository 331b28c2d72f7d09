// Chrome JSON import of the real shared test traces, checked against counts
// computed independently by tests/tools/count_chrome_events.py (committed as
// tests/data/chrome_expected_counts.json), plus hand-checked facts about
// single files (exact timestamps, id handling, metadata, nesting).
#include "import_test_support.h"

#include "model/trace/args.h"

#include <nlohmann/json.hpp>

#include <QElapsedTimer>
#include <QtTest>

#include <fstream>
#include <map>

using namespace tracescope;
using namespace tracescope::testsupport;

namespace {

nlohmann::json loadExpected() {
    std::ifstream in(repoTestData("chrome_expected_counts.json"));
    if (!in) return {};
    return nlohmann::json::parse(in);
}

// Loads a shared trace or fails the calling test.
#define LOAD_OR_FAIL(var, rel)                                                         \
    ImportResult var##Result = importWithDeadline(sharedTestData(rel), 40);            \
    QVERIFY2(var##Result.ok(), (std::string(rel) + ": " + var##Result.error).c_str()); \
    const Trace& var = *var##Result.trace

const Process* processWithPid(const Trace& trace, int64_t pid) {
    for (const Process& p : trace.processes)
        if (p.pid == pid) return &p;
    return nullptr;
}

}  // namespace

class ChromeImportTest : public QObject {
    Q_OBJECT
private slots:
    void countsMatchIndependentScript_data() {
        QTest::addColumn<QString>("file");
        const nlohmann::json expected = loadExpected();
        QVERIFY2(expected.is_object() && expected.size() >= 49, "tests/data/chrome_expected_counts.json missing");
        for (auto it = expected.begin(); it != expected.end(); ++it)
            QTest::newRow(it.key().c_str()) << QString::fromStdString(it.key());
    }

    // Every count `tracescope-cli info` reports, for every file the script read.
    void countsMatchIndependentScript() {
        QFETCH(QString, file);
        const nlohmann::json e = loadExpected()[file.toStdString()];
        ImportResult r = importWithDeadline(sharedTestData(file.toStdString()), 40);
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace& trace = *r.trace;
        const TraceCounts c = trace.counts();
        const std::pair<const char*, long long> got[] = {
            {"processes", (long long)c.processes},
            {"tracks", (long long)c.tracks},
            {"counter_tracks", (long long)c.counterTracks},
            {"slices", (long long)c.slices},
            {"async_slices", (long long)c.asyncSlices},
            {"instants", (long long)c.instants},
            {"counter_samples", (long long)c.counterSamples},
            {"flows", (long long)c.flows},
            {"span_ns", (long long)trace.spanNs()},
        };
        std::string mismatches;
        for (const auto& [key, value] : got) {
            const long long want = e.at(key).get<long long>();
            if (value != want)
                mismatches += std::string(" ") + key + ": expected " + std::to_string(want) + ", got " +
                              std::to_string(value) + ";";
        }
        const bool truncated = e.at("truncated").get<bool>();
        if (truncated != anyWarningContains(trace, "truncat"))
            mismatches += std::string(" truncation warning expected: ") + (truncated ? "yes" : "no") +
                          " (warnings: " + joinWarnings(trace) + ");";
        QVERIFY2(mismatches.empty(), mismatches.c_str());
    }

    // Absolute epoch µs with 3 decimals (2024 Kineto) must keep their ns digits;
    // a double would round them to 0.25 µs steps at this magnitude.
    void epochMicrosecondsKeptToTheNanosecond() {
        LOAD_OR_FAIL(trace, "public/hta/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
        // The earliest events: "PyTorch Profiler (0)" and a global instant, ts 1712195495406752.797.
        QCOMPARE(trace.originNs, TimeNs(1712195495406752797));
        const auto step = findSlices(trace, "ProfilerStep#103");
        QCOMPARE(step.size(), size_t(1));
        const SliceColumns& c = trace.tracks[step[0].track].slices;
        // "ts": 1712195495609361.776, "dur": 95697.341
        QCOMPARE(trace.originNs + c.start[step[0].index], TimeNs(1712195495609361776));
        QCOMPARE(c.duration[step[0].index], TimeNs(95697341));
        // Global instant "Record Window End", ts 1712195496004644.183: the trace end.
        bool found = false;
        const StringId name = trace.strings.find("Record Window End");
        for (const Track& t : trace.tracks)
            for (size_t i = 0; i < t.instants.size(); ++i)
                if (t.instants.name[i] == name) {
                    QCOMPARE(trace.originNs + t.instants.time[i], TimeNs(1712195496004644183));
                    found = true;
                }
        QVERIFY(found);
        QCOMPARE(trace.spanNs(), TimeNs(1712195496004644183 - 1712195495406752797));
    }

    // Kineto 2021: ops use tid "25738" (string), [memory] instants use 25738 (int):
    // one thread, one track.
    void kinetoIntAndStringTidShareATrack() {
        LOAD_OR_FAIL(trace, "public/kineto/worker0.1623143089861.pt.trace.json.gz");
        const Process* p = processWithPid(trace, 25738);
        QVERIFY(p);
        const StringId memory = trace.strings.find("[memory]");
        QVERIFY(memory != kNoIndex);
        // Raw file: tid 25738 has 21,577 X and 6,928 [memory] instants; tid 25772 has 13,992 X and 5,910.
        const std::pair<int64_t, std::pair<size_t, size_t>> expected[] = {{25738, {21577, 6928}},
                                                                         {25772, {13992, 5910}}};
        for (const auto& [tid, counts] : expected) {
            int tracksForTid = 0;
            for (TrackIndex t : p->tracks) {
                const Track& track = trace.tracks[t];
                if (track.kind != TrackKind::Thread || track.overflowOf != kNoIndex || track.tid != tid) continue;
                ++tracksForTid;
                QCOMPARE(slicesWithOverflow(trace, t), counts.first);
                size_t memoryInstants = 0;
                for (StringId n : track.instants.name) memoryInstants += n == memory;
                QCOMPARE(memoryInstants, counts.second);
            }
            QCOMPARE(tracksForTid, 1);
        }
    }

    // String pids ("Traces", "") are their own processes, named after the string.
    void stringPidsBecomeNamedProcesses() {
        LOAD_OR_FAIL(trace, "public/kineto/worker0.1623143089861.pt.trace.json.gz");
        const auto profiler = findSlices(trace, "PyTorch Profiler (0)");
        QCOMPARE(profiler.size(), size_t(1));
        const Track& track = trace.tracks[profiler[0].track];
        const Process& p = trace.processes[track.process];
        QVERIFY2(p.name.find("Traces") != std::string::npos, p.name.c_str());
        QVERIFY(p.pid != 25738 && p.pid != 0);
        QVERIFY2(track.name.find("PyTorch Profiler") != std::string::npos, track.name.c_str());
    }

    // v1 flow ids are 64-bit hex strings above INT64_MAX; each id stays a distinct flow
    // identity (a collision would merge s/t/f sequences and change the arrows). The trace
    // does not keep flow ids, only the arrows and their (name, category).
    void hexFlowIdsKeptAs64Bit() {
        LOAD_OR_FAIL(trace, "public/catapult/flow.json");
        // From count_chrome_events.py (arrows per identity): 420 arrows over 76 distinct ids,
        // all of (cat "task", name "MessageLoop::PostTask").
        QCOMPARE(trace.flows.size(), size_t(420));
        QCOMPARE(trace.flowKinds.size(), size_t(1));
        const Flow* first = nullptr;
        for (const Flow& f : trace.flows) {
            QCOMPARE(trace.str(trace.flowName(f)), std::string_view("MessageLoop::PostTask"));
            QCOMPARE(trace.str(trace.flowCategory(f)), std::string_view("task"));
            // The first arrow of 0xafbf7fb30669feb0: ChannelProxy::Context::OnDispatchMessage
            // (ts 1496637340408, tid 11) -> the next slice on the f's thread, MessageLoop::RunTask
            // (ts 1496637340683).
            if (trace.originNs + trace.tracks[f.from.track].slices.start[f.from.index] == TimeNs(1496637340408000))
                first = &f;
        }
        QVERIFY(first);
        QCOMPARE(trace.str(trace.tracks[first->from.track].slices.name[first->from.index]),
                 std::string_view("ChannelProxy::Context::OnDispatchMessage"));
        QCOMPARE(trace.str(trace.tracks[first->to.track].slices.name[first->to.index]),
                 std::string_view("MessageLoop::RunTask"));
        QCOMPARE(trace.originNs + trace.tracks[first->to.track].slices.start[first->to.index],
                 TimeNs(1496637340683000));
    }

    // 1,684 B but 1,680 E: four slices never end; they last until the trace end.
    void unclosedBeginsEndAtTraceEnd() {
        LOAD_OR_FAIL(trace, "public/catapult/main_thread_has_unclosed_slices.json");
        size_t unfinished = 0;
        for (const Track& t : trace.tracks)
            for (size_t i = 0; i < t.slices.size(); ++i)
                if (t.slices.unfinished(i)) {
                    ++unfinished;
                    QCOMPARE(t.slices.end(i), trace.endNs);
                }
        QCOMPARE(unfinished, size_t(4));
    }

    // "Comms Id": 10159970886766084423 is above INT64_MAX and not exact as a double.
    void bigIntegerArgKeptExactly() {
        LOAD_OR_FAIL(trace, "public/hta/rank-70.Mar_25_20_48_12.2861.pt.trace.json.gz");
        const auto op = findSlices(trace, "record_param_comms");
        QCOMPARE(op.size(), size_t(1));
        const Track& track = trace.tracks[op[0].track];
        const auto args = decodeArgs(track.argsView(), track.slices.args[op[0].index]);
        bool found = false;
        for (const Arg& a : args) {
            if (trace.str(a.key) != "Comms Id") continue;
            found = true;
            QCOMPARE(a.value.toString(trace.strings), std::string("10159970886766084423"));
            if (a.value.type == ArgValue::Type::UInt) QCOMPARE(a.value.u, uint64_t(10159970886766084423ull));
        }
        QVERIFY(found);
    }

    // Kineto top-level keys become trace metadata; baseTimeNanoseconds anchors wall-clock time.
    void kinetoTopLevelMetadata() {
        LOAD_OR_FAIL(trace, "public/kineto/before_fix_trace.json");
        const std::string* base = trace.metadataValue("baseTimeNanoseconds");
        QVERIFY(base);
        QCOMPARE(*base, std::string("1775078550000000000"));
        const std::string* devices = trace.metadataValue("deviceProperties");
        QVERIFY(devices);
        QVERIFY(devices->find("NVIDIA H100") != std::string::npos);
        QVERIFY(devices->find("\"numSms\"") != std::string::npos);  // kept as JSON text
        const std::string* name = trace.metadataValue("traceName");  // written after traceEvents
        QVERIFY(name);
        QVERIFY(name->find("libkineto_out_of_order") != std::string::npos);
        QVERIFY(trace.originUnixNs.has_value());
        // ts are µs relative to the base: origin (µs) * 1000 + base.
        QCOMPARE(*trace.originUnixNs, int64_t(1775078550000000000) + trace.originNs);
    }

    // mtia_rank_0 repeats the same M events ~62,000 times: still one process per pid.
    void repeatedMetadataDeduplicated() {
        LOAD_OR_FAIL(trace, "public/hta/mtia_rank_0.json.gz");
        // pids with events: 3100453, 9, "Spans"; plus Global for the s:"g" instants.
        QCOMPARE(trace.processes.size(), size_t(4));
        int mtia = 0;
        for (const Process& p : trace.processes) {
            if (p.pid != 9) continue;
            ++mtia;
            QVERIFY2(p.name.find("MTIA 9") != std::string::npos, p.name.c_str());
            int stream1 = 0;
            for (TrackIndex t : p.tracks) {
                const Track& track = trace.tracks[t];
                if (track.kind == TrackKind::Thread && track.overflowOf == kNoIndex && track.tid == 4) {
                    ++stream1;
                    QVERIFY2(track.name.find("Stream 1 FW") != std::string::npos, track.name.c_str());
                    QCOMPARE(slicesWithOverflow(trace, t), size_t(25629));
                }
            }
            QCOMPARE(stream1, 1);
        }
        QCOMPARE(mtia, 1);
    }

    // Two X on one thread that partially overlap: both kept, the later one on an overflow lane.
    void partialOverlapGoesToOverflowLane() {
        LOAD_OR_FAIL(trace, "public/speedscope/invalid-x-nesting.json");
        const TraceCounts c = trace.counts();
        QCOMPARE(c.slices, size_t(2));
        QCOMPARE(c.tracks, size_t(1));
        const auto alpha = findSlices(trace, "alpha");
        const auto beta = findSlices(trace, "beta");
        QCOMPARE(alpha.size(), size_t(1));
        QCOMPARE(beta.size(), size_t(1));
        QCOMPARE(trace.tracks[alpha[0].track].overflowOf, kNoIndex);
        QCOMPARE(trace.tracks[beta[0].track].overflowOf, alpha[0].track);
        QCOMPARE(trace.tracks[beta[0].track].slices.start[beta[0].index], TimeNs(5000));
        QCOMPARE(trace.tracks[beta[0].track].slices.duration[beta[0].index], TimeNs(10000));
        QVERIFY2(anyWarningContains(trace, "overlap"), joinWarnings(trace).c_str());
    }

    // simple.json "epsilon": {"ph": "X", "ts": 7, "tdur": 4} and no dur. dur is the wall
    // duration; tdur is thread (CPU) time and is not a substitute: a 0-long slice.
    void xWithoutDurIsZeroLong() {
        LOAD_OR_FAIL(trace, "public/speedscope/simple.json");
        const auto eps = findSlices(trace, "epsilon");
        QCOMPARE(eps.size(), size_t(1));
        QCOMPARE(trace.originNs + trace.tracks[eps[0].track].slices.start[eps[0].index], TimeNs(7000));
        QCOMPARE(trace.tracks[eps[0].track].slices.duration[eps[0].index], TimeNs(0));
    }

    // zero-duration-events.json: B "B" at 1 followed in the file by E "B" at 1. Ties at one ts keep
    // file order, so that pair is one 0-long slice; E "C" at 2 (listed before B "C") then closes "A".
    void zeroLengthBeginEndPairKept() {
        LOAD_OR_FAIL(trace, "public/speedscope/zero-duration-events.json");
        const auto b = findSlices(trace, "B");
        const auto a = findSlices(trace, "A");
        const auto c = findSlices(trace, "C");
        QCOMPARE(b.size(), size_t(1));
        QCOMPARE(a.size(), size_t(1));
        QCOMPARE(c.size(), size_t(1));
        const auto& cols = [&](SliceRef r) -> const SliceColumns& { return trace.tracks[r.track].slices; };
        QCOMPARE(cols(b[0]).start[b[0].index], TimeNs(1000));
        QCOMPARE(cols(c[0]).start[c[0].index], TimeNs(2000));
        QCOMPARE(cols(c[0]).end(c[0].index), TimeNs(10000));
        QCOMPARE(cols(b[0]).duration[b[0].index], TimeNs(0));
        QCOMPARE(cols(a[0]).end(a[0].index), TimeNs(2000));
    }

    // A raised cancel flag stops the import: no trace, `cancelled`, quickly.
    void cancelStopsImport() {
        std::atomic<bool> cancel{true};
        ImportOptions options;
        options.cancel = &cancel;
        QElapsedTimer timer;
        timer.start();
        ImportResult r = importTrace(sharedTestData("public/hta/df_index_resolver.json.gz"), options);
        QVERIFY(!r.ok());
        QVERIFY(r.cancelled);
        QVERIFY2(timer.elapsed() < 5000, std::to_string(timer.elapsed()).c_str());
    }

    // Progress is reported in bytes of the file, never goes back, and ends at the total.
    void progressIsMonotonicAndComplete() {
        std::vector<std::pair<uint64_t, uint64_t>> calls;
        ImportOptions options;
        options.progress = [&](uint64_t done, uint64_t total) { calls.emplace_back(done, total); };
        const std::string path = sharedTestData("public/catapult/lthi_cats.json.gz");
        ImportResult r = importTrace(path, options);
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(!calls.empty());
        for (size_t i = 1; i < calls.size(); ++i) {
            QVERIFY(calls[i].first >= calls[i - 1].first);
            QCOMPARE(calls[i].second, calls[0].second);
        }
        QCOMPARE(calls.back().first, calls.back().second);
        QVERIFY(calls.back().second > 0);
    }

    // x_event_trace.json (real Chrome trace): 442 B/E pairs, some zero-long (B then E at the same ts,
    // in that file order). Read in ts order with file order on ties, every E closes the B of its own
    // name and nothing stays open (worked out with count_chrome_events.py's matcher); sorting E
    // before B on ties changes the end of 156 slices.
    void beginEndTiesKeepFileOrder() {
        LOAD_OR_FAIL(trace, "public/catapult/x_event_trace.json");
        size_t unfinished = 0;
        for (const Track& t : trace.tracks)
            for (size_t i = 0; i < t.slices.size(); ++i) unfinished += t.slices.unfinished(i);
        QCOMPARE(unfinished, size_t(0));
        QVERIFY2(!anyWarningContains(trace, "another name"), joinWarnings(trace).c_str());
    }
};

QTEST_GUILESS_MAIN(ChromeImportTest)
#include "tst_chrome_import.moc"
