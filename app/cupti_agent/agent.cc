// libtracescope_cupti.so: our CUPTI agent, injected into any CUDA program with
// CUDA_INJECTION64_PATH. The CUDA driver calls InitializeInjection once during cuInit
// (CUPTI's documentation of CUDA_INJECTION64_PATH). The agent subscribes to CUPTI, collects
// activity buffers, translates them into our framed records (activity_buffer.h) and, from
// its own thread every TRACESCOPE_AGENT_FLUSH_MS (100-250 ms), sends them to the viewer's
// Unix socket (TRACESCOPE_AGENT_SOCKET) or, when no viewer listens, appends them to a
// fallback file <TRACESCOPE_AGENT_FALLBACK>/<host>.<pid>.tscupti. At exit (atexit) it
// forces a last flush and sends a Bye. The viewer's Stop / Start control frames end and
// reopen the capture window while the target runs on.
//
// Early-NVTX mode: NVTX_INJECTION64_PATH names this library (and the launcher preloads it),
// so that the program's first NVTX call, possibly before any CUDA call, starts the agent
// through InitializeInjectionNvtx2 and NVTX ranges pushed before cuInit are recorded.
//
// Rules (after Kineto's and XLA's CUPTI tracers and CUPTI's own notes): never abort or
// block the target (every CUPTI error is reported and ignored, callbacks never wait on the
// socket), bounded memory (records beyond the budget are dropped and counted), no timestamp
// callback (CUPTI's default clock is CLOCK_REALTIME), CONCURRENT_KERNEL rather than the
// serializing KERNEL kind, and libcupti is never unloaded. Depends on CUPTI and libc only.
#include "app/cupti_agent/activity_buffer.h"
#include "app/cupti_agent/agent_state.h"
#include "app/cupti_agent/cupti_translate.h"

#include <cupti.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#define TS_EXPORT extern "C" __attribute__((visibility("default")))

namespace tracescope::agent {
namespace {

constexpr size_t kBufferBytes = 4u << 20;

}  // namespace

// nvtx3's NvtxGetExportTableFunc_t (nvtxDetail/nvtxTypes.h): what NVTX hands its tool.
using NvtxGetExportTable = const void* (*)(uint32_t exportTableId);

namespace {

Agent* g_agent = nullptr;  // created once by InitializeInjection, never freed (used at exit)
std::atomic<bool> g_started{false};

const char* apiName(uint32_t domain, uint32_t cbid) {
    const char* name = nullptr;
    const CUpti_CallbackDomain d = domain == kApiRuntime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API;
    if (cuptiGetCallbackName(d, cbid, &name) != CUPTI_SUCCESS) return nullptr;
    return name;
}

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
    void* p = nullptr;
    if (posix_memalign(&p, 8, kBufferBytes) != 0) p = nullptr;  // CUPTI's ACTIVITY_RECORD_ALIGNMENT is 8
    *buffer = static_cast<uint8_t*>(p);
    *size = p ? kBufferBytes : 0;
    *maxNumRecords = 0;
}

void noteThread(int64_t tid) {
    if (g_agent) g_agent->noteThread(tid);
}

void CUPTIAPI bufferCompleted(CUcontext ctx, uint32_t streamId, uint8_t* buffer, size_t, size_t validSize) {
    std::string frames;
    const uint64_t records = translateBuffer(buffer, validSize, cuptiActivityGetNextRecord, apiName, noteThread, frames);
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(ctx, streamId, &dropped) != CUPTI_SUCCESS) dropped = 0;
    std::free(buffer);
    if (g_agent) g_agent->submit(std::move(frames), records, dropped);
}

void subscriberCallback(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}

void atExit() {
    if (!g_agent || g_agent->detached()) return;
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    g_agent->finish();
}

// CUPTI kinds per KindMask bit.
struct KindBit {
    uint32_t bit;
    CUpti_ActivityKind kind;
};
constexpr KindBit kKinds[] = {
    {kKindKernel, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL}, {kKindMemcpy, CUPTI_ACTIVITY_KIND_MEMCPY},
    {kKindMemcpy, CUPTI_ACTIVITY_KIND_MEMCPY2},           {kKindMemset, CUPTI_ACTIVITY_KIND_MEMSET},
    {kKindRuntime, CUPTI_ACTIVITY_KIND_RUNTIME},          {kKindDriver, CUPTI_ACTIVITY_KIND_DRIVER},
    {kKindSync, CUPTI_ACTIVITY_KIND_SYNCHRONIZATION},     {kKindSync, CUPTI_ACTIVITY_KIND_CUDA_EVENT},
    {kKindSync, CUPTI_ACTIVITY_KIND_STREAM},              {kKindNvtx, CUPTI_ACTIVITY_KIND_MARKER},
    {kKindNvtx, CUPTI_ACTIVITY_KIND_MARKER_DATA},         {kKindMemory, CUPTI_ACTIVITY_KIND_MEMORY2},
    {kKindOverhead, CUPTI_ACTIVITY_KIND_OVERHEAD},
};

// The kinds enabled at start, for Stop / Start (touched by the thread that starts the agent,
// then only by the flush thread).
CUpti_ActivityKind g_enabledKinds[sizeof kKinds / sizeof kKinds[0]];
size_t g_enabledCount = 0;
bool g_collecting = false;

int64_t nowNs() {
    uint64_t t = 0;
    return cuptiGetTimestamp(&t) == CUPTI_SUCCESS ? int64_t(t) : 0;
}

// The viewer's Stop ends the capture window inside the target: collection is disabled, then
// a forced flush hands over every buffer (as XLA's CuptiTracer disables its kinds before its
// last flush), and the Window frame follows the last record. Start enables the kinds again.
// Both run on the flush thread, never on the target's threads.
void applyControl(Agent& agent, const ControlRecord& c) {
    if (c.command == kControlStop) {
        if (g_collecting) {
            for (size_t i = 0; i < g_enabledCount; ++i) cuptiActivityDisable(g_enabledKinds[i]);
            cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
            g_collecting = false;
        }
        agent.windowChanged(kWindowStopped, nowNs());
    } else if (c.command == kControlStart) {
        if (!g_collecting && agent.active()) {
            for (size_t i = 0; i < g_enabledCount; ++i) cuptiActivityEnable(g_enabledKinds[i]);
            g_collecting = true;
        }
        agent.windowChanged(kWindowStarted, nowNs());
    }
}

void* flushLoop(void*) {
    while (g_agent && g_agent->waitForNextFlush()) {
        for (const ControlRecord& c : g_agent->pollControl()) applyControl(*g_agent, c);
        if (g_collecting) cuptiActivityFlushAll(0);
        g_agent->send();
    }
    return nullptr;
}

const char* resultText(CUptiResult rc) {
    const char* s = nullptr;
    if (cuptiGetResultString(rc, &s) != CUPTI_SUCCESS || !s) return "unknown CUPTI error";
    return s;
}

// Sets CUPTI up; false when the agent stays passive (the reason was reported).
bool startCupti(Agent& agent) {
    uint32_t version = 0;
    const CUptiResult vrc = cuptiGetVersion(&version);
    agent.setCuptiVersion(vrc == CUPTI_SUCCESS ? version : 0);
    // Record layouts follow the loaded libcupti (cupti_activity.h): only the CUPTI release
    // the agent was built for (same major.minor) is read.
    if (vrc != CUPTI_SUCCESS || version / 100 != CUPTI_API_VERSION / 100) {
        agent.status(kStatusVersionMismatch, 0,
                     "the loaded libcupti (API version " + std::to_string(version) +
                         ") is not the one the TraceScope agent was built for (" + std::to_string(CUPTI_API_VERSION) +
                         "); nothing is recorded",
                     "");
        return false;
    }
    // CUPTI 13 needs a CUDA 13 driver; cuDriverGetVersion comes from the libcuda that loaded us.
    using DriverVersionFn = int (*)(int*);
    if (auto fn = reinterpret_cast<DriverVersionFn>(dlsym(RTLD_DEFAULT, "cuDriverGetVersion"))) {
        int driver = 0;
        if (fn(&driver) == 0) {
            agent.setDriverVersion(driver);
            if (driver > 0 && driver < 13000) {
                agent.status(kStatusDriverTooOld, 0,
                             "the NVIDIA driver supports CUDA " + std::to_string(driver / 1000) + "." +
                                 std::to_string(driver % 1000 / 10) +
                                 " but CUPTI 13 needs a CUDA 13 driver; update the driver to record GPU activity",
                             "");
                return false;
            }
        }
    }
    CUpti_SubscriberHandle subscriber = nullptr;
    char other[256] = {};
    CUpti_SubscriberParams params{};
    params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
    params.subscriberName = "tracescope-agent";
    params.oldSubscriberName = other;
    params.oldSubscriberSize = sizeof other;
    const CUptiResult src =
        cuptiSubscribe_v2(&subscriber, reinterpret_cast<CUpti_CallbackFunc>(subscriberCallback), nullptr, &params);
    if (src == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
        agent.status(kStatusOtherProfiler, int32_t(src),
                     "another profiler already holds CUPTI in this process (torch.profiler, the JAX/TensorFlow "
                     "profiler, Nsight Systems/Compute, cuda-gdb or compute-sanitizer); the TraceScope agent stays "
                     "passive",
                     other[0] ? other : "unknown subscriber");
        return false;
    }
    if (src != CUPTI_SUCCESS) {
        agent.status(kStatusCuptiUnavailable, int32_t(src), std::string("cuptiSubscribe_v2 failed: ") + resultText(src),
                     "");
        return false;
    }
    // OS thread ids (gettid), so host lines match other host traces.
    if (CUptiResult rc = cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM); rc != CUPTI_SUCCESS)
        agent.status(kStatusCuptiError, int32_t(rc), std::string("cuptiSetThreadIdType: ") + resultText(rc), "");
    if (CUptiResult rc = cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted); rc != CUPTI_SUCCESS) {
        agent.status(kStatusCuptiUnavailable, int32_t(rc),
                     std::string("cuptiActivityRegisterCallbacks failed: ") + resultText(rc), "");
        return false;
    }
    // The DEVICE record (capabilities) arrives at context creation.
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DEVICE);
    int enabled = 0;
    for (const KindBit& k : kKinds) {
        if (!(agent.kinds() & k.bit)) continue;
        const CUptiResult rc = cuptiActivityEnable(k.kind);
        if (rc == CUPTI_SUCCESS) {
            ++enabled;
            g_enabledKinds[g_enabledCount++] = k.kind;
        } else
            agent.status(kStatusCuptiError, int32_t(rc),
                         "cuptiActivityEnable(" + std::to_string(int(k.kind)) + "): " + resultText(rc), "");
    }
    if (agent.kinds() & kKindMemory) cuptiActivityEnableAllocationSource(0);
    // Without it CUDA_EVENT records carry no time and cannot be placed on their stream.
    if (agent.kinds() & kKindSync) cuptiActivityEnableCudaEventDeviceTimestamps(1);
    // NVTX reaches CUPTI only through NVTX_INJECTION64_PATH, and only if it names the same
    // libcupti instance we are bound to (a second copy is a second, silent CUPTI). NVTX reads
    // the variable at its first call, so setting it here covers ranges after cuInit.
    if (agent.kinds() & kKindNvtx) {
        Dl_info info{};
        if (dladdr(reinterpret_cast<void*>(&cuptiGetVersion), &info) && info.dli_fname)
            setenv("NVTX_INJECTION64_PATH", info.dli_fname, /*overwrite=*/0);
    }
    return enabled > 0;
}

// Starts the agent once per process, from whichever entry point comes first: the CUDA
// driver's InitializeInjection during cuInit, or NVTX's InitializeInjectionNvtx2 at the
// program's first NVTX call (early-NVTX mode), which can come before any CUDA call.
void initializeOnce() {
    bool expected = false;
    if (!g_started.compare_exchange_strong(expected, true)) return;
    g_agent = new Agent(AgentConfig::fromEnvironment());
    uint64_t start = 0;
    if (cuptiGetTimestamp(&start) != CUPTI_SUCCESS) start = 0;
    g_agent->setStartNs(int64_t(start));
    const bool active = startCupti(*g_agent);
    g_agent->setActive(active);
    g_collecting = active;
    g_agent->open();  // hello (with the status records above), socket or fallback file
    std::atexit(atExit);
    pthread_atfork(nullptr, nullptr, [] {
        // A forked child is its own process: it must not write into the parent's stream.
        // (Exec'd children inherit CUDA_INJECTION64_PATH and get their own agent.)
        if (g_agent) g_agent->detachAfterFork();
    });
    pthread_t thread;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&thread, &attr, flushLoop, nullptr) == 0) g_agent->setFlushThread(true);
    pthread_attr_destroy(&attr);
}

// NVTX's injection entry (nvtx3's nvtxInitializeInjectionLibrary): NVTX_INJECTION64_PATH names
// this library. CUPTI records NVTX only when it is NVTX's tool itself, so after starting the
// agent the call goes on to InitializeInjectionNvtx2 of the libcupti the agent is bound to:
// the same CUPTI instance that collects our activity (a second libcupti loaded by path would
// be a second, silent CUPTI). Returns 0 (NVTX then turns itself into no-ops) when that
// libcupti has no NVTX entry.
int forwardNvtx(NvtxGetExportTable getExportTable) {
    initializeOnce();
    // Forwarded even when the agent stays passive or records no NVTX: another CUPTI client in
    // this process (e.g. torch.profiler) then still sees the ranges.
    if (!g_agent) return 0;
    using NvtxInit = int (*)(NvtxGetExportTable);
    NvtxInit next = nullptr;
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&cuptiGetVersion), &info) && info.dli_fname) {
        // Already loaded (we link it): RTLD_NOLOAD only finds that copy, never a second one.
        if (void* cupti = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD))
            next = reinterpret_cast<NvtxInit>(dlsym(cupti, "InitializeInjectionNvtx2"));
    }
    if (!next) {
        g_agent->status(kStatusNote, 0, "the loaded libcupti has no InitializeInjectionNvtx2: NVTX is not recorded",
                        info.dli_fname ? info.dli_fname : "");
        return 0;
    }
    return next(getExportTable);
}

}  // namespace
}  // namespace tracescope::agent

TS_EXPORT int InitializeInjection(void) {
    tracescope::agent::initializeOnce();
    return 1;  // never fail the target's cuInit
}

TS_EXPORT int InitializeInjectionNvtx2(tracescope::agent::NvtxGetExportTable getExportTable) {
    return tracescope::agent::forwardNvtx(getExportTable);
}
