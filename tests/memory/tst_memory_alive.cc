// The allocations alive at a moment (what a click on the memory chart lists): a hand-made
// timeline worked out in the comments, and two real traces at their peak against
// tests/tools/memory_reference.py (raw files, stdlib only) -> data/memory_reference.json.
#include "model/analysis/memory_alive.h"
#include "model/import/import.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <fstream>

using namespace tracescope;

namespace {

MemorySnapshot event(TimeNs t, MemoryEventKind kind, int64_t bytes, uint64_t addr, uint32_t partner, int64_t heap) {
    MemorySnapshot s;
    s.time = t;
    s.kind = kind;
    s.allocationBytes = bytes;
    s.address = addr;
    s.partner = partner;
    s.heapBytes = heap;
    return s;
}

// 0: t=10 A 100 B at 0x1 (freed by 3)     heap 1100 (1000 held from before the profile)
// 1: t=20 B 300 B at 0x2 (freed by 4)     heap 1400
// 2: t=20 C  50 B at 0x3 (never freed)    heap 1450
// 3: t=30 free A                          heap 1350
// 4: t=50 free B                          heap 1050
// 5: t=60 D  70 B without an address      heap 1120
MemoryIdProfile handProfile() {
    using K = MemoryEventKind;
    MemoryIdProfile p;
    p.memoryId = "cuda:0";
    p.source = MemorySource::Kineto;
    p.hasAddresses = true;
    p.timeline = {event(10, K::Allocation, 100, 1, 3, 1100),       event(20, K::Allocation, 300, 2, 4, 1400),
                  event(20, K::Allocation, 50, 3, kNoIndex, 1450), event(30, K::Deallocation, 100, 1, 0, 1350),
                  event(50, K::Deallocation, 300, 2, 1, 1050),     event(60, K::Allocation, 70, 0, kNoIndex, 1120)};
    return p;
}

}  // namespace

class TestMemoryAlive : public QObject {
    Q_OBJECT

private slots:
    void handTimeline() {
        const MemoryIdProfile p = handProfile();
        using V = std::vector<uint32_t>;
        struct Case {
            TimeNs t;
            V alive;  // largest first
            int64_t bytes, heap;
        };
        const Case cases[] = {
            {5, {}, 0, -1},              // before the first event: nothing known yet
            {10, {0}, 100, 1100},        // an allocation at the moment itself is alive
            {25, {1, 0, 2}, 450, 1450},  // B 300, A 100, C 50
            {30, {1, 2}, 350, 1350},     // A freed at the moment: gone
            {49, {1, 2}, 350, 1350},
            {50, {2}, 50, 1050},
            {1000, {2}, 50, 1120},  // D has no address: it cannot be matched, so it is not listed
        };
        for (const Case& c : cases) {
            const AliveAllocations a = allocationsAliveAt(p, c.t);
            const QByteArray at = QByteArray::number(qint64(c.t));
            QVERIFY2(a.matched, at);
            QVERIFY2(a.snapshots == c.alive, at);
            QVERIFY2(a.bytes == c.bytes, at);
            QVERIFY2(a.heapBytes == c.heap, at);
        }
    }

    // Without addresses (or from counters) frees cannot be matched: nothing is listed, and the
    // caller says why.
    void unmatched() {
        MemoryIdProfile p = handProfile();
        p.hasAddresses = false;
        AliveAllocations a = allocationsAliveAt(p, 25);
        QVERIFY(!a.matched);
        QVERIFY(a.snapshots.empty());
        QCOMPARE(a.heapBytes, int64_t(1450));
        p = handProfile();
        p.source = MemorySource::Counter;
        QVERIFY(!allocationsAliveAt(p, 25).matched);
        QVERIFY(!allocationsAliveAt(MemoryIdProfile{}, 0).matched);
    }

    // At the peak, the allocations alive are those the reference script matched by address.
    void realPeaks_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("memoryId");
        QTest::newRow("torch cuda:0") << "gpu/torch_mlp_memory_h100.json"
                                      << "cuda:0";
        QTest::newRow("jax GPU_0_bfc") << "gpu/jax_mlp_h100.xplane.pb"
                                       << "GPU_0_bfc";
    }
    void realPeaks() {
        QFETCH(QString, file);
        QFETCH(QString, memoryId);
        ImportResult r = importTrace(std::string(TRACESCOPE_SHARED_DIR) + "/testdata/" + file.toStdString());
        QVERIFY(r.ok());
        const MemoryProfileResult res = computeMemoryProfile(*r.trace, false);
        const MemoryIdProfile* m = nullptr;
        for (const MemoryIdProfile& p : res.ids)
            if (p.memoryId == memoryId.toStdString()) m = &p;
        QVERIFY(m);
        std::ifstream in(std::string(TRACESCOPE_SOURCE_DIR) + "/tests/memory/data/memory_reference.json");
        const nlohmann::json ref = nlohmann::json::parse(in)[file.section('/', -1).toStdString()][m->memoryId];
        const AliveAllocations a = allocationsAliveAt(*m, m->peakTimeNs);
        QCOMPARE(int64_t(a.snapshots.size()), ref["live_at_peak"].get<int64_t>());
        QCOMPARE(a.bytes, ref["live_bytes_at_peak"].get<int64_t>());
        QCOMPARE(a.heapBytes, m->heapAtPeak);
    }
};

QTEST_GUILESS_MAIN(TestMemoryAlive)
#include "tst_memory_alive.moc"
