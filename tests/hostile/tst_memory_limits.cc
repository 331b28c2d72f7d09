// Memory limits of an import (issue 12): the estimate made before an import refuses a file the
// machine cannot hold, with a clear message; an import that grows past the budget anyway (its
// head looked cheaper than the rest) is stopped, not killed. TRACESCOPE_MEMORY_LIMIT stands in
// for a small machine.
#include "import_test_support.h"

#include "model/import/memory_budget.h"

#include <QTemporaryDir>
#include <QtTest>

#include <zlib.h>

#include <cstdio>
#include <fstream>
#include <string>

using namespace tracescope;
using namespace tracescope::testsupport;

namespace {

// `n` compact slices, 8 threads: {"ph":"X","name":"a","pid":1,"tid":T,"ts":I,"dur":1}
std::string compactEvents(int n) {
    std::string text = "[";
    for (int i = 0; i < n; ++i) {
        if (i) text += ',';
        text += "{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":" + std::to_string(i % 8) + ",\"ts\":" + std::to_string(i) +
                ",\"dur\":1}";
    }
    return text + "]";
}

bool writeGzip(const std::string& path, const std::string& text) {
    gzFile f = gzopen(path.c_str(), "wb1");
    if (!f) return false;
    const bool ok = gzwrite(f, text.data(), unsigned(text.size())) == int(text.size());
    return gzclose(f) == Z_OK && ok;
}

// MemAvailable of /proc/meminfo, read here on its own.
unsigned long long memAvailableBytes() {
    std::ifstream in("/proc/meminfo");
    std::string key, unit;
    unsigned long long kb = 0;
    while (in >> key >> kb >> unit)
        if (key == "MemAvailable:") return kb * 1024;
    return 0;
}

// Sets TRACESCOPE_MEMORY_LIMIT for one scope.
struct LimitScope {
    explicit LimitScope(const char* value) { qputenv("TRACESCOPE_MEMORY_LIMIT", value); }
    ~LimitScope() { qunsetenv("TRACESCOPE_MEMORY_LIMIT"); }
};

}  // namespace

class MemoryLimitsTest : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    std::string path(const char* name) { return tmp_.filePath(QString::fromLatin1(name)).toStdString(); }

private slots:
    void sizesParse() {
        QCOMPARE(parseByteSize("123"), uint64_t(123));
        QCOMPARE(parseByteSize("64K"), uint64_t(64 * 1024));
        QCOMPARE(parseByteSize("200MB"), uint64_t(200) * 1024 * 1024);
        QCOMPARE(parseByteSize("1.5G"), uint64_t(1536) * 1024 * 1024);  // 1.5 x 1024 MiB
        QCOMPARE(parseByteSize("2GiB"), uint64_t(2) << 30);
        QCOMPARE(parseByteSize("lots"), uint64_t(0));
        QCOMPARE(parseByteSize("-5M"), uint64_t(0));
        QCOMPARE(parseByteSize("12Q"), uint64_t(0));
    }

    // Without the variable: 90% of MemAvailable (or less, in a cgroup); with it: exactly it.
    void budgetFromMeminfoOrOverride() {
        qunsetenv("TRACESCOPE_MEMORY_LIMIT");
        const MemoryBudget machine = importMemoryBudget();
        const unsigned long long available = memAvailableBytes();
        QVERIFY(available > 0);
        QVERIFY(machine.bytes > 0);
        QVERIFY2(machine.bytes <= available, (std::to_string(machine.bytes) + " > " + std::to_string(available)).c_str());
        LimitScope limit("3G");
        const MemoryBudget given = importMemoryBudget();
        QCOMPARE(given.bytes, uint64_t(3) << 30);
        QCOMPARE(given.source, std::string("TRACESCOPE_MEMORY_LIMIT"));
    }

    // 600,000 compact slices gzip-compressed (~1 MB on disk, 31.9 MB inflated): refused at once
    // under a 40 MB limit, naming the inflated size (the gzip trailer's: the text's length);
    // opened under a large one.
    void gzipBeyondTheLimitRefusedAtOnce() {
        const std::string text = compactEvents(600000);
        const std::string p = path("dense.json.gz");
        QVERIFY(writeGzip(p, text));
        char inflated[32];
        std::snprintf(inflated, sizeof inflated, "%.1f MB", double(text.size()) / (1024.0 * 1024.0));
        {
            LimitScope limit("40M");
            ImportResult r = importWithDeadline(p, 60);
            QVERIFY(!r.ok());
            QVERIFY2(containsNoCase(r.error, "not enough memory"), r.error.c_str());
            QVERIFY2(containsNoCase(r.error, std::string(inflated) + " once inflated"), r.error.c_str());
            QVERIFY2(containsNoCase(r.error, "TRACESCOPE_MEMORY_LIMIT"), r.error.c_str());
        }
        LimitScope limit("8G");
        ImportResult r = importWithDeadline(p, 120);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.trace->counts().slices, size_t(600000));
    }

    // 5 MiB of blanks, then 1.5 M compact slices (~92 MB): the head the estimate samples holds
    // no event, so the estimate (~64 MB) passes an 80 MB limit; the import then grows past it
    // and is stopped with a message, well before the end of the file.
    void importGrowingPastTheLimitStopped() {
        const std::string p = path("blank_head.json");
        {
            std::ofstream out(p, std::ios::binary);
            out << std::string(5 << 20, ' ') << compactEvents(1500000);
            QVERIFY(bool(out));
        }
        LimitScope limit("80M");
        ImportResult r = importWithDeadline(p, 120);
        QVERIFY(!r.ok());
        QVERIFY2(containsNoCase(r.error, "stopped: the import grew by"), r.error.c_str());
        QVERIFY2(!containsNoCase(r.error, "not enough memory to open"), r.error.c_str());
    }
};

QTEST_GUILESS_MAIN(MemoryLimitsTest)
#include "tst_memory_limits.moc"
