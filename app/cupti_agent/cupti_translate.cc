#include "app/cupti_agent/cupti_translate.h"

#include "model/capture/agent/record_encoder.h"

#include <cstring>
#include <type_traits>

namespace tracescope::agent {

namespace {

std::string_view text(const char* s) { return s ? std::string_view(s) : std::string_view(); }

// An enum field of a CUPTI record as the bits CUPTI wrote. CUPTI's enums have no fixed
// underlying type, so loading a value outside their enumerators' range (a damaged record, or
// a value newer than our headers) as the enum is undefined behaviour; the bytes are not.
template <typename Field>
uint32_t bits(const Field* field) {
    static_assert(std::is_enum_v<Field> && sizeof(Field) == sizeof(uint32_t));
    uint32_t v;
    std::memcpy(&v, field, sizeof v);
    return v;
}

bool kernel(const CUpti_ActivityKernel10& k, std::string& out) {
    if (k.start == 0 && k.end == 0) return false;  // no timing (cupti_activity.h)
    KernelRecord r{};
    r.startNs = int64_t(k.start);
    r.endNs = int64_t(k.end);
    r.correlationId = k.correlationId;
    r.deviceId = k.deviceId;
    r.contextId = k.contextId;
    r.streamId = k.streamId;
    r.gridX = k.gridX, r.gridY = k.gridY, r.gridZ = k.gridZ;
    r.blockX = k.blockX, r.blockY = k.blockY, r.blockZ = k.blockZ;
    r.staticSharedMemory = k.staticSharedMemory;
    r.dynamicSharedMemory = k.dynamicSharedMemory;
    r.registersPerThread = k.registersPerThread;
    r.graphId = k.graphId;
    r.graphNodeId = k.graphNodeId;
    r.gridId = k.gridId;
    r.localMemoryTotal = k.localMemoryTotal_v2;
    r.launchType = k.launchType;
    r.isDeviceLaunched = k.isDeviceLaunched;
    appendFrame(out, kRecKernel, r, {text(k.name)});
    return true;
}

template <typename Copy>
MemcpyRecord memcpyCommon(const Copy& m) {
    MemcpyRecord r{};
    r.startNs = int64_t(m.start);
    r.endNs = int64_t(m.end);
    r.bytes = m.bytes;
    r.correlationId = m.correlationId;
    r.deviceId = m.deviceId;
    r.contextId = m.contextId;
    r.streamId = m.streamId;
    r.srcDeviceId = r.dstDeviceId = m.deviceId;
    r.graphId = m.graphId;
    r.graphNodeId = m.graphNodeId;
    r.flags = (m.flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) ? kMemcpyAsync : 0;
    r.copyKind = m.copyKind;
    r.srcKind = m.srcKind;
    r.dstKind = m.dstKind;
    return r;
}

}  // namespace

uint32_t activityKind(const CUpti_Activity* record) { return bits(&record->kind); }

int64_t activityThreadId(const CUpti_Activity* record) {
    switch (activityKind(record)) {
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
        return int64_t(reinterpret_cast<const CUpti_ActivityAPI*>(record)->threadId);
    case CUPTI_ACTIVITY_KIND_MARKER: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMarker2*>(record);
        return bits(&m->objectKind) == CUPTI_ACTIVITY_OBJECT_THREAD ? int64_t(m->objectId.pt.threadId) : 0;
    }
    case CUPTI_ACTIVITY_KIND_OVERHEAD: {
        const auto* o = reinterpret_cast<const CUpti_ActivityOverhead3*>(record);
        return bits(&o->objectKind) == CUPTI_ACTIVITY_OBJECT_THREAD ? int64_t(o->objectId.pt.threadId) : 0;
    }
    default: return 0;
    }
}

size_t activityRecordSize(uint32_t kind) {
    switch (kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: return sizeof(CUpti_ActivityKernel10);
    case CUPTI_ACTIVITY_KIND_MEMCPY: return sizeof(CUpti_ActivityMemcpy6);
    case CUPTI_ACTIVITY_KIND_MEMCPY2: return sizeof(CUpti_ActivityMemcpyPtoP4);
    case CUPTI_ACTIVITY_KIND_MEMSET: return sizeof(CUpti_ActivityMemset4);
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: return sizeof(CUpti_ActivityAPI);
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: return sizeof(CUpti_ActivitySynchronization2);
    case CUPTI_ACTIVITY_KIND_MARKER: return sizeof(CUpti_ActivityMarker2);
    case CUPTI_ACTIVITY_KIND_MARKER_DATA: return sizeof(CUpti_ActivityMarkerData2);
    case CUPTI_ACTIVITY_KIND_MEMORY2: return sizeof(CUpti_ActivityMemory4);
    case CUPTI_ACTIVITY_KIND_DEVICE: return sizeof(CUpti_ActivityDevice5);
    case CUPTI_ACTIVITY_KIND_OVERHEAD: return sizeof(CUpti_ActivityOverhead3);
    case CUPTI_ACTIVITY_KIND_CUDA_EVENT: return sizeof(CUpti_ActivityCudaEvent2);
    case CUPTI_ACTIVITY_KIND_STREAM: return sizeof(CUpti_ActivityStream);
    default: return 0;
    }
}

bool translateActivity(const CUpti_Activity* record, std::string& out, ApiNameFn apiName) {
    const uint32_t kind = activityKind(record);
    switch (kind) {
    case CUPTI_ACTIVITY_KIND_CUDA_EVENT: {
        const auto& e = *reinterpret_cast<const CUpti_ActivityCudaEvent2*>(record);
        CudaEventRecord r{};
        r.deviceTimestampNs = int64_t(e.deviceTimestamp);
        r.correlationId = e.correlationId;
        r.contextId = e.contextId;
        r.streamId = e.streamId;
        r.eventId = e.eventId;
        r.deviceId = e.deviceId;
        r.cudaEventSyncId = e.cudaEventSyncId;
        appendFrame(out, kRecCudaEvent, r);
        return true;
    }
    case CUPTI_ACTIVITY_KIND_STREAM: {
        const auto& st = *reinterpret_cast<const CUpti_ActivityStream*>(record);
        StreamRecord r{};
        r.contextId = st.contextId;
        r.streamId = st.streamId;
        r.priority = int32_t(st.priority);
        r.flag = bits(&st.flag);
        r.correlationId = st.correlationId;
        appendFrame(out, kRecStream, r);
        return true;
    }
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        return kernel(*reinterpret_cast<const CUpti_ActivityKernel10*>(record), out);
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto& m = *reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
        if (m.start == 0 && m.end == 0) return false;
        appendFrame(out, kRecMemcpy, memcpyCommon(m));
        return true;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY2: {
        const auto& m = *reinterpret_cast<const CUpti_ActivityMemcpyPtoP4*>(record);
        if (m.start == 0 && m.end == 0) return false;
        MemcpyRecord r = memcpyCommon(m);
        r.flags |= kMemcpyPeer;
        r.srcDeviceId = m.srcDeviceId;
        r.dstDeviceId = m.dstDeviceId;
        appendFrame(out, kRecMemcpy, r);
        return true;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto& m = *reinterpret_cast<const CUpti_ActivityMemset4*>(record);
        if (m.start == 0 && m.end == 0) return false;
        MemsetRecord r{};
        r.startNs = int64_t(m.start);
        r.endNs = int64_t(m.end);
        r.bytes = m.bytes;
        r.correlationId = m.correlationId;
        r.deviceId = m.deviceId;
        r.contextId = m.contextId;
        r.streamId = m.streamId;
        r.value = m.value;
        r.memoryKind = m.memoryKind;
        r.graphId = m.graphId;
        r.graphNodeId = m.graphNodeId;
        r.flags = (m.flags & CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC) ? 1u : 0u;
        appendFrame(out, kRecMemset, r);
        return true;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: {
        const auto& a = *reinterpret_cast<const CUpti_ActivityAPI*>(record);
        ApiRecord r{};
        r.startNs = int64_t(a.start);
        r.endNs = int64_t(a.end);
        r.processId = a.processId;
        r.threadId = a.threadId;
        r.correlationId = a.correlationId;
        r.cbid = a.cbid;
        r.domain = kind == CUPTI_ACTIVITY_KIND_RUNTIME ? kApiRuntime : kApiDriver;
        r.returnValue = int32_t(a.returnValue);
        appendFrame(out, kRecApi, r, {text(apiName ? apiName(r.domain, r.cbid) : nullptr)});
        return true;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
        const auto& s = *reinterpret_cast<const CUpti_ActivitySynchronization2*>(record);
        SyncRecord r{};
        r.startNs = int64_t(s.start);
        r.endNs = int64_t(s.end);
        r.correlationId = s.correlationId;
        r.type = bits(&s.type);
        r.contextId = s.contextId;
        r.streamId = s.streamId;
        r.cudaEventId = s.cudaEventId;
        appendFrame(out, kRecSync, r);
        return true;
    }
    case CUPTI_ACTIVITY_KIND_MARKER: {
        const auto& m = *reinterpret_cast<const CUpti_ActivityMarker2*>(record);
        MarkerRecord r{};
        r.timestampNs = int64_t(m.timestamp);
        r.id = m.id;
        r.flags = bits(&m.flags);
        r.objectKind = bits(&m.objectKind);
        if (r.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD || r.objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS) {
            r.processId = m.objectId.pt.processId;
            r.threadId = m.objectId.pt.threadId;
        }
        appendFrame(out, kRecMarker, r, {text(m.name), text(m.domain)});
        return true;
    }
    case CUPTI_ACTIVITY_KIND_MARKER_DATA: {
        const auto& d = *reinterpret_cast<const CUpti_ActivityMarkerData2*>(record);
        MarkerDataRecord r{};
        r.id = d.id;
        std::memcpy(&r.payload, &d.payload, sizeof r.payload);
        // CUpti_MetricValueKind (cupti_metrics.h) to our payload kinds. DOUBLE is 0, which is
        // also what a marker without a payload carries: an all-zero double counts as none.
        switch (bits(&d.payloadKind)) {
        case CUPTI_METRIC_VALUE_KIND_UINT64: r.payloadKind = 1; break;
        case CUPTI_METRIC_VALUE_KIND_INT64: r.payloadKind = 2; break;
        case CUPTI_METRIC_VALUE_KIND_DOUBLE: r.payloadKind = r.payload ? 3 : 0; break;
        default: r.payloadKind = 0; break;
        }
        r.color = d.color;
        r.category = d.category;
        appendFrame(out, kRecMarkerData, r);
        return true;
    }
    case CUPTI_ACTIVITY_KIND_MEMORY2: {
        const auto& m = *reinterpret_cast<const CUpti_ActivityMemory4*>(record);
        MemoryRecord r{};
        r.timestampNs = int64_t(m.timestamp);
        r.address = m.address;
        r.bytes = m.bytes;
        r.processId = m.processId;
        r.correlationId = m.correlationId;
        r.deviceId = m.deviceId;
        r.contextId = m.contextId;
        r.streamId = m.streamId;
        r.memoryOperationType = bits(&m.memoryOperationType);
        r.memoryKind = bits(&m.memoryKind);
        r.isAsync = m.isAsync;
        r.poolType = bits(&m.memoryPoolConfig.memoryPoolType);
        r.poolAddress = m.memoryPoolConfig.address;
        appendFrame(out, kRecMemory, r, {text(m.name)});
        return true;
    }
    case CUPTI_ACTIVITY_KIND_DEVICE: {
        const auto& d = *reinterpret_cast<const CUpti_ActivityDevice5*>(record);
        DeviceRecord r{};
        r.id = d.id;
        r.computeCapabilityMajor = d.computeCapabilityMajor;
        r.computeCapabilityMinor = d.computeCapabilityMinor;
        r.numMultiprocessors = d.numMultiprocessors;
        r.globalMemorySize = d.globalMemorySize;
        r.globalMemoryBandwidth = uint64_t(d.globalMemoryBandwidth) * 1000;  // kB/s in CUPTI
        r.coreClockRateKhz = d.coreClockRate;
        r.l2CacheSize = d.l2CacheSize;
        r.maxThreadsPerBlock = d.maxThreadsPerBlock;
        r.maxSharedMemoryPerBlock = d.maxSharedMemoryPerBlock;
        r.maxRegistersPerBlock = d.maxRegistersPerBlock;
        r.numThreadsPerWarp = d.numThreadsPerWarp;
        appendFrame(out, kRecDevice, r, {text(d.name)});
        return true;
    }
    case CUPTI_ACTIVITY_KIND_OVERHEAD: {
        const auto& o = *reinterpret_cast<const CUpti_ActivityOverhead3*>(record);
        OverheadRecord r{};
        r.startNs = int64_t(o.start);
        r.endNs = int64_t(o.end);
        r.overheadKind = bits(&o.overheadKind);
        r.correlationId = o.correlationId;
        if (bits(&o.objectKind) == CUPTI_ACTIVITY_OBJECT_THREAD) r.threadId = o.objectId.pt.threadId;
        appendFrame(out, kRecOverhead, r);
        return true;
    }
    default: return false;
    }
}

}  // namespace tracescope::agent
