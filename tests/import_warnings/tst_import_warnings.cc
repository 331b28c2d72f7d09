// Typed import warnings on real files cut at a known byte: the kind, where the
// complete data ends and where the file ends. The expected offsets come from small
// walkers written here (a JSON bracket scanner, a protobuf field walker), not from
// the importers; complete files must give no data-loss warning.
#include "model/import/import.h"
#include "model/trace/partial_trace.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

using namespace tracescope;

namespace {

std::string shared(const std::string& rel) { return std::string(TRACESCOPE_SHARED_DIR) + "/testdata/" + rel; }

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string writeCut(const QTemporaryDir& dir, const std::string& name, const std::string& bytes, size_t cut) {
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(cut));
    return path;
}

const ImportWarning* findKind(const Trace& t, WarningKind kind) {
    for (const ImportWarning& w : t.warnings)
        if (w.kind == kind) return &w;
    return nullptr;
}

// The end (exclusive) of the last element of the "traceEvents" array that is complete
// within text[0, n): brackets counted outside strings, nothing else.
size_t lastCompleteEventEnd(const std::string& text, size_t n) {
    size_t i = text.find("\"traceEvents\"");
    i = text.find('[', i) + 1;
    int depth = 0;
    bool inString = false, escape = false;
    size_t last = i;
    for (; i < n; ++i) {
        const char c = text[i];
        if (inString) {
            if (escape) escape = false;
            else if (c == '\\') escape = true;
            else if (c == '"') inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (--depth == 0) last = i + 1;
        }
    }
    return last;
}

// A protobuf field: [begin, end) in the buffer, its payload at [payload, end).
struct WireField {
    uint32_t number = 0;
    size_t begin = 0, payload = 0, end = 0;
};

bool varint(const std::string& b, size_t& p, size_t limit, uint64_t& v) {
    v = 0;
    for (int shift = 0; p < limit && shift < 64; shift += 7) {
        const uint8_t byte = uint8_t(b[p++]);
        v |= uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80)) return true;
    }
    return false;
}

// The length-delimited fields of the message at [from, to) (other wire types skipped).
std::vector<WireField> fields(const std::string& b, size_t from, size_t to) {
    std::vector<WireField> out;
    size_t p = from;
    while (p < to) {
        WireField f;
        f.begin = p;
        uint64_t key = 0, len = 0;
        if (!varint(b, p, to, key)) break;
        f.number = uint32_t(key >> 3);
        const int type = int(key & 7);
        if (type == 0) {
            if (!varint(b, p, to, len)) break;
            continue;
        }
        if (type == 1) { p += 8; continue; }
        if (type == 5) { p += 4; continue; }
        if (type != 2 || !varint(b, p, to, len) || p + len > to) break;
        f.payload = p;
        f.end = p + len;
        p = f.end;
        out.push_back(f);
    }
    return out;
}

}  // namespace

class ImportWarningsTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    // Kineto JSON cut mid-file: everything up to the last complete event, a warning that says so.
    void kinetoJsonCut() {
        const std::string bytes = readAll(shared("gpu/torch_mlp_memory_h100.json"));
        const size_t cut = 600000;
        QVERIFY(bytes.size() > cut);
        ImportResult r = importTrace(writeCut(dir_, "cut.json", bytes, cut));
        QVERIFY2(r.ok(), r.error.c_str());
        const ImportWarning* w = findKind(*r.trace, WarningKind::Truncated);
        QVERIFY(w);
        QCOMPARE(w->totalBytes.value_or(0), uint64_t(cut));
        QCOMPARE(w->byteOffset.value_or(0), uint64_t(lastCompleteEventEnd(bytes, cut)));
        QVERIFY(!w->uncompressedOffsets);
        QCOMPARE(w->lastEventNs.value_or(-1), r.trace->endNs);
        QVERIFY(traceIsPartial(*r.trace));
        // The banner states the same facts.
        const std::string banner = partialTraceBanner(*r.trace);
        QVERIFY2(banner.find("ends early at byte 599,201 of 600,000") != std::string::npos, banner.c_str());
        QCOMPARE(lastCompleteEventEnd(bytes, cut), size_t(599201));
        QVERIFY(!partialTraceNote(*r.trace).empty());
    }

    // A cut .json.gz: offsets count the uncompressed JSON.
    void gzipCut() {
        const std::string bytes = readAll(shared("gpu/torch2.11_cu130_h100_kineto_trace.json.gz"));
        ImportResult r = importTrace(writeCut(dir_, "cut.json.gz", bytes, bytes.size() / 2));
        QVERIFY2(r.ok(), r.error.c_str());
        const ImportWarning* w = findKind(*r.trace, WarningKind::Truncated);
        QVERIFY(w);
        QVERIFY(w->uncompressedOffsets);
        QVERIFY(w->byteOffset.value_or(0) > 0 && w->byteOffset <= w->totalBytes);
        QVERIFY2(warningText(*w).find("the gzip stream is cut") != std::string::npos, warningText(*w).c_str());
    }

    // XSpace cut inside the header of a plane: the planes before it are complete.
    void xspaceCutBetweenPlanes() {
        const std::string bytes = readAll(shared("gpu/jax_mlp_h100.xplane.pb"));
        const std::vector<WireField> top = fields(bytes, 0, bytes.size());
        size_t boundary = 0;
        for (size_t i = 1; i < top.size(); ++i)
            if (top[i].number == 1 && top[i].payload - top[i].begin >= 4) {  // a plane with a 3+ byte length
                boundary = top[i].begin;
                break;
            }
        QVERIFY(boundary > 0);
        const size_t cut = boundary + 3;  // the key and part of the length: nothing of the plane is there
        ImportResult r = importTrace(writeCut(dir_, "cut.xplane.pb", bytes, cut));
        QVERIFY2(r.ok(), r.error.c_str());
        const ImportWarning* w = findKind(*r.trace, WarningKind::Truncated);
        QVERIFY(w);
        QCOMPARE(w->byteOffset.value_or(0), uint64_t(boundary));
        QCOMPARE(w->totalBytes.value_or(0), uint64_t(cut));
        QVERIFY(traceIsPartial(*r.trace));
    }

    // XSpace cut in the middle of a plane: its complete event runs are kept, so the
    // complete data ends after the plane's start and before the cut.
    void xspaceCutInsidePlane() {
        const std::string bytes = readAll(shared("gpu/jax_mlp_h100.xplane.pb"));
        const std::vector<WireField> top = fields(bytes, 0, bytes.size());
        // The biggest plane after the first (a cut inside the first plane leaves no complete one).
        QVERIFY(top.size() > 2);
        const WireField* biggest = &top[1];
        for (size_t i = 1; i < top.size(); ++i)
            if (top[i].number == 1 && top[i].end - top[i].begin > biggest->end - biggest->begin) biggest = &top[i];
        const size_t cut = biggest->begin + (biggest->end - biggest->begin) / 2;
        ImportResult r = importTrace(writeCut(dir_, "mid.xplane.pb", bytes, cut));
        QVERIFY2(r.ok(), r.error.c_str());
        const ImportWarning* w = findKind(*r.trace, WarningKind::Truncated);
        QVERIFY(w);
        QCOMPARE(w->totalBytes.value_or(0), uint64_t(cut));
        QVERIFY(w->byteOffset.value_or(0) >= biggest->begin);
        QVERIFY(w->byteOffset.value_or(0) <= cut);
    }

    // RunMetadata cut two bytes into a node record: the complete records end where it starts.
    void runMetadataCut() {
        const std::string bytes = readAll(std::string(TRACESCOPE_SOURCE_DIR) + "/tests/import_runmetadata/data/handwired.pb");
        // RunMetadata.step_stats (1) > StepStats.dev_stats (1) > DeviceStepStats.node_stats (2).
        std::vector<WireField> nodes;
        for (const WireField& step : fields(bytes, 0, bytes.size()))
            if (step.number == 1)
                for (const WireField& dev : fields(bytes, step.payload, step.end))
                    if (dev.number == 1)
                        for (const WireField& node : fields(bytes, dev.payload, dev.end))
                            if (node.number == 2) nodes.push_back(node);
        QVERIFY(nodes.size() >= 3);
        size_t k = 0;  // a node followed directly by another node record
        for (size_t i = 1; i + 1 < nodes.size(); ++i)
            if (nodes[i].end == nodes[i + 1].begin) k = i;
        QVERIFY(k > 0);
        const size_t cut = nodes[k].end + 2;
        ImportResult r = importTrace(writeCut(dir_, "cut.pb", bytes, cut));
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.trace->format, std::string("runmetadata"));
        const ImportWarning* w = findKind(*r.trace, WarningKind::Truncated);
        QVERIFY(w);
        QCOMPARE(w->byteOffset.value_or(0), uint64_t(nodes[k].end));
        QCOMPARE(w->totalBytes.value_or(0), uint64_t(cut));
        QVERIFY(traceIsPartial(*r.trace));
    }

    // Complete files: nothing lost, no banner.
    void completeFiles_data() {
        QTest::addColumn<QString>("path");
        QTest::newRow("kineto json") << QString::fromStdString(shared("gpu/torch_mlp_memory_h100.json"));
        QTest::newRow("kineto gz") << QString::fromStdString(shared("gpu/torch2.11_cu130_h100_kineto_trace.json.gz"));
        QTest::newRow("xspace") << QString::fromStdString(shared("gpu/jax_mlp_h100.xplane.pb"));
        QTest::newRow("runmetadata")
            << QStringLiteral(TRACESCOPE_SOURCE_DIR "/tests/import_runmetadata/data/handwired.pb");
    }
    void completeFiles() {
        QFETCH(QString, path);
        ImportResult r = importTrace(path.toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        for (const ImportWarning& w : r.trace->warnings) QVERIFY2(!losesData(w), warningText(w).c_str());
        QVERIFY(!traceIsPartial(*r.trace));
        QVERIFY(partialTraceBanner(*r.trace).empty());
        QVERIFY(partialTraceNote(*r.trace).empty());
    }

    // Damage after the data: trailing bytes are reported where they start, and lose nothing.
    void trailingBytes() {
        const std::string bytes = readAll(shared("gpu/torch_mlp_memory_h100.json"));
        const size_t end = bytes.find_last_of('}') + 1;
        const std::string path = writeCut(dir_, "trailing.json", bytes.substr(0, end) + " garbage", end + 8);
        ImportResult r = importTrace(path);
        QVERIFY2(r.ok(), r.error.c_str());
        const ImportWarning* w = findKind(*r.trace, WarningKind::TrailingData);
        QVERIFY(w);
        QCOMPARE(w->byteOffset.value_or(0), uint64_t(end + 1));
        QVERIFY(!traceIsPartial(*r.trace));
    }
};

QTEST_GUILESS_MAIN(ImportWarningsTest)
#include "tst_import_warnings.moc"
