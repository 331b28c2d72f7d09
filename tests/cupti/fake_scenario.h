// The CUPTI 13 records our tests feed the agent: real cupti_activity.h structs
// (CUpti_ActivityKernel10, Memcpy6, Memset4, API, Synchronization2, Marker2, MarkerData2,
// Memory4, Device5) laid into a buffer as CUPTI lays them (each record 8-byte aligned).
// The expected numbers of the tests come from scenarioCounts(), i.e. from this construction.
//
// Batch b (times relative to its base, in µs), one thread (kTid unless given), device 0:
//   runtime cudaLaunchKernel  corr c+1 [0, 10]   -> kernel capx::scale<float, 3> on stream 7 [20, 50]
//   runtime cudaMemcpyAsync   corr c+2 [60, 70]  -> MemcpyH2D 4096 bytes pinned->device, stream 7 [80, 90]
//   runtime cudaMemsetAsync   corr c+3 [100,110] -> memset 1024 bytes device, stream 13 [100, 110]
//   runtime cudaStreamSynchronize corr c+4 [120, 200] with a STREAM_SYNCHRONIZE record [121, 199]
//   runtime cudaEventRecord   corr c+7 [202, 204] -> CUDA event 5+b reached stream 7 at 206
//   NVTX range "step" [0, 300] (START/END, payload b, color) and a mark "tick" at 150
//   memory: cudaMalloc of 1 MiB at 5 (corr c+5); from batch 1 on, the previous batch's block
//           is freed at 250
//   batch 0 also: the DEVICE record, a DEVICE_STATIC memory record (not an allocation),
//           runtime cudaStreamCreateWithPriority corr 8 [1, 2] with its STREAM record
//           (stream 13, non-blocking, priority -1)
//   batch 1 also: runtime cudaGraphLaunch corr c+6 [210, 220] -> 3 graph kernels (graph 2,
//           nodes 2<<32|0..2) on stream 7 at [230..], one correlation id
// where c = 100 * b.
#pragma once

#include "app/cupti_agent/cupti_translate.h"

#include <cupti_runtime_cbid.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace fake {

constexpr uint32_t kTid = 4242;
constexpr uint32_t kPid = 4240;
constexpr const char* kKernelName = "_ZN4capx5scaleIfLi3EEEvPT_S1_m";
constexpr const char* kKernelDemangled = "void capx::scale<float, 3>(float*, float, unsigned long)";
constexpr uint64_t kBlockBytes = 1u << 20;

struct Counts {
    uint64_t kernels = 0, memcpys = 0, memsets = 0, apis = 0, syncs = 0, nvtxRanges = 0, nvtxMarks = 0,
             allocations = 0, frees = 0, devices = 0, staticRecords = 0, graphKernels = 0, cudaEvents = 0,
             streams = 0;
    uint64_t records() const {  // records the agent translates (one per CUPTI record)
        return kernels + memcpys + memsets + apis + syncs + 2 * nvtxRanges + nvtxMarks + nvtxRanges /*marker data*/ +
               allocations + frees + devices + staticRecords + cudaEvents + streams;
    }
};

inline Counts scenarioCounts(int batches) {
    Counts c;
    for (int b = 0; b < batches; ++b) {
        c.kernels += 1 + (b == 1 ? 3 : 0);
        c.graphKernels += b == 1 ? 3 : 0;
        c.memcpys += 1;
        c.memsets += 1;
        c.apis += 5 + (b == 1 ? 1 : 0) + (b == 0 ? 1 : 0);
        c.cudaEvents += 1;
        c.streams += b == 0 ? 1 : 0;
        c.syncs += 1;
        c.nvtxRanges += 1;
        c.nvtxMarks += 1;
        c.allocations += 1;
        c.frees += b > 0 ? 1 : 0;
        c.devices += b == 0 ? 1 : 0;
        c.staticRecords += b == 0 ? 1 : 0;
    }
    return c;
}

class BufferBuilder {
public:
    // The reference is valid until the next add().
    template <typename Record>
    Record& add(CUpti_ActivityKind kind) {
        const size_t size = (tracescope::agent::activityRecordSize(kind) + 7) & ~size_t(7);
        const size_t at = bytes.size();
        bytes.resize(at + size, 0);
        Record* r = reinterpret_cast<Record*>(bytes.data() + at);
        offsets.push_back(at);
        r->kind = kind;
        return *r;
    }
    std::vector<uint8_t> bytes;
    std::vector<size_t> offsets;
};

inline void api(BufferBuilder& b, uint32_t cbid, uint32_t corr, uint64_t start, uint64_t end, uint32_t tid = kTid) {
    auto& a = b.add<CUpti_ActivityAPI>(CUPTI_ACTIVITY_KIND_RUNTIME);
    a.cbid = cbid;
    a.start = start;
    a.end = end;
    a.processId = kPid;
    a.threadId = tid;
    a.correlationId = corr;
}

inline CUpti_ActivityKernel10& kernel(BufferBuilder& b, uint32_t corr, uint64_t start, uint64_t end) {
    auto& k = b.add<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    k.name = kKernelName;
    k.correlationId = corr;
    k.start = start;
    k.end = end;
    k.deviceId = 0;
    k.contextId = 1;
    k.streamId = 7;
    k.gridX = 65536, k.gridY = 1, k.gridZ = 1;
    k.blockX = 256, k.blockY = 1, k.blockZ = 1;
    k.dynamicSharedMemory = 128;
    k.staticSharedMemory = 0;
    k.registersPerThread = 32;
    return k;
}

// Appends batch `index` with times from `base` (ns, CUPTI's realtime clock), its host
// records on thread `tid`.
inline void buildBatch(BufferBuilder& b, int index, uint64_t base, uint32_t tid = kTid) {
    const uint32_t c = 100u * uint32_t(index);
    auto us = [base](uint64_t t) { return base + t * 1000; };
    if (index == 0) {
        auto& d = b.add<CUpti_ActivityDevice5>(CUPTI_ACTIVITY_KIND_DEVICE);
        d.id = 0;
        d.name = "NVIDIA H100 80GB HBM3";
        d.computeCapabilityMajor = 9;
        d.computeCapabilityMinor = 0;
        d.numMultiprocessors = 132;
        d.globalMemorySize = 85'045'510'144ull;
        d.globalMemoryBandwidth = 3'352'320'000ull;  // kB/s
        d.coreClockRate = 1'980'000;                  // kHz
        d.numThreadsPerWarp = 32;
        auto& s = b.add<CUpti_ActivityMemory4>(CUPTI_ACTIVITY_KIND_MEMORY2);
        s.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
        s.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC;
        s.address = 0x100;
        s.bytes = 64;
        s.timestamp = us(1);
        s.name = "precalc_xorwow_matrix";
        api(b, CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithPriority_v5050, 8, us(1), us(2), tid);
        auto& st = b.add<CUpti_ActivityStream>(CUPTI_ACTIVITY_KIND_STREAM);
        st.contextId = 1;
        st.streamId = 13;
        st.priority = uint32_t(-1);
        st.flag = CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NON_BLOCKING;
        st.correlationId = 8;
    }
    auto& start = b.add<CUpti_ActivityMarker2>(CUPTI_ACTIVITY_KIND_MARKER);
    start.flags = CUPTI_ACTIVITY_FLAG_MARKER_START;
    start.timestamp = us(0);
    start.id = 10u * uint32_t(index) + 1;
    start.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    start.objectId.pt.processId = kPid;
    start.objectId.pt.threadId = tid;
    start.name = "step";
    const uint32_t rangeId = start.id;  // `start` dangles once the buffer grows
    auto& data = b.add<CUpti_ActivityMarkerData2>(CUPTI_ACTIVITY_KIND_MARKER_DATA);
    data.id = rangeId;
    data.payloadKind = CUPTI_METRIC_VALUE_KIND_UINT64;
    data.payload.metricValueUint64 = uint64_t(index);
    data.color = 0xff00ff00u;

    api(b, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, c + 1, us(0), us(10), tid);
    kernel(b, c + 1, us(20), us(50));

    auto& alloc = b.add<CUpti_ActivityMemory4>(CUPTI_ACTIVITY_KIND_MEMORY2);
    alloc.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
    alloc.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    alloc.address = 0x7f0000000000ull + uint64_t(index) * kBlockBytes;
    alloc.bytes = kBlockBytes;
    alloc.timestamp = us(5);
    alloc.correlationId = c + 5;
    alloc.processId = kPid;
    alloc.streamId = 0xFFFFFFFFu;

    api(b, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, c + 2, us(60), us(70), tid);
    auto& m = b.add<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY);
    m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    m.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
    m.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    m.flags = CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC;
    m.bytes = 4096;
    m.start = us(80);
    m.end = us(90);
    m.contextId = 1;
    m.streamId = 7;
    m.correlationId = c + 2;

    api(b, CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, c + 3, us(100), us(110), tid);
    auto& s = b.add<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
    s.value = 0;
    s.bytes = 1024;
    s.start = us(100);
    s.end = us(110);
    s.contextId = 1;
    s.streamId = 13;
    s.correlationId = c + 3;
    s.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;

    api(b, CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, c + 4, us(120), us(200), tid);
    auto& sync = b.add<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
    sync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
    sync.start = us(121);
    sync.end = us(199);
    sync.correlationId = c + 4;
    sync.contextId = 1;
    sync.streamId = 7;
    sync.cudaEventId = 0xFFFFFFFFu;

    auto& mark = b.add<CUpti_ActivityMarker2>(CUPTI_ACTIVITY_KIND_MARKER);
    mark.flags = CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS;
    mark.timestamp = us(150);
    mark.id = 10u * uint32_t(index) + 2;
    mark.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    mark.objectId.pt.processId = kPid;
    mark.objectId.pt.threadId = tid;
    mark.name = "tick";

    api(b, CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020, c + 7, us(202), us(204), tid);
    auto& ev = b.add<CUpti_ActivityCudaEvent2>(CUPTI_ACTIVITY_KIND_CUDA_EVENT);
    ev.correlationId = c + 7;
    ev.contextId = 1;
    ev.streamId = 7;
    ev.eventId = 5 + uint32_t(index);
    ev.deviceId = 0;
    ev.deviceTimestamp = us(206);

    if (index == 1) {
        api(b, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, c + 6, us(210), us(220), tid);
        for (uint32_t n = 0; n < 3; ++n) {
            auto& k = kernel(b, c + 6, us(230 + 10 * n), us(235 + 10 * n));
            k.graphId = 2;
            k.graphNodeId = (uint64_t(2) << 32) | n;
        }
    }
    if (index > 0) {
        auto& f = b.add<CUpti_ActivityMemory4>(CUPTI_ACTIVITY_KIND_MEMORY2);
        f.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE;
        f.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
        f.address = 0x7f0000000000ull + uint64_t(index - 1) * kBlockBytes;
        f.bytes = kBlockBytes;
        f.timestamp = us(250);
        f.processId = kPid;
        f.streamId = 0xFFFFFFFFu;
    }
    auto& end = b.add<CUpti_ActivityMarker2>(CUPTI_ACTIVITY_KIND_MARKER);
    end.flags = CUPTI_ACTIVITY_FLAG_MARKER_END;
    end.timestamp = us(300);
    end.id = 10u * uint32_t(index) + 1;
    end.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    end.objectId.pt.processId = kPid;
    end.objectId.pt.threadId = tid;
}

// The runtime API names of the cbids above, as cuptiGetCallbackName gives them.
inline const char* runtimeApiName(uint32_t cbid) {
    switch (cbid) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000: return "cudaLaunchKernel_v7000";
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020: return "cudaMemcpyAsync_v3020";
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020: return "cudaMemsetAsync_v3020";
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020: return "cudaStreamSynchronize_v3020";
    case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000: return "cudaGraphLaunch_v10000";
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020: return "cudaEventRecord_v3020";
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithPriority_v5050: return "cudaStreamCreateWithPriority_v5050";
    default: return nullptr;
    }
}

}  // namespace fake
