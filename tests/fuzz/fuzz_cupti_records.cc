// The CUPTI agent's handling of completed activity buffers: bytes become a buffer of real
// CUPTI 13 records (cupti_input.h: every kind the agent translates, other and unknown kinds,
// names from the input or null, records shorter than their struct, a cut validSize), walked
// and translated by the agent's own translateBuffer, framed like the agent's stream (hello,
// the records, bye), decoded by the viewer's decoder and turned into a Trace through the
// conversion to XSpace and our importer, as a capture is. The buffer is exactly validSize
// bytes long, so AddressSanitizer sees any read past what CUPTI called valid.
//
// Aborts when the agent's frames do not decode cleanly, when the decoder finds a different
// number of records than the agent translated, when more records come out of a kind than
// were laid into the buffer, or when the Trace holds a slice of negative duration.
#include "app/cupti_agent/activity_buffer.h"
#include "model/capture/agent/record_decoder.h"
#include "model/capture/agent/record_encoder.h"
#include "model/capture/agent/records_to_xspace.h"
#include "model/import/xspace_importer.h"
#include "tests/cupti/fake_scenario.h"
#include "tests/fuzz/cupti_input.h"
#include "tests/fuzz/fuzz_support.h"

#include <cupti_version.h>

#include <cstdlib>
#include <memory>

using namespace tracescope;

namespace {

// CUPTI's iterator as it walks a buffer it filled: it knows where each record starts. It
// hands out any record whose header lies inside validSize; the rest is the agent's check.
const cuptifuzz::Buffer* g_layout = nullptr;
const uint8_t* g_buffer = nullptr;
size_t g_next = 0;

CUptiResult nextRecord(uint8_t* buffer, size_t validSize, CUpti_Activity** record) {
    if (buffer != g_buffer || !g_layout) std::abort();
    if (*record == nullptr) g_next = 0;
    if (g_next >= g_layout->offsets.size()) return CUPTI_ERROR_MAX_LIMIT_REACHED;
    const size_t at = g_layout->offsets[g_next];
    if (at + sizeof(CUpti_Activity) > validSize) return CUPTI_ERROR_INVALID_KIND;
    ++g_next;
    *record = reinterpret_cast<CUpti_Activity*>(buffer + at);
    return CUPTI_SUCCESS;
}

// cuptiGetCallbackName for the runtime API ids of the test scenario; the agent asks only
// for the runtime and driver domains.
const char* apiName(uint32_t domain, uint32_t cbid) {
    if (domain != agent::kApiRuntime && domain != agent::kApiDriver) std::abort();
    return domain == agent::kApiRuntime ? fake::runtimeApiName(cbid) : nullptr;
}

uint64_t g_threadsNoted = 0;
void noteThread(int64_t) { ++g_threadsNoted; }

// How many frames of each of our record types can come from the kinds laid out.
struct Expected {
    size_t kernels = 0, memcpys = 0, memsets = 0, apis = 0, syncs = 0, markers = 0, markerData = 0, memory = 0,
           devices = 0, overheads = 0, cudaEvents = 0, streams = 0, records = 0;
};

Expected expected(const cuptifuzz::Buffer& b) {
    Expected e;
    for (size_t i = 0; i < cuptifuzz::kKindCount; ++i) {
        const size_t n = b.wholeRecords[i];
        e.records += n;
        switch (cuptifuzz::kKinds[i].kind) {
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: e.kernels += n; break;
        case CUPTI_ACTIVITY_KIND_MEMCPY:
        case CUPTI_ACTIVITY_KIND_MEMCPY2: e.memcpys += n; break;
        case CUPTI_ACTIVITY_KIND_MEMSET: e.memsets += n; break;
        case CUPTI_ACTIVITY_KIND_RUNTIME:
        case CUPTI_ACTIVITY_KIND_DRIVER: e.apis += n; break;
        case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: e.syncs += n; break;
        case CUPTI_ACTIVITY_KIND_MARKER: e.markers += n; break;
        case CUPTI_ACTIVITY_KIND_MARKER_DATA: e.markerData += n; break;
        case CUPTI_ACTIVITY_KIND_MEMORY2: e.memory += n; break;
        case CUPTI_ACTIVITY_KIND_DEVICE: e.devices += n; break;
        case CUPTI_ACTIVITY_KIND_OVERHEAD: e.overheads += n; break;
        case CUPTI_ACTIVITY_KIND_CUDA_EVENT: e.cudaEvents += n; break;
        case CUPTI_ACTIVITY_KIND_STREAM: e.streams += n; break;
        default: break;
        }
    }
    return e;
}

void check(bool ok) {
    if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const cuptifuzz::Buffer layout = cuptifuzz::decode(data, size);

    // The buffer CUPTI completes: exactly the valid bytes, on the heap.
    std::unique_ptr<uint8_t[]> buffer(new uint8_t[layout.validSize ? layout.validSize : 1]);
    if (layout.validSize) std::memcpy(buffer.get(), layout.bytes.data(), layout.validSize);
    g_layout = &layout;
    g_buffer = buffer.get();
    g_threadsNoted = 0;

    // The agent's stream: its hello, the buffer's records, its bye.
    std::string stream;
    agent::HelloRecord hello{};
    hello.magic = TS_AGENT_MAGIC;
    hello.formatVersion = TS_AGENT_FORMAT_VERSION;
    hello.pid = fake::kPid;
    hello.cuptiVersion = hello.cuptiBuildVersion = CUPTI_API_VERSION;
    hello.kinds = agent::kKindAll;
    hello.startNs = 1'750'000'000'000'000'000;
    agent::appendFrame(stream, agent::kRecHello, hello, {"gpuhost", "/opt/app", "app"});
    std::string frames;
    const uint64_t translated =
        agent::translateBuffer(buffer.get(), layout.validSize, nextRecord, apiName, noteThread, frames);
    stream += frames;
    agent::appendFrame(stream, agent::kRecBye, agent::ByeRecord{hello.startNs + 1'000'000'000, translated, 0});
    g_layout = nullptr;
    g_buffer = nullptr;

    const Expected e = expected(layout);
    check(translated <= e.records);
    check(g_threadsNoted <= layout.offsets.size());

    // The viewer's side: the one decoder, then the conversion and the importer.
    const agent::DecodeResult d = agent::decodeRecordStream(stream);
    check(d.error.empty() && d.truncatedBytes == 0);
    check(d.records.hasHello && d.records.hasBye);
    const agent::AgentRecords& r = d.records;
    check(r.activityCount() == translated && r.unknownFrames == 0);
    check(r.kernels.size() <= e.kernels && r.memcpys.size() <= e.memcpys && r.memsets.size() <= e.memsets);
    check(r.apis.size() <= e.apis && r.syncs.size() <= e.syncs && r.markers.size() <= e.markers);
    check(r.markerData.size() <= e.markerData && r.memory.size() <= e.memory && r.devices.size() <= e.devices);
    check(r.overheads.size() <= e.overheads && r.cudaEvents.size() <= e.cudaEvents && r.streams.size() <= e.streams);

    agent::ConvertStats stats;
    const std::string xspace = agent::recordsToXSpaceBytes(r, {}, &stats);
    check(stats.kernels <= r.kernels.size() && stats.memcpys <= r.memcpys.size() && stats.memsets <= r.memsets.size());
    check(stats.apis <= r.apis.size() && stats.syncs <= r.syncs.size() && stats.overheads <= r.overheads.size());
    check(stats.nvtxRanges + stats.nvtxMarks <= r.markers.size() && stats.cudaEvents <= r.cudaEvents.size());

    std::vector<XSpaceSource> one{{"gpuhost", "", xspace}};
    ImportResult imported = importXSpaces(one, fuzz::fuzzImportOptions());
    if (!imported.ok()) return 0;
    const Trace& trace = *imported.trace;
    check(trace.startNs <= trace.endNs);
    for (const Track& t : trace.tracks)
        for (size_t i = 0; i < t.slices.size(); ++i) check(t.slices.duration[i] >= 0);
    (void)trace.counts();
    return 0;
}
