// The timeline's saved layout (hidden tracks, order, pins, bookmarks) lives in the user's
// settings, never next to the trace: after a change is saved, the trace's folder holds only the
// trace, with its bytes and modification time; the layout comes back from the settings when the
// file opens again.
#include "model/import/import.h"
#include "views/timeline/timeline_canvas.h"
#include "views/timeline/timeline_view.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <iterator>

using namespace tracescope;
namespace fs = std::filesystem;

namespace {

std::string readAll(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

class LayoutStorageTest : public QObject {
    Q_OBJECT
    QTemporaryDir config_;

private slots:
    void initTestCase() {
        QVERIFY(config_.isValid());
        qputenv("XDG_CONFIG_HOME", config_.path().toLocal8Bit());
        QCoreApplication::setOrganizationName(QStringLiteral("TraceScopeLayoutTest"));
        QCoreApplication::setApplicationName(QStringLiteral("TraceScope"));
    }

    void layoutSavedInSettingsNotNextToTheTrace() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const fs::path trace = fs::path(dir.path().toStdString()) / "trace.json";
        fs::copy_file(fs::path(TRACESCOPE_SHARED_DIR) / "testdata/public/kineto/before_fix_trace.json", trace);
        fs::permissions(trace, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::add);
        fs::last_write_time(trace, fs::file_time_type::clock::now() - std::chrono::hours(24));
        const std::string bytes = readAll(trace);
        const auto mtime = fs::last_write_time(trace);

        ImportResult r = importTrace(trace.string());
        QVERIFY2(r.ok(), r.error.c_str());
        std::shared_ptr<const Trace> t = std::move(r.trace);
        QVERIFY(t->tracks.size() > 1);
        {
            TimelineView view;
            view.setLayoutSource(QString::fromStdString(trace.string()));
            view.setTrace(t);
            view.canvas()->controller().setTrackHidden(0, true);  // a user change: saved at once
        }
        QSettings settings;
        settings.sync();
        QStringList keys;
        for (const QString& k : settings.allKeys())
            if (k.startsWith(QLatin1String("timelineLayouts/"))) keys << k;
        QCOMPARE(keys.size(), 1);
        QVERIFY(QFileInfo(settings.fileName()).absoluteFilePath().startsWith(config_.path()));

        // Next to the trace: the trace alone, as it was.
        size_t entries = 0;
        for (const auto& e : fs::directory_iterator(trace.parent_path())) {
            ++entries;
            QCOMPARE(e.path().filename().string(), std::string("trace.json"));
        }
        QCOMPARE(entries, size_t(1));
        QVERIFY(readAll(trace) == bytes);
        QVERIFY(fs::last_write_time(trace) == mtime);

        // Opened again: the hidden track comes back from the settings.
        TimelineView again;
        again.setLayoutSource(QString::fromStdString(trace.string()));
        again.setTrace(t);
        QCOMPARE(again.canvas()->controller().hiddenTracks(), std::vector<TrackIndex>{0});

        // Query tracks are saved as their SQL and run again when the file opens; one whose query
        // fails comes back empty, saying why; a removed one stays removed.
        again.waitUntilReady();
        DerivedCounterTrack kernels;
        kernels.source = DerivedSource::Query;
        kernels.process = 0;
        kernels.name = "kernel durations";
        kernels.query = "SELECT ts, dur AS value, track_id FROM slice WHERE category = 'kernel'";
        DerivedCounterTrack broken = kernels;
        broken.name = "broken";
        broken.query = "SELECT ts, value FROM nowhere";
        DerivedCounterTrack removed = kernels;
        removed.name = "removed";
        again.addQueryTrack(kernels);
        again.addQueryTrack(broken);
        again.addQueryTrack(removed);
        again.removeQueryTrack("removed");
        TimelineView third;
        third.setLayoutSource(QString::fromStdString(trace.string()));
        third.setTrace(t);
        third.waitUntilReady();
        QVERIFY(QTest::qWaitFor([&] { return third.queryTracks().size() == 2; }, 30000));
        const DerivedCounterTrack& k = third.queryTracks()[0];
        QCOMPARE(k.name, kernels.name);
        QVERIFY(k.error.empty());
        size_t kernelSlices = 0;  // counted over the raw tracks
        ProcessIndex kernelProcess = kNoIndex;
        for (const Track& tr : t->tracks)
            for (uint32_t i = 0; i < tr.slices.size(); ++i)
                if (t->str(tr.slices.category[i]) == "kernel") {
                    ++kernelSlices;
                    if (kernelProcess == kNoIndex) kernelProcess = tr.process;
                }
        QVERIFY(kernelSlices > 0);
        QCOMPARE(k.series.size(), kernelSlices);
        QCOMPARE(k.process, kernelProcess);  // placed by the first row's track_id
        QCOMPARE(third.queryTracks()[1].name, std::string("broken"));
        QVERIFY(third.queryTracks()[1].error.find("nowhere") != std::string::npos);
        QCOMPARE(third.queryTracks()[1].series.size(), size_t(0));
        if (const QString out = qEnvironmentVariable("TRACESCOPE_SCREENSHOT_DIR"); !out.isEmpty()) {
            third.resize(1280, 800);
            third.show();
            QCoreApplication::processEvents();
            third.grab().save(out + QStringLiteral("/layout_query_tracks.png"));
        }
    }
};

QTEST_MAIN(LayoutStorageTest)
#include "tst_layout_storage.moc"
