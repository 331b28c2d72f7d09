// SQL over a trace: answers on the hand trace (tests/gui/hand_trace.h, worked out on paper),
// parents against a brute force on random nested tracks, scans narrowed to a time window (rows
// counted), time order across tracks, args flattened, errors with positions, timeouts and
// Cancel, writes refused, hostile values, and the SQLite export read back with SQLite itself.
#include "hand_trace.h"
#include "model/import/import.h"
#include "model/analysis/steps.h"
#include "model/query/span_lanes.h"
#include "model/results/result_store.h"
#include "model/results/sql_result_tables.h"
#include "model/sql/query_track.h"
#include "model/sql/sqlite_export.h"
#include "model/sql/trace_database.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <random>
#include <thread>

// QCOMPARE prints std::strings it finds different.
namespace QTest {
template <>
inline char* toString(const std::string& s) {
    return qstrdup(s.c_str());
}
}  // namespace QTest

using namespace tracescope;
using namespace tracescope::sql;
using testing::buildHandTrace;
using testing::findSlice;

namespace {

// A query's rows as text ("NULL" for null), cells joined with '|'.
struct Answer {
    QueryOutcome outcome;
    std::vector<std::string> columns;
    std::vector<std::string> rows;
};

Answer ask(TraceDatabase& db, const std::string& sql, QueryOptions options = {}) {
    Answer a;
    a.outcome = db.run(
        sql, [&](const std::vector<std::string>& c) { a.columns = c; },
        [&](const SqlRow& r) {
            std::string line;
            for (int i = 0; i < r.size(); ++i) {
                if (i) line += '|';
                if (r.type(i) == SQLITE_NULL) line += "NULL";
                else if (r.type(i) == SQLITE_FLOAT) line += QString::number(r.real(i)).toStdString();
                else line += std::string(r.text(i));
            }
            a.rows.push_back(line);
            return true;
        },
        options);
    return a;
}

std::string one(TraceDatabase& db, const std::string& sql) {
    const Answer a = ask(db, sql);
    if (!a.outcome.ok) return "ERROR: " + a.outcome.error;
    return a.rows.size() == 1 ? a.rows[0] : "rows: " + std::to_string(a.rows.size());
}

int64_t sliceId(const Trace& t, SliceRef r) {
    int64_t id = 0;
    for (TrackIndex i = 0; i < r.track; ++i) id += int64_t(t.tracks[i].slices.size());
    return id + r.index;
}

// Random properly nested slices on `tracks` thread tracks (n each), names A-D.
std::shared_ptr<const Trace> randomNestedTrace(uint32_t seed, int tracks, int n) {
    std::mt19937 rng(seed);
    TraceBuilder b("random");
    const ProcessIndex p = b.addProcess(ProcessKind::Host, 1, "p");
    const StringId names[] = {b.intern("A"), b.intern("B"), b.intern("C"), b.intern("D")};
    for (int k = 0; k < tracks; ++k) {
        const TrackIndex t = b.addTrack(p, TrackKind::Thread, "t" + std::to_string(k), k + 1);
        int left = n;
        std::function<void(TimeNs, TimeNs, int)> fill = [&](TimeNs lo, TimeNs hi, int depth) {
            TimeNs cur = lo;
            while (cur < hi && left > 0) {
                const TimeNs gap = TimeNs(rng() % 50);
                const TimeNs len = 1 + TimeNs(rng() % std::max<TimeNs>(1, (hi - cur) / 2 + 1));
                if (cur + gap + len > hi) break;
                --left;
                b.addSlice(t, cur + gap, len, names[rng() % 4], kEmptyString);
                if (depth < 6 && len > 4) fill(cur + gap + 1, cur + gap + len, depth + 1);
                cur += gap + len;
            }
        };
        fill(0, 100000000, 0);
    }
    return b.finish();
}

// The parent of every slice by brute force: the latest earlier slice of the track, one level up,
// that contains it.
std::vector<int64_t> bruteParents(const Trace& t) {
    std::vector<int64_t> out;
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        const SliceColumns& s = t.tracks[ti].slices;
        for (uint32_t i = 0; i < s.size(); ++i) {
            int64_t parent = -1;
            for (uint32_t j = i; j-- > 0;)
                if (s.depth(j) + 1 == s.depth(i) && s.start[j] <= s.start[i] && s.end(j) >= s.end(i)) {
                    parent = sliceId(t, {ti, j});
                    break;
                }
            out.push_back(parent);
        }
    }
    return out;
}

}  // namespace

class TraceSqlTest : public QObject {
    Q_OBJECT

private slots:
    void handTraceTables() {
        std::shared_ptr<const Trace> t = buildHandTrace();
        TraceDatabase db(t);
        // 3 kernels and copies, 7 on main, 3 on worker (one on its overflow lane).
        QCOMPARE(one(db, "SELECT count(*) FROM slice"), std::string("13"));
        QCOMPARE(one(db, "SELECT count(*), sum(dur) FROM slice WHERE name = 'aten::mm'"), std::string("2|2500"));
        const int64_t mm = sliceId(*t, findSlice(*t, "aten::mm", 1000));
        const int64_t forward = sliceId(*t, findSlice(*t, "forward", 500));
        const int64_t launch = sliceId(*t, findSlice(*t, "cudaLaunchKernel", 1100));
        QCOMPARE(one(db, "SELECT parent_id, depth FROM slice WHERE id = " + std::to_string(mm)),
                 std::to_string(forward) + "|2");
        QCOMPARE(one(db, "SELECT p.name FROM slice s JOIN slice p ON p.id = s.parent_id WHERE s.id = " +
                             std::to_string(launch)),
                 std::string("aten::mm"));
        QCOMPARE(one(db, "SELECT parent_id FROM slice WHERE name = 'step'"), std::string("NULL"));
        // The unfinished slice ends at the trace end (10000).
        QCOMPARE(one(db, "SELECT ts, dur FROM slice WHERE name = 'hang'"), std::string("8000|2000"));
        QCOMPARE(one(db, "SELECT thread_name, tid, process_name, pid FROM thread_slice WHERE name = 'backward'"),
                 std::string("main|1|python3|100"));
        QCOMPARE(one(db, "SELECT count(*) FROM thread"), std::string("3"));
        QCOMPARE(one(db, "SELECT name, kind FROM track WHERE id = (SELECT track_id FROM counter LIMIT 1)"),
                 std::string("Memory|counter"));
        QCOMPARE(one(db, "SELECT group_concat(value, ',') FROM (SELECT value FROM counter ORDER BY ts)"),
                 std::string("0.0,100.0,50.0"));
        QCOMPARE(one(db, "SELECT name, ts FROM instant"), std::string("mark|4200"));
        // Flows: each launch to its kernel.
        QCOMPARE(one(db, "SELECT group_concat(o.ts || '>' || i.ts, ',') FROM flow f JOIN slice o ON o.id = "
                         "f.slice_out JOIN slice i ON i.id = f.slice_in"),
                 std::string("600>1000,1100>4000"));
        QCOMPARE(one(db, "SELECT count(*) FROM flow WHERE slice_in = " +
                             std::to_string(sliceId(*t, findSlice(*t, "gemm_kernel", 4000)))),
                 std::string("1"));
        QCOMPARE(one(db, "SELECT name FROM process WHERE kind = 'device'"), std::string("/device:GPU:0"));
        QCOMPARE(one(db, "SELECT value FROM metadata WHERE name = 'trace_format'"), std::string("hand"));
    }

    // The analyses' tables on the hand trace, every number worked out on paper (hand_trace.h).
    void analysisTables() {
        std::shared_ptr<const Trace> t = buildHandTrace();
        const std::shared_ptr<ResultStore> store = ResultStore::of(t);
        TraceDatabase db(t);
        addAnalysisTables(db, *store);
        // The device side: gemm_kernel 2000 + 500; idle is the window 1000..7000 less 4500 busy.
        QCOMPARE(one(db, "SELECT occurrences, total_ns, self_ns FROM op_stats WHERE side = 'device' AND "
                         "name = 'gemm_kernel'"),
                 std::string("2|2500|2500"));
        QCOMPARE(one(db, "SELECT total_ns FROM op_stats WHERE is_idle"), std::string("1500"));
        QCOMPARE(one(db, "SELECT occurrences, total_ns, min_ns, max_ns FROM kernel_stats WHERE name = 'gemm_kernel'"),
                 std::string("2|2500|500|2000"));
        QCOMPARE(one(db, "SELECT total_ns, self_ns, occurrences FROM call_tree WHERE name = 'step' AND depth = 1"),
                 std::string("10000|2500|1"));
        // Each launch joined to its kernel: cpu 300 and 200, delay 1000 - 900 and 4000 - 1300.
        const Answer launches = ask(db, "SELECT c.ts, a.ts, cpu_dur_ns, gpu_dur_ns, launch_delay_ns, long_launch_delay "
                                        "FROM launches JOIN slice c ON c.id = call_slice_id "
                                        "JOIN slice a ON a.id = activity_slice_id ORDER BY c.ts");
        QVERIFY2(launches.outcome.ok, launches.outcome.error.c_str());
        QCOMPARE(launches.rows, (std::vector<std::string>{"600|1000|300|2000|100|0", "1100|4000|200|500|2700|0"}));
        // Stream 7 idles from 3000 to the launched kernel at 4000 (its call began at 1100, before
        // the stream's work ended, and the gap is under 30 us: kernel_wait), then 4500 to 5000.
        const Answer gaps = ask(db, "SELECT stream, ts, dur FROM gpu_idle_gaps ORDER BY ts");
        QCOMPARE(gaps.rows, (std::vector<std::string>{"7|3000|1000", "7|4500|500"}));
        QCOMPARE(one(db, "SELECT cause FROM gpu_idle_gaps WHERE ts = 3000"), std::string("kernel_wait"));
        // A counter named Memory in a hand-built trace is no allocator's: no memory events.
        QCOMPARE(one(db, "SELECT count(*) FROM memory_events"), std::string("0"));
        // The rows are the store's results: a second database reads them, nothing is recomputed.
        TraceDatabase again(t);
        addAnalysisTables(again, *store);
        QCOMPARE(one(again, "SELECT count(*) FROM launches"), std::string("2"));
    }

    // A query's ts/dur rows as boxes in lanes (Add as track), worked out on paper: the worker's
    // aten::add [2000,2500) and hang [8000,10000) share lane 0; overlap [2400,2700) starts inside
    // aten::add and takes lane 1. A NULL dur is left out.
    void queryTrackBoxes() {
        std::shared_ptr<const Trace> t = buildHandTrace();
        TraceDatabase db(t);
        std::unique_ptr<QueryTrackBuilder> builder;
        const QueryOutcome outcome = db.run(
            "SELECT ts, dur, name, track_id FROM thread_slice WHERE tid = 2 "
            "UNION ALL SELECT 5000, NULL, 'no dur', NULL",
            [&](const std::vector<std::string>& c) { builder = std::make_unique<QueryTrackBuilder>(*t, c); },
            [&](const SqlRow& r) {
                builder->add(r);
                return true;
            });
        QVERIFY2(outcome.ok, outcome.error.c_str());
        QVERIFY(builder && builder->spans());
        uint64_t skipped = 0;
        const DerivedCounterTrack d = builder->finish("worker boxes", "SQL", &skipped);
        QCOMPARE(skipped, uint64_t(1));
        QVERIFY(d.isSpans());
        QCOMPARE(d.spans.count, uint64_t(3));
        QCOMPARE(d.spans.lanes.size(), size_t(2));
        QCOMPARE(d.spans.lanes[0].start, (std::vector<TimeNs>{2000, 8000}));
        QCOMPARE(d.spans.lanes[0].end, (std::vector<TimeNs>{2500, 10000}));
        QCOMPARE(d.spans.lanes[1].start, (std::vector<TimeNs>{2400}));
        QCOMPARE(d.spans.names[d.spans.lanes[1].name[0]], std::string("overlap"));
        QCOMPARE(d.process, t->tracks[findSlice(*t, "aten::add", 2000).track].process);
        // Window queries: for [2600, 7000) lane 0's candidates are aten::add alone (the search
        // starts the longest box, 2000, back; hang starts after the window).
        const DerivedSpans::Lane& lane0 = d.spans.lanes[0];
        const auto [a, b] = spansInWindow(lane0, 2600, 7000);
        QCOMPARE(a, size_t(0));
        QCOMPARE(b, size_t(1));
        QCOMPARE(spanAt(lane0, 9000, 0), size_t(1));
        QCOMPARE(spanAt(lane0, 2500, 0), size_t(0));  // a box's end time counts as on it
        QCOMPARE(spanAt(lane0, 5000, 100), SIZE_MAX);
        QCOMPARE(spanAt(d.spans.lanes[1], 2450, 0), size_t(0));
        // Eight lanes at most: ten boxes over one another share the last.
        TraceDatabase again(t);
        std::unique_ptr<QueryTrackBuilder> stacked;
        QVERIFY(again.run("WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < 9) "
                          "SELECT x AS ts, 100 AS dur FROM c",
                          [&](const std::vector<std::string>& c) { stacked = std::make_unique<QueryTrackBuilder>(*t, c); },
                          [&](const SqlRow& r) {
                              stacked->add(r);
                              return true;
                          })
                    .ok);
        const DerivedCounterTrack many = stacked->finish("stacked", "SQL");
        QCOMPARE(many.spans.lanes.size(), kMaxSpanLanes);
        QCOMPARE(many.spans.lanes.back().start.size(), size_t(3));
    }

    // The memory tables against the raw [memory] events of a real PyTorch trace (read through the
    // instant and args tables, which are the file's own records): every event is one row at its
    // instant's time, and each device's peak is its largest "Total Allocated". torch_ops is
    // checked against torch_ops_sums.py in cli_sql_exact.
    void memoryTablesOnARealTrace() {
        const std::string path = std::string(TRACESCOPE_SHARED_DIR) + "/testdata/gpu/torch_mlp_memory_h100.json";
        if (!QFileInfo::exists(QString::fromStdString(path))) QSKIP("test data not present");
        ImportResult imported = importTrace(path);
        QVERIFY(imported.trace);
        const std::shared_ptr<const Trace> trace = std::move(imported.trace);
        const std::shared_ptr<ResultStore> store = ResultStore::of(trace);
        TraceDatabase db(trace);
        addAnalysisTables(db, *store);
        QCOMPARE(one(db, "SELECT count(*) FROM memory_events"),
                 one(db, "SELECT count(*) FROM instant WHERE name = '[memory]'"));
        QCOMPARE(one(db, "SELECT count(*) FROM memory_events m JOIN instant i ON i.id = m.instant_id "
                         "WHERE i.ts = m.ts AND i.name = '[memory]'"),
                 one(db, "SELECT count(*) FROM memory_events"));
        QCOMPARE(one(db, "SELECT peak_bytes FROM memory_peaks WHERE memory_id = 'cuda:0'"),
                 one(db, "SELECT max(extract_arg(arg_set_id, 'Total Allocated')) FROM instant "
                         "WHERE name = '[memory]' AND extract_arg(arg_set_id, 'Device Type') = 1 "
                         "AND extract_arg(arg_set_id, 'Device Id') = 0"));
        QCOMPARE(one(db, "SELECT sum(kind = 'allocation') FROM memory_events WHERE memory_id = 'cuda:0'"),
                 one(db, "SELECT count(*) FROM instant WHERE name = '[memory]' AND "
                         "extract_arg(arg_set_id, 'Device Type') = 1 AND extract_arg(arg_set_id, 'Bytes') > 0"));
        // Each step's categories add up to its duration, one row per category, the steps those
        // of the steps table (ProfilerStep#2..7 in this file).
        QCOMPARE(one(db, "SELECT count(*), sum(ok) FROM (SELECT number, sum(ns) = dur AS ok FROM step_breakdown "
                         "GROUP BY number)"),
                 std::string("6|6"));
        QCOMPARE(one(db, "SELECT count(*) FROM step_breakdown"), std::to_string(6 * int(kStepCategoryCount)));
        QCOMPARE(one(db, "SELECT count(*) FROM steps s JOIN (SELECT DISTINCT number, ts, dur FROM step_breakdown) b "
                         "USING (number, ts, dur)"),
                 std::string("6"));
    }

    void argsAndExtractArg() {
        std::shared_ptr<const Trace> t = buildHandTrace();
        TraceDatabase db(t);
        const std::string kernel = "(SELECT arg_set_id FROM slice WHERE name = 'gemm_kernel' AND ts = 1000)";
        QCOMPARE(one(db, "SELECT extract_arg(" + kernel + ", 'grid'), extract_arg(" + kernel + ", 'ratio'), " +
                             "extract_arg(" + kernel + ", 'label'), extract_arg(" + kernel + ", 'flag'), " +
                             "extract_arg(" + kernel + ", 'nope')"),
                 std::string("128|0.5|abc|1|NULL"));
        QCOMPARE(one(db, "SELECT group_concat(key || ':' || value_type, ',') FROM args WHERE arg_set_id = " + kernel),
                 std::string("grid:int,ratio:real,label:string,flag:bool"));
        QCOMPARE(one(db, "SELECT count(*) FROM args"), std::string("6"));  // 4 kernel args + 2 correlations
        QCOMPARE(one(db, "SELECT sum(extract_arg(arg_set_id, 'correlation')) FROM slice"), std::string("3"));
        QCOMPARE(one(db, "SELECT arg_set_id FROM slice WHERE name = 'step'"), std::string("NULL"));

        // Nested values (kept as JSON text) become one row per leaf.
        TraceBuilder b("nested");
        const TrackIndex tr = b.addTrack(b.addProcess(ProcessKind::Host, 1, "p"), TrackKind::Thread, "t", 1);
        ArgsWriter w;
        w.add(b.intern("cfg"), ArgValue::json(b.intern(R"({"lr":0.1,"dims":[4,8],"name":"x","on":true,"e":{}})")));
        w.add(b.intern("big"), ArgValue::unsignedInteger(18446744073709551615ull));
        w.add(b.intern("bad"), ArgValue::json(b.intern("{not json")));
        b.addSlice(tr, 0, 10, b.intern("s"), kEmptyString, w);
        TraceDatabase nested(std::shared_ptr<const Trace>(b.finish()));
        QCOMPARE(one(nested, "SELECT group_concat(key || '/' || flat_key || '=' || coalesce(int_value, real_value, "
                             "string_value, 'null'), ';') FROM args"),
                 std::string("cfg.lr/cfg.lr=0.1;cfg.dims[0]/cfg.dims=4;cfg.dims[1]/cfg.dims=8;cfg.name/cfg.name=x;"
                             "cfg.on/cfg.on=1;cfg.e/cfg.e={};big/big=18446744073709551615;bad/bad={not json"));
        QCOMPARE(one(nested, "SELECT extract_arg(arg_set_id, 'cfg.dims[1]'), extract_arg(arg_set_id, 'big') FROM slice"),
                 std::string("8|18446744073709551615"));
    }

    // Parents by the stack of each scan equal a brute force, for whole scans, windows (the
    // stack rebuilt by walking back) and lookups by id.
    void parentsMatchBruteForce() {
        std::shared_ptr<const Trace> t = randomNestedTrace(7, 3, 3000);
        const std::vector<int64_t> expected = bruteParents(*t);
        TraceDatabase db(t);
        const Answer all = ask(db, "SELECT id, coalesce(parent_id, -1) FROM slice");
        QCOMPARE(all.rows.size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i)
            QCOMPARE(all.rows[i], std::to_string(i) + "|" + std::to_string(expected[i]));
        const int64_t last = std::stoll(one(db, "SELECT max(ts) FROM slice"));
        const Answer window = ask(db, "SELECT id, coalesce(parent_id, -1) FROM slice WHERE ts BETWEEN " +
                                          std::to_string(last / 3) + " AND " + std::to_string(2 * last / 3));
        QVERIFY2(window.rows.size() > 100, std::to_string(window.rows.size()).c_str());
        for (const std::string& r : window.rows) {
            const size_t bar = r.find('|');
            const size_t id = std::stoul(r.substr(0, bar));
            QCOMPARE(r.substr(bar + 1), std::to_string(expected[id]));
        }
        for (size_t id : {size_t(5), expected.size() / 2, expected.size() - 1})
            QCOMPARE(one(db, "SELECT coalesce(parent_id, -1) FROM slice WHERE id = " + std::to_string(id)),
                     std::to_string(expected[id]));
    }

    // ORDER BY ts is answered by merging the tracks (no sort), in time order.
    void timeOrderAcrossTracks() {
        std::shared_ptr<const Trace> t = randomNestedTrace(11, 4, 2000);
        TraceDatabase db(t);
        std::vector<int64_t> ts;
        db.run("SELECT ts FROM slice ORDER BY ts", nullptr, [&](const SqlRow& r) {
            ts.push_back(r.integer(0));
            return true;
        });
        QVERIFY(std::is_sorted(ts.begin(), ts.end()));
        QCOMPARE(ts.size(), size_t(std::stoul(one(db, "SELECT count(*) FROM slice"))));
        // The plan uses no sorter: the table gave the order.
        const Answer plan = ask(db, "EXPLAIN QUERY PLAN SELECT ts FROM slice ORDER BY ts");
        for (const std::string& r : plan.rows) QVERIFY2(r.find("TEMP B-TREE") == std::string::npos, r.c_str());
    }

    // A time window on one track reads only the window: the rows the table produced equal the
    // rows in it.
    void windowReadsOnlyTheWindow() {
        TraceBuilder b("flat");
        const ProcessIndex p = b.addProcess(ProcessKind::Host, 1, "p");
        const TrackIndex a = b.addTrack(p, TrackKind::Thread, "a", 1);
        const TrackIndex c = b.addTrack(p, TrackKind::Thread, "c", 2);
        const StringId n = b.intern("x");
        for (int i = 0; i < 200000; ++i) {
            b.addSlice(a, TimeNs(i) * 10, 5, n, kEmptyString);
            b.addSlice(c, TimeNs(i) * 10, 5, n, kEmptyString);
        }
        TraceDatabase db(std::shared_ptr<const Trace>(b.finish()));
        const uint64_t before = db.rowsProduced();
        QCOMPARE(one(db, "SELECT count(*) FROM slice WHERE track_id = 1 AND ts BETWEEN 500000 AND 500990"),
                 std::string("100"));
        QCOMPARE(db.rowsProduced() - before, uint64_t(100));
        const uint64_t mid = db.rowsProduced();
        QCOMPARE(one(db, "SELECT count(*) FROM slice WHERE ts >= 1999000"), std::string("200"));
        QCOMPARE(db.rowsProduced() - mid, uint64_t(200));
        const uint64_t byId = db.rowsProduced();
        QCOMPARE(one(db, "SELECT ts FROM slice WHERE id = 200001"), std::string("10"));
        QCOMPARE(db.rowsProduced() - byId, uint64_t(1));
        const uint64_t byName = db.rowsProduced();
        QCOMPARE(one(db, "SELECT count(*) FROM slice WHERE name = 'nothing like it'"), std::string("0"));
        QCOMPARE(db.rowsProduced() - byName, uint64_t(0));
    }

    void errorsSayWhere() {
        TraceDatabase db(buildHandTrace());
        const Answer syntax = ask(db, "SELECT name\nFROM slice\nWHER dur > 5");
        QVERIFY(!syntax.outcome.ok);
        QVERIFY2(syntax.outcome.error.find("line 3, column 6") != std::string::npos, syntax.outcome.error.c_str());
        const Answer second = ask(db, "SELECT 1; SELECT nope FROM slice");
        QVERIFY2(second.outcome.error.find("no such column: nope") != std::string::npos, second.outcome.error.c_str());
        QVERIFY2(second.outcome.error.find("line 1, column 18") != std::string::npos, second.outcome.error.c_str());
        // The same places as byte offsets: "SELECT name\nFROM slice\n" is 23 bytes, then "WHER ";
        // the second statement starts at byte 10, its "nope" 7 bytes in.
        QCOMPARE(syntax.outcome.errorByte, int64_t(23 + 5));
        QCOMPARE(second.outcome.errorByte, int64_t(10 + 7));
        for (const char* write : {"DELETE FROM slice", "UPDATE slice SET dur = 0", "INSERT INTO track(id) VALUES (1)",
                                  "DROP TABLE slice"}) {
            const Answer w = ask(db, write);
            QVERIFY2(!w.outcome.ok, write);
        }
        QCOMPARE(one(db, "SELECT count(*) FROM slice"), std::string("13"));
        QVERIFY(!ask(db, "").outcome.ok);
        // SQLite stops reading at a NUL: refused, not half read (nor read again forever).
        const Answer nul = ask(db, std::string("SELECT * FROM slice WHE\0RE ts > 5", 33));
        QVERIFY2(nul.outcome.error.find("NUL character (at byte 23)") != std::string::npos, nul.outcome.error.c_str());
        QVERIFY(!ask(db, "  -- only a comment\n").outcome.ok);
        // Several statements: the last one's rows; the connection's own tables and views work.
        QCOMPARE(one(db, "CREATE TEMP TABLE k AS SELECT name FROM slice WHERE category = 'kernel'; "
                         "SELECT count(*) FROM k; -- done"),
                 std::string("2"));
    }

    void hostileValues() {
        std::shared_ptr<const Trace> t = buildHandTrace();
        TraceDatabase db(t);
        for (const char* q :
             {"SELECT count(*) FROM slice WHERE id = -1", "SELECT count(*) FROM slice WHERE id = 1e30",
              "SELECT count(*) FROM slice WHERE id = 'abc'", "SELECT count(*) FROM slice WHERE id = 2.5",
              "SELECT count(*) FROM slice WHERE track_id = 4294967295", "SELECT count(*) FROM slice WHERE track_id = -7",
              "SELECT count(*) FROM slice WHERE ts > 9e18", "SELECT count(*) FROM slice WHERE ts < -9e18",
              "SELECT count(*) FROM slice WHERE ts BETWEEN 5 AND 1", "SELECT count(*) FROM slice WHERE depth = 99999",
              "SELECT count(*) FROM slice WHERE ts > 'text'", "SELECT count(*) FROM slice WHERE name = 42",
              "SELECT count(*) FROM args WHERE arg_set_id = -5", "SELECT count(*) FROM args WHERE arg_set_id = 1e300",
              "SELECT count(*) FROM flow WHERE slice_out = 123456789", "SELECT count(*) FROM thread WHERE utid = -1",
              "SELECT count(*) FROM slice WHERE track_id = 1 AND track_id = 2"}) {
            const Answer a = ask(db, q);
            QVERIFY2(a.outcome.ok, (std::string(q) + ": " + a.outcome.error).c_str());
            // Whatever SQLite's comparison rules say: the answer equals a scan without pushdown.
            std::string unpushed = q;
            unpushed.replace(unpushed.find("FROM "), 5, "FROM (SELECT * FROM ");
            const size_t where = unpushed.find(" WHERE");
            unpushed.insert(where, " LIMIT -1)");
            QCOMPARE(one(db, q), one(db, unpushed));
        }
        for (const char* q : {"SELECT extract_arg(-1, 'x')", "SELECT extract_arg(9223372036854775807, 'x')",
                              "SELECT extract_arg(NULL, 'x')", "SELECT extract_arg('abc', NULL)",
                              "SELECT extract_arg(4294967296 * 3 + 99999, 'grid')"})
            QCOMPARE(one(db, q), std::string("NULL"));
    }

    void timeoutAndCancel() {
        TraceDatabase db(buildHandTrace());
        const char* endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
        QElapsedTimer timer;
        timer.start();
        const Answer timed = ask(db, endless, {.timeout = std::chrono::milliseconds(300)});
        QVERIFY(!timed.outcome.ok);
        QVERIFY(timed.outcome.interrupted);
        QVERIFY2(timed.outcome.error.find("timeout of 0.3 s") != std::string::npos, timed.outcome.error.c_str());
        QVERIFY(timer.elapsed() < 10000);
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            db.interrupt();
        });
        const Answer cancelled = ask(db, endless);
        canceller.join();
        QVERIFY(cancelled.outcome.interrupted);
        QCOMPARE(cancelled.outcome.error, std::string("the query was cancelled"));
        // The next query runs.
        QCOMPARE(one(db, "SELECT count(*) FROM slice"), std::string("13"));
    }

    void emptyTrace() {
        TraceBuilder b("empty");
        TraceDatabase db(std::shared_ptr<const Trace>(b.finish()));
        for (const char* table : {"slice", "instant", "counter", "track", "thread", "process", "flow", "args",
                                  "thread_slice", "thread_track"})
            QCOMPARE(one(db, std::string("SELECT count(*) FROM ") + table), std::string("0"));
        QCOMPARE(one(db, "SELECT ts FROM slice ORDER BY ts"), std::string("rows: 0"));
    }

    // The export holds the same rows, read back by SQLite alone, views included.
    void exportReadBack() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("out.db").toStdString();
        std::shared_ptr<const Trace> t = buildHandTrace();
        TraceDatabase db(t);
        const SqliteExportResult r = exportToSqlite(db, path);
        QVERIFY2(r.ok, r.error.c_str());
        sqlite3* file = nullptr;
        QCOMPARE(sqlite3_open_v2(path.c_str(), &file, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
        auto scalar = [&](const char* q) {
            sqlite3_stmt* s = nullptr;
            std::string out = "prepare failed";
            if (sqlite3_prepare_v2(file, q, -1, &s, nullptr) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
                out = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
            sqlite3_finalize(s);
            return out;
        };
        QCOMPARE(scalar("SELECT count(*) || '|' || sum(dur) FROM slice"),
                 one(db, "SELECT count(*) || '|' || sum(dur) FROM slice"));
        QCOMPARE(scalar("SELECT count(*) FROM thread_slice WHERE thread_name = 'main'"), std::string("7"));
        QCOMPARE(scalar("SELECT group_concat(key, ',') FROM args WHERE int_value = 128"), std::string("grid"));
        QCOMPARE(scalar("SELECT count(*) FROM flow"), std::string("2"));
        sqlite3_close(file);
        // An unwritable place: a clear error, no crash.
        const SqliteExportResult bad = exportToSqlite(db, dir.filePath("no/such/dir/out.db").toStdString());
        QVERIFY(!bad.ok);
        QVERIFY2(bad.error.find("cannot") != std::string::npos, bad.error.c_str());
        // The database still answers.
        QCOMPARE(one(db, "SELECT count(*) FROM slice"), std::string("13"));
    }
};

QTEST_GUILESS_MAIN(TraceSqlTest)
#include "tst_trace_sql.moc"
