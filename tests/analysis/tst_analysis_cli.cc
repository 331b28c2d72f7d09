// tracescope-cli stats / kernels / overview / input-pipeline / scopes, end to end: output
// formats, required fields, and numbers against the raw-file reference (kineto_reference.json).
#include <nlohmann/json.hpp>

#include <QProcess>
#include <QtTest>

#include <fstream>
#include <map>

using nlohmann::json;

namespace {

struct Run {
    int rc = -1;
    QByteArray out;
};

Run cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(TRACESCOPE_CLI_PATH), args);
    Run r;
    if (!p.waitForFinished(120000)) return r;
    r.rc = p.exitCode();
    r.out = p.readAllStandardOutput();
    return r;
}

QString torchFile() { return QStringLiteral(TRACESCOPE_SHARED_DIR "/testdata/gpu/torch_mlp_memory_h100.json"); }

json reference() {
    std::ifstream in(std::string(TRACESCOPE_TEST_DATA_DIR) + "/kineto_reference.json");
    return json::parse(in)["torch_mlp_memory_h100.json"];
}

}  // namespace

class TestAnalysisCli : public QObject {
    Q_OBJECT

private slots:
    void kernelsJson() {
        const Run r = cli({"kernels", torchFile(), "--json"});
        QCOMPARE(r.rc, 0);
        const json j = json::parse(r.out.toStdString());
        const json ref = reference();
        QCOMPARE(j["kernel_count"].get<uint64_t>(), ref["kernel_count"].get<uint64_t>());
        int64_t total = 0;
        for (const auto& row : j["rows"]) {
            for (const char* key : {"name", "occurrences", "total_ns", "min_ns", "max_ns", "grid", "block", "registers",
                                    "shared_mem_bytes", "tensor_core_eligible", "uses_tensor_core", "op"})
                QVERIFY2(row.contains(key), key);
            QVERIFY(row["total_ns"].is_number_integer());
            QCOMPARE(row["grid"].size(), size_t(3));
            total += row["total_ns"].get<int64_t>();
        }
        QCOMPARE(total, ref["kernel_total_ns"].get<int64_t>());
    }

    void namesShort() {
        // Default full: scripts keep the names they had, and no full_name field.
        const QString file = QStringLiteral(TRACESCOPE_SHARED_DIR "/testdata/gpu/torch2.11_cu130_h100_kineto_trace.json.gz");
        const Run full = cli({"kernels", file, "--json"});
        QCOMPARE(full.rc, 0);
        const json jf = json::parse(full.out.toStdString());
        const Run shorter = cli({"kernels", file, "--json", "--names", "short"});
        QCOMPARE(shorter.rc, 0);
        const json js = json::parse(shorter.out.toStdString());
        QCOMPARE(js["rows"].size(), jf["rows"].size());
        bool sawReduce = false;
        for (size_t i = 0; i < jf["rows"].size(); ++i) {
            QVERIFY(!jf["rows"][i].contains("full_name"));
            QCOMPARE(js["rows"][i]["full_name"], jf["rows"][i]["name"]);
            const std::string name = js["rows"][i]["name"];
            QVERIFY(name.rfind("void ", 0) != 0);  // no return type
            if (name.rfind("reduce_kernel<512, 1, ReduceOp<float, func_wrapper_t<float, ", 0) == 0) sawReduce = true;
        }
        QVERIFY(sawReduce);
        // stats: the op names of this trace have no C++ syntax and stay; the flag is accepted.
        const Run stats = cli({"stats", file, "--csv", "--names", "short", "--side", "device"});
        QCOMPARE(stats.rc, 0);
        QVERIFY(stats.out.startsWith("side,name,type,") && stats.out.split('\n').first().endsWith(",full_name"));
        QCOMPARE(cli({"kernels", file, "--names", "tiny"}).rc, 2);
    }

    void tracksInTimelineOrder() {
        // Kineto writes process_sort_index 539 for the host, 5000000 for GPU 0: host first.
        const Run r = cli({"tracks", QStringLiteral(TRACESCOPE_SHARED_DIR "/testdata/gpu/torch2.11_cu130_h100_kineto_trace.json.gz"),
                           "--json"});
        QCOMPARE(r.rc, 0);
        const json j = json::parse(r.out.toStdString());
        QVERIFY(j["rows"].size() >= 3);
        QCOMPARE(j["rows"][0]["pid"].get<int64_t>(), int64_t(539));
        QCOMPARE(j["rows"][0]["kind"].get<std::string>(), std::string("thread"));
        QCOMPARE(j["rows"][0]["events"].get<int64_t>(), int64_t(222));  // counted from the JSON: X and i events of tid 539
        QCOMPARE(j["rows"][1]["pid"].get<int64_t>(), int64_t(0));
        QCOMPARE(j["rows"][1]["tid"].get<int64_t>(), int64_t(7));  // "stream 7 "
        for (const auto& row : j["rows"]) QVERIFY(row["events"].get<int64_t>() > 0);
        QCOMPARE(cli({"tracks"}).rc, 2);
    }

    void kernelsCsv() {
        const Run r = cli({"kernels", torchFile(), "--csv"});
        QCOMPARE(r.rc, 0);
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QVERIFY(lines.first().startsWith("name,occurrences,total_ns,"));
        // Kernel names contain commas: every row must still parse to the header's field count.
        const int fields = lines.first().count(',') + 1;
        for (int i = 1; i < lines.size(); ++i) {
            int n = 1;
            bool quoted = false;
            for (char c : lines[i]) {
                if (c == '"') quoted = !quoted;
                else if (c == ',' && !quoted) ++n;
            }
            QCOMPARE(n, fields);
        }
    }

    void statsJsonAndSides() {
        const Run r = cli({"stats", torchFile(), "--json", "--side", "host"});
        QCOMPARE(r.rc, 0);
        const json j = json::parse(r.out.toStdString());
        const json ref = reference();
        std::map<std::string, json> byName;
        for (const auto& row : j["rows"]) {
            QCOMPARE(row["side"].get<std::string>(), std::string("host"));
            byName[row["name"].get<std::string>()] = row;
        }
        for (const auto& c : ref["cpu_ops"]) {
            const auto it = byName.find(c["name"].get<std::string>());
            QVERIFY(it != byName.end());
            QCOMPARE(it->second["self_ns"].get<int64_t>(), c["self_ns"].get<int64_t>());
        }
        const Run csv = cli({"stats", torchFile(), "--csv", "--by", "type"});
        QCOMPARE(csv.rc, 0);
        QVERIFY(csv.out.startsWith("side,name,type,occurrences,total_ns,"));
    }

    // XProf's op-name rule on tests/data/xprof_send_recv.xplane.pb (figures worked out in
    // tst_xprof_op_rule): no _send/_recv host row, host IDLE without them, and the note in the
    // JSON and under the text table.
    void statsXprofOpNameRule() {
        const QString file = QStringLiteral(TRACESCOPE_SOURCE_DIR "/tests/data/xprof_send_recv.xplane.pb");
        const Run r = cli({"stats", file, "--json"});
        QCOMPARE(r.rc, 0);
        const json j = json::parse(r.out.toStdString());
        QCOMPARE(j["notes"].size(), size_t(2));
        QCOMPARE(j["host_idle_ns"].get<int64_t>(), int64_t(2000));
        size_t hostRows = 0;
        for (const auto& row : j["rows"])
            if (row["side"] == "host" && !row["is_idle"].get<bool>()) {
                ++hostRows;
                QVERIFY(row["name"].get<std::string>()[0] != '_');
            }
        QCOMPARE(hostRows, size_t(2));
        const Run text = cli({"stats", file});
        QCOMPARE(text.rc, 0);
        QVERIFY(text.out.contains("Note: Left out as XProf leaves them out: 4 host events"));
    }

    void overviewJson() {
        const Run r = cli({"overview", torchFile(), "--json"});
        QCOMPARE(r.rc, 0);
        const json j = json::parse(r.out.toStdString());
        const json ref = reference();
        QCOMPARE(j["step_count"].get<size_t>(), ref["steps"].size());
        QCOMPARE(j["environment"]["device_count"].get<int>(), 1);
        int64_t sum = 0;
        for (size_t i = 0; i < j["steps"].size(); ++i) {
            QCOMPARE(j["steps"][i]["duration_ns"].get<int64_t>(), ref["steps"][i]["duration_ns"].get<int64_t>());
            sum += ref["steps"][i]["duration_ns"].get<int64_t>();
        }
        // average_step_ns = mean of the reference durations (rounded).
        QCOMPARE(j["average_step_ns"].get<int64_t>(), (sum + int64_t(j["steps"].size()) / 2) / int64_t(j["steps"].size()));
        QVERIFY(j["recommendations"].size() >= 1);
    }

    void inputPipelineAndScopes() {
        const Run ip = cli({"input-pipeline", torchFile(), "--json"});
        QCOMPARE(ip.rc, 0);
        const json a = json::parse(ip.out.toStdString());
        QCOMPARE(a["steps"].size(), reference()["steps"].size());
        for (const auto& op : a["ops"]) QVERIFY(op.contains("name"));
        const Run sc = cli({"scopes", torchFile(), "--json"});
        QCOMPARE(sc.rc, 0);
        const json s = json::parse(sc.out.toStdString());
        QCOMPARE(s["root"]["bytes_allocated"].get<int64_t>(), reference()["memory"]["bytes"].get<int64_t>());
        QVERIFY(!s["op_view"].empty());
    }

    // scopes --json: the definitions it states and the figures of scope_sums.py (scope_reference.json)
    // for every top-level node and every op type.
    void scopesJson() {
        const Run r = cli({"scopes", torchFile(), "--json"});
        QCOMPARE(r.rc, 0);
        const json j = json::parse(r.out.toStdString());
        for (const char* key : {"occurrences", "total_ns", "self_ns", "device_ns", "op_view"})
            QVERIFY2(j["definitions"].contains(key), key);
        std::ifstream in(std::string(TRACESCOPE_TEST_DATA_DIR) + "/scope_reference.json");
        const json ref = json::parse(in)["torch_mlp_memory_h100.json"];
        QCOMPARE(j["scope_events"].get<uint64_t>(), ref["root"]["events"].get<uint64_t>());
        QCOMPARE(j["root"]["total_ns"].get<int64_t>(), ref["root"]["time_ns"].get<int64_t>());
        std::map<std::string, json> top;
        for (const auto& c : j["root"]["children"]) top[c["path"].get<std::string>()] = c;
        QVERIFY(top.count("Optimizer.step#AdamW.step"));
        size_t compared = 0;
        for (const auto& n : ref["nodes"]) {
            const std::string path = n["path"].get<std::string>();
            if (path.find('/') != std::string::npos) continue;
            QVERIFY2(top.count(path), path.c_str());
            const json& c = top[path];
            QVERIFY2(c["occurrences"] == n["occurrences"] && c["total_ns"] == n["time_ns"] &&
                         c["self_ns"] == n["self_ns"] && c["device_ns"] == n["device_ns"],
                     path.c_str());
            ++compared;
        }
        QVERIFY(compared >= 10);
        std::map<std::string, json> ops;
        for (const auto& o : j["op_view"]) ops[o["name"].get<std::string>()] = o;
        for (const auto& o : ref["op_view"]) {
            const std::string name = o["name"].get<std::string>();
            QVERIFY2(ops.count(name), name.c_str());
            QVERIFY2(ops[name]["occurrences"] == o["occurrences"] && ops[name]["total_ns"] == o["total_ns"] &&
                         ops[name]["device_ns"] == o["device_ns"],
                     name.c_str());
        }
    }

    // torch-ops: torch.profiler's column names, --sort on any key, CSV, grouping by shape.
    void torchOps() {
        Run r = cli({"torch-ops", torchFile(), "--json", "--sort", "self_cuda_ns"});
        QCOMPARE(r.rc, 0);
        json j = json::parse(r.out.toStdString());
        QCOMPARE(j["convention"].get<std::string>(), std::string("torch.profiler key_averages"));
        QVERIFY(j["rows"].size() > 10);
        int64_t previous = INT64_MAX;
        for (const auto& row : j["rows"]) {
            for (const char* key : {"name", "calls", "cpu_total_ns", "self_cpu_ns", "self_cuda_ns", "cuda_total_ns"})
                QVERIFY2(row.contains(key), key);
            QVERIFY(row["self_cuda_ns"].get<int64_t>() <= previous);  // sorted, largest first
            previous = row["self_cuda_ns"].get<int64_t>();
        }
        r = cli({"torch-ops", torchFile(), "--json", "--group-by-shape"});
        QCOMPARE(r.rc, 0);
        j = json::parse(r.out.toStdString());
        QVERIFY(j["has_input_shapes"].get<bool>());
        bool shaped = false;
        for (const auto& row : j["rows"]) shaped = shaped || !row["input_shapes"].get<std::string>().empty();
        QVERIFY(shaped);
        r = cli({"torch-ops", torchFile(), "--csv"});
        QCOMPARE(r.rc, 0);
        QVERIFY(r.out.startsWith("name,on_device,calls,self_cpu_ns,"));
        QCOMPARE(cli({"torch-ops", torchFile(), "--sort", "no_such_column"}).rc, 2);
        // --names short: kernel rows read short, the full name beside them.
        r = cli({"torch-ops", torchFile(), "--json", "--names", "short"});
        QCOMPARE(r.rc, 0);
        j = json::parse(r.out.toStdString());
        bool shortened = false;
        for (const auto& row : j["rows"])
            shortened = shortened || row["name"].get<std::string>() != row["full_name"].get<std::string>();
        QVERIFY(shortened);
    }

    // An XSpace has no torch.profiler tree: torch-ops says why instead of printing a table.
    void torchOpsOnXSpace() {
        const QString xspace = QStringLiteral(TRACESCOPE_SHARED_DIR "/testdata/gpu/jax_mlp_h100.xplane.pb");
        Run r = cli({"torch-ops", xspace, "--json"});
        QCOMPARE(r.rc, 0);
        const json j = json::parse(r.out.toStdString());
        QVERIFY(j["rows"].empty());
        QVERIFY(j["unavailable"].get<std::string>().find("XSpace") != std::string::npos);
        r = cli({"torch-ops", xspace});
        QCOMPARE(r.rc, 0);
        QVERIFY(r.out.isEmpty());  // the reason goes to stderr, no table
    }

    void errors() {
        QCOMPARE(cli({"stats"}).rc, 2);
        QCOMPARE(cli({"stats", torchFile(), "--by", "colour"}).rc, 2);
        QCOMPARE(cli({"kernels", "/nonexistent/trace.json"}).rc, 1);
        QCOMPARE(cli({"overview", QStringLiteral(TRACESCOPE_SHARED_DIR "/testdata/gpu/README.md")}).rc, 1);
    }
};

QTEST_GUILESS_MAIN(TestAnalysisCli)
#include "tst_analysis_cli.moc"
