// `tracescope-cli info FILE --json` as a user's script sees it: one JSON object
// on stdout with every documented key and the independently computed counts
// (tests/data/chrome_expected_counts.json); a one-line error and a non-zero
// exit status for files it cannot open.
#include <nlohmann/json.hpp>

#include <QProcess>
#include <QtTest>

#include <fstream>

namespace {

struct Run {
    int exitCode = -1;
    bool finished = false;
    std::string out, err;
};

Run runCli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(TRACESCOPE_CLI), args);
    Run r;
    r.finished = p.waitForFinished(30000);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(5000);
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput().toStdString();
    r.err = p.readAllStandardError().toStdString();
    return r;
}

nlohmann::json expectedCounts() {
    std::ifstream in(std::string(TRACESCOPE_SOURCE_DIR) + "/tests/data/chrome_expected_counts.json");
    return nlohmann::json::parse(in);
}

}  // namespace

class CliInfoTest : public QObject {
    Q_OBJECT
private slots:
    void jsonOutput_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("trivial") << "public/catapult/trivial_trace.json";
        QTest::newRow("counters") << "public/catapult/instance_counters.json";
        QTest::newRow("truncated array") << "public/speedscope/simple-partial.json";
        QTest::newRow("kineto ns epoch") << "public/hta/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz";
        QTest::newRow("v2 flows") << "public/perfetto/flow_events_json_v2.json";
    }

    void jsonOutput() {
        QFETCH(QString, file);
        const QString path = QStringLiteral(TRACESCOPE_SHARED_DIR) + "/testdata/" + file;
        const Run r = runCli({"info", path, "--json"});
        QVERIFY2(r.finished, "tracescope-cli did not finish in 30 s");
        QVERIFY2(r.exitCode == 0, r.err.c_str());
        // Exactly one JSON object: parse() rejects anything after the first value.
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(r.out);
        } catch (const std::exception& e) {
            QFAIL((std::string("stdout is not one JSON value: ") + e.what() + "\n" + r.out.substr(0, 500)).c_str());
        }
        QVERIFY(j.is_object());
        QCOMPARE(std::count(r.out.begin(), r.out.end(), '\n'), std::ptrdiff_t(1));  // one line

        QVERIFY(j.contains("format") && j["format"].is_string());
        QCOMPARE(j["format"].get<std::string>(), std::string("chrome-json"));
        QVERIFY(j.contains("warnings") && j["warnings"].is_array());
        for (const auto& w : j["warnings"]) {
            QVERIFY(w.is_object());
            QVERIFY(w["kind"].is_string() && w["message"].is_string());
        }
        for (const char* key : {"load_ms", "peak_rss_bytes"}) {
            QVERIFY2(j.contains(key) && j[key].is_number_integer(), key);
            QVERIFY2(j[key].get<long long>() >= 0, key);
        }
        QVERIFY(j["peak_rss_bytes"].get<long long>() > 0);

        const nlohmann::json want = expectedCounts()[file.toStdString()];
        QVERIFY(want.is_object());
        for (const char* key : {"processes", "tracks", "counter_tracks", "slices", "async_slices", "instants",
                                "counter_samples", "flows", "span_ns"}) {
            QVERIFY2(j.contains(key) && j[key].is_number_integer(), key);
            QVERIFY2(j[key].get<long long>() == want[key].get<long long>(),
                     (std::string(key) + ": expected " + want[key].dump() + ", got " + j[key].dump()).c_str());
        }
        bool truncated = false;
        for (const auto& w : j["warnings"]) truncated = truncated || w["kind"] == "truncated";
        QCOMPARE(truncated, want["truncated"].get<bool>());
    }

    // The reported case (tests/data/hostile/huge_ts_mixed.json): a B/E pair from 0 to 9e15 µs next
    // to an X at -5e15 µs printed span_ns -5446744073709551616 (9e18 - -4e18 wrapped). Every time is
    // clamped to +-4e18 ns, so the span is 8e18 (by hand), with the clamped times counted (9, by hand:
    // see tst_chrome_hostile's hugeTimestampsClampAndSaturate) in a warning.
    void hugeTimestampsSpan() {
        const Run r = runCli({"info", QStringLiteral(TRACESCOPE_SOURCE_DIR "/tests/data/hostile/huge_ts_mixed.json"),
                              "--json"});
        QVERIFY2(r.finished, "tracescope-cli did not finish in 30 s");
        QVERIFY2(r.exitCode == 0, r.err.c_str());
        const nlohmann::json j = nlohmann::json::parse(r.out);
        QCOMPARE(j["span_ns"].get<long long>(), 8'000'000'000'000'000'000ll);
        bool clamped = false;
        for (const auto& w : j["warnings"])
            clamped = clamped || (w["message"].get<std::string>().find("clamped") != std::string::npos &&
                                  w["count"] == 9);
        QVERIFY2(clamped, j["warnings"].dump().c_str());
        QVERIFY2(r.err.find("clamped") != std::string::npos, r.err.c_str());  // and on stderr
    }

    void errors_data() {
        QTest::addColumn<QString>("path");
        QTest::newRow("missing file") << QStringLiteral(TRACESCOPE_SOURCE_DIR "/tests/data/hostile/no-such-file.json");
        QTest::newRow("garbage file") << QStringLiteral(TRACESCOPE_SOURCE_DIR "/tests/data/hostile/garbage.bin");
        QTest::newRow("empty file") << QStringLiteral(TRACESCOPE_SOURCE_DIR "/tests/data/hostile/empty.json");
    }

    // `producer`: who wrote the file, recognised from its content (process names, top-level
    // keys, categories), on real files of each producer.
    void producer_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("producer");
        const QString shared = QStringLiteral(TRACESCOPE_SHARED_DIR) + "/testdata/";
        const QString peers = QStringLiteral(TRACESCOPE_SOURCE_DIR "/tests/data/peers/");
        QTest::newRow("kineto 2021") << shared + "public/kineto/worker0.1623143089861.pt.trace.json.gz" << "kineto";
        QTest::newRow("kineto hta") << shared + "public/hta/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz" << "kineto";
        QTest::newRow("kineto rocm") << shared + "public/hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz" << "kineto";
        QTest::newRow("kineto h100") << shared + "gpu/torch2.11_cu130_h100_kineto_trace.json.gz" << "kineto";
        QTest::newRow("catapult") << shared + "public/catapult/simple_trace.json" << "catapult";
        QTest::newRow("perfetto v2 flows") << shared + "public/perfetto/flow_events_json_v2.json" << "catapult";
        QTest::newRow("devtools") << shared + "public/speedscope/Trace-20230603T221323.json" << "catapult";
        QTest::newRow("jax perfetto json") << peers + "jax_train_steps.perfetto_trace.json.gz" << "xprof";
        QTest::newRow("tf1 timeline") << peers + "tf1_timeline.json" << "tf1-timeline";
        QTest::newRow("xspace") << peers + "jax_train_steps.xplane.pb" << "xprof";
        QTest::newRow("run metadata") << peers + "tf1_run_metadata.pb" << "tf1";
    }

    void producer() {
        QFETCH(QString, path);
        QFETCH(QString, producer);
        const Run r = runCli({"info", path, "--json"});
        QVERIFY2(r.finished, "tracescope-cli did not finish in 30 s");
        QVERIFY2(r.exitCode == 0, r.err.c_str());
        const auto j = nlohmann::json::parse(r.out);
        QCOMPARE(QString::fromStdString(j.value("producer", std::string())), producer);
        // The TSL exporter's terminating {} is not a dropped event.
        if (path.endsWith("perfetto_trace.json.gz")) QVERIFY2(j["warnings"].empty(), j["warnings"].dump().c_str());
    }

    // A clear, single-line error on stderr, nothing on stdout, a non-zero status.
    void errors() {
        QFETCH(QString, path);
        const Run r = runCli({"info", path, "--json"});
        QVERIFY2(r.finished, "tracescope-cli did not finish in 30 s");
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.out.empty(), r.out.c_str());
        QVERIFY(!r.err.empty());
        QCOMPARE(std::count(r.err.begin(), r.err.end(), '\n'), std::ptrdiff_t(1));
        QVERIFY(r.err.back() == '\n');
        QVERIFY2(r.err.size() < 400, r.err.c_str());
    }
};

QTEST_GUILESS_MAIN(CliInfoTest)
#include "tst_cli_info.moc"
