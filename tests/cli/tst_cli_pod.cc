// `tracescope-cli pod` and `diff` as a script sees them: one JSON object (or a CSV table),
// step times that match the raw files' ProfilerStep durations, a broken worker file as a
// warning, a trace diffed with itself all zeros.
#include "tests/cli/cli_run.h"

#include <nlohmann/json.hpp>

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

namespace {

using Run = CliRun;

QString hta(const char* name) { return QStringLiteral(TRACESCOPE_SHARED_DIR) + "/testdata/public/hta/" + name; }

// A small Kineto rank file: one 1 ms ProfilerStep at `tsUs` (absolute Unix µs) and distributedInfo.
QString rankFile(const QTemporaryDir& dir, const QString& name, int rank, int worldSize, long long tsUs) {
    const nlohmann::json ev = {
        {"ph", "X"},  {"cat", "user_annotation"}, {"name", "ProfilerStep#1"}, {"pid", 1}, {"tid", 1}, {"ts", tsUs},
        {"dur", 1000}};
    const nlohmann::json j = {{"schemaVersion", 1},
                              {"distributedInfo", {{"backend", "nccl"}, {"rank", rank}, {"world_size", worldSize}}},
                              {"traceEvents", {ev}}};
    std::ofstream(dir.filePath(name).toStdString()) << j.dump();
    return dir.filePath(name);
}

}  // namespace

class CliPodTest : public QObject {
    Q_OBJECT
private slots:
    void podJson() {
        const Run r = runCli({"pod", hta("sampled_rank-0.json.gz"), hta("sampled_rank-1.json.gz"), "--json"});
        QVERIFY2(r.exitCode == 0, r.err.c_str());
        const auto j = nlohmann::json::parse(r.out);
        QCOMPARE(j["workers"].size(), size_t(2));
        QCOMPARE(j["workers"][0]["name"].get<std::string>(), std::string("rank 0"));
        QCOMPARE(j["workers"][1]["clock"].get<std::string>(), std::string("wall clock"));
        QCOMPARE(j["steps"].size(), size_t(2));
        // ProfilerStep#552: 622928 us on rank 0, 630639 us on rank 1 (the raw files' dur).
        const auto& s = j["steps"][1];
        QCOMPARE(s["number"].get<long long>(), 552LL);
        QCOMPARE(s["slowest_worker"].get<std::string>(), std::string("rank 1"));
        QCOMPARE(s["slowest_ns"].get<long long>(), 630639000LL);
        QCOMPARE(s["median_ns"].get<long long>(), 622928000LL);
        QCOMPARE(s["lag_ns"].get<long long>(), 630639000LL - 622928000LL);
        QVERIFY(j["warnings"].is_array() && j["warnings"].empty());
    }

    void podCsvAndBrokenWorker() {
        QTemporaryDir dir;
        const QString broken = dir.filePath("rank-7.json");
        std::ofstream(broken.toStdString()) << "\x01\x02 not json";
        const Run r = runCli({"pod", hta("sampled_rank-0.json.gz"), broken, "--csv"});
        QVERIFY2(r.exitCode == 0, r.err.c_str());
        QVERIFY(r.err.find("rank 7") != std::string::npos);  // the warning names the worker
        QVERIFY(r.out.rfind("step,worker,run_start_ns,duration_ns,", 0) == 0);
        QCOMPARE(std::count(r.out.begin(), r.out.end(), '\n'), std::ptrdiff_t(3));  // header + 2 steps of rank 0
        const Run strict = runCli({"pod", hta("sampled_rank-0.json.gz"), broken, "--csv", "--strict"});
        QCOMPARE(strict.exitCode, 3);
    }

    // --offset sets a worker's clock offset by hand: that worker's step starts on the run's clock move by
    // exactly the change, the other worker's stay, step durations (and so the lag) do not change, and each
    // step's start spread becomes |start(rank 1) - start(rank 0)| worked out from the moved starts.
    void podOffsetByHand() {
        const QString f0 = hta("sampled_rank-0.json.gz"), f1 = hta("sampled_rank-1.json.gz");
        const Run before = runCli({"pod", f0, f1, "--json"});
        QVERIFY2(before.exitCode == 0, before.err.c_str());
        const auto a = nlohmann::json::parse(before.out);
        const long long shift = 7'000'000;  // 7 ms later than the wall clock says
        const long long offset1 = a["workers"][1]["offset_ns"].get<long long>() + shift;
        for (const QString& worker : {QStringLiteral("rank 1"), QStringLiteral("1")}) {
            const Run after = runCli({"pod", f0, f1, "--json", "--offset", worker + "=" + QString::number(offset1)});
            QVERIFY2(after.exitCode == 0, after.err.c_str());
            const auto b = nlohmann::json::parse(after.out);
            QCOMPARE(b["workers"][1]["offset_ns"].get<long long>(), offset1);
            QCOMPARE(b["workers"][1]["clock"].get<std::string>(), std::string("manual"));
            QCOMPARE(b["workers"][0]["offset_ns"], a["workers"][0]["offset_ns"]);
            QCOMPARE(b["steps"].size(), a["steps"].size());
            for (size_t s = 0; s < a["steps"].size(); ++s) {
                const auto &sa = a["steps"][s], &sb = b["steps"][s];
                QCOMPARE(sb["workers"].size(), size_t(2));
                const long long start0 = sa["workers"][0]["run_start_ns"].get<long long>();
                const long long start1 = sa["workers"][1]["run_start_ns"].get<long long>();
                QCOMPARE(sb["workers"][0]["run_start_ns"].get<long long>(), start0);
                QCOMPARE(sb["workers"][1]["run_start_ns"].get<long long>(), start1 + shift);
                QCOMPARE(sb["start_spread_ns"].get<long long>(), std::llabs(start1 + shift - start0));
                QCOMPARE(sb["lag_ns"], sa["lag_ns"]);
                QCOMPARE(sb["slowest_worker"], sa["slowest_worker"]);
            }
        }
        // Units: 7ms is 7000000 ns.
        const Run ms = runCli({"pod", f0, f1, "--json", "--offset", "rank 1=7ms"});
        QCOMPARE(nlohmann::json::parse(ms.out)["workers"][1]["offset_ns"].get<long long>(), 7'000'000LL);
        // A worker the run does not have, or a value that is not a time: a clear error, status 2.
        const Run unknown = runCli({"pod", f0, f1, "--offset", "rank 9=5"});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY(unknown.err.find("rank 0, rank 1") != std::string::npos);
        QCOMPARE(runCli({"pod", f0, f1, "--offset", "rank 1=soon"}).exitCode, 2);
        QCOMPARE(runCli({"pod", f0, f1, "--offset", "rank 1"}).exitCode, 2);
    }

    // Files that are not one job: refused with one line naming what differs and status 2, unless
    // --force-merge, which merges them and states the far clock offset in a warning.
    void podRefusesFilesOfDifferentJobs() {
        QTemporaryDir dir;
        const long long t0 = 1'700'000'000'000'000LL, far = 29'469'598'000'000LL;  // µs
        const QString r0 = rankFile(dir, "rank-0.json", 0, 8, t0);
        const struct {
            QString other;
            std::string reason;
        } cases[] = {
            {rankFile(dir, "rank-1.json", 1, 16, t0), "different jobs: world size 8 (rank-0.json) vs 16 (rank-1.json)"},
            {rankFile(dir, "again-0.json", 0, 8, t0),
             "different jobs: rank 0 appears twice (again-0.json, rank-0.json)"},
            {rankFile(dir, "later-1.json", 1, 8, t0 + far),
             // 29,469,598 s between the starts, less the first file's 1 ms step: rounded, 29,469,598 s.
             "different jobs: their wall-clock windows are 29,469,598 s apart (rank-0.json, later-1.json)"},
            {QStringLiteral(TRACESCOPE_SHARED_DIR) + "/testdata/gpu/jax_mlp_h100.xplane.pb",
             "different producers: kineto (rank-0.json) vs xprof (jax_mlp_h100.xplane.pb)"},
        };
        for (const auto& c : cases) {
            const Run refused = runCli({"pod", r0, c.other, "--json"});
            QCOMPARE(refused.exitCode, 2);
            QVERIFY(refused.out.empty());
            QCOMPARE(refused.err, "tracescope-cli: " + c.reason + " (--force-merge merges them anyway)\n");
        }
        const Run forced = runCli({"pod", r0, cases[2].other, "--json", "--force-merge"});
        QVERIFY2(forced.exitCode == 0, forced.err.c_str());
        const auto j = nlohmann::json::parse(forced.out);
        QCOMPARE(j["workers"][1]["offset_ns"].get<long long>(), far * 1000);
        QCOMPARE(j["warnings"].size(), size_t(2));
        QCOMPARE(j["warnings"][0]["message"].get<std::string>(),
                 "2 files merged as one run though not one job: " + cases[2].reason);
        const std::string offset = j["warnings"][1]["message"].get<std::string>();
        QVERIFY2(offset.rfind("clock offset of rank 1 is 29,469,598 s", 0) == 0, offset.c_str());
        QVERIFY(forced.err.find(offset) != std::string::npos);  // on stderr too
        QCOMPARE(runCli({"pod", r0, cases[2].other, "--force-merge", "--strict"}).exitCode, 3);
    }

    void diffWithItselfJson() {
        const Run r = runCli({"diff", hta("sampled_rank-0.json.gz"), hta("sampled_rank-0.json.gz"), "--json"});
        QVERIFY2(r.exitCode == 0, r.err.c_str());
        const auto j = nlohmann::json::parse(r.out);
        for (const char* section : {"steps", "ops", "kernels"}) {
            QVERIFY(!j[section].empty());
            for (const auto& row : j[section]) QCOMPARE(row["delta_ns"].get<long long>(), 0LL);
        }
        QCOMPARE(j["new_ops"].get<int>(), 0);
        QCOMPARE(j["vanished_kernels"].get<int>(), 0);
        QCOMPARE(runCli({"diff", hta("sampled_rank-0.json.gz")}).exitCode, 2);  // needs two files
    }
};

QTEST_GUILESS_MAIN(CliPodTest)
#include "tst_cli_pod.moc"
