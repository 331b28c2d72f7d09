#include "model/capture/agent/records_to_xspace.h"

#include <algorithm>
#include <cstdio>
#include <cxxabi.h>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <unordered_map>

namespace tracescope::agent {

namespace {

// Host-plane line ids that are not OS thread ids (which are positive 32-bit numbers).
constexpr int64_t kMemoryLineId = int64_t(1) << 40;
constexpr int64_t kSyncLineId = (int64_t(1) << 40) + 1;
constexpr int64_t kOverheadLineId = (int64_t(1) << 40) + 2;
// Plane ids: devices use their ordinal (as XLA does); the others sit above any ordinal.
constexpr int64_t kHostPlaneId = 1 << 20;
constexpr int64_t kMetadataPlaneId = (1 << 20) + 1;
constexpr int64_t kTaskEnvPlaneId = (1 << 20) + 2;
constexpr uint32_t kInvalidId = 0xFFFFFFFFu;  // CUPTI_INVALID_CONTEXT_ID / _STREAM_ID

// CUPTI's CUpti_ActivityFlag marker bits (cupti_activity.h).
constexpr uint32_t kMarkerInstant = 1, kMarkerStart = 2, kMarkerEnd = 4;

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// XLA's kernel_details string (xplane_schema.cc kKernelDetails, cupti_collector.cc).
std::string kernelDetails(const KernelRecord& k) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "regs:%u static_shared:%d dynamic_shared:%d grid:%d,%d,%d block:%d,%d,%d",
                  k.registersPerThread, k.staticSharedMemory, k.dynamicSharedMemory, k.gridX, k.gridY, k.gridZ,
                  k.blockX, k.blockY, k.blockZ);
    return buf;
}

// One device event before it is written: which record and where it starts.
struct DeviceEvent {
    int64_t start;
    uint8_t kind;  // 0 kernel, 1 memcpy, 2 memset, 3 CUDA event record
    size_t index;
};

struct Window {
    int64_t lo, hi;
    bool contains(int64_t start, int64_t end) const { return end >= lo && start <= hi; }
};

// a + b for a running total in int64, stopping at its maximum instead of overflowing.
int64_t saturatingAdd(int64_t a, uint64_t b) {
    const uint64_t room = uint64_t(std::numeric_limits<int64_t>::max() - a);
    return b >= room ? std::numeric_limits<int64_t>::max() : a + int64_t(b);
}

std::string payloadText(const MarkerDataRecord& d) {
    char buf[64];
    const uint64_t bits = d.payload;
    switch (d.payloadKind) {
    case 1: std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(bits)); break;
    case 2: std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(bits)); break;
    case 3: {
        double v;
        static_assert(sizeof v == sizeof bits);
        std::memcpy(&v, &bits, sizeof v);
        std::snprintf(buf, sizeof buf, "%g", v);
        break;
    }
    case 4: std::snprintf(buf, sizeof buf, "%u", uint32_t(bits)); break;
    case 5: std::snprintf(buf, sizeof buf, "%d", int32_t(uint32_t(bits))); break;
    case 6: {
        float v;
        const uint32_t low = uint32_t(bits);
        std::memcpy(&v, &low, sizeof v);
        std::snprintf(buf, sizeof buf, "%g", double(v));
        break;
    }
    default: return {};
    }
    return buf;
}

// CUpti_ActivityOverheadKind as XLA names overhead events.
const char* overheadName(uint32_t kind) {
    switch (kind) {
    case 1: return "COMPILER";
    case 1u << 16: return "BUFFER_FLUSH";
    case 2u << 16: return "INSTRUMENTATION";
    case 3u << 16: return "RESOURCE";
    default: return "<UNKNOWN>";
    }
}

const char* syncName(uint32_t type) {
    // CUpti_ActivitySynchronizationType, named as XLA names them.
    switch (type) {
    case 1: return "cuEventSynchronize";
    case 2: return "cuStreamWaitEvent";
    case 3: return "cuStreamSynchronize";
    case 4: return "cuCtxSynchronize";
    default: return "cuSynchronize";
    }
}

class Converter {
public:
    Converter(const AgentRecords& r, const ConvertOptions& o, xspace::SpaceWriter& out)
        : r_(r), o_(o), out_(out), window_{o.windowStartNs, o.windowEndNs} {}

    ConvertStats run() {
        if (r_.hasHello && r_.hello.startNs) {
            anchor_ = r_.hello.startNs;
            hasAnchor_ = true;
        }
        host_ = o_.hostname.empty() ? (r_.hostname.empty() ? std::string("localhost") : r_.hostname) : o_.hostname;
        out_.addHostname(host_);
        indexCorrelations();
        devicePlanes();
        hostPlane();
        metadataPlanes();
        diagnostics();
        return stats_;
    }

private:
    void indexCorrelations() {
        for (size_t i = 0; i < r_.apis.size(); ++i) apiByCorrelation_.emplace(r_.apis[i].r.correlationId, i);
        for (const StreamRecord& st : r_.streams) streamByCorrelation_.emplace(st.correlationId, &st);
        for (const KernelEntry& k : r_.kernels)
            if (k.r.graphId) graphByCorrelation_.emplace(k.r.correlationId, k.r.graphId);
    }

    void span(int64_t start, int64_t end) {
        first_ = std::min(first_, start);
        last_ = std::max(last_, end);
    }

    // Keeps timed events inside the window; counts the rest. Times further than kMaxSpanNs
    // from the agent's start (or the first event) are damage, not data: dropping them keeps
    // every picosecond offset and duration of the XSpace within int64.
    bool keep(int64_t start, int64_t end) {
        if (start == 0 && end == 0) { ++stats_.untimed; return false; }
        if (end < start) { ++stats_.untimed; return false; }
        if (!hasAnchor_) {
            anchor_ = start;
            hasAnchor_ = true;
        }
        const __int128 s = start, e = end, a = anchor_;  // no int64 overflow on hostile input
        if (s < a - kMaxSpanNs || s > a + kMaxSpanNs || e - s > kMaxSpanNs) {
            ++stats_.implausible;
            return false;
        }
        if (!window_.contains(start, end)) { ++stats_.outsideWindow; return false; }
        span(start, end);
        return true;
    }

    void devicePlanes() {
        std::map<uint32_t, std::map<uint32_t, std::vector<DeviceEvent>>> devices;  // device -> stream -> events
        std::map<uint32_t, const DeviceEntry*> deviceInfo;
        for (const DeviceEntry& d : r_.devices) {
            deviceInfo[d.r.id] = &d;
            devices[d.r.id];
        }
        for (size_t i = 0; i < r_.kernels.size(); ++i) {
            const KernelRecord& k = r_.kernels[i].r;
            if (keep(k.startNs, k.endNs)) devices[k.deviceId][k.streamId].push_back({k.startNs, 0, i});
        }
        for (size_t i = 0; i < r_.memcpys.size(); ++i) {
            const MemcpyRecord& m = r_.memcpys[i];
            if (keep(m.startNs, m.endNs)) devices[m.deviceId][m.streamId].push_back({m.startNs, 1, i});
        }
        for (size_t i = 0; i < r_.memsets.size(); ++i) {
            const MemsetRecord& m = r_.memsets[i];
            if (keep(m.startNs, m.endNs)) devices[m.deviceId][m.streamId].push_back({m.startNs, 2, i});
        }
        for (size_t i = 0; i < r_.cudaEvents.size(); ++i) {
            const CudaEventRecord& e = r_.cudaEvents[i];
            if (keep(e.deviceTimestampNs, e.deviceTimestampNs))
                devices[e.deviceId][e.streamId].push_back({e.deviceTimestampNs, 3, i});
        }
        for (auto& [deviceId, streams] : devices) {
            xspace::PlaneWriter& plane = out_.addPlane(int64_t(deviceId), "/device:GPU:" + std::to_string(deviceId));
            ++stats_.devicePlanes;
            if (auto it = deviceInfo.find(deviceId); it != deviceInfo.end()) {
                const DeviceRecord& d = it->second->r;
                plane.stats()
                    .add("device_vendor", "Nvidia")
                    .add("gpu_device_name", it->second->name)
                    .add("clock_rate", uint64_t(d.coreClockRateKhz))
                    .add("core_count", uint64_t(d.numMultiprocessors))
                    .add("memory_bandwidth", uint64_t(d.globalMemoryBandwidth))
                    .add("memory_size", uint64_t(d.globalMemorySize))
                    .add("compute_cap_major", int64_t(d.computeCapabilityMajor))
                    .add("compute_cap_minor", int64_t(d.computeCapabilityMinor));
            }
            for (auto& [streamId, events] : streams) streamLine(plane, streamId, events);
        }
    }

    void streamLine(xspace::PlaneWriter& plane, uint32_t streamId, std::vector<DeviceEvent>& events) {
        std::stable_sort(events.begin(), events.end(),
                         [](const DeviceEvent& a, const DeviceEvent& b) { return a.start < b.start; });
        // The line's name lists its event types in XLA's order.
        static const char* const kTypes[] = {"Compute", "MemcpyH2D", "MemcpyD2H", "MemcpyD2D",
                                             "MemcpyP2P", "MemcpyOther", "Memset"};
        bool has[7] = {};
        for (const DeviceEvent& e : events) {
            if (e.kind == 0) has[0] = true;
            else if (e.kind == 2) has[6] = true;
            else if (e.kind == 3) continue;  // an event record is no work of its own
            else {
                const MemcpyRecord& m = r_.memcpys[e.index];
                const std::string name = memcpyEventName(m.copyKind, m.flags & kMemcpyPeer);
                for (int t = 1; t <= 5; ++t)
                    if (name == kTypes[t]) has[t] = true;
            }
        }
        std::string types;
        for (int t = 0; t < 7; ++t)
            if (has[t]) types += (types.empty() ? "" : ",") + std::string(kTypes[t]);
        // A stream with only event records has no work type: no empty "()".
        const std::string lineName = "Stream #" + std::to_string(streamId) + (types.empty() ? "" : "(" + types + ")");
        xspace::LineWriter line = plane.addLine(int64_t(streamId), lineName,
                                                events.empty() ? 0 : events.front().start);
        for (const DeviceEvent& e : events) {
            if (e.kind == 0) kernelEvent(line, r_.kernels[e.index]);
            else if (e.kind == 1) memcpyEvent(line, r_.memcpys[e.index]);
            else if (e.kind == 2) memsetEvent(line, r_.memsets[e.index]);
            else cudaEventEvent(line, r_.cudaEvents[e.index]);
        }
    }

    static void placement(xspace::StatWriter& s, uint32_t correlationId, uint32_t contextId, uint32_t graphId,
                          uint64_t graphNodeId) {
        s.add("correlation_id", uint64_t(correlationId));
        if (contextId != kInvalidId) s.add("context_id", "$$" + std::to_string(contextId));
        if (graphId) s.add("cuda_graph_id", uint64_t(graphId)).add("cuda_graph_node_id", graphNodeId);
    }

    void kernelEvent(xspace::LineWriter& line, const KernelEntry& k) {
        std::string& name = demangled_[k.name];
        if (name.empty()) name = demangleKernelName(k.name.empty() ? std::string("<unnamed kernel>") : k.name);
        xspace::StatWriter s = line.addEvent(name, k.r.startNs, k.r.endNs - k.r.startNs);
        placement(s, k.r.correlationId, k.r.contextId, k.r.graphId, k.r.graphNodeId);
        s.addRef("kernel_details", kernelDetails(k.r));
        if (k.r.isDeviceLaunched) s.add("device_launched", int64_t(1));
        ++stats_.kernels;
    }

    void memcpyEvent(xspace::LineWriter& line, const MemcpyRecord& m) {
        const bool peer = m.flags & kMemcpyPeer;
        xspace::StatWriter s = line.addEvent(memcpyEventName(m.copyKind, peer), m.startNs, m.endNs - m.startNs);
        placement(s, m.correlationId, m.contextId, m.graphId, m.graphNodeId);
        const std::string details = std::string("kind_src:") + memoryKindName(m.srcKind) +
                                    " kind_dst:" + memoryKindName(m.dstKind) + " size:" + std::to_string(m.bytes) +
                                    " dest:" + std::to_string(peer ? m.dstDeviceId : m.deviceId) +
                                    " async:" + ((m.flags & kMemcpyAsync) ? "1" : "0");
        s.addRef("memcpy_details", details);
        ++stats_.memcpys;
    }

    void memsetEvent(xspace::LineWriter& line, const MemsetRecord& m) {
        xspace::StatWriter s = line.addEvent("Memset " + std::to_string(m.memoryKind), m.startNs, m.endNs - m.startNs);
        placement(s, m.correlationId, m.contextId, m.graphId, m.graphNodeId);
        s.addRef("Memset_details", std::string("kind:") + memoryKindName(m.memoryKind) +
                                       " num_bytes:" + std::to_string(m.bytes) +
                                       " async:" + ((m.flags & 1) ? "1" : "0"));
        ++stats_.memsets;
    }

    // Where a cudaEventRecord reached its stream (CUPTI's device timestamp): the point that
    // cudaEventSynchronize / cudaStreamWaitEvent with the same cuda_event_id wait for.
    void cudaEventEvent(xspace::LineWriter& line, const CudaEventRecord& e) {
        xspace::StatWriter s = line.addEvent("cudaEventRecord", e.deviceTimestampNs, 0);
        placement(s, e.correlationId, e.contextId, 0, 0);
        s.add("cuda_event_id", uint64_t(e.eventId));
        ++stats_.cudaEvents;
    }

    // A host line's pending events, written sorted once all are known.
    struct HostEvent {
        int64_t start, duration;
        uint8_t kind;  // 0 api, 1 sync, 2 nvtx range, 3 nvtx mark, 4 memory, 5 overhead
        size_t index;  // into the records (api, sync, memory) or ranges_ (nvtx)
    };
    struct NvtxRange {
        const MarkerEntry* start;
        int64_t end;
        bool open;
    };

    void hostPlane() {
        std::map<int64_t, std::vector<HostEvent>> lines;
        for (size_t i = 0; i < r_.apis.size(); ++i) {
            const ApiRecord& a = r_.apis[i].r;
            if (keep(a.startNs, a.endNs)) lines[a.threadId].push_back({a.startNs, a.endNs - a.startNs, 0, i});
        }
        for (size_t i = 0; i < r_.syncs.size(); ++i) {
            const SyncRecord& s = r_.syncs[i];
            if (!keep(s.startNs, s.endNs)) continue;
            auto api = apiByCorrelation_.find(s.correlationId);
            const int64_t line = api != apiByCorrelation_.end() ? r_.apis[api->second].r.threadId : kSyncLineId;
            lines[line].push_back({s.startNs, s.endNs - s.startNs, 1, i});
        }
        for (size_t i = 0; i < r_.overheads.size(); ++i) {
            const OverheadRecord& o = r_.overheads[i];
            if (keep(o.startNs, o.endNs)) lines[kOverheadLineId].push_back({o.startNs, o.endNs - o.startNs, 5, i});
        }
        pairMarkers(lines);
        memoryEvents(lines);
        if (lines.empty()) return;
        xspace::PlaneWriter& plane = out_.addPlane(kHostPlaneId, "/host:CPU");
        if (r_.hasHello) plane.stats().add("process_id", r_.hello.pid);
        std::unordered_map<int64_t, std::string> threadNames;
        for (const ThreadNameEntry& t : r_.threadNames)
            if (!t.name.empty()) threadNames[t.r.threadId] = t.name;
        for (auto& [lineId, events] : lines) {
            std::stable_sort(events.begin(), events.end(), [](const HostEvent& a, const HostEvent& b) {
                return a.start != b.start ? a.start < b.start : a.duration > b.duration;
            });
            std::string name = lineId == kMemoryLineId     ? "CUDA memory"
                               : lineId == kSyncLineId     ? "CUDA synchronization"
                               : lineId == kOverheadLineId ? "CUPTI overhead"
                                                           : "Host Threads/" + std::to_string(lineId);
            // XLA's line name stays; the OS thread name the agent read is the shown name.
            std::string shown;
            if (auto t = threadNames.find(lineId); t != threadNames.end())
                shown = t->second + " (" + std::to_string(lineId) + ")";
            xspace::LineWriter line = plane.addLine(lineId, name, shown);
            line.proto()->set_timestamp_ns(events.front().start);
            for (const HostEvent& e : events) hostEvent(line, e);
        }
    }

    void pairMarkers(std::map<int64_t, std::vector<HostEvent>>& lines) {
        std::vector<const MarkerEntry*> sorted;
        for (const MarkerEntry& m : r_.markers) sorted.push_back(&m);
        std::stable_sort(sorted.begin(), sorted.end(), [](const MarkerEntry* a, const MarkerEntry* b) {
            return a->r.timestampNs < b->r.timestampNs;
        });
        for (const MarkerDataRecord& d : r_.markerData) markerData_[d.id] = &d;
        std::unordered_map<uint32_t, size_t> open;  // marker id -> ranges_ index
        for (const MarkerEntry* m : sorted) {
            const uint32_t f = m->r.flags;
            if (f & kMarkerInstant) {
                ranges_.push_back({m, m->r.timestampNs, false});
                if (keep(m->r.timestampNs, m->r.timestampNs)) {
                    lines[m->r.threadId].push_back({m->r.timestampNs, 0, 3, ranges_.size() - 1});
                    ++stats_.nvtxMarks;
                }
            } else if (f & kMarkerStart) {
                open[m->r.id] = ranges_.size();
                ranges_.push_back({m, 0, true});
            } else if (f & kMarkerEnd) {
                auto it = open.find(m->r.id);
                if (it == open.end()) { ++stats_.unmatchedNvtxEnds; continue; }
                ranges_[it->second].end = m->r.timestampNs;
                ranges_[it->second].open = false;
                open.erase(it);
            }
        }
        int64_t end = std::max(last_, r_.hasBye ? r_.bye.endNs : last_);
        for (const MarkerEntry* m : sorted) end = std::max(end, m->r.timestampNs);
        for (size_t i = 0; i < ranges_.size(); ++i) {
            NvtxRange& range = ranges_[i];
            // A mark (INSTANT, whatever other bits a damaged record sets) is no range as well.
            if (!(range.start->r.flags & kMarkerStart) || (range.start->r.flags & kMarkerInstant)) continue;
            if (range.open) {
                ++stats_.unterminatedNvtx;
                range.end = end;
            }
            if (!keep(range.start->r.timestampNs, range.end)) continue;
            lines[range.start->r.threadId].push_back(
                {range.start->r.timestampNs, range.end - range.start->r.timestampNs, 2, i});
            ++stats_.nvtxRanges;
        }
    }

    void memoryEvents(std::map<int64_t, std::vector<HostEvent>>& lines) {
        std::vector<size_t> order;
        for (size_t i = 0; i < r_.memory.size(); ++i) {
            const uint32_t kind = r_.memory[i].r.memoryKind;
            if (kind == 6 || kind == 7) { ++stats_.staticAllocations; continue; }  // DEVICE_STATIC, MANAGED_STATIC
            order.push_back(i);
        }
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return r_.memory[a].r.timestampNs < r_.memory[b].r.timestampNs;
        });
        // Running totals per (device, memory kind), over the whole process lifetime, so that
        // frees of blocks allocated before the window are accounted for.
        struct Pool { int64_t inUse = 0, peak = 0; };
        std::map<std::pair<uint32_t, uint32_t>, Pool> pools;
        std::unordered_map<uint64_t, uint64_t> liveBytes;  // address -> bytes
        memoryTotals_.resize(r_.memory.size());
        for (size_t i : order) {
            const MemoryRecord& m = r_.memory[i].r;
            Pool& pool = pools[{m.deviceId, m.memoryKind}];
            uint64_t bytes = m.bytes;
            if (m.memoryOperationType == 1) {
                liveBytes[m.address] = bytes;
                pool.inUse = saturatingAdd(pool.inUse, bytes);
            } else {
                if (auto it = liveBytes.find(m.address); it != liveBytes.end()) {
                    if (!bytes) bytes = it->second;
                    liveBytes.erase(it);
                }
                pool.inUse = bytes >= uint64_t(pool.inUse) ? 0 : pool.inUse - int64_t(bytes);
            }
            pool.peak = std::max(pool.peak, pool.inUse);
            memoryTotals_[i] = {bytes, pool.inUse, pool.peak};
            if (keep(m.timestampNs, m.timestampNs)) lines[kMemoryLineId].push_back({m.timestampNs, 0, 4, i});
        }
    }

    void hostEvent(xspace::LineWriter& line, const HostEvent& e) {
        switch (e.kind) {
        case 0: {
            const ApiEntry& a = r_.apis[e.index];
            std::string& name = apiNames_[a.name];
            if (name.empty()) name = apiDisplayName(a.name.empty() ? "cbid " + std::to_string(a.r.cbid) : a.name);
            xspace::StatWriter s = line.addEvent(name, e.start, e.duration);
            s.add("correlation_id", uint64_t(a.r.correlationId));
            if (auto g = graphByCorrelation_.find(a.r.correlationId); g != graphByCorrelation_.end())
                s.add("cuda_graph_id", uint64_t(g->second));
            if (a.r.returnValue) s.add("return_value", int64_t(a.r.returnValue));
            // The stream a cudaStreamCreate* call made.
            if (auto st = streamByCorrelation_.find(a.r.correlationId); st != streamByCorrelation_.end()) {
                static const char* const kFlags[] = {"unknown", "default", "non_blocking", "null"};
                const StreamRecord& r = *st->second;
                s.add("stream_id", uint64_t(r.streamId))
                    .add("stream_priority", int64_t(r.priority))
                    .add("stream_flags", r.flag < 4 ? kFlags[r.flag] : "unknown");
                ++stats_.streams;
            }
            ++stats_.apis;
            break;
        }
        case 1: {
            const SyncRecord& r = r_.syncs[e.index];
            xspace::StatWriter s = line.addEvent(syncName(r.type), e.start, e.duration);
            if (r.streamId != kInvalidId) s.add("stream_id", uint64_t(r.streamId));
            if (r.cudaEventId != kInvalidId && (r.type == 1 || r.type == 2)) s.add("cuda_event_id", uint64_t(r.cudaEventId));
            ++stats_.syncs;
            break;
        }
        case 2:
        case 3: {
            const NvtxRange& range = ranges_[e.index];
            const MarkerEntry& m = *range.start;
            xspace::StatWriter s = line.addEvent(m.name.empty() ? "<unnamed range>" : m.name, e.start, e.duration);
            if (!m.domain.empty()) s.add("nvtx_domain", m.domain);
            if (auto d = markerData_.find(m.r.id); d != markerData_.end()) {
                const std::string payload = payloadText(*d->second);
                if (!payload.empty()) s.add("marker_payload", payload);
                if (d->second->color) s.add("color", hex(d->second->color));
            }
            if (e.kind == 2 && range.open) s.add("unterminated", int64_t(1));
            break;
        }
        case 4: {
            const MemoryEntry& entry = r_.memory[e.index];
            const MemoryRecord& m = entry.r;
            const MemoryTotals& t = memoryTotals_[e.index];
            std::string allocator;
            if (m.isAsync) allocator = "cudaMallocAsync:" + hex(m.poolAddress);
            else if (m.memoryKind == 2) allocator = "cudaHostAlloc";
            else if (m.memoryKind == 5) allocator = "cudaMallocManaged";
            else allocator = "cudaMalloc";
            const bool alloc = m.memoryOperationType == 1;
            xspace::StatWriter s = line.addEvent(alloc ? "MemoryAllocation" : "MemoryDeallocation", e.start, 0);
            s.add("allocator_name", allocator)
                .add("addr", m.address)
                .add("requested_bytes", int64_t(t.bytes))
                .add("allocation_bytes", int64_t(t.bytes))
                .add("bytes_allocated", t.inUse)
                .add("peak_bytes_in_use", t.peak)
                .add("region_type", memoryKindName(m.memoryKind))
                .add("device_id", uint64_t(m.deviceId));
            if (!entry.name.empty()) s.add("name", entry.name);
            ++stats_.memoryEvents;
            break;
        }
        case 5: {
            const OverheadRecord& o = r_.overheads[e.index];
            xspace::StatWriter s = line.addEvent(overheadName(o.overheadKind), e.start, e.duration);
            if (o.threadId) s.add("thread_id", o.threadId);
            ++stats_.overheads;
            break;
        }
        }
    }

    void metadataPlanes() {
        xspace::PlaneWriter& meta = out_.addPlane(kMetadataPlaneId, "/host:metadata");
        if (r_.hasHello) {
            const HelloRecord& h = r_.hello;
            char version[32];
            std::snprintf(version, sizeof version, "%u", h.cuptiVersion);
            meta.stats().add("cupti_version", version);
            if (h.driverVersion > 0)
                meta.stats().add("cuda_driver_version", std::to_string(h.driverVersion / 1000) + "." +
                                                            std::to_string(h.driverVersion % 1000 / 10));
            meta.stats().add("process_id", h.pid).add("parent_process_id", h.ppid);
            if (!r_.executable.empty()) meta.stats().add("executable", r_.executable);
            if (!r_.commandLine.empty()) meta.stats().add("command_line", r_.commandLine);
        }
        int64_t start = r_.hasHello ? r_.hello.startNs : first_;
        if (first_ != kNone) start = std::min(start, first_);
        if (o_.windowStartNs != std::numeric_limits<int64_t>::min()) start = std::max(start, o_.windowStartNs);
        int64_t stop = r_.hasBye ? r_.bye.endNs : last_;
        if (last_ != kNoneEnd) stop = std::max(stop, last_);
        if (o_.windowEndNs != std::numeric_limits<int64_t>::max()) stop = std::min(stop, std::max(start, o_.windowEndNs));
        // As TensorFlow's and JAX's profiler servers write it: line times relative to the
        // profile start, the absolute time being profile_start_time + timestamp_ns + offset.
        // (Absolute line times beside it counted the start twice: kernels landed ~56 years
        // late against the host clock.)
        if (start != kNone) out_.shiftLines(-start);
        xspace::PlaneWriter& env = out_.addPlane(kTaskEnvPlaneId, "Task Environment");
        if (start != kNone) env.stats().add("profile_start_time", uint64_t(start));
        if (stop != kNoneEnd && stop >= start) env.stats().add("profile_stop_time", uint64_t(stop));
    }

    void diagnostics() {
        uint64_t byReason[4] = {};
        for (const DroppedRecord& d : r_.dropped) byReason[d.reason < 4 ? d.reason : 0] += d.count;
        const uint64_t total = byReason[0] + byReason[1] + byReason[2] + byReason[3];
        stats_.droppedRecords = total;
        if (total) {
            std::string text = "Detected GPU events dropped on " + host_ + ": " + std::to_string(total) + " records (";
            text += "CUPTI buffers full: " + std::to_string(byReason[kDropCupti]);
            text += ", agent memory budget full: " + std::to_string(byReason[kDropBudget]);
            text += ", incomplete: " + std::to_string(byReason[kDropIncomplete] + byReason[0]) + ")";
            out_.addWarning(text);
        }
        for (const StatusEntry& s : r_.statuses) {
            std::string text = s.message;
            if (!s.detail.empty()) text += ": " + s.detail;
            if (s.r.code == kStatusNote) out_.addWarning(text);
            else out_.addError(text);
        }
        if (stats_.unmatchedNvtxEnds)
            out_.addWarning(std::to_string(stats_.unmatchedNvtxEnds) + " NVTX range ends without a start (ranges opened "
                                                                        "before the agent started)");
        if (stats_.implausible)
            out_.addWarning(std::to_string(stats_.implausible) +
                            " records with implausible times (days away from the capture) skipped");
        if (r_.hasHello && !r_.hasBye && !r_.endedByStop())
            out_.addWarning("the process ended without the agent's final flush (it crashed or was killed): "
                            "records of its last flush interval are missing");
    }

    static constexpr int64_t kMaxSpanNs = int64_t(1) << 50;  // 13 days
    static constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
    static constexpr int64_t kNoneEnd = std::numeric_limits<int64_t>::min();
    struct MemoryTotals { uint64_t bytes = 0; int64_t inUse = 0, peak = 0; };

    const AgentRecords& r_;
    const ConvertOptions& o_;
    xspace::SpaceWriter& out_;
    Window window_;
    ConvertStats stats_;
    std::string host_;
    int64_t first_ = kNone, last_ = kNoneEnd;
    int64_t anchor_ = 0;
    bool hasAnchor_ = false;
    std::unordered_map<uint32_t, size_t> apiByCorrelation_;
    std::unordered_map<uint32_t, uint32_t> graphByCorrelation_;
    std::unordered_map<uint32_t, const StreamRecord*> streamByCorrelation_;
    std::unordered_map<std::string, std::string> demangled_, apiNames_;
    std::unordered_map<uint32_t, const MarkerDataRecord*> markerData_;
    std::vector<NvtxRange> ranges_;
    std::vector<MemoryTotals> memoryTotals_;
};

}  // namespace

const char* memcpyEventName(uint8_t copyKind, bool peer) {
    if (peer || copyKind == 10) return "MemcpyP2P";  // CUPTI_ACTIVITY_MEMCPY_KIND_PTOP
    switch (copyKind) {
    case 1: return "MemcpyH2D";  // HTOD
    case 2: return "MemcpyD2H";  // DTOH
    case 8: return "MemcpyD2D";  // DTOD
    default: return "MemcpyOther";
    }
}

const char* memoryKindName(uint32_t kind) {
    static const char* const kNames[] = {"unknown", "pageable", "pinned",         "device",
                                         "array",   "managed",  "device_static", "managed_static"};
    return kind < 8 ? kNames[kind] : "unknown";
}

std::string apiDisplayName(const std::string& name) {
    const size_t v = name.rfind("_v");
    if (v == std::string::npos || v == 0 || v + 2 >= name.size()) return name;
    for (size_t i = v + 2; i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9') return name;
    return name.substr(0, v);
}

std::string demangleKernelName(const std::string& name) {
    if (name.size() < 3 || name.compare(0, 2, "_Z") != 0) return name;
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
    return status == 0 && out ? std::string(out.get()) : name;
}

ConvertStats recordsToXSpace(const AgentRecords& records, const ConvertOptions& options, xspace::SpaceWriter& out) {
    return Converter(records, options, out).run();
}

std::string recordsToXSpaceBytes(const AgentRecords& records, const ConvertOptions& options, ConvertStats* stats) {
    xspace::SpaceWriter space;
    ConvertStats s = recordsToXSpace(records, options, space);
    if (stats) *stats = s;
    return space.serialize();
}

}  // namespace tracescope::agent
