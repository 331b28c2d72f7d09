// PyTorch profiler folders (torch.profiler.tensorboard_trace_handler): files grouped into
// workers and cycles as TensorBoard's PyTorch plugin (torch_tb_profiler) groups them. The
// layouts are built in a temporary folder from links to real Kineto traces; what each layout
// must give is worked out by hand from its file names (the plugin's pattern
// ^(.*?)(\.\d+)?\.pt\.trace\.json(?:\.gz)?$ checked with Python's re on the same names).
#include "model/import/import.h"
#include "model/import/logdir.h"
#include "model/import/torch_profile_folder.h"
#include "model/import/workers.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <filesystem>
#include <fstream>

using namespace tracescope;
namespace fs = std::filesystem;

namespace {

std::string shared(const std::string& rel) { return std::string(TRACESCOPE_SHARED_DIR) + "/testdata/" + rel; }

// Small real Kineto traces (torch 2.11 on an H100; HTA's MI250 and sampled rank files).
const std::string kH100 = "gpu/torch2.11_cu130_h100_kineto_trace.json.gz";
const std::string kMi250 = "public/hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz";
const std::string kRank0 = "public/hta/sampled_rank-0.json.gz";
const std::string kRank1 = "public/hta/sampled_rank-1.json.gz";
const std::string kPlain = "public/kineto/before_fix_trace.json";

// time.time_ns() stamps, as tensorboard_trace_handler writes them.
const std::string kT1 = "1700000000000000000";
const std::string kT2 = "1700000060000000000";

std::string link(const QTemporaryDir& dir, const std::string& name, const std::string& target) {
    const fs::path p = fs::path(dir.path().toStdString()) / name;
    fs::create_directories(p.parent_path());
    fs::create_symlink(shared(target), p);
    return p.string();
}

std::string fileName(const std::string& path) { return fs::path(path).filename().string(); }

size_t slicesOf(const std::string& path) {
    ImportResult r = importTrace(path);
    return r.ok() ? r.trace->counts().slices : size_t(-1);
}

}  // namespace

class TorchProfileFolderTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!fs::exists(shared(kH100))) QSKIP("the shared test traces are not there");
    }

    // The plugin's pattern, by hand and by Python's re: the worker is everything before the last
    // ".<digits>" in front of ".pt.trace.json[.gz]".
    void fileNames() {
        auto a = parseTorchTraceFileName("host_123.1700000000000000000.pt.trace.json");
        QVERIFY(a);
        QCOMPARE(a->worker, std::string("host_123"));
        QCOMPARE(a->stamp, std::string("1700000000000000000"));
        QVERIFY(!a->gzip);
        auto b = parseTorchTraceFileName("worker0.pt.trace.json.gz");
        QVERIFY(b && b->gzip);
        QCOMPARE(b->worker, std::string("worker0"));
        QCOMPARE(b->stamp, std::string());
        auto c = parseTorchTraceFileName("rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
        QVERIFY(c);
        QCOMPARE(c->worker, std::string("rank-0.Apr_03_18_51_38"));
        QCOMPARE(c->stamp, std::string("1102"));
        auto d = parseTorchTraceFileName("a.1.2.pt.trace.json");
        QVERIFY(d);
        QCOMPARE(d->worker, std::string("a.1"));
        QCOMPARE(d->stamp, std::string("2"));
        auto e = parseTorchTraceFileName("a.12x.pt.trace.json");
        QVERIFY(e);
        QCOMPARE(e->worker, std::string("a.12x"));
        QCOMPARE(e->stamp, std::string());
        QVERIFY(!parseTorchTraceFileName("x.pt.trace.json.gz.tmp"));
        QVERIFY(!parseTorchTraceFileName("trace.json"));
        QVERIFY(!parseTorchTraceFileName("rank-0.json.gz"));
    }

    void oneWorkerOneCycle() {
        QTemporaryDir dir;
        const std::string f = link(dir, "host_1." + kT1 + ".pt.trace.json.gz", kH100);
        const std::string d = dir.path().toStdString();
        const auto runs = listRuns(d);
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].kind, RunKind::TorchCycle);
        QCOMPARE(runs[0].name, std::string("cycle 1"));
        QCOMPARE(runs[0].hosts, std::vector<std::string>{"host_1"});
        QCOMPARE(runs[0].timeSeconds, int64_t(1700000000));
        QCOMPARE(expandWorkerPaths({d}), std::vector<std::string>{f});
        ImportResult r = importTrace(d);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.trace->counts().slices, slicesOf(f));
    }

    // Two cycles of one worker: the later opens, as ONE worker (not a pod of two); run 1 is the other.
    void oneWorkerTwoCycles() {
        QTemporaryDir dir;
        const std::string f1 = link(dir, "host_1." + kT1 + ".pt.trace.json.gz", kH100);
        const std::string f2 = link(dir, "host_1." + kT2 + ".pt.trace.json.gz", kMi250);
        const std::string d = dir.path().toStdString();
        const auto runs = listRuns(d);
        QCOMPARE(runs.size(), size_t(2));
        QCOMPARE(runs[0].name, std::string("cycle 2"));  // newest first
        QCOMPARE(runs[0].files, std::vector<std::string>{f2});
        QCOMPARE(runs[1].files, std::vector<std::string>{f1});
        QCOMPARE(expandWorkerPaths({d}), std::vector<std::string>{f2});
        MultiWorkerResult w = importWorkers({d});
        QVERIFY(w.ok());
        QCOMPARE(w.run.workers.size(), size_t(1));
        QCOMPARE(w.run.workers[0].name, std::string("host_1"));  // the file name's worker
        ImportResult r = importTrace(d);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.trace->counts().slices, slicesOf(f2));
        // Run numbers count from the oldest: run 1 is the first cycle; a name works too.
        const RunInfo* one = findRun(runs, "1");
        QVERIFY(one);
        QCOMPARE(one->files, std::vector<std::string>{f1});
        QCOMPARE(findRun(runs, "cycle 2"), &runs[0]);
        std::string error;
        QVERIFY(!findRun(runs, "3", &error));
        QVERIFY(error.find("runs 1 to 2") != std::string::npos);
        ImportResult first = importRun(*one);
        QVERIFY(first.ok());
        QCOMPARE(first.trace->counts().slices, slicesOf(f1));
    }

    // Two workers (tensorboard_trace_handler's default names, <host>_<pid>) by two cycles: the
    // latest cycle opens as a pod of its two workers, HTA's rank 0 and rank 1 files.
    void twoWorkersTwoCycles() {
        QTemporaryDir dir;
        link(dir, "node0_4101." + kT1 + ".pt.trace.json.gz", kH100);
        link(dir, "node0_4102.1700000000200000000.pt.trace.json.gz", kMi250);
        const std::string a2 = link(dir, "node0_4101." + kT2 + ".pt.trace.json.gz", kRank0);
        const std::string b2 = link(dir, "node0_4102.1700000060300000000.pt.trace.json.gz", kRank1);
        const std::string d = dir.path().toStdString();
        const auto runs = listRuns(d);
        QCOMPARE(runs.size(), size_t(2));
        for (const RunInfo& run : runs) QCOMPARE(run.hosts, (std::vector<std::string>{"node0_4101", "node0_4102"}));
        QCOMPARE(runs[0].files, (std::vector<std::string>{a2, b2}));
        MultiWorkerResult w = importWorkers({d});
        QVERIFY(w.ok());
        QCOMPARE(w.run.workers.size(), size_t(2));
        // Named by their Kineto distributedInfo ranks (0 and 1 in the files).
        QCOMPARE(w.run.workers[0].name, std::string("rank 0"));
        QCOMPARE(w.run.workers[0].path, a2);
        QCOMPARE(w.run.workers[1].name, std::string("rank 1"));
        QCOMPARE(w.run.workers[1].path, b2);
        // One trace of both workers for the single-trace commands: the two files' slices together.
        ImportResult r = importTrace(d);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.trace->counts().slices, slicesOf(a2) + slicesOf(b2));
    }

    // A worker with fewer cycles than another is not in the later cycle; .json and .json.gz mix;
    // a cycle kept both plain and gzipped is one cycle.
    void gzipAndPlainMix() {
        QTemporaryDir dir;
        const std::string a1 = link(dir, "w_a." + kT1 + ".pt.trace.json", kPlain);
        const std::string b1 = link(dir, "w_b." + kT1 + ".pt.trace.json.gz", kH100);
        const std::string a2 = link(dir, "w_a." + kT2 + ".pt.trace.json", kPlain);
        link(dir, "w_a." + kT2 + ".pt.trace.json.gz", kMi250);  // the same cycle, gzipped: not read
        const std::string d = dir.path().toStdString();
        const auto runs = listRuns(d);
        QCOMPARE(runs.size(), size_t(2));
        QCOMPARE(runs[1].files, (std::vector<std::string>{a1, b1}));
        QCOMPARE(runs[0].files, std::vector<std::string>{a2});
        ImportResult r = importRun(runs[1]);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.trace->counts().slices, slicesOf(a1) + slicesOf(b1));
    }

    // Files that are not the plugin's (notes, TensorBoard event files, a JSON config, a folder, a
    // FIFO named like a trace) are left out; the FIFO is never opened (it would block).
    void strayFiles() {
        QTemporaryDir dir;
        const std::string f = link(dir, "host_1." + kT1 + ".pt.trace.json.gz", kH100);
        const std::string d = dir.path().toStdString();
        std::ofstream(d + "/README.txt") << "notes\n";
        std::ofstream(d + "/config.json") << "{\"lr\": 0.1}\n";
        std::ofstream(d + "/events.out.tfevents.1700000000.host") << "x";
        fs::create_directories(d + "/checkpoints");
        QCOMPARE(::mkfifo((d + "/host_2." + kT1 + ".pt.trace.json").c_str(), 0600), 0);
        const auto runs = listRuns(d);
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].files, std::vector<std::string>{f});
        QCOMPARE(expandWorkerPaths({d}), std::vector<std::string>{f});
        ImportResult r = importTrace(d);
        QVERIFY2(r.ok(), r.error.c_str());
    }

    // No trace in the folder: a clear error saying what a folder must hold.
    void noTraces() {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        std::ofstream(d + "/README.txt") << "notes\n";
        QVERIFY(listRuns(d).empty());
        ImportResult r = importTrace(d);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.find("no profile runs") != std::string::npos, r.error.c_str());
        QVERIFY2(r.error.find(".pt.trace.json") != std::string::npos, r.error.c_str());
        MultiWorkerResult w = importWorkers({d});
        QVERIFY(!w.ok());
    }

    // A TensorBoard logdir of PyTorch runs (the tutorials' ./log/<run>/): each sub-folder's cycles.
    void logdirOfRuns() {
        QTemporaryDir dir;
        link(dir, "resnet18/host_1." + kT1 + ".pt.trace.json.gz", kH100);
        const std::string newest = link(dir, "resnet50/host_1." + kT2 + ".pt.trace.json.gz", kMi250);
        const auto runs = listRuns(dir.path().toStdString());
        QCOMPARE(runs.size(), size_t(2));
        QCOMPARE(runs[0].name, std::string("resnet50/cycle 1"));
        QCOMPARE(runs[0].files, std::vector<std::string>{newest});
        QCOMPARE(runs[1].name, std::string("resnet18/cycle 1"));
    }

    // PyTorch files beside a TensorBoard profile run (one logdir, both plugins): both are runs.
    void besideAnXSpaceRun() {
        QTemporaryDir dir;
        const std::string torch = link(dir, "host_1." + kT1 + ".pt.trace.json.gz", kH100);  // 2023-11-14 22:13:20
        link(dir, "plugins/profile/2024_01_01_10_00_00/host.xplane.pb",
             "gpu/jax0.11.2_h100_warmup_emit_xspace.xplane.pb");
        const auto runs = listRuns(dir.path().toStdString());
        QCOMPARE(runs.size(), size_t(2));
        QCOMPARE(runs[0].kind, RunKind::XSpaceRun);  // 2024 is the newer
        QCOMPARE(runs[0].name, std::string("2024_01_01_10_00_00"));
        QCOMPARE(runs[1].kind, RunKind::TorchCycle);
        QCOMPARE(runs[1].files, std::vector<std::string>{torch});
    }

    // Names outside the pattern keep their old meaning: a folder of rank files is a pod of them.
    void otherNamesUnchanged() {
        QTemporaryDir dir;
        const std::string r0 = link(dir, "rank-0.json.gz", kRank0);
        const std::string r1 = link(dir, "rank-1.json.gz", kRank1);
        const std::string d = dir.path().toStdString();
        QVERIFY(listRuns(d).empty());
        QCOMPARE(expandWorkerPaths({d}), (std::vector<std::string>{r0, r1}));
    }
};

QTEST_GUILESS_MAIN(TorchProfileFolderTest)
#include "tst_torch_profile_folder.moc"
