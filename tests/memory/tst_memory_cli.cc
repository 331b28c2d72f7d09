// tracescope-cli memory end to end: JSON keys and numbers against the raw-file reference
// (data/memory_reference.json from tests/tools/memory_reference.py), CSV, the unsampled
// --timeline-csv, a trace without memory data, and --strict.
#include <nlohmann/json.hpp>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

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

QString shared(const char* relative) { return QStringLiteral(TRACESCOPE_SHARED_DIR "/testdata/") + relative; }

json reference(const char* file) {
    std::ifstream in(std::string(TRACESCOPE_TEST_DATA_DIR) + "/memory_reference.json");
    return json::parse(in)[file];
}

}  // namespace

class TestMemoryCli : public QObject {
    Q_OBJECT

private slots:
    void jsonSummary() {
        const Run r = cli({"memory", shared("gpu/torch_mlp_memory_h100.json"), "--json"});
        QCOMPARE(r.rc, 0);
        const json j = json::parse(r.out.toStdString());
        QVERIFY(j.contains("warnings"));
        const json ref = reference("torch_mlp_memory_h100.json");
        QCOMPARE(j["memory_ids"].size(), ref.size());
        for (const auto& m : j["memory_ids"]) {
            for (const char* key : {"memory_id", "allocations", "deallocations", "peak_bytes", "peak_time_ns",
                                    "peak_reserved_bytes", "breakdown", "leak_hints"})
                QVERIFY2(m.contains(key), key);
            QVERIFY(!m.contains("lifetime_peak_bytes"));  // Kineto does not record it
            const json& rm = ref[m["memory_id"].get<std::string>()];
            QCOMPARE(m["allocations"].get<uint64_t>(), rm["allocations"].get<uint64_t>());
            QCOMPARE(m["deallocations"].get<uint64_t>(), rm["deallocations"].get<uint64_t>());
            QCOMPARE(m["peak_bytes"].get<int64_t>(), rm["peak_bytes"].get<int64_t>());
            QCOMPARE(m["peak_reserved_bytes"].get<int64_t>(), rm["peak_reserved_bytes"].get<int64_t>());
            for (const auto& row : m["breakdown"])
                for (const char* key : {"op", "allocation_bytes", "requested_bytes", "occurrences", "region_type",
                                        "data_type", "shape"})
                    QVERIFY2(row.contains(key), key);
        }
    }

    void xspaceLifetimePeak() {
        const Run r = cli({"memory", shared("gpu/jax_mlp_h100.xplane.pb"), "--json"});
        QCOMPARE(r.rc, 0);
        const json j = json::parse(r.out.toStdString());
        const json ref = reference("jax_mlp_h100.xplane.pb")["GPU_0_bfc"];
        QCOMPARE(j["memory_ids"].size(), size_t(1));
        const json& m = j["memory_ids"][0];
        QCOMPARE(m["memory_id"].get<std::string>(), std::string("GPU_0_bfc"));
        QCOMPARE(m["lifetime_peak_bytes"].get<int64_t>(), ref["lifetime_peak_bytes"].get<int64_t>());
        QCOMPARE(m["peak_bytes"].get<int64_t>(), ref["peak_bytes"].get<int64_t>());
        QVERIFY(m["peak_reserved_bytes"].is_null());
        QVERIFY(m["fragmentation_at_peak"].is_number());
        QVERIFY(m["capacity_bytes"].get<int64_t>() > m["peak_bytes"].get<int64_t>());
    }

    // Every event comes out, never sampled: one line per event plus the header.
    void timelineCsv() {
        QTemporaryDir dir;
        const QString out = dir.filePath("timeline.csv");
        const Run r = cli({"memory", shared("public/hta/df_index_resolver.json.gz"), "--csv", "--timeline-csv", out});
        QCOMPARE(r.rc, 0);
        QVERIFY(r.out.startsWith("memory_id,source,allocations,deallocations,peak_bytes,peak_time_ns"));
        QCOMPARE(r.out.count('\n'), 3);  // header, cpu, cuda:1
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QVERIFY(lines[0].startsWith("memory_id,time_ns,event,heap_bytes"));
        const json ref = reference("df_index_resolver.json.gz");
        const size_t events = ref["cpu"]["events"].get<size_t>() + ref["cuda:1"]["events"].get<size_t>();
        QCOMPARE(size_t(lines.size()), events + 2);  // header + events + the empty piece after the last \n
        int64_t maxHeap = 0;
        for (int i = 1; i < lines.size(); ++i)
            if (lines[i].startsWith("cuda:1,")) maxHeap = std::max<int64_t>(maxHeap, lines[i].split(',')[3].toLongLong());
        QCOMPARE(maxHeap, ref["cuda:1"]["peak_bytes"].get<int64_t>());
    }

    // Old Kineto: only Bytes, no Addr: no matching, so alive-at-end is unknown (null), and the
    // breakdown is one unattributed row holding the whole peak.
    void kinetoWithoutAddresses() {
        const Run r = cli({"memory", shared("public/kineto/worker0.1623143089861.pt.trace.json.gz"), "--json"});
        QCOMPARE(r.rc, 0);
        const json j = json::parse(r.out.toStdString());
        const json ref = reference("worker0.1623143089861.pt.trace.json.gz");
        for (const auto& m : j["memory_ids"]) {
            QCOMPARE(m["source"].get<std::string>(), std::string("kineto-bytes-only"));
            QVERIFY(!m["addresses"].get<bool>());
            QVERIFY(m["alive_at_end"].is_null());
            QCOMPARE(m["peak_bytes"].get<int64_t>(), ref[m["memory_id"].get<std::string>()]["peak_bytes"].get<int64_t>());
            QCOMPARE(m["breakdown"].size(), size_t(1));
            QCOMPARE(m["breakdown"][0]["allocation_bytes"].get<int64_t>(), m["peak_bytes"].get<int64_t>());
        }
    }

    void breakdownCsv() {
        const Run r = cli({"memory", shared("public/tfprofiler/34.83.195.179_6003.xplane.pb"), "--csv", "--breakdown"});
        QCOMPARE(r.rc, 0);
        QVERIFY(r.out.startsWith("memory_id,op,allocation_bytes,requested_bytes,occurrences,region_type,data_type,shape\n"));
        QVERIFY(r.out.contains("GPU_4_bfc,"));
    }

    void noMemoryData() {
        const Run r = cli({"memory", shared("public/catapult/trivial_trace.json"), "--json"});
        QCOMPARE(r.rc, 0);
        const json j = json::parse(r.out.toStdString());
        QVERIFY(j["memory_ids"].empty());
        QVERIFY(j["how_to_record"].get<std::string>().find("profile_memory=True") != std::string::npos);
    }

    // A cut file: the warnings array, and status 3 under --strict.
    void strictOnWarnings() {
        const QString cut = QStringLiteral(TRACESCOPE_SOURCE_DIR "/tests/data/hostile/cut.xplane.pb");
        const Run r = cli({"memory", cut, "--json"});
        QCOMPARE(r.rc, 0);
        QVERIFY(!json::parse(r.out.toStdString())["warnings"].empty());
        QCOMPARE(cli({"memory", cut, "--json", "--strict"}).rc, 3);
    }

    // `tracks` lists the timeline's derived memory tracks, marked as derived, after the file's own.
    void tracksListsDerivedMemoryTracks() {
        const Run r = cli({"tracks", shared("gpu/torch_mlp_memory_h100.json"), "--json"});
        QCOMPARE(r.rc, 0);
        const json j = json::parse(r.out.toStdString());
        std::vector<std::string> derived;
        bool seenDerived = false;
        for (const auto& row : j["rows"]) {
            const bool d = row["derived"].get<bool>();
            QVERIFY(!seenDerived || d);  // derived rows come last
            seenDerived |= d;
            if (d) derived.push_back(row["track"].get<std::string>());
        }
        // The memory tracks, then the queue length of the one stream with launches.
        QCOMPARE(derived.size(), size_t(5));
        QCOMPARE(derived[2], std::string("Memory cuda:0: allocated"));
        QCOMPARE(derived[3], std::string("Memory cuda:0: reserved"));
        QCOMPARE(derived[4], std::string("Queue length · stream 7"));
    }

    void usage() { QCOMPARE(cli({"memory"}).rc, 2); }
};

QTEST_GUILESS_MAIN(TestMemoryCli)
#include "tst_memory_cli.moc"
