#include "model/analysis/critical_path.h"

#include "model/analysis/analysis_progress.h"

#include <algorithm>
#include <deque>
#include <unordered_map>
#include <unordered_set>

namespace tracescope {

const char* cpEdgeTypeName(CpEdgeType t) {
    switch (t) {
    case CpEdgeType::Operator: return "critical_path_operator";
    case CpEdgeType::Dependency: return "critical_path_dependency";
    case CpEdgeType::LaunchDelay: return "critical_path_kernel_launch_delay";
    case CpEdgeType::KernelKernelDelay: return "critical_path_kernel_kernel_delay";
    case CpEdgeType::SyncDependency: return "critical_path_sync_dependency";
    }
    return "";
}

const char* cpCategoryName(CpCategory c) {
    switch (c) {
    case CpCategory::CpuOp: return "cpu_op";
    case CpCategory::Runtime: return "runtime";
    case CpCategory::Kernel: return "kernel";
    case CpCategory::Memcpy: return "memcpy";
    case CpCategory::Memset: return "memset";
    case CpCategory::LaunchDelay: return "launch_delay";
    case CpCategory::KernelGap: return "kernel_gap";
    case CpCategory::Count: break;
    }
    return "";
}

namespace {

uint64_t keyOf(SliceRef s) { return (uint64_t(s.track) << 32) | s.index; }

bool isDeviceRole(SliceRole r) { return r == SliceRole::Kernel || r == SliceRole::Memcpy || r == SliceRole::Memset; }

CpCategory categoryOfRole(SliceRole r) {
    switch (r) {
    case SliceRole::Runtime: return CpCategory::Runtime;
    case SliceRole::Kernel: return CpCategory::Kernel;
    case SliceRole::Memcpy: return CpCategory::Memcpy;
    case SliceRole::Memset: return CpCategory::Memset;
    default: return CpCategory::CpuOp;
    }
}

// HTA's utils.is_comm_kernel: names that begin with "nccl" (any case) or hold "nccl" kernels.
bool isCommKernel(std::string_view name) { return isCollectiveKernelName(name); }

struct DeviceAct {
    SliceRef slice;
    SliceRef launch;
    TimeNs launchTs = 0;
    TimeNs start = 0, end = 0;
    TrackIndex stream = kNoIndex;  // the stream's track (overflow lanes: their track)
    bool byGraph = false;
    // HTA's queue condition for a launch edge: -1 when the launch call is not one HTA counts
    // (its queue length is unknown there), else 1 when the stream's queue was 1 right after the
    // launch and 0 right after the activity began (no later launch waited behind it), else 0.
    int8_t htaQueueIdle = -1;
};

// A synchronisation: the runtime call that waited (or the stream-wait call), and what it waited for.
struct SyncRecord {
    enum Kind : uint8_t { Context, Stream, Event, StreamWaitEvent } kind = Context;
    SliceRef call;                 // the runtime call (by correlation)
    TrackIndex stream = kNoIndex;  // Stream Sync / Stream Wait Event: the stream (track)
    ProcessIndex device = kNoIndex;
    TimeNs recordEnd = 0;
    int32_t srcAct = -1;   // Event Sync / Stream Wait Event: the activity waited for
    int32_t destAct = -1;  // Stream Wait Event: the activity that waited
};

// Whole-trace facts, gathered once for all steps.
struct Prepared {
    std::vector<DeviceAct> acts;                        // sorted by launch time
    std::vector<std::vector<uint32_t>> byStreamLaunch;  // per stream slot: acts by launch time
    std::unordered_map<TrackIndex, uint32_t> streamSlot;
    std::vector<SyncRecord> syncs;  // sorted by their call's start
    std::unordered_set<uint64_t> callsWithRecord;
    std::vector<uint8_t> hostTrack;
    std::unordered_set<StringId> blockingNames, waitNames;
    StringId graphLaunch = kNoIndex;
    std::unordered_set<StringId> htaLaunchNames;
    uint64_t deviceWithoutLaunch = 0, deviceTotal = 0, syncRecords = 0;
    bool htaRules = false;
};

TrackIndex baseTrack(const Trace& t, TrackIndex ti) {
    return t.tracks[ti].overflowOf != kNoIndex ? t.tracks[ti].overflowOf : ti;
}

Prepared prepare(const ClassifiedTrace& ct, bool htaRules) {
    const Trace& t = *ct.trace;
    Prepared p;
    p.htaRules = htaRules;
    p.hostTrack.assign(t.tracks.size(), 0);
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti)
        p.hostTrack[ti] = t.tracks[ti].kind == TrackKind::Thread && !ct.trackOnDevice[ti];
    // HTA's BLOCKING_SYNC_CALLS: their own span weighs nothing, the device's time counts.
    for (const char* n : {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventQuery", "cudaEventSynchronize",
                          "cudaMemcpy", "cudaMemcpyAsync"})
        if (StringId id = t.strings.find(n); id != kNoIndex) p.blockingNames.insert(id);
    // The calls that wait for earlier device work (the inferred sync edge without records).
    for (const char* n : {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize"})
        if (StringId id = t.strings.find(n); id != kNoIndex) p.waitNames.insert(id);
    p.graphLaunch = t.strings.find("cudaGraphLaunch");
    // The launch calls HTA's queue length counts (TraceSymbolTable.get_runtime_launch_events_query).
    for (const char* n : {"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cudaMemcpyAsync",
                          "cudaMemsetAsync", "runFunction - job_prep_and_submit_for_execution", "hipLaunchKernel",
                          "hipExtModuleLaunchKernel", "hipMemsetAsync", "hipMemcpyAsync", "hipMemcpyWithStream"})
        if (StringId id = t.strings.find(n); id != kNoIndex) p.htaLaunchNames.insert(id);
    const StringId syncCat = t.strings.find("cuda_sync");

    // Device activities and their launches.
    std::vector<std::pair<TrackIndex, SliceRef>> syncSlices;
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        const Track& tr = t.tracks[ti];
        if (tr.kind != TrackKind::Thread) continue;
        const SliceColumns& s = tr.slices;
        for (uint32_t i = 0; i < s.size(); ++i) {
            analysisTick();
            if (syncCat != kNoIndex && s.category[i] == syncCat) {
                syncSlices.push_back({ti, SliceRef{ti, i}});
                continue;
            }
            if (!ct.trackOnDevice[ti] || !isDeviceRole(ct.roles[ti][i])) continue;
            ++p.deviceTotal;
            const SliceRef launch = launchOf(ct, {ti, i});
            if (!launch.valid() || !p.hostTrack[launch.track] ||
                t.tracks[launch.track].slices.duration[launch.index] <= 0) {
                ++p.deviceWithoutLaunch;
                continue;
            }
            DeviceAct a;
            a.slice = {ti, i};
            a.launch = launch;
            a.launchTs = t.tracks[launch.track].slices.start[launch.index];
            a.start = s.start[i];
            a.end = s.end(i);
            a.stream = baseTrack(t, ti);
            a.byGraph = p.graphLaunch != kNoIndex && t.tracks[launch.track].slices.name[launch.index] == p.graphLaunch;
            p.acts.push_back(a);
        }
    }
    std::stable_sort(p.acts.begin(), p.acts.end(),
                     [](const DeviceAct& a, const DeviceAct& b) { return a.launchTs < b.launchTs; });
    for (uint32_t k = 0; k < p.acts.size(); ++k) {
        auto [it, added] = p.streamSlot.try_emplace(p.acts[k].stream, uint32_t(p.byStreamLaunch.size()));
        if (added) p.byStreamLaunch.emplace_back();
        p.byStreamLaunch[it->second].push_back(k);
    }
    // HTA's queue length per stream (TraceCounters._get_queue_length_time_series_for_rank): +1 at
    // each counted launch call, -1 when its activity begins, in time order (launches first on a tie).
    std::vector<std::pair<TimeNs, int64_t>> steps;  // (time, +(k + 1) launch / -(k + 1) begin)
    for (const std::vector<uint32_t>& stream : p.byStreamLaunch) {
        steps.clear();
        for (uint32_t k : stream) {
            const SliceRef l = p.acts[k].launch;
            if (!p.htaLaunchNames.count(t.tracks[l.track].slices.name[l.index])) continue;
            steps.push_back({p.acts[k].launchTs, int64_t(k) + 1});
            steps.push_back({p.acts[k].start, -(int64_t(k) + 1)});
        }
        std::stable_sort(steps.begin(), steps.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first < b.first : a.second > 0 && b.second < 0;
        });
        std::unordered_map<uint32_t, int64_t> atLaunch;
        int64_t queue = 0;
        for (const auto& [ts, v] : steps) {
            queue += v > 0 ? 1 : -1;
            const uint32_t k = uint32_t((v > 0 ? v : -v) - 1);
            if (v > 0) atLaunch[k] = queue;
            // A kernel before its launch (clock skew) has no meaningful queue: the idle-stream rule.
            else if (htaRules || p.acts[k].start >= p.acts[k].launchTs)
                p.acts[k].htaQueueIdle = atLaunch[k] == 1 && queue == 0;
        }
    }

    // Device stream tracks by (device process, stream id), for the records' stream args.
    std::unordered_map<uint64_t, TrackIndex> streamTrack;
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti)
        if (ct.trackOnDevice[ti] && t.tracks[ti].overflowOf == kNoIndex)
            streamTrack.try_emplace((uint64_t(t.tracks[ti].process) << 32) ^ uint64_t(uint32_t(t.tracks[ti].tid)), ti);
    auto trackOfStream = [&](ProcessIndex proc, int64_t stream) -> TrackIndex {
        auto it = streamTrack.find((uint64_t(proc) << 32) ^ uint64_t(uint32_t(stream)));
        return it == streamTrack.end() ? kNoIndex : it->second;
    };
    auto runtimeOf = [&](int64_t corr) -> SliceRef {
        auto it = std::lower_bound(ct.runtimeByCorrelation.begin(), ct.runtimeByCorrelation.end(), corr,
                                   [](const auto& a, int64_t v) { return a.first < v; });
        return it != ct.runtimeByCorrelation.end() && it->first == corr ? it->second : SliceRef{};
    };
    // The last activity launched onto `stream` before `ts` (HTA: the launch before a cudaEventRecord).
    auto lastLaunchBefore = [&](TrackIndex stream, TimeNs ts) -> int32_t {
        auto sl = p.streamSlot.find(stream);
        if (sl == p.streamSlot.end()) return -1;
        const std::vector<uint32_t>& v = p.byStreamLaunch[sl->second];
        auto it =
            std::lower_bound(v.begin(), v.end(), ts, [&](uint32_t k, TimeNs x) { return p.acts[k].launchTs < x; });
        if (it == v.begin()) return -1;
        return int32_t(*(it - 1));
    };
    // The first activity launched onto `stream` after `ts` from the thread `thread`.
    auto nextLaunchAfter = [&](TrackIndex stream, TimeNs ts, TrackIndex thread) -> int32_t {
        auto sl = p.streamSlot.find(stream);
        if (sl == p.streamSlot.end()) return -1;
        const std::vector<uint32_t>& v = p.byStreamLaunch[sl->second];
        auto it =
            std::upper_bound(v.begin(), v.end(), ts, [&](TimeNs x, uint32_t k) { return x < p.acts[k].launchTs; });
        for (int scanned = 0; it != v.end() && scanned < 4096; ++it, ++scanned)
            if (baseTrack(t, p.acts[*it].launch.track) == baseTrack(t, thread)) return int32_t(*it);
        return -1;
    };

    for (const auto& [ti, rec] : syncSlices) {
        ++p.syncRecords;
        const std::string kind = sliceArgText(t, rec, "cuda_sync_kind").empty()
                                     ? std::string(t.str(t.tracks[ti].slices.name[rec.index]))
                                     : sliceArgText(t, rec, "cuda_sync_kind");
        SyncRecord r;
        if (kind == "Context Sync") r.kind = SyncRecord::Context;
        else if (kind == "Stream Sync") r.kind = SyncRecord::Stream;
        else if (kind == "Event Sync") r.kind = SyncRecord::Event;
        else if (kind == "Stream Wait Event") r.kind = SyncRecord::StreamWaitEvent;
        else continue;
        int64_t corr = 0, stream = -1, recordCorr = -1, waitStream = -1;
        if (!sliceArgInt(t, rec, "correlation", corr)) continue;
        r.call = runtimeOf(corr);
        if (!r.call.valid() || !p.hostTrack[r.call.track]) continue;
        p.callsWithRecord.insert(keyOf(r.call));
        r.device = t.tracks[ti].process;
        r.recordEnd = t.tracks[ti].slices.end(rec.index);
        sliceArgInt(t, rec, "stream", stream);
        r.stream = trackOfStream(r.device, stream);
        if (r.kind == SyncRecord::Event || r.kind == SyncRecord::StreamWaitEvent) {
            // The cudaEventRecord call the wait names, and the stream it recorded on.
            sliceArgInt(t, rec, "wait_on_cuda_event_record_corr_id", recordCorr);
            sliceArgInt(t, rec, "wait_on_stream", waitStream);
            const SliceRef record = recordCorr >= 0 ? runtimeOf(recordCorr) : SliceRef{};
            const TrackIndex recordStream = trackOfStream(r.device, waitStream);
            if (!record.valid() || recordStream == kNoIndex) continue;
            r.srcAct = lastLaunchBefore(recordStream, t.tracks[record.track].slices.start[record.index]);
            if (r.srcAct < 0) continue;
            if (r.kind == SyncRecord::StreamWaitEvent) {
                if (r.stream == kNoIndex) continue;
                r.destAct = nextLaunchAfter(r.stream, t.tracks[r.call.track].slices.start[r.call.index], r.call.track);
                if (r.destAct < 0) continue;
            }
        } else if (r.kind == SyncRecord::Stream && r.stream == kNoIndex) {
            continue;
        }
        p.syncs.push_back(r);
    }
    return p;
}

struct Edge {
    uint32_t from = 0, to = 0;
    TimeNs weight = 0;
    CpEdgeType type = CpEdgeType::Operator;
    uint32_t attributed = kNoIndex;  // event index
};

// The graph of one window. Events are numbered; event e has nodes 2e (begin) and 2e + 1 (end).
class WindowGraph {
public:
    WindowGraph(const ClassifiedTrace& ct, const Prepared& p, CriticalPath& out)
        : ct_(ct), t_(*ct.trace), p_(p), out_(out) {}

    void build(TimeNs begin, TimeNs end) {
        addHostEvents(begin, end);
        addDeviceActivities(begin, end);
        addSyncs();
        out_.graphNodes = events_.size() * 2;
        out_.graphEdges = edges_.size();
    }

    void longestPath();

private:
    const ClassifiedTrace& ct_;
    const Trace& t_;
    const Prepared& p_;
    CriticalPath& out_;
    std::vector<SliceRef> events_;
    std::vector<Edge> edges_;
    std::unordered_map<uint64_t, uint32_t> runtimeEvent_;  // runtime call -> event index
    std::vector<uint32_t> actEvent_;                       // window activity (index into windowActs_) -> event index
    std::vector<uint32_t> windowActs_;                     // indices into p_.acts
    std::unordered_map<uint32_t, uint32_t> actToWindow_;   // p_.acts index -> windowActs_ index

    TimeNs ts(uint32_t node) const {
        const SliceRef s = events_[node / 2];
        const SliceColumns& c = t_.tracks[s.track].slices;
        return node % 2 ? c.end(s.index) : c.start[s.index];
    }
    SliceRole role(uint32_t ev) const { return ct_.role(events_[ev]); }
    bool blocking(uint32_t ev) const {
        const SliceRef s = events_[ev];
        return p_.blockingNames.count(t_.tracks[s.track].slices.name[s.index]) > 0;
    }

    void edge(uint32_t from, uint32_t to, CpEdgeType type, uint32_t attributed, bool zeroWeight = false) {
        TimeNs w = 0;
        if (!zeroWeight && type != CpEdgeType::Dependency && type != CpEdgeType::SyncDependency) {
            w = ts(to) - ts(from);
            if (w < 0) {
                ++out_.negativeEdgesClamped;
                w = 0;
            }
        }
        edges_.push_back({from, to, w, type, attributed});
    }

    void addHostEvents(TimeNs begin, TimeNs end) {
        for (TrackIndex ti = 0; ti < t_.tracks.size(); ++ti) {
            if (!p_.hostTrack[ti]) continue;
            const SliceColumns& s = t_.tracks[ti].slices;
            auto first = std::lower_bound(s.start.begin(), s.start.end(), begin);
            // The call stack walk of HTA's _construct_graph_from_call_stack over the node events.
            std::vector<uint32_t> stack;
            int64_t lastNode = -1, lastTop = -1;
            auto exitTop = [&] {
                const uint32_t ev = stack.back();
                stack.pop_back();
                edge(uint32_t(lastNode), 2 * ev + 1, CpEdgeType::Operator, ev, blocking(ev));
                if (stack.empty()) {
                    lastNode = -1;
                    lastTop = 2 * ev + 1;
                } else {
                    lastNode = 2 * ev + 1;
                }
            };
            for (size_t i = size_t(first - s.start.begin()); i < s.size() && s.start[i] <= end; ++i) {
                analysisTick();
                const SliceRole r = ct_.roles[ti][i];
                if ((r != SliceRole::HostOp && r != SliceRole::Runtime) || s.duration[i] <= 0) continue;
                while (!stack.empty() && ts(2 * stack.back() + 1) <= s.start[i]) exitTop();
                const uint32_t ev = uint32_t(events_.size());
                events_.push_back({ti, uint32_t(i)});
                ++out_.hostEvents;
                if (r == SliceRole::Runtime) runtimeEvent_[keyOf(events_.back())] = ev;
                if (stack.empty() && lastTop >= 0) edge(uint32_t(lastTop), 2 * ev, CpEdgeType::Dependency, kNoIndex);
                if (lastNode >= 0) edge(uint32_t(lastNode), 2 * ev, CpEdgeType::Operator, stack.back());
                stack.push_back(ev);
                lastNode = 2 * ev;
            }
            while (!stack.empty()) exitTop();
        }
    }

    void addDeviceActivities(TimeNs begin, TimeNs end) {
        const std::vector<DeviceAct>& acts = p_.acts;
        auto first = std::lower_bound(acts.begin(), acts.end(), begin,
                                      [](const DeviceAct& a, TimeNs x) { return a.launchTs < x; });
        for (auto it = first; it != acts.end() && it->launchTs <= end; ++it) {
            auto rt = runtimeEvent_.find(keyOf(it->launch));
            if (rt == runtimeEvent_.end()) continue;  // its launch is not a node of the window
            const uint32_t k = uint32_t(it - acts.begin());
            actToWindow_[k] = uint32_t(windowActs_.size());
            windowActs_.push_back(k);
        }
        // Per stream, in start order (HTA sorts the kernels by start).
        std::vector<uint32_t> order(windowActs_.size());
        for (uint32_t w = 0; w < order.size(); ++w) order[w] = w;
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
            const DeviceAct& x = acts[windowActs_[a]];
            const DeviceAct& y = acts[windowActs_[b]];
            return x.stream != y.stream ? x.stream < y.stream : x.start < y.start;
        });
        actEvent_.assign(windowActs_.size(), kNoIndex);
        for (uint32_t w : order) {
            actEvent_[w] = uint32_t(events_.size());
            events_.push_back(acts[windowActs_[w]].slice);
            ++out_.deviceActivities;
            if (acts[windowActs_[w]].byGraph) ++out_.graphLaunchedActivities;
        }
        streamOrder_ = order;
    }

    std::vector<uint32_t> streamOrder_;  // window activities by (stream, start)

    void addSyncs() {
        const std::vector<DeviceAct>& acts = p_.acts;
        // Stream Wait Event: the waiting activity's source (HTA's kernel_sync map).
        std::unordered_map<uint32_t, uint32_t> waitSource;  // window activity -> event index of the source
        // The last activity per stream that began before `at` (HTA's last_node at a sync's end).
        std::unordered_map<TrackIndex, std::pair<size_t, size_t>> streamRange;
        for (size_t k = 0; k < streamOrder_.size();) {
            size_t e = k;
            const TrackIndex st = acts[windowActs_[streamOrder_[k]]].stream;
            while (e < streamOrder_.size() && acts[windowActs_[streamOrder_[e]]].stream == st) ++e;
            streamRange[st] = {k, e};
            k = e;
        }
        auto lastBefore = [&](TrackIndex st, TimeNs at) -> int64_t {
            auto r = streamRange.find(st);
            if (r == streamRange.end()) return -1;
            auto b = streamOrder_.begin() + long(r->second.first), e = streamOrder_.begin() + long(r->second.second);
            auto it = std::lower_bound(b, e, at, [&](uint32_t w, TimeNs x) { return acts[windowActs_[w]].start < x; });
            if (it == b) return -1;
            return actEvent_[*(it - 1)];
        };
        auto windowEventOfAct = [&](int32_t k) -> int64_t {
            auto it = actToWindow_.find(uint32_t(k));
            return it == actToWindow_.end() ? -1 : int64_t(actEvent_[it->second]);
        };
        for (const SyncRecord& r : p_.syncs) {
            auto call = runtimeEvent_.find(keyOf(r.call));
            if (call == runtimeEvent_.end()) continue;
            const uint32_t callEnd = 2 * call->second + 1;
            switch (r.kind) {
            case SyncRecord::Context:
                for (const auto& [st, range] : streamRange) {
                    if (t_.tracks[st].process != r.device) continue;
                    if (int64_t ev = lastBefore(st, r.recordEnd); ev >= 0) {
                        edge(2 * uint32_t(ev) + 1, callEnd, CpEdgeType::SyncDependency, kNoIndex);
                        ++out_.syncEdgesFromRecords;
                    }
                }
                break;
            case SyncRecord::Stream:
                if (int64_t ev = lastBefore(r.stream, r.recordEnd); ev >= 0) {
                    edge(2 * uint32_t(ev) + 1, callEnd, CpEdgeType::SyncDependency, kNoIndex);
                    ++out_.syncEdgesFromRecords;
                }
                break;
            case SyncRecord::Event:
                if (int64_t ev = windowEventOfAct(r.srcAct); ev >= 0) {
                    edge(2 * uint32_t(ev) + 1, callEnd, CpEdgeType::SyncDependency, kNoIndex);
                    ++out_.syncEdgesFromRecords;
                }
                break;
            case SyncRecord::StreamWaitEvent: {
                auto dest = actToWindow_.find(uint32_t(r.destAct));
                const int64_t src = windowEventOfAct(r.srcAct);
                if (dest != actToWindow_.end() && src >= 0) waitSource[dest->second] = uint32_t(src);
                break;
            }
            }
        }
        if (!p_.htaRules) addInferredSyncs();
        // Device edges per stream (HTA's _construct_graph_from_kernels).
        for (size_t k = 0; k < streamOrder_.size(); ++k) {
            analysisTick();
            const uint32_t w = streamOrder_[k];
            const DeviceAct& a = acts[windowActs_[w]];
            const uint32_t ev = actEvent_[w];
            edge(2 * ev, 2 * ev + 1, CpEdgeType::Operator, ev);
            int64_t prev = -1;
            if (k > 0 && acts[windowActs_[streamOrder_[k - 1]]].stream == a.stream)
                prev = actEvent_[streamOrder_[k - 1]];
            int64_t src = -1;
            if (auto it = waitSource.find(w); it != waitSource.end()) {
                src = it->second;
                edge(2 * uint32_t(src) + 1, 2 * ev, CpEdgeType::SyncDependency, kNoIndex);
                ++out_.syncEdgesFromRecords;
            }
            const uint32_t launchEv = runtimeEvent_.at(keyOf(a.launch));
            const TimeNs launchTs = ts(2 * launchEv);
            // HTA's queue condition where HTA counts the launch call; for the others
            // (cudaGraphLaunch, synchronous copies...) the stream's idleness at the launch alone.
            if ((p_.htaRules ? a.htaQueueIdle == 1 : a.htaQueueIdle != 0) &&
                (prev < 0 || ts(2 * uint32_t(prev) + 1) < launchTs) &&
                (src < 0 || ts(2 * uint32_t(src) + 1) < launchTs)) {
                edge(2 * launchEv, 2 * ev, CpEdgeType::LaunchDelay, kNoIndex);
            } else if (prev >= 0 && (src < 0 || ts(2 * uint32_t(src) + 1) < ts(2 * uint32_t(prev) + 1))) {
                edge(2 * uint32_t(prev) + 1, 2 * ev, CpEdgeType::KernelKernelDelay, uint32_t(prev));
            }
        }
    }

    // Blocking calls without a cuda_sync record: a synchronous copy waits for its own copy; a
    // device / stream / event sync for the activity that ended last inside it (same process).
    void addInferredSyncs() {
        const std::vector<DeviceAct>& acts = p_.acts;
        std::vector<uint32_t> byEnd(windowActs_.size());
        for (uint32_t w = 0; w < byEnd.size(); ++w) byEnd[w] = w;
        std::sort(byEnd.begin(), byEnd.end(),
                  [&](uint32_t a, uint32_t b) { return acts[windowActs_[a]].end < acts[windowActs_[b]].end; });
        std::unordered_map<uint64_t, std::vector<uint32_t>> launched;  // blocking call -> its window activities
        for (uint32_t w = 0; w < windowActs_.size(); ++w) {
            const SliceRef l = acts[windowActs_[w]].launch;
            if (p_.blockingNames.count(t_.tracks[l.track].slices.name[l.index])) launched[keyOf(l)].push_back(w);
        }
        for (const auto& [key, ev] : runtimeEvent_) {
            const SliceRef call = events_[ev];
            const StringId name = t_.tracks[call.track].slices.name[call.index];
            if (!p_.blockingNames.count(name) || p_.callsWithRecord.count(key)) continue;
            const TimeNs cs = ts(2 * ev), ce = ts(2 * ev + 1);
            int64_t waited = -1;
            if (auto it = launched.find(key); it != launched.end()) {
                for (uint32_t w : it->second)
                    if (acts[windowActs_[w]].end >= cs && acts[windowActs_[w]].end <= ce &&
                        (waited < 0 || acts[windowActs_[w]].end > ts(2 * uint32_t(waited) + 1)))
                        waited = actEvent_[w];
            } else if (p_.waitNames.count(name)) {
                const ProcessIndex proc = t_.tracks[call.track].process;
                auto it = std::upper_bound(byEnd.begin(), byEnd.end(), ce,
                                           [&](TimeNs x, uint32_t w) { return x < acts[windowActs_[w]].end; });
                for (int scanned = 0; it != byEnd.begin() && scanned < 256; ++scanned) {
                    --it;
                    const DeviceAct& a = acts[windowActs_[*it]];
                    if (a.end < cs) break;
                    if (t_.tracks[a.launch.track].process == proc) {
                        waited = actEvent_[*it];
                        break;
                    }
                }
            }
            if (waited >= 0) {
                edge(2 * uint32_t(waited) + 1, 2 * ev + 1, CpEdgeType::SyncDependency, kNoIndex);
                ++out_.syncEdgesInferred;
            }
        }
    }
};

void WindowGraph::longestPath() {
    const size_t n = events_.size() * 2;
    if (n == 0) return;
    // Adjacency in edge order (CSR), Kahn's topological order, then the longest path by
    // relaxing each node's out-edges. networkx takes, for each node, the first predecessor of
    // greatest distance; every node with a predecessor takes one, even over weight 0.
    std::vector<uint32_t> outStart(n + 1, 0), inDegree(n, 0);
    for (const Edge& e : edges_) {
        ++outStart[e.from + 1];
        ++inDegree[e.to];
    }
    for (size_t i = 0; i < n; ++i) outStart[i + 1] += outStart[i];
    std::vector<uint32_t> outEdges(edges_.size());
    {
        std::vector<uint32_t> fill(outStart.begin(), outStart.end() - 1);
        for (uint32_t k = 0; k < edges_.size(); ++k) outEdges[fill[edges_[k].from]++] = k;
    }
    std::vector<TimeNs> dist(n, 0);
    std::vector<uint32_t> pred(n, kNoIndex);  // edge index
    std::deque<uint32_t> ready;
    for (uint32_t v = 0; v < n; ++v)
        if (!inDegree[v]) ready.push_back(v);
    size_t done = 0;
    TimeNs best = -1;
    uint32_t bestNode = kNoIndex;
    while (!ready.empty()) {
        analysisTick();
        const uint32_t u = ready.front();
        ready.pop_front();
        ++done;
        if (dist[u] > best) {
            best = dist[u];
            bestNode = u;
        }
        for (uint32_t k = outStart[u]; k < outStart[u + 1]; ++k) {
            const Edge& e = edges_[outEdges[k]];
            const TimeNs d = dist[u] + e.weight;
            if (pred[e.to] == kNoIndex || d > dist[e.to]) {
                dist[e.to] = d;
                pred[e.to] = outEdges[k];
            }
            if (--inDegree[e.to] == 0) ready.push_back(e.to);
        }
    }
    out_.cycleNodesLeftOut = n - done;
    if (bestNode == kNoIndex) return;
    // Walk back.
    std::vector<uint32_t> pathNodes{bestNode}, pathEdges;
    for (uint32_t v = bestNode; pred[v] != kNoIndex;) {
        pathEdges.push_back(pred[v]);
        v = edges_[pred[v]].from;
        pathNodes.push_back(v);
    }
    std::reverse(pathNodes.begin(), pathNodes.end());
    std::reverse(pathEdges.begin(), pathEdges.end());
    out_.lengthNs = best;
    // Sized exactly: a trace's paths are kept as a result (one per step: 52 MB on 2,999 steps
    // when the vectors grew by doubling).
    out_.nodes.reserve(pathNodes.size());
    out_.edges.reserve(pathEdges.size());
    std::unordered_set<uint64_t> seen;
    for (uint32_t v : pathNodes) {
        const SliceRef s = events_[v / 2];
        out_.nodes.push_back({s, v % 2 == 0, ts(v)});
        if (seen.insert(keyOf(s)).second) out_.events.push_back(s);
    }
    out_.events.shrink_to_fit();
    struct Acc {
        CpCategory category;
        TimeNs ns = 0;
        std::unordered_set<uint32_t> events;
    };
    std::unordered_map<std::string_view, Acc> byName;
    for (uint32_t k : pathEdges) {
        const Edge& e = edges_[k];
        CpPathEdge pe;
        pe.type = e.type;
        pe.weightNs = e.weight;
        if (e.attributed != kNoIndex) pe.attributed = events_[e.attributed];
        switch (e.type) {
        case CpEdgeType::LaunchDelay:
            pe.category = CpCategory::LaunchDelay;
            out_.kernelLaunchOverheadNs += e.weight;
            break;
        case CpEdgeType::KernelKernelDelay:
            pe.category = CpCategory::KernelGap;
            out_.kernelKernelOverheadNs += e.weight;
            break;
        case CpEdgeType::Operator: {
            const SliceRole r = role(e.attributed);
            pe.category = categoryOfRole(r);
            const std::string_view name = fullNameView(ct_, pe.attributed);
            if (!isDeviceRole(r)) out_.cpuBoundNs += e.weight;
            else if (isCommKernel(name)) out_.gpuCommunicationBoundNs += e.weight;
            else out_.gpuComputeBoundNs += e.weight;
            if (e.weight > 0) {
                Acc& acc = byName.try_emplace(name, Acc{pe.category}).first->second;
                acc.ns += e.weight;
                acc.events.insert(e.attributed);
            }
            break;
        }
        default: break;
        }
        out_.byCategory[size_t(pe.category)] +=
            e.type == CpEdgeType::Dependency || e.type == CpEdgeType::SyncDependency ? 0 : e.weight;
        out_.edges.push_back(pe);
    }
    for (auto& [name, acc] : byName)
        out_.topContributors.push_back({std::string(name), acc.category, acc.ns, acc.events.size()});
    std::sort(
        out_.topContributors.begin(), out_.topContributors.end(),
        [](const CpContributor& a, const CpContributor& b) { return a.ns != b.ns ? a.ns > b.ns : a.name < b.name; });
    if (out_.topContributors.size() > 10) out_.topContributors.resize(10);
}

}  // namespace

CriticalPathResult computeCriticalPaths(const ClassifiedTrace& ct, const StepsResult& steps,
                                        const CriticalPathOptions& options) {
    const Trace& t = *ct.trace;
    CriticalPathResult result;
    result.stepSource = steps.source;
    result.stepRule = steps.rule;
    const Prepared p = prepare(ct, options.htaRules);
    result.htaRules = options.htaRules;
    result.deviceWithoutLaunch = p.deviceWithoutLaunch;
    result.deviceActivities = p.deviceTotal;
    result.syncRecords = p.syncRecords;

    auto run = [&](CriticalPath& cp) {
        WindowGraph g(ct, p, cp);
        g.build(cp.windowStartNs, cp.windowEndNs);
        g.longestPath();
    };
    if (steps.steps.empty()) {
        CriticalPath cp;
        cp.wholeTrace = true;
        cp.stepName = "whole trace";
        cp.windowStartNs = t.startNs;
        cp.windowEndNs = t.endNs;
        run(cp);
        result.paths.push_back(std::move(cp));
    } else {
        for (const Step& s : steps.steps) {
            CriticalPath cp;
            cp.stepNumber = s.number;
            cp.stepName = s.name;
            cp.windowStartNs = s.startNs;
            cp.windowEndNs = s.endNs();
            run(cp);
            result.paths.push_back(std::move(cp));
        }
    }
    if (p.deviceTotal == 0)
        result.notes.push_back("no device activity (kernels, copies, memsets): the path is the host's alone");
    if (p.deviceWithoutLaunch)
        result.notes.push_back(
            std::to_string(p.deviceWithoutLaunch) +
            " device activities have no launch call linked (no flow or correlation) and are left out");
    if (p.syncRecords == 0 && !options.htaRules)
        result.notes.push_back(
            "no cuda_sync records (PyTorch records them with experimental_config enable_cuda_sync_events=True): "
            "blocking sync calls wait for the device activity that ended last inside them (inferred)");
    return result;
}

}  // namespace tracescope
