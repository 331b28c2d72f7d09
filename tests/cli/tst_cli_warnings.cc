// Import warnings through every tracescope-cli command that reads a trace: printed
// on stderr, a top-level "warnings" array in --json output, exit status 0, and 3
// under --strict. A file cut at a known byte must say where; a complete file
// without warnings keeps status 0 even with --strict.
#include "tests/cli/cli_run.h"
#include <nlohmann/json.hpp>

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

namespace {

using Run = CliRun;

QString shared(const char* rel) { return QStringLiteral(TRACESCOPE_SHARED_DIR "/testdata/") + QLatin1String(rel); }

// The commands that print --json, with the arguments they need.
const QList<QStringList> kJsonCommands = {
    {"info"}, {"stats"}, {"kernels"}, {"overview"}, {"input-pipeline"}, {"tfdata"}, {"scopes"}, {"gpu-util"},
};

constexpr size_t kCut = 600000;
// Where the last complete event before kCut ends in torch_mlp_memory_h100.json (its
// closing "}" is byte 599200); tst_import_warnings finds it with its own bracket scanner.
constexpr size_t kCompleteUpTo = 599201;

}  // namespace

class CliWarningsTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString cutFile_;

private slots:
    void initTestCase() {
        std::ifstream in(shared("gpu/torch_mlp_memory_h100.json").toStdString(), std::ios::binary);
        std::ostringstream s;
        s << in.rdbuf();
        const std::string bytes = s.str();
        QVERIFY(bytes.size() > kCut);
        QCOMPARE(bytes[kCompleteUpTo - 1], '}');
        cutFile_ = dir_.filePath(QStringLiteral("cut.json"));
        std::ofstream(cutFile_.toStdString(), std::ios::binary).write(bytes.data(), std::streamsize(kCut));
    }

    void jsonOfCutFile_data() {
        QTest::addColumn<QStringList>("command");
        for (const QStringList& c : kJsonCommands) QTest::newRow(qPrintable(c.front())) << c;
    }

    // Status 0, the warning on stderr, and in the JSON with its facts.
    void jsonOfCutFile() {
        QFETCH(QStringList, command);
        const Run r = runCli(QStringList(command) << cutFile_ << "--json");
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.find("warning: file is truncated at byte 600000") != std::string::npos, r.err.c_str());
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(r.out);
        } catch (const std::exception& e) {
            QFAIL((std::string("stdout is not JSON: ") + e.what()).c_str());
        }
        QVERIFY(j.contains("warnings") && j["warnings"].is_array());
        const nlohmann::json* truncated = nullptr;
        for (const auto& w : j["warnings"]) {
            for (const char* key : {"kind", "message", "byte_offset", "total_bytes", "count", "last_event_ns"})
                QVERIFY2(w.contains(key), key);
            if (w["kind"] == "truncated") truncated = &w;
        }
        QVERIFY(truncated);
        QCOMPARE((*truncated)["byte_offset"].get<uint64_t>(), uint64_t(kCompleteUpTo));
        QCOMPARE((*truncated)["total_bytes"].get<uint64_t>(), uint64_t(kCut));
        QVERIFY((*truncated)["last_event_ns"].is_number_integer());
    }

    void strictOnCutFile_data() {
        QTest::addColumn<QStringList>("args");
        for (const QStringList& c : kJsonCommands) {
            QTest::newRow(qPrintable(c.front() + " --json")) << (QStringList(c) << "--json");
            QTest::newRow(qPrintable(c.front())) << c;
        }
        QTest::newRow("stats --csv") << QStringList{"stats", "--csv"};
        QTest::newRow("kernels --csv") << QStringList{"kernels", "--csv"};
        QTest::newRow("convert") << QStringList{"convert", "--to", "chrome-json", "OUT"};
    }

    // --strict: status 3, the output still written.
    void strictOnCutFile() {
        QFETCH(QStringList, args);
        QStringList withFile = args;
        withFile.insert(1, cutFile_);
        withFile.replaceInStrings(QStringLiteral("OUT"), dir_.filePath(QStringLiteral("out.json")));
        const Run plain = runCli(withFile);
        QCOMPARE(plain.exitCode, 0);
        QVERIFY2(plain.err.find("warning: file is truncated") != std::string::npos, plain.err.c_str());
        const Run strict = runCli(QStringList(withFile) << "--strict");
        QCOMPARE(strict.exitCode, 3);
        QVERIFY(!strict.out.empty());
    }

    void completeFile_data() {
        QTest::addColumn<QStringList>("args");
        for (const QStringList& c : kJsonCommands) QTest::newRow(qPrintable(c.front())) << (QStringList(c) << "--json");
        QTest::newRow("convert") << QStringList{"convert", "--to", "chrome-json", "OUT"};
    }

    // A complete file without warnings: an empty array, nothing on stderr, status 0 with --strict.
    void completeFile() {
        QFETCH(QStringList, args);
        QStringList withFile = args;
        withFile.insert(1, shared("gpu/jax0.11.2_h100_warmup_emit_xspace.xplane.pb"));
        withFile.replaceInStrings(QStringLiteral("OUT"), dir_.filePath(QStringLiteral("whole.json")));
        const Run r = runCli(withFile << "--strict");
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.find("warning") == std::string::npos, r.err.c_str());
        if (args.contains(QStringLiteral("--json"))) {
            const nlohmann::json j = nlohmann::json::parse(r.out);
            QVERIFY(j["warnings"].is_array() && j["warnings"].empty());
        }
    }

    // --help on standard output (help2man and pagers read it there); a usage error on stderr.
    void helpListsStrict() {
        const Run r = runCli({"--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.find("--strict") != std::string::npos, r.out.c_str());
        const Run none = runCli({});
        QCOMPARE(none.exitCode, 2);
        QVERIFY(none.out.empty());
        QVERIFY(none.err.find("--strict") != std::string::npos);
    }

    // Every command answers --help on stdout with status 0, naming itself; a command without
    // help of its own prints its part of the whole --help, word for word (the man page is made
    // from the whole --help). `launch ... -- PROGRAM --help` passes --help to the program.
    void everyCommandHasHelp() {
        const Run all = runCli({"--help"});
        const Run list = runCli({"--commands"});
        QCOMPARE(list.exitCode, 0);
        std::istringstream names(list.out);
        int commands = 0;
        for (std::string name; std::getline(names, name);) {
            ++commands;
            const Run r = runCli({QString::fromStdString(name), "--help"});
            QVERIFY2(r.exitCode == 0, name.c_str());
            QVERIFY2(r.out.find(name) != std::string::npos, name.c_str());
            if (r.out.rfind("Usage: tracescope-cli " + name + " ...", 0) != 0) continue;  // its own help
            std::istringstream lines(r.out);
            std::string line;
            std::getline(lines, line);  // the heading
            int shown = 0;
            while (std::getline(lines, line)) {
                QVERIFY2(all.out.find(line + "\n") != std::string::npos, (name + ": " + line).c_str());
                ++shown;
            }
            QVERIFY2(shown > 0, name.c_str());
        }
        QVERIFY(commands >= 25);
        const Run passed = runCli({"launch", "--agent", "/nonexistent.so", "--", "/bin/true", "--help"});
        QVERIFY(passed.out.find("Usage:") == std::string::npos);
        QVERIFY(passed.exitCode != 0);  // the agent is missing: launch tried to run it
    }
};

QTEST_GUILESS_MAIN(CliWarningsTest)
#include "tst_cli_warnings.moc"
