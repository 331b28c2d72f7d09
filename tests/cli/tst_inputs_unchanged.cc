// Inputs are never modified: copies of real files of every format (Chrome JSON, gzip JSON,
// XSpace, RunMetadata, a TensorBoard logdir) go through every analysis command of the CLI
// (and pod, diff, convert); afterwards each file has the same bytes and modification time,
// and no file or folder has appeared or gone next to them (no cache, index or sidecar).
// The copies are made writable first, so that a tool that wrote to its input would succeed
// in doing so and be caught.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

namespace fs = std::filesystem;

namespace {

struct Entry {
    std::string bytes;  // a file's content ("" for a folder)
    fs::file_time_type mtime;
    bool operator==(const Entry&) const = default;
};

// Every file and folder under `root`, by relative path.
std::map<std::string, Entry> snapshot(const fs::path& root) {
    std::map<std::string, Entry> out;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
        Entry x;
        x.mtime = fs::last_write_time(e.path());
        if (e.is_regular_file()) {
            std::ifstream in(e.path(), std::ios::binary);
            x.bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        }
        out[fs::relative(e.path(), root).string()] = std::move(x);
    }
    return out;
}

// Copies `from` to `to`, writable by its owner, with a modification time in the past (so that a
// rewrite within the same second would still show).
void place(const fs::path& from, const fs::path& to) {
    fs::create_directories(to.parent_path());
    fs::copy_file(from, to, fs::copy_options::overwrite_existing);
    fs::permissions(to, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::add);
    fs::last_write_time(to, fs::file_time_type::clock::now() - std::chrono::hours(24 * 365));
}

int runCli(const QStringList& args, QString* err = nullptr) {
    QProcess p;
    p.start(QStringLiteral(TRACESCOPE_CLI), args);
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return -1;
    }
    if (err) *err = QString::fromUtf8(p.readAllStandardError());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

}  // namespace

class InputsUnchangedTest : public QObject {
    Q_OBJECT

private slots:
    void everyCommandLeavesItsInputsAlone() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const fs::path in = fs::path(tmp.path().toStdString()) / "inputs";
        const fs::path out = fs::path(tmp.path().toStdString()) / "out";
        fs::create_directories(out);
        const fs::path shared = fs::path(TRACESCOPE_SHARED_DIR) / "testdata";
        const fs::path xspace = shared / "gpu/jax_mlp_h100.xplane.pb";
        place(shared / "public/kineto/before_fix_trace.json", in / "trace.json");
        place(shared / "gpu/torch2.11_cu130_h100_kineto_trace.json.gz", in / "trace.json.gz");
        place(xspace, in / "host.xplane.pb");
        place(fs::path(TRACESCOPE_SOURCE_DIR) / "tests/import_runmetadata/data/handwired.pb", in / "run_metadata.pb");
        // A TensorBoard logdir of two runs, the newer with two hosts.
        place(xspace, in / "logdir/plugins/profile/2024_01_01_00_00_00/a.xplane.pb");
        place(xspace, in / "logdir/plugins/profile/2024_01_02_00_00_00/a.xplane.pb");
        place(shared / "gpu/jax0.11.2_h100_warmup_emit_xspace.xplane.pb",
              in / "logdir/plugins/profile/2024_01_02_00_00_00/b.xplane.pb");
        for (const char* d : {"logdir/plugins/profile/2024_01_01_00_00_00", "logdir/plugins/profile/2024_01_02_00_00_00",
                              "logdir/plugins/profile", "logdir/plugins", "logdir", ""})
            fs::last_write_time(in / d, fs::file_time_type::clock::now() - std::chrono::hours(24 * 365));
        const auto before = snapshot(in);
        QCOMPARE(before.size(), size_t(12));  // 7 files, 5 folders

        auto p = [&](const char* rel) { return QString::fromStdString((in / rel).string()); };
        const QStringList files = {p("trace.json"), p("trace.json.gz"), p("host.xplane.pb"), p("run_metadata.pb"),
                                   p("logdir")};
        int n = 0;
        for (const QString& f : files) {
            for (const char* cmd : {"info", "tracks", "stats", "kernels", "overview", "input-pipeline", "scopes",
                                    "torch-ops", "memory", "tfdata"}) {
                QString err;
                const int rc = runCli({QString::fromLatin1(cmd), f, QStringLiteral("--json")}, &err);
                QVERIFY2(rc == 0, qPrintable(QStringLiteral("%1 %2: %3 %4").arg(cmd, f).arg(rc).arg(err)));
            }
            const QString converted = QString::fromStdString((out / ("c" + std::to_string(n++) + ".json.gz")).string());
            QCOMPARE(runCli({"convert", f, "--to", "chrome-json", converted}), 0);
        }
        // Captures of different programs: merged only by force.
        QCOMPARE(runCli({"pod", p("logdir"), "--json", "--force-merge"}), 0);
        QCOMPARE(runCli({"pod", p("trace.json.gz"), p("host.xplane.pb"), "--json", "--force-merge"}), 0);
        QCOMPARE(runCli({"diff", p("trace.json"), p("trace.json.gz"), "--json"}), 0);
        QCOMPARE(runCli({"diff", p("host.xplane.pb"), p("run_metadata.pb")}), 0);

        const auto after = snapshot(in);
        for (const auto& [rel, e] : after) QVERIFY2(before.count(rel), qPrintable("appeared: " + QString::fromStdString(rel)));
        for (const auto& [rel, e] : before) {
            QVERIFY2(after.count(rel), qPrintable("gone: " + QString::fromStdString(rel)));
            QVERIFY2(after.at(rel).bytes == e.bytes, qPrintable("changed: " + QString::fromStdString(rel)));
            QVERIFY2(after.at(rel).mtime == e.mtime, qPrintable("touched: " + QString::fromStdString(rel)));
        }
    }
};

QTEST_GUILESS_MAIN(InputsUnchangedTest)
#include "tst_inputs_unchanged.moc"
