// Files opened together are merged as workers only when they are one job (job_identity.h):
// a partial set of a job's ranks passes; another world size, backend or process group, a rank
// twice, wall-clock windows far apart or another producer give a one-line reason naming what
// differs. The small rank files are written here with nlohmann::json (distributedInfo as Kineto
// writes it); the expected reasons and gaps are worked out by hand from what is written.
#include "model/import/workers.h"
#include "model/trace/job_identity.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace tracescope;
using nlohmann::json;

namespace {

std::string testdata(const std::string& rel) { return std::string(TRACESCOPE_SHARED_DIR) + "/testdata/" + rel; }

constexpr int64_t kT0Us = 1'700'000'000'000'000;  // an absolute Unix time in µs, as Kineto writes ts

// A Kineto rank file: one 1 ms ProfilerStep at `tsUs` (absolute µs) and the given distributedInfo.
std::string rankFile(const QTemporaryDir& dir, const std::string& name, const json& dist, int64_t tsUs = kT0Us) {
    json ev = json::array({{{"ph", "X"},
                            {"cat", "user_annotation"},
                            {"name", "ProfilerStep#1"},
                            {"pid", 1},
                            {"tid", 1},
                            {"ts", tsUs},
                            {"dur", 1000}}});
    json j = {{"schemaVersion", 1}, {"traceEvents", ev}};
    if (!dist.is_null()) j["distributedInfo"] = dist;
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream(path, std::ios::binary) << j.dump();
    return path;
}

json dist(int rank, int worldSize, const char* backend = "nccl") {
    return {{"backend", backend}, {"rank", rank}, {"world_size", worldSize}};
}

std::string reasonOf(const std::vector<std::string>& files) {
    const MultiWorkerResult r = importWorkers(files);
    if (!r.ok()) return "load failed: " + r.error;
    return r.job.reason;
}

}  // namespace

class JobIdentityTest : public QObject {
    Q_OBJECT
private slots:
    // Two rank files of a 128-rank job (HTA's samples): one job, merged without a warning.
    void partialSetOfOneJob() {
        const MultiWorkerResult r = importWorkers(
            {testdata("public/hta/sampled_rank-0.json.gz"), testdata("public/hta/sampled_rank-1.json.gz")});
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY2(r.job.oneJob(), r.job.reason.c_str());
        QVERIFY(r.run.warnings.empty());
        // Ranks 0 and 5 of an 8-rank job, with the default group and a subgroup only rank 5 lists.
        QTemporaryDir dir;
        json d0 = dist(0, 8), d5 = dist(5, 8);
        const json all = {{"pg_name", "0"}, {"pg_size", 8}, {"ranks", {0, 1, 2, 3, 4, 5, 6, 7}}};
        d0["pg_config"] = json::array({all});
        d5["pg_config"] = json::array({all, {{"pg_name", "1"}, {"pg_size", 2}, {"ranks", {4, 5}}}});
        QCOMPARE(reasonOf({rankFile(dir, "a.json", d0), rankFile(dir, "b.json", d5, kT0Us + 300)}), std::string());
    }

    void worldSizeDiffers() {
        QTemporaryDir dir;
        QCOMPARE(reasonOf({rankFile(dir, "a.json", dist(0, 8)), rankFile(dir, "b.json", dist(1, 16))}),
                 std::string("different jobs: world size 8 (a.json) vs 16 (b.json)"));
    }

    void backendDiffers() {
        QTemporaryDir dir;
        QCOMPARE(reasonOf({rankFile(dir, "a.json", dist(0, 8, "nccl")), rankFile(dir, "b.json", dist(1, 8, "gloo"))}),
                 std::string("different jobs: backend nccl (a.json) vs gloo (b.json)"));
    }

    // One group name is one group on every rank (torch.distributed.new_group is entered by all
    // ranks in the same order): the same name with other ranks in it is another job.
    void processGroupDiffers() {
        QTemporaryDir dir;
        json d0 = dist(0, 4), d1 = dist(1, 4);
        d0["pg_config"] = json::array({{{"pg_name", "1"}, {"pg_size", 2}, {"ranks", {0, 1}}}});
        d1["pg_config"] = json::array({{{"pg_name", "1"}, {"pg_size", 2}, {"ranks", {1, 2}}}});
        QCOMPARE(reasonOf({rankFile(dir, "a.json", d0), rankFile(dir, "b.json", d1)}),
                 std::string("different jobs: process group 1 holds other ranks (a.json, b.json)"));
        d1["pg_config"] = json::array({{{"pg_name", "1"}, {"pg_size", 4}, {"ranks", {0, 1, 2, 3}}}});
        QCOMPARE(reasonOf({rankFile(dir, "a.json", d0), rankFile(dir, "b.json", d1)}),
                 std::string("different jobs: process group 1 of 2 ranks (a.json) vs 4 (b.json)"));
    }

    void sameRankTwice() {
        QTemporaryDir dir;
        QCOMPARE(reasonOf({rankFile(dir, "b.json", dist(3, 8)), rankFile(dir, "a.json", dist(3, 8))}),
                 std::string("different jobs: rank 3 appears twice (a.json, b.json)"));
    }

    // Windows: each file's step lasts 1 ms. 100 s apart: 100 s - 1 ms = 99.999 s between them;
    // merged anyway, the run says so and states rank 1's clock offset (100 s after rank 0).
    void windowsFarApart() {
        QTemporaryDir dir;
        const std::string a = rankFile(dir, "a.json", dist(0, 8)),
                          b = rankFile(dir, "b.json", dist(1, 8), kT0Us + 100'000'000);
        const MultiWorkerResult r = importWorkers({a, b});
        QCOMPARE(r.job.reason,
                 std::string("different jobs: their wall-clock windows are 99.999 s apart (a.json, b.json)"));
        QCOMPARE(r.run.workers[1].offsetNs, TimeNs(100'000'000'000));
        QCOMPARE(r.run.warnings.size(), size_t(2));
        QCOMPARE(warningText(r.run.warnings[0]), "2 files merged as one run though not one job: " + r.job.reason);
        const std::string offset = warningText(r.run.warnings[1]);
        QVERIFY2(offset.rfind("clock offset of rank 1 is 100 s", 0) == 0, offset.c_str());
        // Clock skew: 0.5 ms apart is less than either 1 ms trace lasts (one job); 2 ms is more.
        QCOMPARE(reasonOf({a, rankFile(dir, "c.json", dist(1, 8), kT0Us + 1500)}), std::string());
        QCOMPARE(reasonOf({a, rankFile(dir, "d.json", dist(1, 8), kT0Us + 3000)}),
                 std::string("different jobs: their wall-clock windows are 2.000 ms apart (a.json, d.json)"));
    }

    void differentProducers() {
        QTemporaryDir dir;
        QCOMPARE(reasonOf({rankFile(dir, "a.json", dist(0, 8)), testdata("gpu/jax_mlp_h100.xplane.pb")}),
                 std::string("different producers: kineto (a.json) vs xprof (jax_mlp_h100.xplane.pb)"));
    }

    // What a file cannot tell is no difference: no distributedInfo, or one that is not what
    // Kineto writes, never stops a merge and never crashes.
    void unrecordedOrOddInfo() {
        QTemporaryDir dir;
        QCOMPARE(reasonOf({rankFile(dir, "a.json", json()), rankFile(dir, "b.json", json("nccl"), kT0Us + 200)}),
                 std::string());
        const json odd = {{"rank", "zero"}, {"world_size", -1.5}, {"pg_config", 7}, {"backend", {1, 2}}};
        QCOMPARE(reasonOf({rankFile(dir, "c.json", odd), rankFile(dir, "d.json", dist(0, 8), kT0Us + 200)}),
                 std::string());
    }

    void gapText() {
        QCOMPARE(jobGapText(TimeNs(29'469'598) * 1'000'000'000 + 400'000'000), std::string("29,469,598 s"));
        QCOMPARE(jobGapText(TimeNs(444'600'000'000)), std::string("445 s"));
        QCOMPARE(jobGapText(TimeNs(99'999'000'000)), std::string("99.999 s"));
        QCOMPARE(jobGapText(TimeNs(-200'000'000'000)), std::string("-200 s"));
    }
};

QTEST_GUILESS_MAIN(JobIdentityTest)
#include "tst_job_identity.moc"
