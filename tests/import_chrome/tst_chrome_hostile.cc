// Chrome JSON import of broken and hostile inputs: every case has a fixed
// expected outcome (loaded with these counts, or this error), and none may
// crash, hang (each import is time-bounded) or use unbounded memory.
// Small inputs live in tests/data/hostile/; big ones are generated at run time.
#include "import_test_support.h"

#include "model/trace/args.h"
#include "model/trace/trace_builder.h"

#include <QTemporaryDir>
#include <QtTest>

#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <map>

using namespace tracescope;
using namespace tracescope::testsupport;

namespace {

struct Expected {
    bool ok = true;
    std::string error;    // ok == false: a substring of the one-line error (case-insensitive)
    long long slices = -1, instants = -1, counterSamples = -1, processes = -1;  // -1: not checked
    std::string warning;  // ok == true: a substring some warning must contain ("" = no check, "*" = any warning)
};

// Checks one import result against `want`; returns "" or what differed.
std::string check(const ImportResult& r, const Expected& want) {
    if (!want.ok) {
        if (r.ok()) return "expected an error containing '" + want.error + "', but it loaded";
        if (r.error.empty() || r.error.find('\n') != std::string::npos) return "error is not one line: '" + r.error + "'";
        if (!containsNoCase(r.error, want.error)) return "error '" + r.error + "' lacks '" + want.error + "'";
        return {};
    }
    if (!r.ok()) return "expected to load, got error: " + r.error;
    const Trace& t = *r.trace;
    const TraceCounts c = t.counts();
    std::string out;
    auto cmp = [&](const char* key, long long wantValue, size_t got) {
        if (wantValue >= 0 && (long long)got != wantValue)
            out += std::string(key) + ": expected " + std::to_string(wantValue) + ", got " + std::to_string(got) + "; ";
    };
    cmp("slices", want.slices, c.slices);
    cmp("instants", want.instants, c.instants);
    cmp("counter_samples", want.counterSamples, c.counterSamples);
    cmp("processes", want.processes, c.processes);
    if (want.warning == "*") {
        if (t.warnings.empty()) out += "expected a warning, got none";
    } else if (!want.warning.empty() && !anyWarningContains(t, want.warning))
        out += "no warning containing '" + want.warning + "' (warnings: " + joinWarnings(t) + ")";
    return out;
}

bool writeFile(const QString& path, const std::string& bytes) {
    std::ofstream out(path.toStdString(), std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    return bool(out);
}

// gzip (RFC 1952) of `size` copies of `fill`, preceded by `head` and followed by `tail`,
// compressed piecewise so the uncompressed text never exists in memory.
std::string gzipOf(const std::string& head, char fill, size_t size, const std::string& tail) {
    z_stream zs{};
    deflateInit2(&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY);
    std::string out;
    std::vector<char> buf(1 << 16);
    auto feed = [&](const char* data, size_t n, int flush) {
        zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
        zs.avail_in = uInt(n);
        do {
            zs.next_out = reinterpret_cast<Bytef*>(buf.data());
            zs.avail_out = uInt(buf.size());
            deflate(&zs, flush);
            out.append(buf.data(), buf.size() - zs.avail_out);
        } while (zs.avail_out == 0 || (flush == Z_FINISH && zs.avail_in > 0));
    };
    feed(head.data(), head.size(), Z_NO_FLUSH);
    const std::string block(1 << 20, fill);
    for (size_t done = 0; done < size; done += block.size())
        feed(block.data(), std::min(block.size(), size - done), Z_NO_FLUSH);
    feed(tail.data(), tail.size(), Z_FINISH);
    deflateEnd(&zs);
    return out;
}

std::string gzipText(const std::string& text) { return gzipOf(text, ' ', 0, ""); }

}  // namespace

class ChromeHostileTest : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

    void expectFile(const std::string& path, const Expected& want, double seconds = 20) {
        ImportResult r = importWithDeadline(path, seconds);
        const std::string diff = check(r, want);
        QVERIFY2(diff.empty(), (path + ": " + diff).c_str());
    }

private slots:
    void initTestCase() { QVERIFY(tmp_.isValid()); }

    void smallHostileFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("text");  // error substring (ok = false) or warning substring ("*": any)
        QTest::addColumn<int>("slices");
        QTest::addColumn<int>("instants");
        QTest::addColumn<int>("counterSamples");
        QTest::addColumn<QString>("knownIssue");  // non-empty: the importer is known to differ (QEXPECT_FAIL)
        // file, ok, error/warning, slices, instants, counter samples (-1: not checked), known issue
        QTest::newRow("0-byte file") << "empty.json" << false << "empty" << -1 << -1 << -1 << "";
        QTest::newRow("garbage bytes") << "garbage.bin" << false << "not a trace" << -1 << -1 << -1 << "";
        // The third event is cut inside its ts: the two complete events load.
        QTest::newRow("array cut mid-event") << "truncated_mid_event.json" << true << "truncat" << 2 << 0 << 0 << "";
        // Object form cut inside traceEvents: complete events + a truncation warning.
        QTest::newRow("object cut in traceEvents") << "object_cut_in_trace_events.json" << true << "truncat" << 2 << 0 << 0 << "";
        // "...},]": accepted like Perfetto does (#1822), silently.
        QTest::newRow("trailing comma") << "trailing_comma.json" << true << "" << 2 << 0 << 0 << "";
        // Bytes after the closing ']': the events are complete, so they load, with a warning.
        QTest::newRow("trailing garbage") << "trailing_garbage.json" << true << "after the end" << 2 << 0 << 0 << "";
        // Bad bytes in a name, a category, an arg key and an arg value: replaced, with a warning.
        QTest::newRow("invalid UTF-8") << "invalid_utf8.json" << true << "UTF-8" << 1 << 1 << 0 << "";
        // Valid JSON throughout. "big args" (ts 1, dur 1; args u64max, 2^64, a 39-digit integer, 1e400,
        // 1e-400) is a slice; so are the events whose ts is 2^64 µs or 1e400 and "dur 1e400": those
        // numbers lie beyond any time, so they are clamped to +-4e18 ns (warned), like nearer far times;
        // the counter keeps b (2^64) and c (7) but not a (1e400, not finite as a double); the instant loads.
        QTest::newRow("huge numbers") << "huge_numbers.json" << true << "clamped" << 4 << 1 << 2 << "";
        // NaN / Infinity are not JSON: only the event holding them is skipped, with its byte offset.
        QTest::newRow("NaN-like tokens") << "nan_tokens.json" << true << "not valid JSON" << 2 << 0 << 0 << "";
        // A JSON object without traceEvents loads as an empty trace, saying why it is empty.
        QTest::newRow("non-trace JSON object") << "not_a_trace_object.json" << true << "traceEvents" << 0 << 0 << 0 << "";
        // \ud83d and \udc00 escapes are unpaired surrogate escapes: valid JSON grammar (RFC 8259 s8.2),
        // seen in traces of truncated UTF-16 strings. The event loads (the escape kept as written).
        QTest::newRow("lone surrogate escapes") << "lone_surrogate.json" << true << "" << 2 << 0 << 0 << "";
        // ts / dur as strings holding numbers (ROCm rocprofiler writes them; Perfetto accepts them).
        QTest::newRow("numeric string ts") << "numeric_string_ts.json" << true << "" << 1 << 1 << 0 << "";
        // An array of numbers: no events; loads empty with a warning about the skipped elements.
        QTest::newRow("array of numbers") << "array_of_numbers.json" << true << "*" << 0 << 0 << 0 << "";
        // Found by fuzz_chrome_json: an empty name interned first compared 0 bytes at a null pointer (UB).
        QTest::newRow("fuzz: empty name first") << "fuzz_empty_name_cached.json" << false << "not a valid Chrome trace" << -1 << -1 << -1 << "";
        // Found by fuzz_chrome_gzip: a damaged .gz of a Kineto trace whose events make a chunk start
        // at its buffer's first byte; the parser indexed the byte before it with a wrapped size_t.
        // The events before the damage load (169), with warnings about the damaged data.
        QTest::newRow("fuzz: chunk at buffer start") << "fuzz_chunk_at_buffer_start.json.gz" << true << "damaged" << 169 << 0 << 0 << "";
        // Found by the long fuzz_chrome_json run, replayed under UBSan: a tid of 6148914691236517194
        // (after 87 leading zeros) overflowed int64 in the thread table's hash. By hand: 3 events
        // damaged, 2 E without a B, 3 B never ended (A and Asub on tid 30, A on the huge tid), cut.
        QTest::newRow("fuzz: tid overflowing the hash") << "fuzz_tid_hash_overflow.json" << true << "truncated" << 3 << 0 << 0 << "";
        // ts / dur near the int64 limits: clamped to +-4e18 ns with a warning, the span stays positive.
        QTest::newRow("extreme ts") << "extreme_ts.json" << true << "clamped" << 4 << 0 << 1 << "";
        QTest::newRow("end beyond int64") << "end_beyond_int64.json" << true << "clamped" << 2 << 0 << 0 << "";
    }

    void smallHostileFiles() {
        QFETCH(QString, file);
        QFETCH(bool, ok);
        QFETCH(QString, text);
        QFETCH(int, slices);
        QFETCH(int, instants);
        QFETCH(int, counterSamples);
        QFETCH(QString, knownIssue);
        Expected want;
        want.ok = ok;
        (ok ? want.warning : want.error) = text.toStdString();
        want.slices = slices;
        want.instants = instants;
        want.counterSamples = counterSamples;
        const std::string path = repoTestData("hostile/" + file.toStdString());
        ImportResult r = importWithDeadline(path, 20);
        const std::string diff = check(r, want);
        if (!knownIssue.isEmpty()) QEXPECT_FAIL("", qPrintable(knownIssue), Continue);
        QVERIFY2(diff.empty(), (path + ": " + diff).c_str());
    }

    // Numbers no int64/uint64/double holds exactly are kept as their text, not rounded or dropped.
    void hugeArgNumbersKeptAsText() {
        ImportResult r = importWithDeadline(repoTestData("hostile/huge_numbers.json"), 20);
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace& t = *r.trace;
        const auto big = findSlices(t, "big args");
        QCOMPARE(big.size(), size_t(1));
        const Track& track = t.tracks[big[0].track];
        std::map<std::string, std::string> got;
        for (const Arg& a : decodeArgs(track.argsView(), track.slices.args[big[0].index]))
            got[std::string(t.str(a.key))] = a.value.toString(t.strings);
        QCOMPARE(got["u64max"], std::string("18446744073709551615"));
        QCOMPARE(got["beyond_u64"], std::string("18446744073709551616"));
        QCOMPARE(got["huge"], std::string("123456789012345678901234567890123456789"));
        QCOMPARE(got["inf"], std::string("1e400"));
        QCOMPARE(got["neg"], std::string("-9223372036854775809"));
        QVERIFY(got.count("tiny"));  // 1e-400: 0 or its text, but present
    }

    // Times at +-1e16 .. 1e19 µs (1e19 .. 1e22 ns, beyond int64 ns) in B/E, X, async b/e and C events,
    // and mixtures of an event near 0 with one near 1e18 µs. Every time is clamped to +-4e18 ns
    // (TraceBuilder::kMaxTimeNs) and counted in one "clamped" warning; a slice whose both ends are
    // clamped to one limit is 0 long; an X whose dur reaches past +4e18 ns is cut there; a negative
    // dur is 0 with its own warning. So each file spans exactly 8e18 ns (-4e18 .. +4e18). Expected
    // values are worked out by hand from the file's lines (each slice's comment says how).
    // huge_ts_mixed.json's first three events are the reported case: the B/E pair's end (9e15 µs)
    // was not clamped, so the span (9e18 - -4e18) wrapped to -5446744073709551616.
    void hugeTimestampsClampAndSaturate() {
        constexpr TimeNs K = TraceBuilder::kMaxTimeNs;  // times become t + K (the origin is -K)
        struct Slice {
            TrackKind kind;
            const char* name;
            TimeNs start, duration;  // relative to the trace's start
        };
        struct Case {
            const char* file;
            size_t slices, asyncSlices, counterSamples, instants;
            uint64_t clamped, negative;  // counts in the two warnings (0: no such warning)
            std::vector<Slice> expected;
            std::vector<std::pair<TimeNs, double>> samples;  // every counter sample, sorted
        };
        const TrackKind T = TrackKind::Thread, A = TrackKind::Async;
        const std::vector<Case> cases = {
            {"huge_ts_begin_end.json", 6, 0, 0, 0, 7, 0,
             {{T, "near zero", K, 1'000},                     // 0 .. 1 µs
              {T, "to 1e16", K + 5'000, K - 5'000},           // 5 µs .. K (E clamped)
              {T, "from -1e17", 0, K + 7'000},                // -K (B clamped) .. 7 µs
              {T, "1e18 to 1e19", 2 * K, 0},                  // K .. K
              {T, "-1e19 to -1e16", 0, 0},                    // -K .. -K
              {T, "open at 1e18", 2 * K, 0}},                 // K, never ended: up to the end, K
             {}},
            {"huge_ts_complete.json", 7, 0, 0, 0, 5, 1,
             {{T, "near zero", K, 1'000},
              {T, "at 1e16", 2 * K, 0},                       // K + 1 µs cut at K
              {T, "at -1e17", 0, 5'000},                      // -K, 5 µs long
              {T, "at 1e18 for 1e18", 2 * K, 0},              // K, cut at K
              {T, "at -1e19 for 1e19", 0, 2 * K},             // -K, cut at K
              {T, "at 0 for 1e19", K, K},                     // 0, cut at K
              {T, "at 1 for -1e16", K + 1'000, 0}},           // negative dur: 0
             {}},
            {"huge_ts_async.json", 0, 6, 0, 0, 8, 0,
             {{A, "near zero", K, 2'000},
              {A, "to 1e16", K + 1'000, K - 1'000},
              {A, "-1e17 to 1e17", 0, 2 * K},
              {A, "1e18 to 1e19", 2 * K, 0},
              {A, "-1e19 to -1e16", 0, 0},
              {A, "open at -1e18", 0, 2 * K}},                // never ended: up to K
             {}},
            {"huge_ts_counters.json", 0, 0, 7, 0, 4, 0, {},
             {{0, 3}, {0, 5}, {K, 1}, {K + 5'000, 6}, {K + 5'000, 7}, {2 * K, 2}, {2 * K, 4}}},
            {"huge_ts_mixed.json", 6, 2, 2, 1, 9, 0,
             {{T, "early", 0, 1'000},                         // -5e15 µs: -K
              {T, "long", K, K},                              // 0 .. 9e15 µs: 0 .. K
              {T, "x near zero", K + 1'500, 2'000},
              {T, "x near 1e18", 2 * K, 0},
              {T, "b near zero", K, 3'000},
              {T, "b near 1e18", 2 * K, 0},
              {A, "a near zero", K + 2'000, 2'000},
              {A, "a near 1e18", 2 * K, 0}},
             {{K, 1}, {2 * K, 2}}},
        };
        for (const Case& c : cases) {
            const std::string path = repoTestData(std::string("hostile/") + c.file);
            const ImportResult r = importWithDeadline(path, 20);
            QVERIFY2(r.ok(), (path + ": " + r.error).c_str());
            const Trace& t = *r.trace;
            const std::string where = std::string(c.file) + " (warnings: " + joinWarnings(t) + ")";
            QCOMPARE(t.startNs, TimeNs(0));
            QVERIFY2(t.spanNs() == 2 * K, (where + ": span " + std::to_string(t.spanNs())).c_str());
            const TraceCounts n = t.counts();
            QVERIFY2(n.slices == c.slices && n.asyncSlices == c.asyncSlices && n.counterSamples == c.counterSamples &&
                         n.instants == c.instants,
                     where.c_str());
            auto warningCount = [&](const std::string& text) -> uint64_t {
                for (const ImportWarning& w : t.warnings)
                    if (containsNoCase(w.detail, text)) return w.count.value_or(0);
                return 0;
            };
            QVERIFY2(warningCount("clamped") == c.clamped, where.c_str());
            QVERIFY2(warningCount("negative duration") == c.negative, where.c_str());
            for (const Slice& e : c.expected) {
                const auto found = findSlices(t, e.name, e.kind);
                QVERIFY2(found.size() == 1, (where + ": " + e.name).c_str());
                const SliceColumns& sc = t.tracks[found[0].track].slices;
                const std::string got = std::to_string(sc.start[found[0].index]) + " +" +
                                        std::to_string(sc.duration[found[0].index]);
                QVERIFY2(sc.start[found[0].index] == e.start && sc.duration[found[0].index] == e.duration,
                         (where + ": " + e.name + " is " + got).c_str());
            }
            std::vector<std::pair<TimeNs, double>> samples;
            for (const Track& track : t.tracks) {
                for (size_t i = 0; i < track.counter.size(); ++i) samples.emplace_back(track.counter.time[i], track.counter.value[i]);
                // Every slice, instant and sample lies in the trace's span.
                for (size_t i = 0; i < track.slices.size(); ++i) {
                    QVERIFY(track.slices.duration[i] >= 0);
                    QVERIFY(track.slices.start[i] >= t.startNs && track.slices.end(i) <= t.endNs);
                }
                for (TimeNs x : track.instants.time) QVERIFY(x >= t.startNs && x <= t.endNs);
            }
            std::sort(samples.begin(), samples.end());
            QVERIFY2(samples == c.samples, where.c_str());
        }
    }

    // 100,000 nested objects in one event's args: a clear error, no stack overflow.
    void deeplyNestedArgs() {
        const int depth = 100000;
        std::string s = "[{\"ph\":\"X\",\"name\":\"deep\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,\"args\":{\"a\":";
        for (int i = 0; i < depth; ++i) s += "{\"a\":";
        s += "1";
        s.append(depth, '}');
        s += "}},{\"ph\":\"X\",\"name\":\"after\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":1}]";
        const QString path = tmp_.filePath("deep_args.json");
        QVERIFY(writeFile(path, s));
        // The importer bounds nesting at 1000 levels and rejects the file with the byte offset.
        Expected want;
        want.ok = false;
        want.error = "nested deeper";
        expectFile(path.toStdString(), want);
    }

    // 1,000,000 '[' and nothing else: an error, not a stack overflow.
    void millionOpenBrackets() {
        const QString path = tmp_.filePath("brackets.json");
        QVERIFY(writeFile(path, std::string(1000000, '[')));
        Expected want;
        want.ok = false;
        want.error = "nested deeper";
        expectFile(path.toStdString(), want);
    }

    // ~100 MB of zero bytes gzip'ed (~100 KB on disk): rejected without inflating it all.
    void gzipBombOfZeros() {
        const QString path = tmp_.filePath("zeros.json.gz");
        QVERIFY(writeFile(path, gzipOf("", '\0', size_t(100) << 20, "")));
        const bool canMeasure = resetPeakRss();
        const long long before = peakRssBytes();
        Expected want;
        want.ok = false;
        want.error = "not a trace";
        expectFile(path.toStdString(), want);
        if (canMeasure) {
            const long long grown = peakRssBytes() - before;
            qInfo("zeros bomb: peak RSS grew by %lld bytes", grown);
            QVERIFY2(grown < (64ll << 20), ("peak RSS grew by " + std::to_string(grown) + " bytes").c_str());
        }
    }

    // "[" + 100 MB of spaces + "]" gzip'ed: a valid, empty trace. Loads (empty) within a
    // memory bound of a few times the inflated size, or fails with a clear error.
    void gzipBombOfWhitespace() {
        const QString path = tmp_.filePath("spaces.json.gz");
        QVERIFY(writeFile(path, gzipOf("[", ' ', size_t(100) << 20, "]")));
        const bool canMeasure = resetPeakRss();
        const long long before = peakRssBytes();
        ImportResult r = importWithDeadline(path.toStdString(), 30);
        if (r.ok()) QCOMPARE(r.trace->counts().slices, size_t(0));
        else QVERIFY2(!r.error.empty() && r.error.find('\n') == std::string::npos, r.error.c_str());
        if (canMeasure) {
            const long long grown = peakRssBytes() - before;
            qInfo("whitespace bomb: %s, peak RSS grew by %lld bytes", r.ok() ? "loaded" : r.error.c_str(), grown);
            QVERIFY2(grown < (600ll << 20), ("peak RSS grew by " + std::to_string(grown) + " bytes").c_str());
        }
    }

    // A gzip file cut in the middle: the events inflated before the cut load, with a warning.
    void gzipCutInTheMiddle() {
        std::string text = "[";
        const int n = 20000;
        for (int i = 0; i < n; ++i) {
            text += "{\"ph\":\"X\",\"name\":\"op" + std::to_string(i % 97) + "\",\"pid\":1,\"tid\":1,\"ts\":" +
                    std::to_string(i * 10) + ",\"dur\":5,\"args\":{\"i\":" + std::to_string(i) + "}},\n";
        }
        text += "{\"ph\":\"i\",\"name\":\"end\",\"s\":\"g\",\"ts\":" + std::to_string(n * 10) + "}]";
        const std::string gz = gzipText(text);
        const QString path = tmp_.filePath("cut.json.gz");
        QVERIFY(writeFile(path, gz.substr(0, gz.size() / 2)));
        ImportResult r = importWithDeadline(path.toStdString(), 20);
        QVERIFY2(r.ok(), r.error.c_str());
        const size_t slices = r.trace->counts().slices;
        QVERIFY2(slices > 0 && slices < size_t(n), std::to_string(slices).c_str());
        QVERIFY2(anyWarningContains(*r.trace, "truncat"), joinWarnings(*r.trace).c_str());
        // The whole (uncut) file for comparison: every event.
        const QString whole = tmp_.filePath("whole.json.gz");
        QVERIFY(writeFile(whole, gz));
        ImportResult w = importWithDeadline(whole.toStdString(), 20);
        QVERIFY2(w.ok(), w.error.c_str());
        QCOMPARE(w.trace->counts().slices, size_t(n));
        QVERIFY(!anyWarningContains(*w.trace, "truncat"));
    }

    void missingFile() {
        Expected want;
        want.ok = false;
        want.error = "no such file";
        expectFile(tmp_.filePath("does-not-exist.json").toStdString(), want);
    }

    // The speedscope edge-case files: slices, unfinished slices, overflow lanes and warnings,
    // worked out by hand from the raw files under the importer's rules (E closes the innermost
    // open B of its thread, events in ts order; an unmatched B ends at the trace end).
    void speedscopeEdgeCases_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("slices");
        QTest::addColumn<int>("unfinished");
        QTest::addColumn<int>("overflow");
        QTest::addColumn<QString>("warning");  // "" = none required
        QTest::addColumn<qint64>("spanNs");
        // alpha 0-14 > beta 1-13 > gamma 2-7, epsilon (X with tdur but no dur) at 7, 0 long.
        QTest::newRow("simple") << "simple.json" << 4 << 0 << 0 << "" << qint64(14000);
        QTest::newRow("simple-partial") << "simple-partial.json" << 4 << 0 << 0 << "truncat" << qint64(14000);
        QTest::newRow("simple-partial-trailing-comma") << "simple-partial-trailing-comma.json" << 4 << 0 << 0 << "truncat" << qint64(14000);
        QTest::newRow("simple-partial-whitespace") << "simple-partial-whitespace.json" << 4 << 0 << 0 << "truncat" << qint64(14000);
        QTest::newRow("simple-object") << "simple-object.json" << 3 << 0 << 0 << "" << qint64(14000);
        // Pairs listed out of ts order: A 0-10 > B 1-9 > C 2-8.
        QTest::newRow("out-of-order") << "out-of-order.json" << 3 << 0 << 0 << "" << qint64(10000);
        // In ts order the two extra E at ts 5 close beta and alpha; E at 13 and 14 are unmatched.
        QTest::newRow("too-many-end-events") << "too-many-end-events.json" << 2 << 0 << 0 << "without an open B" << qint64(5000);
        // Two B never closed: both end at the trace end (X at 10-11).
        QTest::newRow("not-enough-end-events") << "not-enough-end-events.json" << 3 << 2 << 0 << "never ended" << qint64(11000);
        QTest::newRow("only-begin-events") << "only-begin-events.json" << 3 << 3 << 0 << "never ended" << qint64(2000);
        // E "beta" closes the open "alpha" (catapult: close + warn).
        QTest::newRow("mismatched-name") << "mismatched-name.json" << 1 << 0 << 0 << "another name" << qint64(10000);
        QTest::newRow("unbalanced-name") << "unbalanced-name.json" << 2 << 0 << 0 << "another name" << qint64(10000);
        // E "A" at 10 closes the innermost open B ("B", 1-10); A stays open until 11.
        QTest::newRow("end-non-top-of-stack") << "end-non-top-of-stack.json" << 3 << 1 << 0 << "never ended" << qint64(11000);
        QTest::newRow("invalid-x-nesting") << "invalid-x-nesting.json" << 2 << 0 << 1 << "overlap" << qint64(15000);
        QTest::newRow("zero-duration-events") << "zero-duration-events.json" << 4 << 0 << 0 << "" << qint64(10000);
        QTest::newRow("x-events-matching-start") << "x-events-matching-start.json" << 9 << 0 << 0 << "" << qint64(20000);
        QTest::newRow("x-events-matching-end") << "x-events-matching-end.json" << 9 << 0 << 0 << "" << qint64(20000);
        QTest::newRow("simultaneous-anonymous-calls") << "simultaneous-anonymous-calls.json" << 6 << 0 << 0 << "" << qint64(5000);
        QTest::newRow("must-retain-original-order") << "must-retain-original-order.json" << 7 << 0 << 0 << "" << qint64(10000);
        QTest::newRow("multiprocess") << "multiprocess.json" << 8 << 0 << 0 << "" << qint64(1000);
        // Only top-level samples/stackFrames and two M events: loads, empty, saying samples were skipped.
        QTest::newRow("simple-with-samples") << "simple-with-samples.json" << 0 << 0 << 0 << "samples" << qint64(0);
    }

    void speedscopeEdgeCases() {
        QFETCH(QString, file);
        QFETCH(int, slices);
        QFETCH(int, unfinished);
        QFETCH(int, overflow);
        QFETCH(QString, warning);
        QFETCH(qint64, spanNs);
        ImportResult r = importWithDeadline(sharedTestData("public/speedscope/" + file.toStdString()), 20);
        QVERIFY2(r.ok(), r.error.c_str());
        const Trace& t = *r.trace;
        int gotUnfinished = 0, gotOverflow = 0;
        for (const Track& track : t.tracks) {
            for (size_t i = 0; i < track.slices.size(); ++i) gotUnfinished += track.slices.unfinished(i);
            if (track.overflowOf != kNoIndex) gotOverflow += int(track.slices.size());
        }
        QCOMPARE(int(t.counts().slices), slices);
        QCOMPARE(gotUnfinished, unfinished);
        QCOMPARE(gotOverflow, overflow);
        QCOMPARE(qint64(t.spanNs()), spanNs);
        if (!warning.isEmpty())
            QVERIFY2(anyWarningContains(t, warning.toStdString()), joinWarnings(t).c_str());
    }
};

QTEST_GUILESS_MAIN(ChromeHostileTest)
#include "tst_chrome_hostile.moc"
