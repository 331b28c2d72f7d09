// Raw CUPTI 13 records (cupti_activity.h structs, laid into a buffer as CUPTI lays them:
// fake_scenario.h) through the agent's translation into our framed records, the decoder,
// the conversion to XSpace and our importer. Expected numbers come from the scenario.
#include "app/cupti_agent/cupti_translate.h"
#include "model/capture/agent/record_decoder.h"
#include "model/capture/agent/record_encoder.h"
#include "model/capture/agent/records_to_xspace.h"
#include "tests/cupti/capture_checks.h"
#include "tests/cupti/fake_scenario.h"

#include <cupti_version.h>

#include <QtTest>

using namespace tracescope;
using namespace tracescope::agent;

namespace {

constexpr uint64_t kT0 = 1'750'000'000'000'000'000ull;
constexpr int kBatches = 3;

const char* apiName(uint32_t domain, uint32_t cbid) { return domain == kApiRuntime ? fake::runtimeApiName(cbid) : nullptr; }

// Walks a CUPTI buffer record by record (each record padded to 8 bytes, as CUPTI's
// ACTIVITY_RECORD_ALIGNMENT) and translates it; returns the records translated.
uint64_t translateBuffer(const std::vector<uint8_t>& buffer, std::string& frames) {
    uint64_t n = 0;
    size_t at = 0;
    while (at + sizeof(CUpti_Activity) <= buffer.size()) {
        const auto* record = reinterpret_cast<const CUpti_Activity*>(buffer.data() + at);
        const size_t size = activityRecordSize(record->kind);
        if (!size) break;
        if (translateActivity(record, frames, apiName)) ++n;
        at += (size + 7) & ~size_t(7);
    }
    return n;
}

std::string scenarioStream(uint64_t& translated) {
    std::string frames;
    HelloRecord h{};
    h.magic = TS_AGENT_MAGIC;
    h.formatVersion = TS_AGENT_FORMAT_VERSION;
    h.pid = fake::kPid;
    h.cuptiVersion = CUPTI_API_VERSION;
    h.startNs = int64_t(kT0);
    appendFrame(frames, kRecHello, h, {"gpuhost", "/opt/app", "app"});
    translated = 0;
    for (int b = 0; b < kBatches; ++b) {
        fake::BufferBuilder buffer;
        fake::buildBatch(buffer, b, kT0 + uint64_t(b) * 1'000'000);
        translated += translateBuffer(buffer.bytes, frames);
    }
    appendFrame(frames, kRecBye, ByeRecord{int64_t(kT0) + kBatches * 1'000'000, translated, 0});
    return frames;
}

}  // namespace

class CuptiTranslateTest : public QObject {
    Q_OBJECT
private slots:
    void recordSizesFollowTheHeaders() {
        QCOMPARE(activityRecordSize(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), sizeof(CUpti_ActivityKernel10));
        QCOMPARE(activityRecordSize(CUPTI_ACTIVITY_KIND_MEMCPY), sizeof(CUpti_ActivityMemcpy6));
        QCOMPARE(activityRecordSize(CUPTI_ACTIVITY_KIND_MEMORY2), sizeof(CUpti_ActivityMemory4));
        QCOMPARE(activityRecordSize(CUPTI_ACTIVITY_KIND_CUDA_EVENT), sizeof(CUpti_ActivityCudaEvent2));
        QCOMPARE(activityRecordSize(CUPTI_ACTIVITY_KIND_STREAM), sizeof(CUpti_ActivityStream));
        QCOMPARE(activityRecordSize(CUPTI_ACTIVITY_KIND_PC_SAMPLING), size_t(0));
    }

    void untimedAndUnknownRecordsAreSkipped() {
        fake::BufferBuilder b;
        auto& k = fake::kernel(b, 1, 0, 0);  // start = end = 0: no timing
        (void)k;
        std::string frames;
        QCOMPARE(translateBuffer(b.bytes, frames), uint64_t(0));
        QVERIFY(frames.empty());
        CUpti_Activity other{CUPTI_ACTIVITY_KIND_CONTEXT};
        QVERIFY(!translateActivity(&other, frames, apiName));
    }

    void fieldsCarryOver() {
        fake::BufferBuilder b;
        fake::buildBatch(b, 1, kT0);
        std::string frames;
        HelloRecord h{};
        h.magic = TS_AGENT_MAGIC;
        appendFrame(frames, kRecHello, h, {"", "", ""});
        translateBuffer(b.bytes, frames);
        DecodeResult d = decodeRecordStream(frames);
        QVERIFY2(d.error.empty(), d.error.c_str());
        const AgentRecords& r = d.records;
        QCOMPARE(r.kernels.size(), size_t(4));
        const KernelRecord& k = r.kernels[0].r;
        QCOMPARE(r.kernels[0].name, std::string(fake::kKernelName));
        QCOMPARE(k.startNs, int64_t(kT0 + 20'000));
        QCOMPARE(k.endNs, int64_t(kT0 + 50'000));
        QCOMPARE(k.gridX, 65536);
        QCOMPARE(k.blockX, 256);
        QCOMPARE(k.dynamicSharedMemory, 128);
        QCOMPARE(k.registersPerThread, uint32_t(32));
        QCOMPARE(k.streamId, uint32_t(7));
        QCOMPARE(k.correlationId, uint32_t(101));
        QCOMPARE(r.kernels[3].r.graphId, uint32_t(2));
        QCOMPARE(r.kernels[3].r.graphNodeId, (uint64_t(2) << 32) | 2);
        QCOMPARE(r.kernels[3].r.correlationId, uint32_t(106));
        QCOMPARE(r.memcpys.size(), size_t(1));
        QCOMPARE(int(r.memcpys[0].copyKind), int(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD));
        QCOMPARE(int(r.memcpys[0].srcKind), int(CUPTI_ACTIVITY_MEMORY_KIND_PINNED));
        QCOMPARE(r.memcpys[0].flags, uint32_t(kMemcpyAsync));
        QCOMPARE(r.memcpys[0].bytes, uint64_t(4096));
        QCOMPARE(r.memsets[0].memoryKind, uint32_t(CUPTI_ACTIVITY_MEMORY_KIND_DEVICE));
        QCOMPARE(r.apis.size(), size_t(6));  // batch 1: launch, copy, memset, sync, event record, graph launch
        QCOMPARE(r.apis[0].name, std::string("cudaLaunchKernel_v7000"));
        QCOMPARE(r.apis[0].r.threadId, int64_t(fake::kTid));
        QCOMPARE(r.syncs[0].type, uint32_t(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE));
        QCOMPARE(r.markers.size(), size_t(3));
        QCOMPARE(r.markers[0].name, std::string("step"));
        QCOMPARE(r.markers[0].r.threadId, int64_t(fake::kTid));
        QCOMPARE(r.markerData[0].payload, uint64_t(1));
        QCOMPARE(r.markerData[0].payloadKind, uint32_t(1));  // uint64

        // CUpti_MetricValueKind payloads: INT64 and DOUBLE keep their bits; a zero DOUBLE (no payload) is none.
        fake::BufferBuilder p;
        auto& i64 = p.add<CUpti_ActivityMarkerData2>(CUPTI_ACTIVITY_KIND_MARKER_DATA);
        i64.payloadKind = CUPTI_METRIC_VALUE_KIND_INT64;
        i64.payload.metricValueInt64 = -3;
        auto& dbl = p.add<CUpti_ActivityMarkerData2>(CUPTI_ACTIVITY_KIND_MARKER_DATA);
        dbl.payloadKind = CUPTI_METRIC_VALUE_KIND_DOUBLE;
        dbl.payload.metricValueDouble = 0.5;
        p.add<CUpti_ActivityMarkerData2>(CUPTI_ACTIVITY_KIND_MARKER_DATA).payloadKind = CUPTI_METRIC_VALUE_KIND_DOUBLE;
        std::string payloads;
        appendFrame(payloads, kRecHello, h, {"", "", ""});
        translateBuffer(p.bytes, payloads);
        DecodeResult pd = decodeRecordStream(payloads);
        QCOMPARE(pd.records.markerData.size(), size_t(3));
        QCOMPARE(pd.records.markerData[0].payloadKind, uint32_t(2));
        QCOMPARE(int64_t(pd.records.markerData[0].payload), int64_t(-3));
        QCOMPARE(pd.records.markerData[1].payloadKind, uint32_t(3));
        QCOMPARE(pd.records.markerData[2].payloadKind, uint32_t(0));
        QCOMPARE(r.memory.size(), size_t(2));
        QCOMPARE(r.memory[1].r.memoryOperationType, uint32_t(CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE));
        // CudaEvent2: event 5 + 1 reached stream 7 at 206 µs; batch 1 creates no stream.
        QCOMPARE(r.cudaEvents.size(), size_t(1));
        QCOMPARE(r.cudaEvents[0].eventId, uint32_t(6));
        QCOMPARE(r.cudaEvents[0].streamId, uint32_t(7));
        QCOMPARE(r.cudaEvents[0].correlationId, uint32_t(107));
        QCOMPARE(r.cudaEvents[0].deviceTimestampNs, int64_t(kT0 + 206'000));
        QVERIFY(r.streams.empty());
        // Stream: batch 0's non-blocking stream 13 with priority -1 (CUPTI's uint32 read as int32).
        fake::BufferBuilder b0;
        fake::buildBatch(b0, 0, kT0);
        std::string frames0;
        appendFrame(frames0, kRecHello, h, {"", "", ""});
        translateBuffer(b0.bytes, frames0);
        DecodeResult d0 = decodeRecordStream(frames0);
        QCOMPARE(d0.records.streams.size(), size_t(1));
        QCOMPARE(d0.records.streams[0].streamId, uint32_t(13));
        QCOMPARE(d0.records.streams[0].priority, -1);
        QCOMPARE(d0.records.streams[0].flag, uint32_t(CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NON_BLOCKING));
        QCOMPARE(d0.records.streams[0].correlationId, uint32_t(8));
    }

    void scenarioThroughImporter() {
        uint64_t translated = 0;
        const std::string stream = scenarioStream(translated);
        const fake::Counts expected = fake::scenarioCounts(kBatches);
        QCOMPARE(translated, expected.records());
        DecodeResult d = decodeRecordStream(stream);
        QVERIFY2(d.error.empty(), d.error.c_str());
        QCOMPARE(d.records.activityCount(), expected.records());
        ConvertStats stats;
        const std::string bytes = recordsToXSpaceBytes(d.records, {}, &stats);
        QCOMPARE(stats.staticAllocations, expected.staticRecords);
        std::vector<XSpaceSource> one{{"gpuhost", "", bytes}};
        ImportResult result = importXSpaces(one);
        QVERIFY2(result.ok(), result.error.c_str());
        const Trace& trace = *result.trace;
        const checks::Summary s = checks::summarize(trace);
        QCOMPARE(s.slice(fake::kKernelDemangled), size_t(expected.kernels));
        QCOMPARE(s.slice("MemcpyH2D"), size_t(expected.memcpys));
        QCOMPARE(s.slice("Memset 3"), size_t(expected.memsets));
        QCOMPARE(s.slice("cudaLaunchKernel") + s.slice("cudaMemcpyAsync") + s.slice("cudaMemsetAsync") +
                     s.slice("cudaStreamSynchronize") + s.slice("cudaGraphLaunch") + s.slice("cudaEventRecord") +
                     s.slice("cudaStreamCreateWithPriority"),
                 size_t(expected.apis));
        QCOMPARE(s.instant("cudaEventRecord"), size_t(expected.cudaEvents));
        QCOMPARE(s.slice("cudaGraphLaunch"), size_t(1));
        QCOMPARE(s.slice("cuStreamSynchronize"), size_t(expected.syncs));
        QCOMPARE(s.slice("step"), size_t(expected.nvtxRanges));
        QCOMPARE(s.instant("tick"), size_t(expected.nvtxMarks));
        QCOMPARE(s.instant("MemoryAllocation"), size_t(expected.allocations));
        QCOMPARE(s.instant("MemoryDeallocation"), size_t(expected.frees));
        // One flow per launch, copy and memset per batch, plus the graph's fan-out.
        QCOMPARE(s.flows, size_t(3 * kBatches + expected.graphKernels));
        QVERIFY(s.hasTrack("Stream #7(Compute,MemcpyH2D)"));
        QVERIFY(s.hasTrack("Stream #13(Memset)"));
        QVERIFY(s.hasTrack("Host Threads/" + std::to_string(fake::kTid)));
        // The device record's capabilities on the GPU process.
        bool sawName = false;
        for (const auto& p : trace.processes)
            for (const auto& [k, v] : p.properties)
                if (v.find("NVIDIA H100 80GB HBM3") != std::string::npos) sawName = true;
        QVERIFY(sawName);
        // Memory: 1 MiB blocks, each freed one batch later: 1 MiB in use at the end, 2 MiB peak.
        const Track* mem = checks::track(trace, "CUDA memory");
        QVERIFY(mem);
        const size_t last = mem->instants.size() - 1;
        QCOMPARE(checks::args(trace, *mem, mem->instants.args[last])["bytes_allocated"],
                 std::to_string(fake::kBlockBytes));
        QCOMPARE(checks::args(trace, *mem, mem->instants.args[last])["peak_bytes_in_use"],
                 std::to_string(2 * fake::kBlockBytes));
    }
};

QTEST_GUILESS_MAIN(CuptiTranslateTest)
#include "tst_cupti_translate.moc"
