// Folders of several profile runs on the command line: `info --list-runs DIR`, `--run N` on the
// commands that open a trace (info, pod), for a PyTorch profiler folder's cycles and a
// TensorBoard logdir's runs. Layouts are links to real traces; which file each run is comes
// from the names given here (oldest = 1), the counts from opening that file alone.
#include "tests/cli/cli_run.h"
#include <nlohmann/json.hpp>

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {

using Run = CliRun;

std::string shared(const std::string& rel) { return std::string(TRACESCOPE_SHARED_DIR) + "/testdata/" + rel; }

QString link(const QTemporaryDir& dir, const std::string& name, const std::string& target) {
    const fs::path p = fs::path(dir.path().toStdString()) / name;
    fs::create_directories(p.parent_path());
    fs::create_symlink(shared(target), p);
    return QString::fromStdString(p.string());
}

long long slicesOf(const QStringList& infoArgs) {
    const Run r = runCli(QStringList{"info"} + infoArgs + QStringList{"--json"});
    if (r.exitCode != 0) return -1;
    return nlohmann::json::parse(r.out)["slices"].get<long long>();
}

const std::string kRank0 = "public/hta/sampled_rank-0.json.gz";
const std::string kRank1 = "public/hta/sampled_rank-1.json.gz";
const std::string kH100 = "gpu/torch2.11_cu130_h100_kineto_trace.json.gz";

}  // namespace

class CliRunsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!fs::exists(shared(kH100))) QSKIP("the shared test traces are not there");
    }

    // One worker, two cycles: the later opens as one worker; --run 1 the earlier; --list-runs both.
    void pytorchCycles() {
        QTemporaryDir dir;
        const QString f1 = link(dir, "host_7.1700000000000000000.pt.trace.json.gz", kH100);
        const QString f2 = link(dir, "host_7.1700000060000000000.pt.trace.json.gz", kRank0);
        std::ofstream(dir.filePath("notes.txt").toStdString()) << "stray\n";
        const Run list = runCli({"info", "--list-runs", dir.path(), "--json"});
        QVERIFY2(list.exitCode == 0, list.err.c_str());
        const auto j = nlohmann::json::parse(list.out);
        QCOMPARE(j["runs"].size(), size_t(2));
        QCOMPARE(j["runs"][0]["number"].get<int>(), 1);
        QCOMPARE(j["runs"][0]["name"].get<std::string>(), std::string("cycle 1"));
        QCOMPARE(j["runs"][0]["kind"].get<std::string>(), std::string("pytorch-cycle"));
        QCOMPARE(j["runs"][0]["default"].get<bool>(), false);
        QCOMPARE(j["runs"][0]["workers"][0]["file"].get<std::string>(), f1.toStdString());
        QCOMPARE(j["runs"][1]["number"].get<int>(), 2);
        QCOMPARE(j["runs"][1]["default"].get<bool>(), true);
        QCOMPARE(j["runs"][1]["workers"].size(), size_t(1));
        QCOMPARE(j["runs"][1]["workers"][0]["name"].get<std::string>(), std::string("host_7"));
        QCOMPARE(j["runs"][1]["time_unix_ns"].get<long long>(), 1700000060LL * 1'000'000'000LL);

        const Run text = runCli({"info", "--list-runs", dir.path()});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.find("2 runs") != std::string::npos);

        const Run info = runCli({"info", dir.path(), "--json"});
        QVERIFY2(info.exitCode == 0, info.err.c_str());
        const auto i = nlohmann::json::parse(info.out);
        QCOMPARE(i["run"]["name"].get<std::string>(), std::string("cycle 2"));
        QCOMPARE(i["slices"].get<long long>(), slicesOf({f2}));
        const Run first = runCli({"info", "--run", "1", dir.path(), "--json"});
        QVERIFY2(first.exitCode == 0, first.err.c_str());
        QCOMPARE(nlohmann::json::parse(first.out)["slices"].get<long long>(), slicesOf({f1}));
        QVERIFY(slicesOf({f1}) != slicesOf({f2}));  // the two cycles can be told apart

        const Run missing = runCli({"info", "--run", "3", dir.path()});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.find("no run '3'") != std::string::npos, missing.err.c_str());
        const Run notFolder = runCli({"info", "--run", "1", f1});
        QCOMPARE(notFolder.exitCode, 1);
        QVERIFY2(notFolder.err.find("not a folder of profile runs") != std::string::npos, notFolder.err.c_str());
        const Run noValue = runCli({"info", dir.path(), "--run"});
        QCOMPARE(noValue.exitCode, 2);
    }

    // Two workers in cycle 1, only one of them in cycle 2: pod opens cycle 2's one worker, --run 1
    // the pod of two (HTA's rank 0 and rank 1 files).
    void podOfACycle() {
        QTemporaryDir dir;
        const QString a1 = link(dir, "node_1.1700000000000000000.pt.trace.json.gz", kRank0);
        const QString b1 = link(dir, "node_2.1700000000100000000.pt.trace.json.gz", kRank1);
        const QString a2 = link(dir, "node_1.1700000060000000000.pt.trace.json.gz", kRank0);
        const Run latest = runCli({"pod", dir.path(), "--json"});
        QVERIFY2(latest.exitCode == 0, latest.err.c_str());
        const auto l = nlohmann::json::parse(latest.out);
        QCOMPARE(l["workers"].size(), size_t(1));
        QCOMPARE(l["workers"][0]["path"].get<std::string>(), a2.toStdString());
        const Run first = runCli({"pod", "--run", "1", dir.path(), "--json"});
        QVERIFY2(first.exitCode == 0, first.err.c_str());
        const auto f = nlohmann::json::parse(first.out);
        QCOMPARE(f["workers"].size(), size_t(2));
        QCOMPARE(f["workers"][0]["name"].get<std::string>(), std::string("rank 0"));
        QCOMPARE(f["workers"][0]["path"].get<std::string>(), a1.toStdString());
        QCOMPARE(f["workers"][1]["name"].get<std::string>(), std::string("rank 1"));
        QCOMPARE(f["workers"][1]["path"].get<std::string>(), b1.toStdString());
    }

    // A TensorBoard logdir with two XSpace runs (run folders named by their time): listed oldest
    // first, the newest opens, --run 1 and --run NAME the older.
    void xspaceLogdir() {
        QTemporaryDir dir;
        const QString older = link(dir, "plugins/profile/2024_01_01_10_00_00/host.xplane.pb",
                                   "gpu/jax0.11.2_h100_warmup_emit_xspace.xplane.pb");
        const QString newer = link(dir, "plugins/profile/2024_01_01_11_00_00/host.xplane.pb",
                                   "gpu/jax0.11.2_h100_steady_emit_xspace.xplane.pb");
        const Run list = runCli({"info", "--list-runs", dir.path(), "--json"});
        QVERIFY2(list.exitCode == 0, list.err.c_str());
        const auto j = nlohmann::json::parse(list.out);
        QCOMPARE(j["runs"].size(), size_t(2));
        QCOMPARE(j["runs"][0]["name"].get<std::string>(), std::string("2024_01_01_10_00_00"));
        QCOMPARE(j["runs"][0]["kind"].get<std::string>(), std::string("xspace-run"));
        QCOMPARE(j["runs"][1]["name"].get<std::string>(), std::string("2024_01_01_11_00_00"));
        QCOMPARE(slicesOf({dir.path()}), slicesOf({newer}));
        QCOMPARE(slicesOf({"--run", "1", dir.path()}), slicesOf({older}));
        QCOMPARE(slicesOf({"--run", "2024_01_01_10_00_00", dir.path()}), slicesOf({older}));
        QVERIFY(slicesOf({older}) != slicesOf({newer}));
    }

    // No trace at all: one clear line and status 1, for info and for --list-runs.
    void noTraces() {
        QTemporaryDir dir;
        std::ofstream(dir.filePath("README.txt").toStdString()) << "nothing here\n";
        for (const QStringList& args :
             {QStringList{"info", dir.path()}, QStringList{"info", "--list-runs", dir.path()}}) {
            const Run r = runCli(args);
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.find("no profile runs") != std::string::npos, r.err.c_str());
            QVERIFY2(r.err.find(".pt.trace.json") != std::string::npos, r.err.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(CliRunsTest)
#include "tst_cli_runs.moc"
