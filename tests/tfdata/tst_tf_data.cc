// The tf.data bottleneck analysis (model/analysis/tf_data.h):
//  * on hand-built pipelines (tf_data_cases.cc) against the numbers worked out by hand there from
//    the intervals of the construction: critical path, self times, bottleneck, pipeline latency,
//    an async iterator whose producer ran ahead (not blocking), one pipeline per host;
//  * on the real TF 2.4 trace of the shared test data and on the TF 2.21 fixture
//    (tests/data/peers/tf_data_slow_map.xplane.pb) against tests/tools/tf_data_calls.py, an
//    independent reading of the same files (wire-format walker, its own nesting and stitching);
//  * tracescope-cli tfdata --json end to end.
#include "model/analysis/tf_data.h"
#include "model/import/import.h"
#include "model/import/xspace_importer.h"
#include "tests/tfdata/tf_data_cases.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

using namespace tracescope;

namespace {

constexpr TimeNs kUs = 1000;

std::unique_ptr<Trace> importSpace(const xspace::SpaceWriter& space, const QTemporaryDir& dir, const char* name) {
    const std::string path = dir.filePath(name).toStdString();
    std::string error;
    if (!space.writeFile(path, error)) return nullptr;
    ImportResult r = importXSpace(path);
    return std::move(r.trace);
}

const TfDataIteratorStat& statNamed(const TfDataPipeline& p, const TfDataCall& c, const std::string& name,
                                    uint64_t id = 0) {
    for (const TfDataIteratorStat& s : c.iterators) {
        const TfDataIterator* it = p.iterator(s.id);
        if (it && it->name == name && (id == 0 || s.id == id)) return s;
    }
    static const TfDataIteratorStat none{};
    QTest::qFail(("no iterator " + name).c_str(), __FILE__, __LINE__);
    return none;
}

struct Expect {
    const char* name;
    uint64_t id;
    double totalUs, selfUs;
    uint64_t calls;
    bool blocking;
};

void checkCall(const TfDataPipeline& p, const TfDataCall& c, const std::vector<Expect>& want) {
    QCOMPARE(c.iterators.size(), want.size());
    for (const Expect& e : want) {
        const TfDataIteratorStat& s = statNamed(p, c, e.name, e.id);
        QVERIFY2(s.id != 0, e.name);
        QCOMPARE(s.totalNs, TimeNs(e.totalUs * kUs));
        QCOMPARE(s.selfNs, TimeNs(e.selfUs * kUs));
        QCOMPARE(s.calls, e.calls);
        QVERIFY2(s.blocking == e.blocking, e.name);
    }
}

std::unique_ptr<Trace> importText(const QTemporaryDir& dir, const char* name, const std::string& text) {
    const std::string path = dir.filePath(name).toStdString();
    std::ofstream(path) << text;
    ImportResult r = importTrace(path);
    return std::move(r.trace);
}

std::string sharedFile(const char* rel) { return std::string(TRACESCOPE_SHARED_DIR) + "/" + rel; }

}  // namespace

class TfDataTest : public QObject {
    Q_OBJECT
private slots:
    void mapBatchPrefetch() {
        QTemporaryDir dir;
        auto trace = importSpace(tfdatacases::mapBatchPrefetch(), dir, "worker-0.xplane.pb");
        QVERIFY(trace);
        const TfDataResult r = computeTfData(*trace);
        QCOMPARE(r.pipelines.size(), size_t(1));
        const TfDataPipeline& p = r.pipelines[0];
        QCOMPARE(p.kind, TfDataPipelineKind::Host);
        QCOMPARE(p.name, std::string("Host:0"));
        QCOMPARE(p.host, std::string("worker-0"));
        QCOMPARE(p.rootId, uint64_t(1));
        QCOMPARE(p.calls.size(), size_t(2));
        QCOMPARE(p.maxNs, 900 * kUs);
        QCOMPARE(p.minNs, 30 * kUs);
        QCOMPARE(p.avgNs, 465.0 * kUs);
        QCOMPARE(p.slowCalls, uint64_t(1));
        // The graph: parent ids as constructed, async flags by iterator kind.
        QCOMPARE(p.iterators.size(), size_t(5));
        QCOMPARE(p.iterators[0].id, uint64_t(1));
        QVERIFY(!p.iterators[0].hasParent);
        const TfDataIterator* pmap = p.iterator(4);
        QVERIFY(pmap);
        QCOMPARE(pmap->name, std::string("ParallelMapV2"));
        QCOMPARE(pmap->longName, std::string("Iterator::Root::Prefetch::BatchV2::ParallelMapV2"));
        QCOMPARE(pmap->parentId, uint64_t(3));
        QVERIFY(pmap->isAsync);
        QVERIFY(p.iterator(2)->isAsync);
        QVERIFY(!p.iterator(3)->isAsync);

        // Rank 0: the batch was not ready; everything is on the critical path.
        const TfDataCall& slow = p.calls[0];
        QCOMPARE(slow.durationNs, 900 * kUs);
        checkCall(p, slow, {{"Root", 1, 900, 20, 1, true},
                            {"Prefetch", 2, 880, 40, 1, true},
                            {"BatchV2", 3, 840, 20, 1, true},
                            {"ParallelMapV2", 4, 820, 814, 2, true},
                            {"Range", 5, 14, 14, 2, true}});
        QCOMPARE(slow.bottleneckId, uint64_t(4));
        QCOMPARE(slow.bottleneckSelfNs, 814 * kUs);
        // Start of each iterator: its first event in the call; end: its last event's end.
        QCOMPARE(slow.stat(5)->startNs - slow.startNs, TimeNs(34 * kUs));
        QCOMPARE(slow.stat(5)->endNs - slow.startNs, TimeNs(50 * kUs));
        QCOMPARE(slow.stat(4)->endNs - slow.startNs, TimeNs(860 * kUs));
        // Everything of this call ran after the root call began: nothing was done ahead.
        for (const TfDataIteratorStat& s : slow.iterators) QCOMPARE(s.aheadNs, TimeNs(0));
        // The two ParallelMapV2 events, in time order: [1030, 1430) less Range [1034, 1040) = 394,
        // [1440, 1860) whose Range ran before it = 420 (sum 814, the box's self).
        const std::vector<TfDataEventRef> pmapEvents = tfDataCallEvents(*trace, r, 0, 0, 4);
        QCOMPARE(pmapEvents.size(), size_t(2));
        QCOMPARE(pmapEvents[0].selfNs, 394 * kUs);
        QCOMPARE(pmapEvents[1].selfNs, 420 * kUs);
        auto startOf = [&](SliceRef e) { return trace->tracks[e.track].slices.start[e.index]; };
        QCOMPARE(startOf(pmapEvents[1].slice) - startOf(pmapEvents[0].slice), 410 * kUs);  // 1440 - 1030

        // Rank 1: the prefetched element was made ahead: below Prefetch nothing blocks.
        const TfDataCall& fast = p.calls[1];
        checkCall(p, fast, {{"Root", 1, 30, 10, 1, true},
                            {"Prefetch", 2, 20, 20, 1, true},
                            {"BatchV2", 3, 595, 15, 1, false},
                            {"ParallelMapV2", 4, 580, 571, 2, false},
                            {"Range", 5, 9, 9, 2, false}});
        QCOMPARE(fast.bottleneckId, uint64_t(2));
        QCOMPARE(fast.bottleneckSelfNs, 20 * kUs);
        // Made ahead, before the call began at 3000: BatchV2 [1902, 2497) starts 1098 before it and
        // lies wholly before it (595); ParallelMapV2 [1905, 2195) + [2200, 2490) = 580 ahead;
        // Range 5 + 4 = 9. Root and Prefetch ran in the call.
        QCOMPARE(fast.stat(3)->startNs - fast.startNs, TimeNs(-1098 * kUs));
        QCOMPARE(fast.stat(3)->endNs - fast.startNs, TimeNs(-503 * kUs));
        QCOMPARE(fast.stat(3)->aheadNs, 595 * kUs);
        QCOMPARE(fast.stat(4)->aheadNs, 580 * kUs);
        QCOMPARE(fast.stat(5)->aheadNs, 9 * kUs);
        QCOMPARE(fast.stat(1)->aheadNs, TimeNs(0));
        QCOMPARE(fast.stat(2)->aheadNs, TimeNs(0));
        // Per event: 290 - 5 and 290 - 4 (each less its Range).
        const std::vector<TfDataEventRef> fastPmap = tfDataCallEvents(*trace, r, 0, 1, 4);
        QCOMPARE(fastPmap.size(), size_t(2));
        QCOMPARE(fastPmap[0].selfNs, 285 * kUs);
        QCOMPARE(fastPmap[1].selfNs, 286 * kUs);

        // Summary: one host pipeline slower than 50 us; ParallelMapV2 is not in XProf's list.
        QVERIFY(r.summary.hasTfData);
        QVERIFY(r.summary.slowPipeline);
        QVERIFY(!r.summary.deviceOnly);
        QCOMPARE(r.bottlenecks.size(), size_t(1));
        QCOMPARE(r.bottlenecks[0].iteratorName, std::string("ParallelMapV2"));
        QCOMPARE(r.bottlenecks[0].category, TfDataBottleneckCategory::Other);
        QVERIFY(r.summary.text.find("ParallelMapV2") != std::string::npos);
        QVERIFY(!r.summary.suggestion.empty());

        // Navigation: the events of ParallelMapV2 in rank 0 are its two GetNext calls; each maps back.
        const std::vector<SliceRef> ev = tfDataEventsOf(r, 0, 0, 4);
        QCOMPARE(ev.size(), size_t(2));
        for (SliceRef s : ev) {
            const TfDataEventRef* at = tfDataEventAt(r, s);
            QVERIFY(at);
            QCOMPARE(at->call, uint32_t(0));
            QCOMPARE(at->iteratorId, uint64_t(4));
        }
        QCOMPARE(tfDataEventsOf(r, 0, 1, 5).size(), size_t(2));
    }

    void interleaveTfRecord() {
        QTemporaryDir dir;
        auto trace = importSpace(tfdatacases::interleaveTfRecord(), dir, "worker-0.xplane.pb");
        QVERIFY(trace);
        const TfDataResult r = computeTfData(*trace);
        QCOMPARE(r.pipelines.size(), size_t(1));
        const TfDataPipeline& p = r.pipelines[0];
        QCOMPARE(p.calls.size(), size_t(2));
        QCOMPARE(p.maxNs, 2000 * kUs);
        QCOMPARE(p.minNs, 25 * kUs);
        QCOMPARE(p.avgNs, 1012.5 * kUs);
        QCOMPARE(p.slowCalls, uint64_t(1));
        QCOMPARE(p.iterators.size(), size_t(8));
        QCOMPARE(p.iterator(17)->longName, std::string("Iterator::Root::Prefetch::BatchV2::Shuffle::Interleave[0]::TFRecord"));
        QCOMPARE(p.iterator(17)->name, std::string("TFRecord"));
        QCOMPARE(p.iterator(17)->label, std::string("TFRecord [0]"));
        QCOMPARE(p.iterator(15)->label, std::string("Interleave"));
        QCOMPARE(p.iterator(18)->parentId, uint64_t(15));
        checkCall(p, p.calls[0], {{"Root", 11, 2000, 20, 1, true},
                                  {"Prefetch", 12, 1980, 45, 1, true},
                                  {"BatchV2", 13, 2940, 40, 1, true},
                                  {"Shuffle", 14, 2900, 30, 2, true},
                                  {"Interleave", 15, 2870, 30, 2, true},
                                  {"TensorSlice", 16, 10, 10, 1, true},
                                  {"TFRecord", 17, 1350, 1350, 1, true},
                                  {"TFRecord", 18, 1480, 1480, 1, true}});
        QCOMPARE(p.calls[0].bottleneckId, uint64_t(18));
        QCOMPARE(p.calls[0].bottleneckSelfNs, 1480 * kUs);
        // Before the call began at 10000: BatchV2 from 9005 (995), Shuffle's first call
        // [9010, 10410) (990), TFRecord#17 [9040, 10390) (960); TFRecord#18 began at 10430 (0).
        QCOMPARE(p.calls[0].stat(13)->aheadNs, 995 * kUs);
        QCOMPARE(p.calls[0].stat(14)->aheadNs, 990 * kUs);
        QCOMPARE(p.calls[0].stat(17)->aheadNs, 960 * kUs);
        QCOMPARE(p.calls[0].stat(18)->aheadNs, TimeNs(0));
        QCOMPARE(p.calls[0].stat(14)->endNs - p.calls[0].startNs, 1920 * kUs);
        checkCall(p, p.calls[1], {{"Root", 11, 25, 10, 1, true},
                                  {"Prefetch", 12, 15, 15, 1, true},
                                  {"BatchV2", 13, 495, 15, 1, false},
                                  {"Shuffle", 14, 480, 10, 1, false},
                                  {"Interleave", 15, 470, 10, 1, false},
                                  {"TFRecord", 18, 460, 460, 1, false}});
        QCOMPARE(p.calls[1].bottleneckId, uint64_t(12));
        QCOMPARE(r.bottlenecks.size(), size_t(1));
        QCOMPARE(r.bottlenecks[0].category, TfDataBottleneckCategory::SlowSource);
        QCOMPARE(r.bottlenecks[0].iteratorLongName, p.iterator(18)->longName);
        QCOMPARE(r.summary.suggestion, tfDataSuggestion("TFRecord"));
    }

    void pipelinePerHost() {
        QTemporaryDir dir;
        const std::string a = dir.filePath("host-a.xplane.pb").toStdString();
        const std::string b = dir.filePath("host-b.xplane.pb").toStdString();
        std::string error;
        QVERIFY(tfdatacases::twoHostsA().writeFile(a, error));
        QVERIFY(tfdatacases::twoHostsB().writeFile(b, error));
        ImportResult imported = importXSpaces({{"host-a", a, {}}, {"host-b", b, {}}});
        QVERIFY2(imported.ok(), imported.error.c_str());
        const TfDataResult r = computeTfData(*imported.trace);
        // The same iterator ids on both hosts: still one pipeline each.
        QCOMPARE(r.pipelines.size(), size_t(2));
        const TfDataPipeline* pa = nullptr;
        const TfDataPipeline* pb = nullptr;
        for (const auto& p : r.pipelines) (p.host == "host-a" ? pa : pb) = &p;
        QVERIFY(pa && pb && pb->host == "host-b");
        QCOMPARE(pa->name, std::string("Host:0"));
        QCOMPARE(pb->name, std::string("Host:0"));
        checkCall(*pa, pa->calls[0], {{"Root", 21, 300, 10, 1, true},
                                      {"Prefetch", 22, 290, 105, 1, true},
                                      {"Map", 23, 185, 180, 1, true},
                                      {"Range", 24, 5, 5, 1, true}});
        checkCall(*pb, pb->calls[0], {{"Root", 21, 80, 4, 1, true},
                                      {"Prefetch", 22, 76, 9, 1, true},
                                      {"Filter", 23, 168, 128, 1, true},
                                      {"Range", 24, 40, 40, 1, true}});
        // Worst first: host-a (300 us, Map) then host-b (80 us, Filter).
        QCOMPARE(r.bottlenecks.size(), size_t(2));
        QCOMPARE(r.bottlenecks[0].host, std::string("host-a"));
        QCOMPARE(r.bottlenecks[0].iteratorName, std::string("Map"));
        QCOMPARE(r.bottlenecks[0].iteratorLatencyNs, 180 * kUs);
        QCOMPARE(r.bottlenecks[0].category, TfDataBottleneckCategory::TransformationWithParallelVersion);
        QCOMPARE(r.bottlenecks[1].host, std::string("host-b"));
        QCOMPARE(r.bottlenecks[1].iteratorName, std::string("Filter"));
        QCOMPARE(r.bottlenecks[1].category, TfDataBottleneckCategory::TransformationWithoutParallelVersion);
        QVERIFY(r.summary.slowPipeline);
        QVERIFY(r.summary.text.find("host-a") != std::string::npos);
    }

    void cycleIsCut() {
        QTemporaryDir dir;
        auto trace = importSpace(tfdatacases::cycle(), dir, "worker-0.xplane.pb");
        QVERIFY(trace);
        const TfDataResult r = computeTfData(*trace);
        QCOMPARE(r.pipelines.size(), size_t(1));
        const TfDataCall& c = r.pipelines[0].calls.at(0);
        // Root, Prefetch, Root, ... until depth 100: 51 visits of the root, 50 of Prefetch.
        QCOMPARE(c.stat(5)->calls, uint64_t(51));
        QCOMPARE(c.stat(6)->calls, uint64_t(50));
        QCOMPARE(r.events.size(), size_t(2));  // each event listed once for navigation
    }

    void noTfData() {
        QTemporaryDir dir;
        auto trace = importSpace(tfdatacases::noTfData(), dir, "worker-0.xplane.pb");
        QVERIFY(trace);
        const TfDataResult r = computeTfData(*trace);
        QVERIFY(r.pipelines.empty());
        QVERIFY(!r.summary.hasTfData);
        QVERIFY(!r.summary.slowPipeline);
        QVERIFY(r.summary.text.find("host_tracer_level=2") != std::string::npos);
    }

    void categories() {
        QCOMPARE(tfDataBottleneckCategory("TFRecord"), TfDataBottleneckCategory::SlowSource);
        QCOMPARE(tfDataBottleneckCategory("Generator"), TfDataBottleneckCategory::SlowSource);
        QCOMPARE(tfDataBottleneckCategory("FixedLengthRecordV2"), TfDataBottleneckCategory::SlowSource);
        QCOMPARE(tfDataBottleneckCategory("DataService"), TfDataBottleneckCategory::SlowDataService);
        QCOMPARE(tfDataBottleneckCategory("ReverbDataset"), TfDataBottleneckCategory::SlowRemoteSource);
        QCOMPARE(tfDataBottleneckCategory("Map"), TfDataBottleneckCategory::TransformationWithParallelVersion);
        QCOMPARE(tfDataBottleneckCategory("Interleave"), TfDataBottleneckCategory::TransformationWithParallelVersion);
        QCOMPARE(tfDataBottleneckCategory("BatchV2"), TfDataBottleneckCategory::TransformationWithoutParallelVersion);
        QCOMPARE(tfDataBottleneckCategory("Filter"), TfDataBottleneckCategory::TransformationWithoutParallelVersion);
        QCOMPARE(tfDataBottleneckCategory("ParallelMapV2"), TfDataBottleneckCategory::Other);
        QCOMPARE(tfDataBottleneckCategory("Range"), TfDataBottleneckCategory::Other);
        QCOMPARE(tfDataBottleneckCategory("V2"), TfDataBottleneckCategory::Other);
        QVERIFY(isAsyncIteratorName("Prefetch"));
        QVERIFY(isAsyncIteratorName("ParallelInterleaveV4"));
        QVERIFY(!isAsyncIteratorName("Map"));
    }

    // TF 2.4 (MultiWorkerMirroredStrategy-style per-device prefetch): two pipelines, each an
    // Iterator::Prefetch fed by Iterator::Prefetch::Generator through PrefetchProduce/Consume, so
    // both are device pipelines. Expected from `tests/tools/tf_data_calls.py FILE`:
    //   Prefetch#9592886150174212572 7077234 ns, self 351190; Generator total = self 6726044
    //   Prefetch#9592886150174967548 6524644 ns, self 273612; Generator total = self 6251032
    // (the ids are the files' int64 ids as uint64; by hand from the events: 7077.234 - 6726.044 us
    // = 351.190 us, the Generator lying inside the Prefetch call).
    void tf24Trace() {
        const std::string path = sharedFile("testdata/public/tfprofiler/34.83.195.179_6003.xplane.pb");
        if (!std::filesystem::exists(path)) QSKIP("shared test data not present");
        ImportResult imported = importXSpace(path);
        QVERIFY(imported.ok());
        const TfDataResult r = computeTfData(*imported.trace);
        QCOMPARE(r.pipelines.size(), size_t(2));
        struct Want {
            uint64_t root;
            TimeNs call, rootSelf, generator;
        };
        const Want want[] = {{9592886150174212572ull, 7077234, 351190, 6726044},
                             {9592886150174967548ull, 6524644, 273612, 6251032}};
        for (const Want& w : want) {
            const TfDataPipeline* p = nullptr;
            for (const auto& q : r.pipelines)
                if (q.rootId == w.root) p = &q;
            QVERIFY(p);
            QCOMPARE(p->kind, TfDataPipelineKind::Device);
            QCOMPARE(p->calls.size(), size_t(1));
            QCOMPARE(p->slowCalls, uint64_t(1));
            const TfDataCall& c = p->calls[0];
            QVERIFY(std::abs(c.durationNs - w.call) <= 1);
            QCOMPARE(c.iterators.size(), size_t(2));
            const TfDataIteratorStat& gen = statNamed(*p, c, "Generator");
            QVERIFY(std::abs(gen.totalNs - w.generator) <= 1);
            QCOMPARE(gen.selfNs, gen.totalNs);
            QVERIFY(gen.blocking);
            QVERIFY(std::abs(statNamed(*p, c, "Prefetch").selfNs - w.rootSelf) <= 2);
            QCOMPARE(c.bottleneckId, gen.id);
            QCOMPARE(p->iterator(gen.id)->longName, std::string("Iterator::Prefetch::Generator"));
        }
        // Device pipelines only: summarized as such; the worst is the 7.08 ms one, a slow source.
        QVERIFY(r.summary.deviceOnly);
        QVERIFY(r.summary.slowPipeline);
        QCOMPARE(r.bottlenecks.size(), size_t(2));
        QVERIFY(std::abs(r.bottlenecks[0].maxLatencyNs - 7077234) <= 1);
        QCOMPARE(r.bottlenecks[0].category, TfDataBottleneckCategory::SlowSource);
        // ... but that Generator is the hand-over from the host pipeline, and the advice says so.
        QVERIFY(r.summary.suggestion.find("host input pipeline") != std::string::npos);
    }

    // TF 2.21 on a CPU (tests/peers/generators/tf_data_slow_map.py: a map sleeping 4 ms per
    // element, batch 4, prefetch 1). Expected from `tests/tools/tf_data_calls.py FILE --events`,
    // slowest call:
    //   Root 16959181 ns self 10393; Prefetch 16948788 self 40240; BatchV2 18003764 self 13355;
    //   Map 17990409 (4 calls) self 17983755; Range 6654 (4 calls); all blocking -> Map.
    //   BatchV2 starts -1088191 from the call's start, ends at 16915573, 1088191 ahead; Map starts
    //   -1085622, ends 16909214, 1085622 ahead. Map's events (duration / self): 5034384 / 5032643,
    //   4352008 / 4349856, 4207415 / 4205728, 4396602 / 4395528. (A Map event's own work, the map
    //   function InstantiatedCapturedFunction::Run nested in it, is self time here: the first
    //   event's timeline self time, 5034384 - 1741 (Range) - 5020828 (the function) = 11815, is not.)
    void tf221Fixture() {
        const std::string path = std::string(TRACESCOPE_SOURCE_DIR) + "/tests/data/peers/tf_data_slow_map.xplane.pb";
        ImportResult imported = importXSpace(path);
        QVERIFY(imported.ok());
        const TfDataResult r = computeTfData(*imported.trace);
        QCOMPARE(r.pipelines.size(), size_t(1));
        const TfDataPipeline& p = r.pipelines[0];
        QCOMPARE(p.kind, TfDataPipelineKind::Host);
        QCOMPARE(p.calls.size(), size_t(6));
        const TfDataCall& c = p.calls[0];
        QVERIFY(std::abs(c.durationNs - 16959181) <= 1);
        const struct {
            const char* name;
            TimeNs total, self;
            uint64_t calls;
        } want[] = {{"Root", 16959181, 10393, 1},
                    {"Prefetch", 16948788, 40240, 1},
                    {"BatchV2", 18003764, 13355, 1},
                    {"Map", 17990409, 17983755, 4},
                    {"Range", 6654, 6654, 4}};
        QCOMPARE(c.iterators.size(), size_t(5));
        for (const auto& w : want) {
            const TfDataIteratorStat& s = statNamed(p, c, w.name);
            QVERIFY2(std::abs(s.totalNs - w.total) <= 4, w.name);
            QVERIFY2(std::abs(s.selfNs - w.self) <= 8, w.name);
            QCOMPARE(s.calls, w.calls);
            QVERIFY(s.blocking);
        }
        QCOMPARE(p.iterator(c.bottleneckId)->name, std::string("Map"));
        QCOMPARE(r.bottlenecks[0].category, TfDataBottleneckCategory::TransformationWithParallelVersion);
        const TfDataIteratorStat& batch = statNamed(p, c, "BatchV2");
        const TfDataIteratorStat& map = statNamed(p, c, "Map");
        QVERIFY(std::abs(batch.startNs - c.startNs - -1088191) <= 2);
        QVERIFY(std::abs(batch.endNs - c.startNs - 16915573) <= 2);
        QVERIFY(std::abs(batch.aheadNs - 1088191) <= 2);
        QVERIFY(std::abs(map.startNs - c.startNs - -1085622) <= 2);
        QVERIFY(std::abs(map.endNs - c.startNs - 16909214) <= 2);
        QVERIFY(std::abs(map.aheadNs - 1085622) <= 2);
        QCOMPARE(statNamed(p, c, "Prefetch").aheadNs, TimeNs(0));
        const std::vector<TfDataEventRef> events = tfDataCallEvents(*imported.trace, r, 0, 0, map.id);
        const TimeNs wantDuration[] = {5034384, 4352008, 4207415, 4396602};
        const TimeNs wantSelf[] = {5032643, 4349856, 4205728, 4395528};
        QCOMPARE(events.size(), size_t(4));
        for (size_t i = 0; i < events.size(); ++i) {
            const SliceColumns& cols = imported.trace->tracks[events[i].slice.track].slices;
            QVERIFY(std::abs(cols.duration[events[i].slice.index] - wantDuration[i]) <= 2);
            QVERIFY(std::abs(events[i].selfNs - wantSelf[i]) <= 4);
        }
        // 6 "train" steps: the step breakdown is joined into the summary.
        QCOMPARE(r.summary.steps, size_t(6));
    }

    // XProf's trace JSON leaves out the *Produce/*Consume events: the call cannot follow Prefetch
    // to its producer thread, so the bottleneck is Prefetch, and a note says why (not on the same
    // events with the hand-offs, nor on the XSpace).
    void xprofJsonWithoutHandOffs() {
        QTemporaryDir dir;
        auto without = importText(dir, "no_handoffs.trace.json", tfdatacases::xprofJsonPrefetchMap(false));
        QVERIFY(without);
        const TfDataResult a = computeTfData(*without);
        QCOMPARE(a.pipelines.size(), size_t(1));
        const TfDataPipeline& pa = a.pipelines[0];
        QCOMPARE(pa.calls.size(), size_t(1));
        // By hand: Root 900, self 900-880 = 20; Prefetch 880, nothing nested on its thread: self 880.
        checkCall(pa, pa.calls[0], {{"Root", 1, 900, 20, 1, true}, {"Prefetch", 2, 880, 880, 1, true}});
        QCOMPARE(pa.iterator(pa.calls[0].bottleneckId)->name, std::string("Prefetch"));
        QCOMPARE(a.notes.size(), size_t(1));
        QVERIFY(a.notes[0].find("Produce") != std::string::npos);
        QVERIFY(a.notes[0].find(".xplane.pb") != std::string::npos);

        auto with = importText(dir, "handoffs.trace.json", tfdatacases::xprofJsonPrefetchMap(true));
        QVERIFY(with);
        const TfDataResult b = computeTfData(*with);
        QCOMPARE(b.pipelines.size(), size_t(1));
        const TfDataPipeline& pb = b.pipelines[0];
        // By hand: Prefetch self 880 - 840 (BatchV2, linked through element 100) = 40; BatchV2
        // 840 - 830 = 10; Map 830: the bottleneck.
        checkCall(pb, pb.calls[0], {{"Root", 1, 900, 20, 1, true},
                                    {"Prefetch", 2, 880, 40, 1, true},
                                    {"BatchV2", 3, 840, 10, 1, true},
                                    {"Map", 4, 830, 830, 1, true}});
        QCOMPARE(pb.iterator(pb.calls[0].bottleneckId)->name, std::string("Map"));
        QVERIFY(b.notes.empty());

        // The XSpace keeps them: no note.
        auto space = importSpace(tfdatacases::mapBatchPrefetch(), dir, "worker-0.xplane.pb");
        QVERIFY(space);
        QVERIFY(computeTfData(*space).notes.empty());
    }

    void cliJson() {
        QTemporaryDir dir;
        const QString path = dir.filePath("worker-0.xplane.pb");
        std::string error;
        QVERIFY(tfdatacases::mapBatchPrefetch().writeFile(path.toStdString(), error));
        QProcess cli;
        cli.start(QStringLiteral(TRACESCOPE_CLI), {QStringLiteral("tfdata"), path, QStringLiteral("--json")});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        const auto j = nlohmann::json::parse(cli.readAllStandardOutput().toStdString());
        QCOMPARE(j["pipelines"].size(), size_t(1));
        const auto& p = j["pipelines"][0];
        QCOMPARE(p["max_latency_ns"].get<int64_t>(), 900 * kUs);
        QCOMPARE(p["slow_calls"].get<int>(), 1);
        const auto& call = p["slowest_call"];
        QCOMPARE(call["bottleneck"].get<std::string>(), std::string("4"));
        QCOMPARE(call["nodes"].size(), size_t(5));
        for (const auto& n : call["nodes"]) {
            for (const char* key : {"id", "parent_id", "name", "long_name", "self_ns", "total_ns", "blocking",
                                    "start_offset_ns", "end_offset_ns", "ahead_ns"})
                QVERIFY2(n.contains(key), key);
        }
        QCOMPARE(call["nodes"][3]["name"].get<std::string>(), std::string("ParallelMapV2"));
        QCOMPARE(call["nodes"][3]["self_ns"].get<int64_t>(), 814 * kUs);
        QCOMPARE(call["nodes"][3]["parent_id"].get<std::string>(), std::string("3"));
        QCOMPARE(call["nodes"][3]["end_offset_ns"].get<int64_t>(), 860 * kUs);
        QCOMPARE(call["nodes"][3]["ahead_ns"].get<int64_t>(), 0);
        QVERIFY(j["summary"]["is_input_bound"].get<bool>());
        QVERIFY(!j["summary"]["suggestion"].get<std::string>().empty());
        QVERIFY(j["warnings"].is_array());
        QVERIFY(j["notes"].is_array());
        QVERIFY(j["notes"].empty());

        QProcess csv;
        csv.start(QStringLiteral(TRACESCOPE_CLI), {QStringLiteral("tfdata"), path, QStringLiteral("--csv")});
        QVERIFY(csv.waitForFinished(60000));
        const QStringList lines = QString::fromUtf8(csv.readAllStandardOutput()).trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines[0].startsWith(QStringLiteral("host,pipeline,kind,min_latency_ns")));
        QVERIFY(lines[1].startsWith(QStringLiteral("worker-0,Host:0,host,30000,465000,900000,2,1,")));
    }
};

QTEST_GUILESS_MAIN(TfDataTest)
#include "tst_tf_data.moc"
