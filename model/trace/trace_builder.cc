#include "model/trace/trace_builder.h"

#include "model/trace/args_compaction.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>
#include <queue>
#include <thread>

namespace tracescope {

namespace {

constexpr uint32_t kSpilled = 0xFFFFFFFEu;  // marks a slice moved to an overflow lane

// Reorders every column of `c` so that new[k] = old[perm[k]].
template <typename T>
void permute(std::vector<T>& v, const std::vector<uint32_t>& perm) {
    std::vector<T> out(v.size());
    for (size_t k = 0; k < perm.size(); ++k) out[k] = v[perm[k]];
    v.swap(out);
}

void permuteSlices(SliceColumns& c, const std::vector<uint32_t>& perm) {
    c.start.permute(perm);
    c.duration.permute(perm);
    c.name.permute(perm);
    c.category.permute(perm);
    permute(c.args, perm);
    permute(c.depthAndFlags, perm);
}

// Order: start ascending, then longer first (parents before children), then insertion order.
std::vector<uint32_t> sliceOrder(const SliceColumns& c) {
    std::vector<uint32_t> perm(c.size());
    std::iota(perm.begin(), perm.end(), 0u);
    bool sorted = true;
    for (size_t i = 1; i < c.size() && sorted; ++i)
        sorted = c.start[i - 1] < c.start[i] || (c.start[i - 1] == c.start[i] && c.duration[i - 1] >= c.duration[i]);
    if (!sorted) {
        std::stable_sort(perm.begin(), perm.end(), [&](uint32_t a, uint32_t b) {
            if (c.start[a] != c.start[b]) return c.start[a] < c.start[b];
            return c.duration[a] > c.duration[b];
        });
    }
    return perm;
}

bool isIdentity(const std::vector<uint32_t>& perm) {
    for (size_t i = 0; i < perm.size(); ++i)
        if (perm[i] != i) return false;
    return true;
}

// Copies one encoded arg set between blobs; returns its new offset.
ArgsOffset copyArgs(const std::vector<uint8_t>& from, ArgsOffset offset, std::vector<uint8_t>& to) {
    if (offset == kNoArgs) return kNoArgs;
    ArgsReader reader(from, offset);
    ArgsWriter writer;
    Arg a;
    while (reader.next(a)) writer.add(a.key, a.value);
    return writer.appendTo(to);
}

template <typename Fn>
void parallelFor(size_t n, unsigned threads, const std::atomic<bool>* cancel, Fn fn) {
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (size_t i; (i = next.fetch_add(1)) < n;) {
            if (cancel && cancel->load(std::memory_order_relaxed)) return;
            fn(i);
        }
    };
    threads = std::max(1u, std::min<unsigned>(threads, unsigned(n)));
    std::vector<std::thread> pool;
    for (unsigned k = 1; k < threads; ++k) pool.emplace_back(worker);
    worker();
    for (auto& th : pool) th.join();
}

}  // namespace

TraceBuilder::TraceBuilder(std::string format) : trace_(std::make_unique<Trace>()) {
    trace_->format = std::move(format);
}

TraceBuilder::~TraceBuilder() = default;

ProcessIndex TraceBuilder::addProcess(ProcessKind kind, int64_t pid, std::string name) {
    Process p;
    p.kind = kind;
    p.pid = pid;
    p.name = std::move(name);
    trace_->processes.push_back(std::move(p));
    return ProcessIndex(trace_->processes.size() - 1);
}

TrackIndex TraceBuilder::addTrack(ProcessIndex process, TrackKind kind, std::string name, int64_t tid) {
    Track t;
    t.kind = kind;
    t.process = process;
    t.name = std::move(name);
    t.tid = tid;
    trace_->tracks.push_back(std::move(t));
    trackNeedsIdMap_.push_back(0);
    auto index = TrackIndex(trace_->tracks.size() - 1);
    trace_->processes[process].tracks.push_back(index);
    return index;
}

TimeNs TraceBuilder::clampTime(TimeNs t) {
    if (t > kMaxTimeNs || t < -kMaxTimeNs) {
        ++clampedTimes_;
        return t > 0 ? kMaxTimeNs : -kMaxTimeNs;
    }
    return t;
}

uint32_t TraceBuilder::addSlice(TrackIndex t, TimeNs start, TimeNs duration, StringId name, StringId category,
                                ArgsOffset args, bool unfinished) {
    SliceColumns& c = trace_->tracks[t].slices;
    const TimeNs clampedStart = clampTime(start);
    if (duration < 0) {
        ++negativeDurations_;
        duration = 0;
    }
    if (duration > kMaxTimeNs - clampedStart) {  // the end would lie beyond the representable range
        if (clampedStart == start) ++clampedTimes_;
        duration = kMaxTimeNs - clampedStart;
    }
    c.start.push_back(clampedStart);
    c.duration.push_back(duration);
    c.name.push_back(name);
    c.category.push_back(category);
    c.args.push_back(args);
    c.depthAndFlags.push_back(unfinished ? kSliceUnfinished : 0);
    return uint32_t(c.size() - 1);
}

uint32_t TraceBuilder::addSlice(TrackIndex t, TimeNs start, TimeNs duration, StringId name, StringId category,
                                const ArgsWriter& args, bool unfinished) {
    return addSlice(t, start, duration, name, category, args.appendTo(trace_->tracks[t].argBlob), unfinished);
}

void TraceBuilder::endSlice(TrackIndex t, uint32_t slice, TimeNs end) {
    SliceColumns& c = trace_->tracks[t].slices;
    c.duration.set(slice, durationBetween(c.start[slice], clampTime(end)));
}

void TraceBuilder::addInstant(TrackIndex t, TimeNs time, StringId name, StringId category, ArgsOffset args) {
    InstantColumns& c = trace_->tracks[t].instants;
    c.time.push_back(clampTime(time));
    c.name.push_back(name);
    c.category.push_back(category);
    c.args.push_back(args);
}

void TraceBuilder::addInstant(TrackIndex t, TimeNs time, StringId name, StringId category, const ArgsWriter& args) {
    addInstant(t, time, name, category, args.appendTo(trace_->tracks[t].argBlob));
}

void TraceBuilder::addCounterSample(TrackIndex t, TimeNs time, double value) {
    CounterSeries& c = trace_->tracks[t].counter;
    c.time.push_back(clampTime(time));
    c.value.push_back(value);
}

void TraceBuilder::addFlow(const FlowEnd& from, const FlowEnd& to, StringId name, StringId category, uint64_t) {
    if (from.bind == FlowEnd::Bind::Slice && from.track != kNoIndex) trackNeedsIdMap_[from.track] = 1;
    if (to.bind == FlowEnd::Bind::Slice && to.track != kNoIndex) trackNeedsIdMap_[to.track] = 1;
    auto [it, added] = flowKindIndex_.try_emplace(uint64_t(name) << 32 | category, uint32_t(trace_->flowKinds.size()));
    if (added) trace_->flowKinds.push_back({name, category});
    flows_.push_back({from, to, it->second});
}

void TraceBuilder::addXlaProgram(XlaProgramBlob program) { trace_->xlaPrograms.push_back(std::move(program)); }

void TraceBuilder::addMetadata(std::string key, std::string value) {
    for (auto& [k, v] : trace_->metadata) {
        if (k == key) {
            v = std::move(value);
            return;
        }
    }
    trace_->metadata.emplace_back(std::move(key), std::move(value));
}

void TraceBuilder::addWarning(ImportWarning warning) { trace_->warnings.push_back(std::move(warning)); }

void TraceBuilder::addHost(std::string host) {
    if (std::find(trace_->hosts.begin(), trace_->hosts.end(), host) == trace_->hosts.end())
        trace_->hosts.push_back(std::move(host));
}

void TraceBuilder::setOriginUnixNs(int64_t unixNsOfTimeZero) { unixNsOfZero_ = unixNsOfTimeZero; }

// Sorts a thread track and computes depths. Slices that partially overlap the
// enclosing slice are marked kSpilled in `parents` and moved out by spillOverflow().
void TraceBuilder::sortAndNest(TrackIndex t, std::vector<SliceRef>* idMap, std::vector<uint32_t>* parents) {
    Track& track = trace_->tracks[t];
    SliceColumns& c = track.slices;
    std::vector<uint32_t> perm = sliceOrder(c);
    if (!isIdentity(perm)) permuteSlices(c, perm);
    if (idMap) {
        idMap->assign(c.size(), SliceRef{});
        for (uint32_t k = 0; k < perm.size(); ++k) (*idMap)[perm[k]] = SliceRef{t, k};
    }
    perm.clear();
    perm.shrink_to_fit();

    if (track.kind == TrackKind::Async) {
        packAsyncLanes(track);
        return;
    }
    parents->assign(c.size(), kNoIndex);
    std::vector<uint32_t> stack;
    uint32_t maxDepth = 0;
    for (uint32_t k = 0; k < c.size(); ++k) {
        const TimeNs start = c.start[k];
        while (!stack.empty() && c.end(stack.back()) <= start) stack.pop_back();
        if (!stack.empty() && c.end(k) > c.end(stack.back())) {
            (*parents)[k] = kSpilled;  // partial overlap: goes to an overflow lane
            continue;
        }
        if (stack.size() > kSliceDepthMask) {  // absurd nesting: keep it, drawn at the deepest level
            (*parents)[k] = stack.back();
            c.depthAndFlags[k] = uint16_t((c.depthAndFlags[k] & kSliceUnfinished) | kSliceDepthMask);
            continue;
        }
        (*parents)[k] = stack.empty() ? kNoIndex : stack.back();
        c.depthAndFlags[k] = uint16_t((c.depthAndFlags[k] & kSliceUnfinished) | stack.size());
        maxDepth = std::max<uint32_t>(maxDepth, uint32_t(stack.size()) + 1);
        stack.push_back(k);
    }
    track.maxDepth = maxDepth;
}

void TraceBuilder::packAsyncLanes(Track& track) {
    SliceColumns& c = track.slices;
    // Greedy first fit: each span takes the lowest lane free at its start.
    using Busy = std::pair<TimeNs, uint32_t>;  // (end, lane)
    std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> freeLanes;
    uint32_t lanes = 0;
    for (size_t k = 0; k < c.size(); ++k) {
        while (!busy.empty() && busy.top().first <= c.start[k]) {
            freeLanes.push(busy.top().second);
            busy.pop();
        }
        uint32_t lane;
        if (!freeLanes.empty()) {
            lane = freeLanes.top();
            freeLanes.pop();
        } else {
            lane = lanes++;
        }
        c.depthAndFlags[k] = uint16_t((c.depthAndFlags[k] & kSliceUnfinished) | std::min<uint32_t>(lane, kSliceDepthMask));
        busy.push({c.end(k), lane});
    }
    track.maxDepth = lanes;
}

// Moves slices marked kSpilled into overflow lanes, all lanes of a track in one pass.
// Lanes are filled first-fit in start order: a slice goes to the first lane in which it
// nests (after the slices there that ended before it start), which is what peeling lane after
// lane (each taking what nests, the rest spilling on) gives, without its cost: a staircase of
// n slices, each partly overlapping all earlier ones, needs n lanes and took O(n^2) that way.
// Only the first kFirstFitLanes lanes are searched; beyond them a slice takes the lowest lane
// that is empty at its start (or a new one), so the search stays bounded.
void TraceBuilder::spillOverflow(std::vector<std::vector<SliceRef>>& idMaps,
                                 std::vector<std::vector<uint32_t>>& parents) {
    constexpr uint32_t kFirstFitLanes = 64;
    const TrackIndex originalTracks = TrackIndex(trace_->tracks.size());
    for (TrackIndex t = 0; t < originalTracks; ++t) {
        if (trace_->tracks[t].kind != TrackKind::Thread) continue;
        std::vector<uint32_t>& par = parents[t];
        if (std::find(par.begin(), par.end(), kSpilled) == par.end()) continue;

        // Lane of each spilled slice, its depth and its parent (an index into `par`'s track).
        const SliceColumns& c = trace_->tracks[t].slices;
        std::vector<uint32_t> lane(c.size(), kNoIndex), laneParent(c.size(), kNoIndex);
        std::vector<uint16_t> laneDepth(c.size(), 0);
        std::vector<std::vector<uint32_t>> stacks;  // open slices per searched lane
        using Busy = std::pair<TimeNs, uint32_t>;   // (end, lane) of the lanes past the searched ones
        std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
        std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> freeLanes;
        uint32_t lanes = 0;
        for (uint32_t k = 0; k < c.size(); ++k) {
            if (par[k] != kSpilled) continue;
            const TimeNs start = c.start[k], end = c.end(k);
            uint32_t chosen = kNoIndex;
            for (uint32_t l = 0; l < stacks.size() && chosen == kNoIndex; ++l) {
                std::vector<uint32_t>& st = stacks[l];
                while (!st.empty() && c.end(st.back()) <= start) st.pop_back();
                if (!st.empty() && end > c.end(st.back())) continue;  // would overlap partially here too
                chosen = l;
                laneParent[k] = st.empty() ? kNoIndex : st.back();
                if (st.size() > kSliceDepthMask) {  // absurd nesting: drawn at the deepest level
                    laneDepth[k] = kSliceDepthMask;
                } else {
                    laneDepth[k] = uint16_t(st.size());
                    st.push_back(k);
                }
            }
            if (chosen == kNoIndex && stacks.size() < kFirstFitLanes) {
                chosen = uint32_t(stacks.size());
                stacks.push_back({k});
                ++lanes;
            } else if (chosen == kNoIndex) {
                while (!busy.empty() && busy.top().first <= start) {
                    freeLanes.push(busy.top().second);
                    busy.pop();
                }
                if (!freeLanes.empty()) {
                    chosen = freeLanes.top();
                    freeLanes.pop();
                } else {
                    chosen = lanes++;
                }
                busy.push({end, chosen});
            }
            lane[k] = chosen;
        }

        const TrackIndex root = trace_->tracks[t].overflowOf != kNoIndex ? trace_->tracks[t].overflowOf : t;
        std::vector<TrackIndex> laneTracks(lanes);
        for (uint32_t l = 0; l < lanes; ++l) {
            laneTracks[l] = addTrack(trace_->tracks[t].process, TrackKind::Thread,
                                     trace_->tracks[root].name + " (overflow)", trace_->tracks[t].tid);
            idMaps.emplace_back();
            parents.emplace_back();
        }
        // References taken only now: addTrack and emplace_back may have moved the vectors.
        Track& src = trace_->tracks[t];
        std::vector<uint32_t>& srcParents = parents[t];
        for (uint32_t l = 0; l < lanes; ++l) {
            Track& dst = trace_->tracks[laneTracks[l]];
            dst.overflowOf = root;
            dst.sortIndex = src.sortIndex;
            dst.hasSortIndex = src.hasSortIndex;
        }

        // Old index in t -> where the slice lives now.
        SliceColumns& cols = src.slices;
        std::vector<SliceRef> moved(cols.size());
        SliceColumns kept;
        std::vector<uint32_t> keptParents;
        for (uint32_t k = 0; k < cols.size(); ++k) {
            const bool spilled = srcParents[k] == kSpilled;
            const TrackIndex to_track = spilled ? laneTracks[lane[k]] : t;
            Track& dst = trace_->tracks[to_track];
            SliceColumns& to = spilled ? dst.slices : kept;
            const auto index = uint32_t(to.size());
            to.start.push_back(cols.start[k]);
            to.duration.push_back(cols.duration[k]);
            to.name.push_back(cols.name[k]);
            to.category.push_back(cols.category[k]);
            if (spilled) {
                to.args.push_back(copyArgs(src.argBlob, cols.args[k], dst.argBlob));
                to.depthAndFlags.push_back(uint16_t((cols.depthAndFlags[k] & kSliceUnfinished) | laneDepth[k]));
                parents[to_track].push_back(laneParent[k] == kNoIndex ? kNoIndex : moved[laneParent[k]].index);
                dst.maxDepth = std::max<uint32_t>(dst.maxDepth, uint32_t(laneDepth[k]) + 1);
            } else {
                to.args.push_back(cols.args[k]);
                to.depthAndFlags.push_back(cols.depthAndFlags[k]);
                keptParents.push_back(srcParents[k] == kNoIndex ? kNoIndex : moved[srcParents[k]].index);
            }
            moved[k] = SliceRef{to_track, index};
        }
        cols = std::move(kept);
        srcParents = std::move(keptParents);
        // Only this track's own map points into it (its lanes are made here, never spilled again).
        for (SliceRef& r : idMaps[t])
            if (r.track == t) r = moved[r.index];
    }
}

SliceRef TraceBuilder::resolve(const FlowEnd& end, const std::vector<std::vector<SliceRef>>& idMaps,
                               const std::vector<std::vector<uint32_t>>& parents) const {
    if (end.track == kNoIndex || end.track >= trace_->tracks.size()) return {};
    if (end.bind == FlowEnd::Bind::Slice) {
        const auto& map = idMaps[end.track];
        return end.slice < map.size() ? map[end.slice] : SliceRef{};
    }
    // Search the track and its overflow lanes; prefer the deepest enclosing / earliest next.
    SliceRef best;
    TimeNs bestStart = 0;
    const TimeNs t = end.time;
    auto consider = [&](TrackIndex ti) {
        const SliceColumns& c = trace_->tracks[ti].slices;
        if (c.empty()) return;
        if (end.bind == FlowEnd::Bind::Next) {
            auto it = std::lower_bound(c.start.begin(), c.start.end(), t);
            if (it == c.start.end()) return;
            auto k = uint32_t(it - c.start.begin());
            if (!best.valid() || c.start[k] < bestStart) { best = {ti, k}; bestStart = c.start[k]; }
            return;
        }
        auto it = std::upper_bound(c.start.begin(), c.start.end(), t);
        if (it == c.start.begin()) return;
        auto k = uint32_t(it - c.start.begin() - 1);
        const auto& par = parents[ti];
        while (k != kNoIndex && c.end(k) < t) k = k < par.size() ? par[k] : kNoIndex;
        if (k == kNoIndex) return;
        if (!best.valid() || c.start[k] > bestStart) { best = {ti, k}; bestStart = c.start[k]; }
    };
    consider(end.track);
    if (end.track < overflowLanes_.size())
        for (TrackIndex ti : overflowLanes_[end.track]) consider(ti);
    return best;
}

void TraceBuilder::resolveFlows(const std::vector<std::vector<SliceRef>>& idMaps,
                                const std::vector<std::vector<uint32_t>>& parents) {
    size_t dropped = 0;
    overflowLanes_.assign(trace_->tracks.size(), {});
    for (TrackIndex ti = 0; ti < trace_->tracks.size(); ++ti)
        if (trace_->tracks[ti].overflowOf != kNoIndex) overflowLanes_[trace_->tracks[ti].overflowOf].push_back(ti);
    trace_->flows.reserve(flows_.size());
    for (const PendingFlow& f : flows_) {
        SliceRef from = resolve(f.from, idMaps, parents);
        SliceRef to = resolve(f.to, idMaps, parents);
        if (!from.valid() || !to.valid() || from == to) {
            ++dropped;
            continue;
        }
        trace_->flows.push_back({from, to, f.kind});
    }
    if (dropped)
        trace_->warnings.push_back(
            ImportWarning::events(WarningKind::DroppedEvents, dropped, "flow arrow(s) dropped: no slice to bind to"));
    flows_.clear();
    flows_.shrink_to_fit();
    overflowLanes_ = {};

    flowKindIndex_ = {};
    // Sorted by source: flowsFrom() is a binary search on `flows` itself, no index needed.
    // Stable, so arrows of one source keep the importer's order.
    std::stable_sort(trace_->flows.begin(), trace_->flows.end(), [](const Flow& a, const Flow& b) {
        return a.from.track != b.from.track ? a.from.track < b.from.track : a.from.index < b.from.index;
    });
    // Dropped arrows leave reserved room: give it back (the trace is resident for the session).
    trace_->flows.shrink_to_fit();
    trace_->flowKinds.shrink_to_fit();
}

void TraceBuilder::orderProcessesAndTracks() {
    Trace& tr = *trace_;
    auto kindRank = [](TrackKind k) {
        switch (k) {
        case TrackKind::Markers: return 0;
        case TrackKind::Counter: return 1;
        case TrackKind::Thread: return 2;
        case TrackKind::Async: return 3;
        }
        return 4;
    };
    for (Process& p : tr.processes) {
        // Overflow lanes follow their track; order the others.
        std::vector<TrackIndex> main;
        for (TrackIndex t : p.tracks)
            if (tr.tracks[t].overflowOf == kNoIndex) main.push_back(t);
        std::stable_sort(main.begin(), main.end(), [&](TrackIndex a, TrackIndex b) {
            const Track& x = tr.tracks[a];
            const Track& y = tr.tracks[b];
            if (kindRank(x.kind) != kindRank(y.kind)) return kindRank(x.kind) < kindRank(y.kind);
            if (x.sortIndex != y.sortIndex) return x.sortIndex < y.sortIndex;
            if (x.tid != y.tid) return x.tid < y.tid;
            return x.name < y.name;
        });
        // Each track's overflow lanes, in their order in p.tracks (one pass: a process may
        // hold 100k+ tracks, so no scan of p.tracks per track).
        std::unordered_map<TrackIndex, std::vector<TrackIndex>> lanes;
        for (TrackIndex o : p.tracks)
            if (tr.tracks[o].overflowOf != kNoIndex) lanes[tr.tracks[o].overflowOf].push_back(o);
        std::vector<TrackIndex> ordered;
        ordered.reserve(p.tracks.size());
        for (TrackIndex t : main) {
            ordered.push_back(t);
            if (auto it = lanes.find(t); it != lanes.end())
                ordered.insert(ordered.end(), it->second.begin(), it->second.end());
        }
        p.tracks = std::move(ordered);
    }
    std::vector<uint32_t> order(tr.processes.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const Process& x = tr.processes[a];
        const Process& y = tr.processes[b];
        if (x.kind != y.kind) return x.kind < y.kind;
        if (x.sortIndex != y.sortIndex) return x.sortIndex < y.sortIndex;
        return x.pid < y.pid;
    });
    std::vector<Process> sorted;
    std::vector<uint32_t> newIndex(order.size());
    for (uint32_t k = 0; k < order.size(); ++k) {
        newIndex[order[k]] = k;
        sorted.push_back(std::move(tr.processes[order[k]]));
    }
    tr.processes = std::move(sorted);
    for (Track& t : tr.tracks) t.process = newIndex[t.process];
}

std::unique_ptr<Trace> TraceBuilder::finish(const std::atomic<bool>* cancel, unsigned threads) {
    Trace& tr = *trace_;
    const size_t trackCount = tr.tracks.size();

    if (clampedTimes_)
        tr.warnings.push_back(ImportWarning::events(
            WarningKind::AdjustedEvents, clampedTimes_,
            "event time(s) beyond +-" + std::to_string(kMaxTimeNs) +
                " ns (the range a span can be computed in; about the year 2096 as Unix time) clamped to it"));
    if (negativeDurations_)
        tr.warnings.push_back(ImportWarning::events(WarningKind::AdjustedEvents, negativeDurations_,
                                                    "slice(s) with a negative duration made 0 long"));

    // 1. Trace bounds in the importer's clock (unfinished slices excluded: they end at the trace end).
    bool any = false;
    TimeNs lo = 0, hi = 0;
    auto see = [&](TimeNs a, TimeNs b) {
        if (!any) { lo = a; hi = b; any = true; return; }
        lo = std::min(lo, a);
        hi = std::max(hi, b);
    };
    for (const Track& t : tr.tracks) {
        const SliceColumns& c = t.slices;
        for (size_t i = 0; i < c.size(); ++i)
            see(c.start[i], (c.depthAndFlags[i] & kSliceUnfinished) ? c.start[i] : c.end(i));
        for (TimeNs x : t.instants.time) see(x, x);
        for (TimeNs x : t.counter.time) see(x, x);
    }
    for (Track& t : tr.tracks) {
        SliceColumns& c = t.slices;
        for (size_t i = 0; i < c.size(); ++i)
            if (c.depthAndFlags[i] & kSliceUnfinished) c.duration.set(i, durationBetween(c.start[i], hi));
    }

    // 2. Per track: sort, nest / pack lanes, sort instants and counters.
    std::vector<std::vector<SliceRef>> idMaps(trackCount);
    std::vector<std::vector<uint32_t>> parents(trackCount);
    std::vector<size_t> bySize(trackCount);
    std::iota(bySize.begin(), bySize.end(), size_t(0));
    std::sort(bySize.begin(), bySize.end(),
              [&](size_t a, size_t b) { return tr.tracks[a].slices.size() > tr.tracks[b].slices.size(); });
    parallelFor(trackCount, threads, cancel, [&](size_t i) {
        const auto t = TrackIndex(bySize[i]);
        Track& track = tr.tracks[t];
        sortAndNest(t, trackNeedsIdMap_[t] ? &idMaps[t] : nullptr, &parents[t]);
        InstantColumns& in = track.instants;
        if (!std::is_sorted(in.time.begin(), in.time.end())) {
            std::vector<uint32_t> perm(in.size());
            std::iota(perm.begin(), perm.end(), 0u);
            std::stable_sort(perm.begin(), perm.end(), [&](uint32_t a, uint32_t b) { return in.time[a] < in.time[b]; });
            in.time.permute(perm);
            in.name.permute(perm);
            in.category.permute(perm);
            permute(in.args, perm);
        }
        CounterSeries& cs = track.counter;
        if (!std::is_sorted(cs.time.begin(), cs.time.end())) {
            std::vector<uint32_t> perm(cs.size());
            std::iota(perm.begin(), perm.end(), 0u);
            std::stable_sort(perm.begin(), perm.end(), [&](uint32_t a, uint32_t b) { return cs.time[a] < cs.time[b]; });
            permute(cs.time, perm);
            permute(cs.value, perm);
        }
    });
    if (cancel && cancel->load()) return nullptr;

    spillOverflow(idMaps, parents);
    size_t overflowTracks = 0;
    for (const Track& t : tr.tracks) overflowTracks += t.overflowOf != kNoIndex;
    if (overflowTracks) {
        size_t spilled = 0;
        for (const Track& t : tr.tracks)
            if (t.overflowOf != kNoIndex) spilled += t.slices.size();
        tr.warnings.push_back(ImportWarning::events(
            WarningKind::AdjustedEvents, spilled,
            "slice(s) partially overlap an enclosing slice on their thread: shown on " +
                std::to_string(overflowTracks) + " overflow lane(s)"));
    }

    resolveFlows(idMaps, parents);
    idMaps.clear();
    parents.clear();

    // 3. Rebase to the first event and trim capacity.
    tr.originNs = any ? lo : 0;
    tr.startNs = 0;
    tr.endNs = any ? durationBetween(lo, hi) : 0;
    if (unixNsOfZero_) tr.originUnixNs = plusSat(*unixNsOfZero_, tr.originNs);  // a file's base time may be any int64
    // A cut file: the trace ends where the last event read ends; what came later is missing.
    for (ImportWarning& w : tr.warnings)
        if (w.kind == WarningKind::Truncated && !w.lastEventNs) w.lastEventNs = tr.endNs;
    for (Track& t : tr.tracks) {
        // Times are clamped to +-kMaxTimeNs: the origin's negation does not overflow.
        t.slices.start.shift(-tr.originNs);
        t.instants.time.shift(-tr.originNs);
        for (TimeNs& x : t.counter.time) x -= tr.originNs;
        auto trim = [](auto& v) { v.shrink_to_fit(); };
        trim(t.slices.start); trim(t.slices.duration); trim(t.slices.name); trim(t.slices.category);
        trim(t.slices.args); trim(t.slices.depthAndFlags);
        trim(t.instants.time); trim(t.instants.name); trim(t.instants.category); trim(t.instants.args);
        trim(t.counter.time); trim(t.counter.value); trim(t.argBlob);
    }
    // 4. Args as templated entries, the tracks with the most args first.
    std::vector<size_t> byArgs(tr.tracks.size());
    std::iota(byArgs.begin(), byArgs.end(), size_t(0));
    std::sort(byArgs.begin(), byArgs.end(),
              [&](size_t a, size_t b) { return tr.tracks[a].argBlob.size() > tr.tracks[b].argBlob.size(); });
    parallelFor(byArgs.size(), threads, cancel, [&](size_t i) { compactArgs(tr.tracks[byArgs[i]]); });
    if (cancel && cancel->load()) return nullptr;
    orderProcessesAndTracks();
    return std::move(trace_);
}

}  // namespace tracescope
