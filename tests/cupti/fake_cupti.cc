// A test-only libcupti.so.13: the entry points our agent calls, with CUPTI 13's signatures
// (from cupti.h), and hooks through which a test program delivers prepared record buffers
// the way CUPTI does: buffers come from the agent's request callback and go back through
// its completion callback at the next cuptiActivityFlushAll. No GPU involved.
//
// As NVTX's injection library (InitializeInjectionNvtx2, reached through the agent's
// forwarder) it records nvtxRangePushA / nvtxRangePop / nvtxMarkA as CUPTI 13 Marker2
// records, delivered at the next flush while the MARKER kind is enabled (as CUPTI does).
//
// Behaviour from the environment:
//   FAKE_CUPTI_VERSION      what cuptiGetVersion reports (default: CUPTI_API_VERSION)
//   FAKE_CUPTI_SUBSCRIBER   when set, cuptiSubscribe_v2 fails with
//                           CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED and names it
#include "app/cupti_agent/cupti_translate.h"
#include "tests/cupti/fake_scenario.h"

#include <cupti.h>
#include <nvtx3/nvToolsExt.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <mutex>
#include <string>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

std::mutex g_mutex;
CUpti_BuffersCallbackRequestFunc g_request = nullptr;
CUpti_BuffersCallbackCompleteFunc g_complete = nullptr;
struct Completed {
    uint8_t* buffer;
    size_t size, valid;
};
std::deque<Completed> g_completed;
size_t g_dropped = 0;
std::vector<int> g_enabled;

}  // namespace

FAKE_EXPORT CUptiResult cuptiGetVersion(uint32_t* version) {
    const char* v = std::getenv("FAKE_CUPTI_VERSION");
    *version = v ? uint32_t(std::strtoul(v, nullptr, 10)) : CUPTI_API_VERSION;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiGetResultString(CUptiResult result, const char** str) {
    *str = result == CUPTI_SUCCESS ? "CUPTI_SUCCESS" : "CUPTI_ERROR (fake)";
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiGetTimestamp(uint64_t* timestamp) {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    *timestamp = uint64_t(ts.tv_sec) * 1'000'000'000ull + uint64_t(ts.tv_nsec);
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiSubscribe_v2(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc, void*,
                                          CUpti_SubscriberParams* params) {
    if (const char* other = std::getenv("FAKE_CUPTI_SUBSCRIBER")) {
        if (params && params->oldSubscriberName && params->oldSubscriberSize) {
            std::strncpy(params->oldSubscriberName, other, params->oldSubscriberSize - 1);
            params->oldSubscriberName[params->oldSubscriberSize - 1] = 0;
        }
        return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    }
    static int handle;
    *subscriber = reinterpret_cast<CUpti_SubscriberHandle>(&handle);
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiSetThreadIdType(CUpti_ActivityThreadIdType) { return CUPTI_SUCCESS; }

FAKE_EXPORT CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc request,
                                                       CUpti_BuffersCallbackCompleteFunc complete) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_request = request;
    g_complete = complete;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiActivityEnable(CUpti_ActivityKind kind) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_enabled.push_back(int(kind));
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiActivityDisable(CUpti_ActivityKind kind) {
    std::lock_guard<std::mutex> lock(g_mutex);
    for (size_t i = 0; i < g_enabled.size();)
        if (g_enabled[i] == int(kind)) g_enabled.erase(g_enabled.begin() + long(i));
        else ++i;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiActivityEnableAllocationSource(uint8_t) { return CUPTI_SUCCESS; }

static bool g_eventTimestamps = false;

// As CUPTI, CUDA_EVENT records carry a device timestamp only when this was turned on.
FAKE_EXPORT CUptiResult cuptiActivityEnableCudaEventDeviceTimestamps(uint8_t enable) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_eventTimestamps = enable != 0;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiGetCallbackName(CUpti_CallbackDomain domain, uint32_t cbid, const char** name) {
    *name = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? fake::runtimeApiName(cbid) : nullptr;
    return *name ? CUPTI_SUCCESS : CUPTI_ERROR_INVALID_PARAMETER;
}

FAKE_EXPORT CUptiResult cuptiActivityGetNextRecord(uint8_t* buffer, size_t validSize, CUpti_Activity** record) {
    size_t at = 0;
    if (*record) {
        const size_t size = tracescope::agent::activityRecordSize((*record)->kind);
        if (!size) return CUPTI_ERROR_INVALID_KIND;
        at = size_t(reinterpret_cast<uint8_t*>(*record) - buffer) + ((size + 7) & ~size_t(7));
    }
    if (at + sizeof(CUpti_Activity) > validSize) return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *record = reinterpret_cast<CUpti_Activity*>(buffer + at);
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiActivityGetNumDroppedRecords(CUcontext, uint32_t, size_t* dropped) {
    std::lock_guard<std::mutex> lock(g_mutex);
    *dropped = g_dropped;
    g_dropped = 0;  // resets on read, as CUPTI's does
    return CUPTI_SUCCESS;
}

namespace {

// NVTX markers recorded since the last flush (Marker2 records), and their names, kept for
// the whole process as CUPTI keeps its strings.
std::vector<CUpti_ActivityMarker2> g_markers;
std::deque<std::string> g_markerNames;
std::atomic<uint32_t> g_nextMarkerId{1000};
thread_local std::vector<uint32_t> t_openRanges;

bool enabledLocked(CUpti_ActivityKind kind) {
    for (int k : g_enabled)
        if (k == int(kind)) return true;
    return false;
}

void addMarker(uint32_t flags, uint32_t id, const char* name) {
    CUpti_ActivityMarker2 m{};
    m.kind = CUPTI_ACTIVITY_KIND_MARKER;
    m.flags = CUpti_ActivityFlag(flags);
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    m.timestamp = uint64_t(ts.tv_sec) * 1'000'000'000ull + uint64_t(ts.tv_nsec);
    m.id = id;
    m.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    m.objectId.pt.processId = uint32_t(getpid());
    m.objectId.pt.threadId = uint32_t(syscall(SYS_gettid));
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!enabledLocked(CUPTI_ACTIVITY_KIND_MARKER)) return;
    m.name = name ? g_markerNames.emplace_back(name).c_str() : nullptr;
    g_markers.push_back(m);
}

int NVTX_API rangePushA(const char* message) {
    const uint32_t id = g_nextMarkerId++;
    t_openRanges.push_back(id);
    addMarker(CUPTI_ACTIVITY_FLAG_MARKER_START, id, message);
    return int(t_openRanges.size()) - 1;
}

int NVTX_API rangePop() {
    if (t_openRanges.empty()) return -1;
    const uint32_t id = t_openRanges.back();
    t_openRanges.pop_back();
    addMarker(CUPTI_ACTIVITY_FLAG_MARKER_END, id, nullptr);
    return int(t_openRanges.size());
}

void NVTX_API markA(const char* message) { addMarker(CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS, g_nextMarkerId++, message); }

// Hands the markers to the agent as one CUPTI buffer (from its request callback).
void deliverMarkersLocked() {
    if (g_markers.empty() || !g_request) return;
    const size_t step = (sizeof(CUpti_ActivityMarker2) + 7) & ~size_t(7);
    uint8_t* buffer = nullptr;
    size_t size = 0, maxRecords = 0;
    g_request(&buffer, &size, &maxRecords);
    if (!buffer) return;
    size_t out = 0;
    for (const CUpti_ActivityMarker2& m : g_markers) {
        if (out + step > size) break;
        std::memcpy(buffer + out, &m, sizeof m);
        out += step;
    }
    g_markers.clear();
    g_completed.push_back({buffer, size, out});
}

}  // namespace

// NVTX's tool entry (nvtx3 nvtxDetail/nvtxInit.h): fills the core module's slots.
FAKE_EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t getExportTable) {
    const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(getExportTable(NVTX_ETID_CALLBACKS));
    if (!callbacks || !callbacks->GetModuleFunctionTable) return 0;
    NvtxFunctionTable table = nullptr;
    unsigned int size = 0;
    if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size) || !table) return 0;
    auto set = [&](unsigned int cbid, NvtxFunctionPointer fn) {
        if (cbid < size && table[cbid]) *table[cbid] = fn;
    };
    set(NVTX_CBID_CORE_RangePushA, reinterpret_cast<NvtxFunctionPointer>(&rangePushA));
    set(NVTX_CBID_CORE_RangePop, reinterpret_cast<NvtxFunctionPointer>(&rangePop));
    set(NVTX_CBID_CORE_MarkA, reinterpret_cast<NvtxFunctionPointer>(&markA));
    return 1;
}

FAKE_EXPORT CUptiResult cuptiActivityFlushAll(uint32_t) {
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        deliverMarkersLocked();
    }
    std::deque<Completed> ready;
    CUpti_BuffersCallbackCompleteFunc complete;
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        ready.swap(g_completed);
        complete = g_complete;
    }
    for (const Completed& c : ready)
        if (complete) complete(nullptr, 0, c.buffer, c.size, c.valid);
    return CUPTI_SUCCESS;
}

// Test hooks. The records are copied into a buffer the agent hands out, completed at the
// next flush. False when the agent registered no callbacks or its buffer is too small.
FAKE_EXPORT bool fakecupti_deliver(const uint8_t* records, size_t size) {
    CUpti_BuffersCallbackRequestFunc request;
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        request = g_request;
    }
    if (!request) return false;
    uint8_t* buffer = nullptr;
    size_t bufferSize = 0, maxRecords = 0;
    request(&buffer, &bufferSize, &maxRecords);
    if (!buffer || bufferSize < size) return false;
    // As CUPTI, only the kinds the agent enabled reach its buffers.
    std::lock_guard<std::mutex> lock(g_mutex);
    size_t at = 0, out = 0;
    while (at + sizeof(CUpti_Activity) <= size) {
        const auto* record = reinterpret_cast<const CUpti_Activity*>(records + at);
        const size_t step = (tracescope::agent::activityRecordSize(record->kind) + 7) & ~size_t(7);
        if (step == 0 || at + step > size) break;
        bool enabled = false;
        for (int k : g_enabled) enabled |= k == int(record->kind);
        if (enabled) {
            std::memcpy(buffer + out, records + at, step);
            if (record->kind == CUPTI_ACTIVITY_KIND_CUDA_EVENT && !g_eventTimestamps)
                reinterpret_cast<CUpti_ActivityCudaEvent2*>(buffer + out)->deviceTimestamp = 0;
            out += step;
        }
        at += step;
    }
    g_completed.push_back({buffer, bufferSize, out});
    return true;
}

FAKE_EXPORT void fakecupti_add_dropped(size_t n) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_dropped += n;
}

FAKE_EXPORT int fakecupti_enabled_kinds() {
    std::lock_guard<std::mutex> lock(g_mutex);
    return int(g_enabled.size());
}
