// Progressive display's previews (model/import/import_preview): the trace of a file's first
// bytes holds exactly the events whose text starts in them (and no event from far beyond),
// each equal to the same event of the whole import; a slice is found again in the whole trace
// when the two traces' origins differ; which files get previews.
#include "model/import/import_preview.h"
#include "model/query/slice_queries.h"
#include "model/import/import.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <unistd.h>

using namespace tracescope;

namespace {

struct Written {
    std::string name;
    int64_t tsUs;
    uint64_t offset;  // where the event's text starts in the file
};

// 40,000 complete events on two threads, then the file's earliest event (ts 0) last of all: the
// whole trace's origin is earlier than any part's. A B at the start ends only at the file's end.
std::vector<Written> writeTrace(const std::string& path) {
    std::vector<Written> events;
    std::string text = "{\"traceEvents\":[\n";
    auto add = [&](const std::string& json, std::string name, int64_t ts) {
        if (!events.empty() || text.back() == '}') text += ",\n";
        events.push_back({std::move(name), ts, text.size()});
        text += json;
    };
    add("{\"ph\":\"B\",\"name\":\"outer\",\"pid\":1,\"tid\":1,\"ts\":1000}", "outer", 1000);
    for (int i = 0; i < 40'000; ++i) {
        const int64_t ts = 1000 + int64_t(i) * 10;
        const std::string name = "k" + std::to_string(i % 97);
        add("{\"ph\":\"X\",\"name\":\"" + name + "\",\"pid\":1,\"tid\":" + std::to_string(1 + i % 2) +
                ",\"ts\":" + std::to_string(ts) + ",\"dur\":4,\"args\":{\"i\":" + std::to_string(i) + "}}",
            name, ts);
    }
    add("{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":500000}", "", 500000);
    add("{\"ph\":\"X\",\"name\":\"first\",\"pid\":1,\"tid\":2,\"ts\":0,\"dur\":1}", "first", 0);
    text += "\n]}\n";
    std::ofstream(path, std::ios::binary) << text;
    return events;
}

// (thread, start in the file's clock, name) of every slice.
std::multiset<std::tuple<int64_t, int64_t, std::string>> slicesOf(const Trace& t) {
    std::multiset<std::tuple<int64_t, int64_t, std::string>> out;
    for (const Track& track : t.tracks)
        for (size_t i = 0; i < track.slices.size(); ++i)
            out.emplace(track.tid, track.slices.start[i] + t.originNs, std::string(t.str(track.slices.name[i])));
    return out;
}

}  // namespace

class ImportPreviewTest : public QObject {
    Q_OBJECT
private slots:
    void previewHoldsTheFilesFirstEvents() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.json").toStdString();
        const std::vector<Written> written = writeTrace(path);
        const uint64_t limit = 256 << 10;
        ImportResult part = importPreview(path, limit);
        ImportResult whole = importTrace(path);
        QVERIFY2(part.ok(), part.error.c_str());
        QVERIFY(whole.ok());

        // Every X event whose text starts before the limit is there; none from past twice it.
        std::multiset<std::tuple<int64_t, int64_t, std::string>> expected, far;
        for (size_t i = 1; i + 2 < written.size(); ++i) {  // the X events of the loop
            const Written& w = written[i];
            const int64_t tid = 1 + int64_t(i - 1) % 2;
            if (w.offset < limit) expected.emplace(tid, w.tsUs * 1000, w.name);
            if (w.offset >= 2 * limit) far.emplace(tid, w.tsUs * 1000, w.name);
        }
        const auto got = slicesOf(*part.trace);
        const auto all = slicesOf(*whole.trace);
        QCOMPARE(all.size(), written.size() - 1);  // every X, the B/E pair, "first"
        for (const auto& e : expected) QVERIFY(got.count(e) == 1);
        for (const auto& e : far) QVERIFY(got.count(e) == 0);
        QVERIFY(got.size() < all.size() / 4);
        // The B whose E is far beyond the part ends at the part's end (as an unclosed B does).
        const auto outer = std::make_tuple(int64_t(1), int64_t(1'000'000), std::string("outer"));
        QVERIFY(got.count(outer) == 1);
        QVERIFY(part.trace->originNs > whole.trace->originNs);  // "first" (ts 0) is not in the part

        // Each slice of the part, found in the whole trace: same thread, start and name, args.
        const Trace& p = *part.trace;
        const Trace& w = *whole.trace;
        size_t found = 0;
        for (TrackIndex t = 0; t < p.tracks.size(); ++t)
            for (uint32_t i = 0; i < p.tracks[t].slices.size(); ++i) {
                const SliceRef there = correspondingSlice(p, {t, i}, w);
                QVERIFY(there.valid());
                const Track& a = p.tracks[t];
                const Track& b = w.tracks[there.track];
                QCOMPARE(b.tid, a.tid);
                QCOMPARE(b.slices.start[there.index] + w.originNs, a.slices.start[i] + p.originNs);
                QCOMPARE(w.str(b.slices.name[there.index]), p.str(a.slices.name[i]));
                if (p.str(a.slices.name[i]) != "outer")
                    QCOMPARE(b.slices.duration[there.index], a.slices.duration[i]);
                ++found;
            }
        QCOMPARE(found, got.size());
        // And not found where it is not: a slice of the whole trace the part never read.
        SliceRef firstSlice = firstSliceNamed(w, "first");
        QVERIFY(firstSlice.valid());
        QVERIFY(!correspondingSlice(w, firstSlice, p).valid());
        QVERIFY(!correspondingSlice(w, {kNoIndex, 0}, p).valid());
        QVERIFY(!correspondingSlice(w, {0, 1u << 30}, p).valid());
    }

    // An XSpace's preview (TF 2.4 on a TPU host and GPUs, 3 MB): about the same share of every
    // line's events, from its start. Every line with slices in the whole trace has its first
    // slices in the part (each found in the whole trace with the same start, duration and name),
    // and the part holds about a quarter of them; the XLA programs are left out.
    void xspacePreview() {
        const std::string path = std::string(TRACESCOPE_SHARED_DIR) + "/testdata/public/tfprofiler/34.83.195.179_6003.xplane.pb";
        ImportResult whole = importTrace(path);
        QVERIFY2(whole.ok(), whole.error.c_str());
        const uint64_t fileBytes = uint64_t(QFileInfo(QString::fromStdString(path)).size());
        ImportResult part = importPreview(path, fileBytes / 4);
        QVERIFY2(part.ok(), part.error.c_str());
        const Trace& p = *part.trace;
        const Trace& w = *whole.trace;
        QVERIFY(p.xlaPrograms.empty());
        size_t partSlices = 0, wholeSlices = 0, linesWithSlices = 0;
        for (const Track& t : w.tracks)
            if (t.slices.size() && t.overflowOf == kNoIndex) ++linesWithSlices;
        for (const Track& t : w.tracks) wholeSlices += t.slices.size();
        size_t partLines = 0;
        for (TrackIndex t = 0; t < p.tracks.size(); ++t) {
            const SliceColumns& c = p.tracks[t].slices;
            if (c.size() && p.tracks[t].overflowOf == kNoIndex) ++partLines;
            for (uint32_t i = 0; i < c.size(); ++i) {
                const SliceRef there = correspondingSlice(p, {t, i}, w);
                QVERIFY(there.valid());
                QCOMPARE(w.tracks[there.track].slices.duration[there.index], c.duration[i]);
                ++partSlices;
            }
        }
        QCOMPARE(partLines, linesWithSlices);
        QVERIFY2(partSlices * 10 > wholeSlices && partSlices * 2 < wholeSlices,
                 qPrintable(QStringLiteral("%1 of %2").arg(partSlices).arg(wholeSlices)));
    }

    void cancelledPreviewStops() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.json").toStdString();
        writeTrace(path);
        std::atomic<bool> cancel{true};
        ImportResult r = importPreview(path, 256 << 10, &cancel);
        QVERIFY(!r.ok());
        QVERIFY(r.cancelled);
    }

    // Previews from 16 MiB on, ×8 each, while the file is at least 8 times the preview;
    // none for small files, other formats, folders. Sparse files: the size is what counts.
    void whichFilesGetPreviews() {
        QTemporaryDir dir;
        auto sparse = [&](const char* name, const std::string& head, uint64_t size) {
            const std::string path = dir.filePath(name).toStdString();
            std::ofstream(path, std::ios::binary) << head;
            if (::truncate(path.c_str(), off_t(size)) != 0) qFatal("truncate");
            return path;
        };
        const std::string json = "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}";
        constexpr uint64_t MiB = 1 << 20;
        QCOMPARE(previewLimits(sparse("small.json", json, 127 * MiB)), std::vector<uint64_t>{});
        QCOMPARE(previewLimits(sparse("medium.json", json, 128 * MiB)), std::vector<uint64_t>{16 * MiB});
        QCOMPARE(previewLimits(sparse("large.json", json, 1024 * MiB)), (std::vector<uint64_t>{16 * MiB, 128 * MiB}));
        QCOMPARE(previewLimits(sparse("large.json", json, 1024 * MiB), 0), std::vector<uint64_t>{});
        // An XSpace (a protobuf whose first field is planes) as Chrome JSON, by its bytes.
        QCOMPARE(previewLimits(sparse("x.xplane.pb", std::string("\x0a\x05\x08\x01\x12\x01\x61", 7), 1024 * MiB)),
                 (std::vector<uint64_t>{16 * MiB, 128 * MiB}));
        QCOMPARE(previewLimits(dir.path().toStdString()), std::vector<uint64_t>{});
        QCOMPARE(previewLimits(dir.filePath("missing.json").toStdString()), std::vector<uint64_t>{});
    }
};

QTEST_GUILESS_MAIN(ImportPreviewTest)
#include "tst_import_preview.moc"
