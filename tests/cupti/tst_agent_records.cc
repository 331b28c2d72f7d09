// The agent record format without CUPTI: synthetic records framed with record_encoder.h go
// through the one decoder (whole and byte by byte), the conversion to XSpace and our XSpace
// importer. Expected values follow from the records built in buildStream().
#include "model/capture/agent/control_decoder.h"
#include "model/capture/agent/record_decoder.h"
#include "model/capture/agent/record_encoder.h"
#include "model/capture/agent/records_to_xspace.h"
#include "model/import/xspace_importer.h"
#include "model/proto/xplane.pb.h"
#include "tests/cupti/capture_checks.h"

#include <QtTest>

using namespace tracescope;
using namespace tracescope::agent;

namespace {

constexpr int64_t kT0 = 1'700'000'000'000'000'000;
constexpr int64_t kUs = 1000;

ApiRecord api(uint32_t corr, int64_t tid, int64_t start, int64_t dur) {
    ApiRecord a{};
    a.startNs = start;
    a.endNs = start + dur;
    a.processId = 77;
    a.threadId = tid;
    a.correlationId = corr;
    a.domain = kApiRuntime;
    return a;
}

KernelRecord kernel(uint32_t corr, uint32_t stream, int64_t start, int64_t dur) {
    KernelRecord k{};
    k.startNs = start;
    k.endNs = start + dur;
    k.correlationId = corr;
    k.contextId = 1;
    k.streamId = stream;
    k.gridX = 4, k.gridY = 2, k.gridZ = 1;
    k.blockX = 128, k.blockY = 1, k.blockZ = 1;
    k.registersPerThread = 40;
    k.staticSharedMemory = 16;
    k.dynamicSharedMemory = 256;
    return k;
}

MarkerRecord marker(uint32_t id, uint32_t flags, int64_t t, int64_t tid = 11) {
    MarkerRecord m{};
    m.timestampNs = t;
    m.id = id;
    m.flags = flags;
    m.objectKind = 2;
    m.processId = 77;
    m.threadId = tid;
    return m;
}

MemoryRecord memory(uint32_t op, uint32_t kind, uint64_t addr, uint64_t bytes, int64_t t) {
    MemoryRecord m{};
    m.timestampNs = t;
    m.memoryOperationType = op;
    m.memoryKind = kind;
    m.address = addr;
    m.bytes = bytes;
    m.processId = 77;
    m.streamId = 0xFFFFFFFFu;
    return m;
}

// The process of the tests: see the expectations in each test.
std::string buildStream() {
    std::string s;
    HelloRecord h{};
    h.magic = TS_AGENT_MAGIC;
    h.formatVersion = TS_AGENT_FORMAT_VERSION;
    h.pid = 77;
    h.ppid = 1;
    h.cuptiVersion = 130001;
    h.driverVersion = 13000;
    h.startNs = kT0 - 1000;
    appendFrame(s, kRecHello, h, {"worker0", "/bin/app", "app --steps 3"});
    DeviceRecord d{};
    d.id = 0;
    d.computeCapabilityMajor = 8;
    d.numMultiprocessors = 108;
    d.globalMemorySize = 40'000'000'000ull;
    d.globalMemoryBandwidth = 1'555'000'000'000ull;
    d.coreClockRateKhz = 1'410'000;
    appendFrame(s, kRecDevice, d, {"Test GPU"});
    // Launch -> kernel (mangled name).
    appendFrame(s, kRecApi, api(1, 11, kT0, 10 * kUs), {"cudaLaunchKernel_v7000"});
    appendFrame(s, kRecKernel, kernel(1, 7, kT0 + 20 * kUs, 30 * kUs), {"_ZN4capx5scaleIfLi3EEEvPT_S1_m"});
    // A graph launch: one correlation, three kernels.
    appendFrame(s, kRecApi, api(2, 11, kT0 + 40 * kUs, 5 * kUs), {"cudaGraphLaunch_v10000"});
    for (int n = 0; n < 3; ++n) {
        KernelRecord k = kernel(2, 7, kT0 + (50 + 10 * n) * kUs, 5 * kUs);
        k.graphId = 9;
        k.graphNodeId = (uint64_t(9) << 32) | uint64_t(n);
        appendFrame(s, kRecKernel, k, {"gemm_fusion_dot_general_1"});
    }
    // A kernel whose name looks mangled but is not, without a launch; and one without timing.
    appendFrame(s, kRecKernel, kernel(8, 7, kT0 + 90 * kUs, 1 * kUs), {"_Zbad"});
    appendFrame(s, kRecKernel, kernel(6, 7, 0, 0), {"untimed"});
    // Copies and a memset on stream 9.
    appendFrame(s, kRecApi, api(3, 11, kT0 + 100 * kUs, 5 * kUs), {"cudaMemcpyAsync_v3020"});
    MemcpyRecord m{};
    m.startNs = kT0 + 110 * kUs;
    m.endNs = m.startNs + 4 * kUs;
    m.bytes = 8192;
    m.correlationId = 3;
    m.contextId = 1;
    m.streamId = 9;
    m.copyKind = 2;  // DTOH
    m.srcKind = 3;
    m.dstKind = 1;
    m.flags = kMemcpyAsync;
    appendFrame(s, kRecMemcpy, m);
    MemcpyRecord p = m;
    p.correlationId = 4;
    p.startNs = kT0 + 120 * kUs;
    p.endNs = p.startNs + 2 * kUs;
    p.copyKind = 10;
    p.flags = kMemcpyPeer;
    p.dstDeviceId = 1;
    appendFrame(s, kRecMemcpy, p);
    MemsetRecord ms{};
    ms.startNs = kT0 + 130 * kUs;
    ms.endNs = ms.startNs + kUs;
    ms.bytes = 1024;
    ms.correlationId = 5;
    ms.contextId = 1;
    ms.streamId = 9;
    ms.memoryKind = 3;
    appendFrame(s, kRecMemset, ms);
    // Synchronization: one under its API call on thread 12, one without an API record.
    appendFrame(s, kRecApi, api(7, 12, kT0 + 140 * kUs, 50 * kUs), {"cudaStreamSynchronize_v3020"});
    SyncRecord sync{kT0 + 141 * kUs, kT0 + 189 * kUs, 7, 3, 1, 7, 0xFFFFFFFFu, 0};
    appendFrame(s, kRecSync, sync);
    SyncRecord lone{kT0 + 200 * kUs, kT0 + 210 * kUs, 99, 4, 1, 0xFFFFFFFFu, 0xFFFFFFFFu, 0};
    appendFrame(s, kRecSync, lone);
    // NVTX on thread 11: outer [0, 100] > inner [5, 15] (domain), a mark at 45, an END
    // without START, a START without END.
    appendFrame(s, kRecMarker, marker(1, 2, kT0), {"outer", ""});
    appendFrame(s, kRecMarker, marker(2, 2, kT0 + 5 * kUs), {"inner", "mydomain"});
    appendFrame(s, kRecMarker, marker(2, 4, kT0 + 15 * kUs), {"", "mydomain"});
    appendFrame(s, kRecMarker, marker(5, 1, kT0 + 45 * kUs), {"mark", ""});
    appendFrame(s, kRecMarker, marker(1, 4, kT0 + 100 * kUs), {"", ""});
    appendFrame(s, kRecMarker, marker(3, 4, kT0 + 101 * kUs), {"", ""});
    appendFrame(s, kRecMarker, marker(4, 2, kT0 + 150 * kUs), {"open", ""});
    MarkerDataRecord md{};
    md.id = 1;
    md.payloadKind = 2;  // int64
    md.payload = uint64_t(int64_t(-3));
    md.color = 0xff00ff00u;
    appendFrame(s, kRecMarkerData, md);
    // Memory: a static symbol (ignored), A 1000, B 500, free A (size from the allocation),
    // C 2000 from a pool; a pinned host block of 64.
    appendFrame(s, kRecMemory, memory(1, 6, 0x10, 64, kT0 + 1), {"precalc_xorwow_matrix"});
    appendFrame(s, kRecMemory, memory(1, 3, 0xA000, 1000, kT0 + 1 * kUs), {""});
    appendFrame(s, kRecMemory, memory(1, 3, 0xB000, 500, kT0 + 2 * kUs), {""});
    appendFrame(s, kRecMemory, memory(2, 3, 0xA000, 0, kT0 + 3 * kUs), {""});
    MemoryRecord c = memory(1, 3, 0xC000, 2000, kT0 + 4 * kUs);
    c.isAsync = 1;
    c.poolType = 1;
    c.poolAddress = 0xabc;
    appendFrame(s, kRecMemory, c, {""});
    appendFrame(s, kRecMemory, memory(1, 2, 0xD000, 64, kT0 + 6 * kUs), {""});
    appendFrame(s, kRecOverhead, OverheadRecord{kT0 + 7 * kUs, kT0 + 9 * kUs, 11, 1u << 16, 0});
    appendFrame(s, kRecDropped, DroppedRecord{kDropCupti, 0, 5, kT0});
    appendFrame(s, kRecDropped, DroppedRecord{kDropBudget, 0, 7, kT0});
    StatusRecord st{kStatusCuptiError, 1, kT0};
    appendFrame(s, kRecStatus, st, {"cuptiActivityEnable(49): CUPTI_ERROR_INVALID_KIND", ""});
    appendFrame(s, kRecBye, ByeRecord{kT0 + 300 * kUs, 40, 12});
    return s;
}

ImportResult importBytes(const std::string& bytes) {
    std::vector<XSpaceSource> one{{"worker0", "", bytes}};
    return importXSpaces(one);
}

}  // namespace

class AgentRecordsTest : public QObject {
    Q_OBJECT
private slots:
    void decodesWholeAndBytewise() {
        const std::string stream = buildStream();
        DecodeResult whole = decodeRecordStream(stream);
        QVERIFY2(whole.error.empty(), whole.error.c_str());
        QCOMPARE(whole.truncatedBytes, size_t(0));
        const AgentRecords& r = whole.records;
        QVERIFY(r.hasHello && r.hasBye);
        QCOMPARE(r.hostname, std::string("worker0"));
        QCOMPARE(r.commandLine, std::string("app --steps 3"));
        QCOMPARE(r.kernels.size(), size_t(6));
        QCOMPARE(r.kernels[0].name, std::string("_ZN4capx5scaleIfLi3EEEvPT_S1_m"));
        QCOMPARE(r.apis.size(), size_t(4));
        QCOMPARE(r.memcpys.size(), size_t(2));
        QCOMPARE(r.markers.size(), size_t(7));
        QCOMPARE(r.memory.size(), size_t(6));
        QCOMPARE(r.dropped.size(), size_t(2));
        QCOMPARE(r.activityCount(), uint64_t(1 + 6 + 2 + 1 + 4 + 2 + 7 + 1 + 6 + 1));

        RecordDecoder d;
        for (char c : stream) QVERIFY(d.feed(std::string_view(&c, 1)));
        QCOMPARE(d.truncatedBytes(), size_t(0));
        QCOMPARE(d.records().activityCount(), r.activityCount());
        QCOMPARE(d.records().markers[1].domain, std::string("mydomain"));
        QCOMPARE(d.bytesConsumed(), uint64_t(stream.size()));
    }

    void decoderRefusesMalformedStreams() {
        const std::string stream = buildStream();
        // Not a hello first.
        std::string s;
        appendFrame(s, kRecBye, ByeRecord{});
        QVERIFY(!decodeRecordStream(s).error.empty());
        // Bad magic.
        std::string bad = stream;
        bad[sizeof(FrameHeader)] ^= 0x55;
        DecodeResult badMagic = decodeRecordStream(bad);
        QVERIFY(badMagic.error.find("magic") != std::string::npos);
        QCOMPARE(badMagic.errorOffset, uint64_t(0));
        // A frame longer than the limit, after a good hello: the hello is kept.
        std::string hello = stream.substr(0, sizeof(FrameHeader) + reinterpret_cast<const FrameHeader*>(stream.data())->length);
        std::string huge = hello;
        FrameHeader h{TS_AGENT_MAX_FRAME + 1, kRecKernel, sizeof(KernelRecord)};
        huge.append(reinterpret_cast<const char*>(&h), sizeof h);
        DecodeResult tooLong = decodeRecordStream(huge);
        QVERIFY(tooLong.error.find("limit") != std::string::npos);
        QCOMPARE(tooLong.errorOffset, uint64_t(hello.size()));
        QVERIFY(tooLong.records.hasHello);
        // A string running past its frame.
        std::string overrun = hello;
        std::string k;
        appendFrame(k, kRecKernel, KernelRecord{}, {"name"});
        const uint32_t wrong = 1000;
        std::memcpy(&k[sizeof(FrameHeader) + sizeof(KernelRecord)], &wrong, sizeof wrong);
        overrun += k;
        QVERIFY(decodeRecordStream(overrun).error.find("past") != std::string::npos);
        // A fixed part longer than its frame.
        std::string shortFrame = hello;
        FrameHeader sf{4, kRecMemcpy, sizeof(MemcpyRecord)};
        shortFrame.append(reinterpret_cast<const char*>(&sf), sizeof sf);
        shortFrame.append(4, '\0');
        QVERIFY(!decodeRecordStream(shortFrame).error.empty());
        // A cut stream: everything before the cut, and the cut reported.
        DecodeResult cut = decodeRecordStream(std::string_view(stream).substr(0, stream.size() - 3));
        QVERIFY(cut.error.empty());
        QVERIFY(cut.truncatedBytes > 0);
        QVERIFY(!cut.records.hasBye);
        QCOMPARE(cut.records.kernels.size(), size_t(6));
        // Unknown record types (a newer agent) are skipped; shorter fixed parts read as 0.
        std::string newer = hello;
        appendFrame(newer, uint16_t(200), KernelRecord{}, {"x"});
        std::string shortKernel;
        appendFrame(shortKernel, kRecKernel, kernel(1, 7, kT0, 5), {"k"});
        // Keep only the first 16 bytes of the fixed part (start, end) and the string.
        std::string trimmed;
        FrameHeader th{uint32_t(16 + 4 + 1), kRecKernel, 16};
        trimmed.append(reinterpret_cast<const char*>(&th), sizeof th);
        trimmed.append(shortKernel, sizeof(FrameHeader), 16);
        trimmed.append(shortKernel, sizeof(FrameHeader) + sizeof(KernelRecord), 5);
        newer += trimmed;
        DecodeResult n = decodeRecordStream(newer);
        QVERIFY2(n.error.empty(), n.error.c_str());
        QCOMPARE(n.records.unknownFrames, uint64_t(1));
        QCOMPARE(n.records.kernels.size(), size_t(1));
        QCOMPARE(n.records.kernels[0].r.endNs, kT0 + 5);
        QCOMPARE(n.records.kernels[0].r.streamId, uint32_t(0));
        QCOMPARE(n.records.kernels[0].name, std::string("k"));
        QVERIFY(looksLikeRecordStream(stream));
        QVERIFY(!looksLikeRecordStream(bad));
    }

    void helpers() {
        QCOMPARE(apiDisplayName("cudaMalloc_v3020"), std::string("cudaMalloc"));
        QCOMPARE(apiDisplayName("cuLaunchKernel"), std::string("cuLaunchKernel"));
        QCOMPARE(apiDisplayName("cuMemAlloc_v2"), std::string("cuMemAlloc"));
        QCOMPARE(apiDisplayName("my_vx"), std::string("my_vx"));
        QCOMPARE(demangleKernelName("_ZN4capx5scaleIfLi3EEEvPT_S1_m"),
                 std::string("void capx::scale<float, 3>(float*, float, unsigned long)"));
        QCOMPARE(demangleKernelName("sm80_xmma_gemm_f32f32"), std::string("sm80_xmma_gemm_f32f32"));
        QCOMPARE(demangleKernelName("_Zbad"), std::string("_Zbad"));
        QCOMPARE(std::string(memcpyEventName(1, false)), std::string("MemcpyH2D"));
        QCOMPARE(std::string(memcpyEventName(9, false)), std::string("MemcpyOther"));
        QCOMPARE(std::string(memcpyEventName(8, true)), std::string("MemcpyP2P"));
        QCOMPARE(std::string(memoryKindName(2)), std::string("pinned"));
    }

    void xspaceNamesAndStats() {
        DecodeResult d = decodeRecordStream(buildStream());
        xspace::SpaceWriter writer;
        const ConvertStats stats = recordsToXSpace(d.records, {}, writer);
        QCOMPARE(stats.kernels, uint64_t(5));
        QCOMPARE(stats.untimed, uint64_t(1));
        QCOMPARE(stats.memcpys, uint64_t(2));
        QCOMPARE(stats.memsets, uint64_t(1));
        QCOMPARE(stats.apis, uint64_t(4));
        QCOMPARE(stats.syncs, uint64_t(2));
        QCOMPARE(stats.nvtxRanges, uint64_t(3));
        QCOMPARE(stats.nvtxMarks, uint64_t(1));
        QCOMPARE(stats.unmatchedNvtxEnds, uint64_t(1));
        QCOMPARE(stats.unterminatedNvtx, uint64_t(1));
        QCOMPARE(stats.memoryEvents, uint64_t(5));
        QCOMPARE(stats.staticAllocations, uint64_t(1));
        QCOMPARE(stats.droppedRecords, uint64_t(12));
        QCOMPARE(stats.overheads, uint64_t(1));

        const tensorflow::profiler::XSpace& space = writer.proto();
        QCOMPARE(space.hostnames(0), std::string("worker0"));
        std::vector<std::string> planes;
        for (const auto& p : space.planes()) planes.push_back(p.name());
        QCOMPARE(planes, (std::vector<std::string>{"/device:GPU:0", "/host:CPU", "/host:metadata", "Task Environment"}));
        const auto& gpu = space.planes(0);
        std::map<std::string, std::string> lines;
        for (const auto& l : gpu.lines()) lines[std::to_string(l.id())] = l.name();
        QCOMPARE(lines["7"], std::string("Stream #7(Compute)"));
        QCOMPARE(lines["9"], std::string("Stream #9(MemcpyD2H,MemcpyP2P,Memset)"));
        // Plane stats from the device record.
        std::map<std::string, std::string> planeStats;
        for (const auto& st : gpu.stats()) {
            const std::string name = gpu.stat_metadata().at(st.metadata_id()).name();
            planeStats[name] = st.has_str_value() ? st.str_value()
                               : st.has_uint64_value() ? std::to_string(st.uint64_value())
                                                       : std::to_string(st.int64_value());
        }
        QCOMPARE(planeStats["gpu_device_name"], std::string("Test GPU"));
        QCOMPARE(planeStats["device_vendor"], std::string("Nvidia"));
        QCOMPARE(planeStats["core_count"], std::string("108"));
        QCOMPARE(planeStats["clock_rate"], std::string("1410000"));
        QCOMPARE(planeStats["memory_bandwidth"], std::string("1555000000000"));
        QCOMPARE(planeStats["compute_cap_major"], std::string("8"));
        QCOMPARE(space.warnings_size(), 2);  // dropped records, NVTX ends without a start
        QVERIFY(space.warnings(0).find("Detected GPU events dropped on worker0: 12 records") == 0);
        QVERIFY(space.warnings(0).find("CUPTI buffers full: 5, agent memory budget full: 7") != std::string::npos);
        QCOMPARE(space.errors_size(), 1);
        // Task Environment: start = the hello's start, stop = the bye's end.
        const auto& env = space.planes(3);
        for (const auto& st : env.stats()) {
            const std::string name = env.stat_metadata().at(st.metadata_id()).name();
            if (name == "profile_start_time") QCOMPARE(int64_t(st.uint64_value()), kT0 - 1000);
            if (name == "profile_stop_time") QCOMPARE(int64_t(st.uint64_value()), kT0 + 300 * kUs);
        }
    }

    void importerOpensIt() {
        DecodeResult d = decodeRecordStream(buildStream());
        ImportResult result = importBytes(recordsToXSpaceBytes(d.records));
        QVERIFY2(result.ok(), result.error.c_str());
        const Trace& trace = *result.trace;
        const checks::Summary s = checks::summarize(trace);
        QCOMPARE(s.slice("void capx::scale<float, 3>(float*, float, unsigned long)"), size_t(1));
        QCOMPARE(s.slice("gemm_fusion_dot_general_1"), size_t(3));
        QCOMPARE(s.slice("_Zbad"), size_t(1));
        QCOMPARE(s.slice("untimed"), size_t(0));
        QCOMPARE(s.slice("MemcpyD2H"), size_t(1));
        QCOMPARE(s.slice("MemcpyP2P"), size_t(1));
        QCOMPARE(s.slice("Memset 3"), size_t(1));
        QCOMPARE(s.slice("cudaLaunchKernel"), size_t(1));
        QCOMPARE(s.slice("cudaGraphLaunch"), size_t(1));
        QCOMPARE(s.slice("cudaStreamSynchronize"), size_t(1));
        QCOMPARE(s.slice("cuStreamSynchronize"), size_t(1));
        QCOMPARE(s.slice("cuCtxSynchronize"), size_t(1));
        QCOMPARE(s.slice("outer"), size_t(1));
        QCOMPARE(s.slice("inner"), size_t(1));
        QCOMPARE(s.slice("open"), size_t(1));
        QCOMPARE(s.instant("mark"), size_t(1));
        QCOMPARE(s.instant("MemoryAllocation"), size_t(4));
        QCOMPARE(s.instant("MemoryDeallocation"), size_t(1));
        // Launch -> kernel flows: corr 1 (one kernel), corr 2 (graph: three), corr 3 (copy).
        QCOMPARE(s.flows, size_t(5));
        QVERIFY(s.hasTrack("Stream #7(Compute)"));
        QVERIFY(s.hasTrack("Host Threads/11"));
        QVERIFY(s.hasTrack("Host Threads/12"));
        QVERIFY(s.hasTrack("CUDA memory"));
        QVERIFY(s.hasTrack("CUDA synchronization"));
        QVERIFY(s.hasTrack("CUPTI overhead"));
        QCOMPARE(s.slice("BUFFER_FLUSH"), size_t(1));
        QVERIFY(s.hasWarningContaining("Detected GPU events dropped on worker0: 12 records"));
        QVERIFY(s.hasWarningContaining("cuptiActivityEnable(49)"));

        // Kernel stats as XLA writes them.
        const Track* stream7 = checks::track(trace, "Stream #7");
        QVERIFY(stream7);
        auto a = checks::args(trace, *stream7, stream7->slices.args[0]);
        QCOMPARE(a["kernel_details"], std::string("regs:40 static_shared:16 dynamic_shared:256 grid:4,2,1 block:128,1,1"));
        QCOMPARE(a["correlation_id"], std::string("1"));
        QCOMPARE(a["context_id"], std::string("$$1"));
        auto g = checks::args(trace, *stream7, stream7->slices.args[2]);
        QCOMPARE(g["cuda_graph_id"], std::string("9"));
        QCOMPARE(g["cuda_graph_node_id"], std::to_string((uint64_t(9) << 32) | 1));
        const Track* stream9 = checks::track(trace, "Stream #9");
        QVERIFY(stream9);
        QCOMPARE(checks::args(trace, *stream9, stream9->slices.args[0])["memcpy_details"],
                 std::string("kind_src:device kind_dst:pageable size:8192 dest:0 async:1"));
        QCOMPARE(checks::args(trace, *stream9, stream9->slices.args[1])["memcpy_details"],
                 std::string("kind_src:device kind_dst:pageable size:8192 dest:1 async:0"));
        QCOMPARE(checks::args(trace, *stream9, stream9->slices.args[2])["Memset_details"],
                 std::string("kind:device num_bytes:1024 async:0"));

        // NVTX nesting and stats on thread 11: outer (depth 0) holds inner.
        const Track* t11 = checks::track(trace, "Host Threads/11");
        QVERIFY(t11);
        for (size_t i = 0; i < t11->slices.size(); ++i) {
            const std::string_view name = trace.str(t11->slices.name[i]);
            auto args = checks::args(trace, *t11, t11->slices.args[i]);
            if (name == "outer") {
                QCOMPARE(t11->slices.depth(i), uint16_t(0));
                QCOMPARE(t11->slices.duration[i], TimeNs(100 * kUs));
                QCOMPARE(args["marker_payload"], std::string("-3"));
                QCOMPARE(args["color"], std::string("0xff00ff00"));
            } else if (name == "inner") {
                QCOMPARE(t11->slices.depth(i), uint16_t(1));
                QCOMPARE(args["nvtx_domain"], std::string("mydomain"));
            } else if (name == "open") {
                QCOMPARE(args["unterminated"], std::string("1"));
                QCOMPARE(t11->slices.end(i) - t11->slices.start[i], TimeNs(150 * kUs));  // to the bye at 300 µs
            }
        }

        // Memory running totals (the static symbol ignored; the free finds its size).
        const Track* mem = checks::track(trace, "CUDA memory");
        QVERIFY(mem);
        QCOMPARE(mem->instants.size(), size_t(5));
        const std::vector<std::string> inUse = {"1000", "1500", "500", "2500", "64"};
        const std::vector<std::string> peak = {"1000", "1500", "1500", "2500", "64"};
        for (size_t i = 0; i < 5; ++i) {
            auto args = checks::args(trace, *mem, mem->instants.args[i]);
            QCOMPARE(args["bytes_allocated"], inUse[i]);
            QCOMPARE(args["peak_bytes_in_use"], peak[i]);
        }
        QCOMPARE(checks::args(trace, *mem, mem->instants.args[2])["allocation_bytes"], std::string("1000"));
        QCOMPARE(checks::args(trace, *mem, mem->instants.args[3])["allocator_name"], std::string("cudaMallocAsync:0xabc"));
        QCOMPARE(checks::args(trace, *mem, mem->instants.args[4])["allocator_name"], std::string("cudaHostAlloc"));
        QCOMPARE(checks::args(trace, *mem, mem->instants.args[4])["region_type"], std::string("pinned"));
    }

    void captureWindow() {
        DecodeResult d = decodeRecordStream(buildStream());
        ConvertOptions window;
        window.windowStartNs = kT0 + 35 * kUs;
        window.windowEndNs = kT0 + 65 * kUs;
        ConvertStats stats;
        ImportResult result = importBytes(recordsToXSpaceBytes(d.records, window, &stats));
        QVERIFY2(result.ok(), result.error.c_str());
        const checks::Summary s = checks::summarize(*result.trace);
        // The first kernel [20, 50] overlaps the window, two of the graph kernels start in it.
        QCOMPARE(s.slice("void capx::scale<float, 3>(float*, float, unsigned long)"), size_t(1));
        QCOMPARE(s.slice("gemm_fusion_dot_general_1"), size_t(2));
        QCOMPARE(s.slice("cudaLaunchKernel"), size_t(0));
        QCOMPARE(s.slice("cudaGraphLaunch"), size_t(1));
        QCOMPARE(s.slice("outer"), size_t(1));
        QCOMPARE(s.instant("mark"), size_t(1));
        QCOMPARE(s.instant("MemoryAllocation"), size_t(0));
        QVERIFY(stats.outsideWindow > 0);
    }

    void crashedProcessIsFlagged() {
        std::string stream = buildStream();
        // Cut off the bye: the process died before its last flush.
        RecordDecoder d;
        QVERIFY(d.feed(std::string_view(stream).substr(0, stream.size() - (sizeof(FrameHeader) + sizeof(ByeRecord)))));
        QVERIFY(!d.records().hasBye);
        xspace::SpaceWriter writer;
        recordsToXSpace(d.records(), {}, writer);
        bool flagged = false;
        for (const auto& w : writer.proto().warnings()) flagged |= w.find("crashed or was killed") != std::string::npos;
        QVERIFY(flagged);
    }

    void threadNamesAndWindowFrames() {
        // A thread-name frame for thread 12 (API calls in buildStream) names its host line; window frames are
        // kept apart from the activity records.
        std::string s = buildStream();
        ThreadNameRecord t{};
        t.threadId = 12;
        appendFrame(s, kRecThreadName, t, {"dataloader"});
        WindowRecord w{};
        w.state = kWindowStopped;
        w.timestampNs = kT0 + 900 * kUs;
        w.recordsSent = 12;
        appendFrame(s, kRecWindow, w);
        CudaEventRecord ev{};
        ev.deviceTimestampNs = kT0 + 50 * kUs;
        ev.streamId = 21;
        ev.eventId = 3;
        appendFrame(s, kRecCudaEvent, ev);
        const DecodeResult whole = decodeRecordStream(buildStream());
        const DecodeResult d = decodeRecordStream(s);
        QVERIFY2(d.error.empty(), d.error.c_str());
        QCOMPARE(d.records.activityCount(), whole.records.activityCount() + 1);  // the event record
        QCOMPARE(d.records.threadNames.size(), size_t(1));
        QCOMPARE(d.records.threadNames[0].name, std::string("dataloader"));
        QCOMPARE(d.records.windows.size(), size_t(1));
        QCOMPARE(d.records.windows[0].recordsSent, uint64_t(12));
        // A name frame whose string runs past the frame is malformed.
        std::string bad = buildStream();
        std::string frame;
        appendFrame(frame, kRecThreadName, t, {"dataloader"});
        frame[sizeof(FrameHeader) + sizeof t] = 100;  // the string's length: 100 bytes, 10 present
        QVERIFY(!decodeRecordStream(bad + frame).error.empty());

        const std::string xspace = recordsToXSpaceBytes(d.records);
        ImportResult r = importXSpaces(std::vector<XSpaceSource>{{"worker0", "", xspace}}, {});
        QVERIFY2(r.ok(), r.error.c_str());
        const checks::Summary sum = checks::summarize(*r.trace);
        QVERIFY(sum.hasTrack("dataloader (12)"));
        QVERIFY(sum.hasTrack("Stream #21"));  // only an event record: no work types, no "()"
        QCOMPARE(sum.instant("cudaEventRecord"), size_t(1));
        QVERIFY(!sum.hasTrack("Host Threads/12") && sum.hasTrack("Host Threads/11"));
    }

    void controlDecoder() {
        // Two Stop/Start frames arrive whole, byte by byte, and split across a header.
        std::string stream;
        appendFrame(stream, kRecControl, ControlRecord{kControlStop, 0, 5});
        appendFrame(stream, kRecControl, ControlRecord{kControlStart, 0, 6});
        for (size_t piece : {stream.size(), size_t(1), size_t(5), size_t(13)}) {
            ControlDecoder d;
            std::vector<ControlRecord> got;
            for (size_t at = 0; at < stream.size(); at += piece)
                QVERIFY(d.feed(stream.data() + at, std::min(piece, stream.size() - at),
                               [&](const ControlRecord& r) { got.push_back(r); }));
            QCOMPARE(got.size(), size_t(2));
            QCOMPARE(got[0].command, uint32_t(kControlStop));
            QCOMPARE(got[0].timestampNs, int64_t(5));
            QCOMPARE(got[1].command, uint32_t(kControlStart));
        }
        // A shorter fixed part (an older viewer) reads the missing fields as 0.
        {
            std::string shortFrame;
            appendFrame(shortFrame, kRecControl, uint32_t(kControlStop));
            ControlDecoder d;
            ControlRecord got{9, 9, 9};
            QVERIFY(d.feed(shortFrame.data(), shortFrame.size(), [&](const ControlRecord& r) { got = r; }));
            QCOMPARE(got.command, uint32_t(kControlStop));
            QCOMPARE(got.timestampNs, int64_t(0));
        }
        // Another frame type, a frame longer than any control frame, a fixed part longer
        // than the frame: the decoder stops for good and calls nothing.
        auto refused = [](std::string bytes) {
            ControlDecoder d;
            int calls = 0;
            const bool ok = d.feed(bytes.data(), bytes.size(), [&](const ControlRecord&) { ++calls; });
            return !ok && !d.ok() && calls == 0;
        };
        std::string wrongType;
        appendFrame(wrongType, kRecKernel, ControlRecord{kControlStop, 0, 0});
        QVERIFY(refused(wrongType));
        std::string tooLong;
        appendFrame(tooLong, kRecControl, ControlRecord{kControlStop, 0, 0}, {std::string(200, 'x')});
        QVERIFY(refused(tooLong));
        std::string badFixed;
        appendFrame(badFixed, kRecControl, ControlRecord{kControlStop, 0, 0});
        FrameHeader h;
        std::memcpy(&h, badFixed.data(), sizeof h);
        h.fixedSize = uint16_t(h.length + 1);
        std::memcpy(&badFixed[0], &h, sizeof h);
        QVERIFY(refused(badFixed));
    }
};

QTEST_GUILESS_MAIN(AgentRecordsTest)
#include "tst_agent_records.moc"
