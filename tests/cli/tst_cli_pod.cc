// `tracescope-cli pod` and `diff` as a script sees them: one JSON object (or a CSV table),
// step times that match the raw files' ProfilerStep durations, a broken worker file as a
// warning, a trace diffed with itself all zeros.
#include <nlohmann/json.hpp>

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

namespace {

struct Run {
    int exitCode = -1;
    std::string out, err;
};

Run runCli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(TRACESCOPE_CLI), args);
    Run r;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished(5000);
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput().toStdString();
    r.err = p.readAllStandardError().toStdString();
    return r;
}

QString hta(const char* name) { return QStringLiteral(TRACESCOPE_SHARED_DIR) + "/testdata/public/hta/" + name; }

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
