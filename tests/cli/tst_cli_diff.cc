// `tracescope-cli diff` per step, on three hand-written Kineto-style traces (tests/data/diff_steps):
//   two_steps.json   ProfilerStep#1-2; aten::mm 200 us and gemm_kernel 60 us in each step;
//                    aten::add 100 us and add_kernel 10 us in step 1 only.
//   four_steps.json  ProfilerStep#1-4; aten::mm 150 us and gemm_kernel 30 us in each step;
//                    aten::add 100 us and add_kernel 20 us in steps 1-2; relu_kernel 8 us in step 1.
//   no_steps.json    no step annotation; aten::mm 300 us, gemm_kernel 90 us.
// Worked out by hand (Kineto traces average over every step, so the step sets are 2 and 4):
//   kernel       A total  B total  A/step  B/step  delta/step
//   gemm_kernel   120      120       60      30     -30  (-50 %)   totals: 0
//   add_kernel     10       40        5      10      +5  (+100 %)  totals: +30 (+300 %)
//   relu_kernel     0        8        0       2      +2  (new)     totals: +8
//   aten::mm      400      600      200     150     -50  (-25 %)   totals: +200 (+50 %)
//   aten::add     100      200       50      50       0            totals: +100
// So totals call aten::mm the largest op regression; per step it got faster.
#include "tests/cli/cli_run.h"
#include <nlohmann/json.hpp>

#include <QProcess>
#include <QtTest>

#include <sstream>

namespace {

using Run = CliRun;

QString data(const char* name) { return QStringLiteral(TRACESCOPE_SOURCE_DIR "/tests/data/diff_steps/") + name; }

const nlohmann::json* rowNamed(const nlohmann::json& rows, const std::string& name) {
    for (const auto& r : rows)
        if (r["name"] == name) return &r;
    return nullptr;
}

nlohmann::json diffJson(const QStringList& extra = {}) {
    const Run r = runCli(QStringList{"diff", data("two_steps.json"), data("four_steps.json"), "--json"} + extra);
    if (r.exitCode != 0) return {};
    return nlohmann::json::parse(r.out);
}

}  // namespace

class CliDiffTest : public QObject {
    Q_OBJECT
private slots:
    void perStepValues() {
        const nlohmann::json j = diffJson();
        QVERIFY(j.is_object());
        QCOMPARE(j["a"]["steps"].get<int>(), 2);
        QCOMPARE(j["b"]["steps"].get<int>(), 4);
        QCOMPARE(j["a"]["step_set_count"].get<int>(), 2);
        QCOMPARE(j["b"]["step_set_count"].get<int>(), 4);
        QCOMPARE(j["per_step"]["per_step"].get<bool>(), true);
        QCOMPARE(j["per_step"]["a_divisor"].get<int>(), 2);
        QCOMPARE(j["per_step"]["b_divisor"].get<int>(), 4);
        // Differing step counts are named.
        QVERIFY(j["per_step"]["description"].get<std::string>().find("different step counts (A 2, B 4)") !=
                std::string::npos);
        struct Expect {
            const char* section;
            const char* name;
            long long aNs, bNs, aPer, bPer;
        };
        for (const Expect& e : {Expect{"kernels", "gemm_kernel", 120000, 120000, 60000, 30000},
                                Expect{"kernels", "add_kernel", 10000, 40000, 5000, 10000},
                                Expect{"kernels", "relu_kernel", 0, 8000, 0, 2000},
                                Expect{"ops", "aten::mm", 400000, 600000, 200000, 150000},
                                Expect{"ops", "aten::add", 100000, 200000, 50000, 50000}}) {
            const nlohmann::json* r = rowNamed(j[e.section], e.name);
            QVERIFY2(r, e.name);
            QCOMPARE((*r)["a_ns"].get<long long>(), e.aNs);  // totals kept
            QCOMPARE((*r)["b_ns"].get<long long>(), e.bNs);
            QCOMPARE((*r)["delta_ns"].get<long long>(), e.bNs - e.aNs);
            QCOMPARE((*r)["a_per_step_ns"].get<long long>(), e.aPer);
            QCOMPARE((*r)["b_per_step_ns"].get<long long>(), e.bPer);
            QCOMPARE((*r)["delta_per_step_ns"].get<long long>(), e.bPer - e.aPer);
        }
        QCOMPARE((*rowNamed(j["ops"], "aten::mm"))["delta_per_step_percent"].get<double>(), -25.0);
        QCOMPARE((*rowNamed(j["kernels"], "add_kernel"))["delta_per_step_percent"].get<double>(), 100.0);
        QVERIFY((*rowNamed(j["kernels"], "relu_kernel"))["delta_per_step_percent"].is_null());
        // Largest regression per step first: add_kernel (+5 us), then relu (+2 us), gemm (-30 us).
        QCOMPARE(j["sorted_by"].get<std::string>(), std::string("delta_per_step_ns"));
        QCOMPARE(j["kernels"][0]["name"].get<std::string>(), std::string("add_kernel"));
        QCOMPARE(j["kernels"][2]["name"].get<std::string>(), std::string("gemm_kernel"));
        QCOMPARE(j["ops"].back()["name"].get<std::string>(), std::string("aten::mm"));
        // Every row, step rows included, has the per-step keys; kernels stays the first list.
        for (const char* section : {"steps", "ops", "kernels"})
            for (const auto& r : j[section])
                for (const char* key : {"a_per_step_ns", "b_per_step_ns", "delta_per_step_ns", "a_ns", "b_ns"})
                    QVERIFY2(r.contains(key), key);
        for (auto it = j.begin(); it != j.end(); ++it)
            if (it.value().is_array() && it.key() != "warnings") {
                QCOMPARE(it.key(), std::string("kernels"));
                break;
            }
    }

    void totalsOrderAndText() {
        const nlohmann::json j = diffJson({"--totals"});
        QVERIFY(j.is_object());
        QCOMPARE(j["sorted_by"].get<std::string>(), std::string("delta_ns"));
        QCOMPARE(j["ops"][0]["name"].get<std::string>(), std::string("aten::mm"));  // +200 us in total
        const Run text = runCli({"diff", data("two_steps.json"), data("four_steps.json")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.find("Largest kernel regression per step: add_kernel +0.005 ms (+100.0 %)") !=
                std::string::npos);
        QVERIFY(text.out.find("Largest op regression per step: add_kernel") != std::string::npos);
        const Run totals = runCli({"diff", data("two_steps.json"), data("four_steps.json"), "--totals"});
        QVERIFY(totals.out.find("Largest op regression: aten::mm +0.200 ms (+50.0 %)") != std::string::npos);
    }

    void csvColumns() {
        const Run r = runCli({"diff", data("two_steps.json"), data("four_steps.json"), "--csv"});
        QCOMPARE(r.exitCode, 0);
        std::istringstream in(r.out);
        std::string header, line;
        std::getline(in, header);
        QCOMPARE(header, std::string("section,name,detail,a_ns,b_ns,delta_ns,delta_percent,a_occurrences,"
                                     "b_occurrences,status,a_per_step_ns,b_per_step_ns,delta_per_step_ns,"
                                     "delta_per_step_percent"));
        bool found = false;
        while (std::getline(in, line))
            if (line.rfind("kernel,gemm_kernel,", 0) == 0) {
                QCOMPARE(line, std::string("kernel,gemm_kernel,,120000,120000,0,0,2,4,both,60000,30000,-30000,-50"));
                found = true;
            }
        QVERIFY(found);
    }

    // A run without steps has no per-step values: both sides compare by totals, and it is said.
    void runWithoutSteps() {
        const Run r = runCli({"diff", data("two_steps.json"), data("no_steps.json"), "--json"});
        QVERIFY2(r.exitCode == 0, r.err.c_str());
        const auto j = nlohmann::json::parse(r.out);
        QCOMPARE(j["b"]["steps"].get<int>(), 0);
        QCOMPARE(j["per_step"]["per_step"].get<bool>(), false);
        QCOMPARE(j["per_step"]["a_divisor"].get<int>(), 1);
        QVERIFY(j["per_step"]["description"].get<std::string>().find("B has no steps") != std::string::npos);
        const nlohmann::json* gemm = rowNamed(j["kernels"], "gemm_kernel");
        QVERIFY(gemm);
        QCOMPARE((*gemm)["a_per_step_ns"].get<long long>(), 120000LL);
        QCOMPARE((*gemm)["b_per_step_ns"].get<long long>(), 90000LL);
        QCOMPARE((*gemm)["delta_per_step_ns"].get<long long>(), -30000LL);
    }
};

QTEST_GUILESS_MAIN(CliDiffTest)
#include "tst_cli_diff.moc"
