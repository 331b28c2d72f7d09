#include "model/analysis/collectives.h"

#include "model/analysis/analysis_progress.h"
#include "model/analysis/collective_shapes.h"
#include "model/analysis/cuda_api_summary.h"
#include "model/analysis/steps.h"
#include "model/trace/job_identity.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

namespace tracescope {

namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

// What the host op or kernel says about its call (the record_param_comms args).
struct Metadata {
    std::string kind, group, ranks, dtype;
    int64_t groupSize = 0, inNelems = -1, outNelems = -1;
    std::optional<int64_t> seq;
};

bool readMetadata(const Trace& t, SliceRef s, Metadata& m) {
    m.kind = sliceArgText(t, s, "Collective name");
    if (m.kind.empty()) return false;
    m.group = sliceArgText(t, s, "Process Group Name");
    if (m.group.empty()) m.group = sliceArgText(t, s, "Process Group ID");
    m.ranks = sliceArgText(t, s, "Process Group Ranks");
    m.dtype = sliceArgText(t, s, "dtype");
    int64_t v = 0;
    if (sliceArgInt(t, s, "Group size", v)) m.groupSize = v;
    if (sliceArgInt(t, s, "In msg nelems", v)) m.inNelems = v;
    if (sliceArgInt(t, s, "Out msg nelems", v)) m.outNelems = v;
    if (sliceArgInt(t, s, "Seq", v)) m.seq = v;
    return true;
}

// Kineto's names for what the c10d ops and the annotations call by other names.
std::string normalizedKind(std::string k) {
    if (k == "alltoall_base" || k == "alltoall") return "all_to_all";
    for (auto [from, to] : {std::pair{"all_reduce", "allreduce"}, std::pair{"all_gather", "allgather"}})
        if (const size_t at = k.find(from); at != std::string::npos) k.replace(at, std::string_view(from).size(), to);
    return k;
}

// The collective a kind names, whatever the variant ("_allgather_base", "allgather_into_tensor_coalesced"
// and gloo's "all_gather" are all "allgather"): how a call and gloo's run of it are paired.
std::string kindFamily(std::string_view kind) {
    while (!kind.empty() && kind.front() == '_') kind.remove_prefix(1);
    for (std::string_view f : {"allreduce", "allgather", "reduce_scatter"})
        if (contains(kind, f)) return std::string(f);
    if (contains(kind, "all_to_all") || contains(kind, "alltoall")) return "all_to_all";
    if (kind.size() > 5 && kind.substr(kind.size() - 5) == "_base") kind.remove_suffix(5);
    return std::string(kind);
}

// What a host slice of a call is, its kinds in order of preference (Metadata first).
enum class HostRole : uint8_t { None, Metadata, Op, Annotation };

// Whether a host slice is (part of) a collective call, and what it says.
HostRole hostRoleOf(const Trace& t, SliceRef s, std::string_view name, Metadata& meta) {
    if (name == "record_param_comms") {
        if (!readMetadata(t, s, meta) || meta.kind == "wait") return HostRole::None;
        return HostRole::Metadata;
    }
    if (contains(name, "wait")) return HostRole::None;  // c10d::wait, a work's wait: no call
    if (startsWith(name, "c10d::")) {
        std::string k(name.substr(6));
        while (!k.empty() && k.back() == '_') k.pop_back();
        meta.kind = normalizedKind(std::move(k));
        return meta.kind.empty() ? HostRole::None : HostRole::Op;
    }
    if (startsWith(name, "nccl:") || startsWith(name, "gloo:")) {
        meta.kind = normalizedKind(std::string(name.substr(5)));
        return meta.kind.empty() ? HostRole::None : HostRole::Annotation;
    }
    return HostRole::None;
}

// The kind an NCCL kernel's name tells ("ncclDevKernel_AllGather_RING_LL" -> "allgather").
std::string kindFromKernelName(std::string_view name) {
    for (auto [word, kind] : {std::pair{"AllReduce", "allreduce"}, std::pair{"AllGather", "allgather"},
                              std::pair{"ReduceScatter", "reduce_scatter"}, std::pair{"Broadcast", "broadcast"},
                              std::pair{"SendRecv", "sendrecv"}, std::pair{"Reduce", "reduce"}})
        if (contains(name, word)) return kind;
    return "unknown";
}

int64_t countRanks(std::string_view ranks) {
    int64_t n = 0;
    bool inNumber = false;
    for (char c : ranks) {
        const bool digit = std::isdigit(static_cast<unsigned char>(c));
        if (digit && !inNumber) ++n;
        inNumber = digit;
    }
    return n;
}

void applyMetadata(CollectiveCall& c, const Metadata& m) {
    c.kind = m.kind;
    c.kindSource = "metadata";
    c.group = m.group;
    c.groupRanks = m.ranks;
    c.groupSize = m.groupSize > 0 ? m.groupSize : countRanks(m.ranks);
    c.dtype = m.dtype;
    c.inNelems = m.inNelems;
    c.outNelems = m.outNelems;
    c.seq = m.seq;
}

}  // namespace

const char* collectiveTimeSourceName(CollectiveTimeSource s) {
    switch (s) {
        case CollectiveTimeSource::Kernel: return "kernel";
        case CollectiveTimeSource::Worker: return "gloo worker";
        case CollectiveTimeSource::Host: return "host";
    }
    return "host";
}

int dtypeBytes(std::string_view d) {
    static const std::map<std::string_view, int> sizes = {
        {"Float", 4},         {"Double", 8},       {"Half", 2},           {"BFloat16", 2},      {"Int", 4},
        {"Long", 8},          {"Short", 2},        {"Char", 1},           {"Byte", 1},          {"Bool", 1},
        {"ComplexHalf", 4},   {"ComplexFloat", 8}, {"ComplexDouble", 16}, {"UInt16", 2},        {"UInt32", 4},
        {"UInt64", 8},        {"QInt8", 1},        {"QUInt8", 1},         {"QInt32", 4},        {"QUInt4x2", 1},
        {"Float8_e4m3fn", 1}, {"Float8_e5m2", 1},  {"Float8_e4m3fnuz", 1}, {"Float8_e5m2fnuz", 1}, {"Float8_e8m0fnu", 1}};
    const auto it = sizes.find(d);
    return it == sizes.end() ? 0 : it->second;
}

void sizeCollective(CollectiveCall& c) {
    c.sizeBytes = -1;
    c.busFactor = 0;
    c.busFactorKnown = false;
    const int elem = dtypeBytes(c.dtype);
    const std::string& k = c.kind;
    const int64_t n = c.groupSize;
    int64_t nelems = -1;
    double factor = -1;  // of n; computed below when n is known
    enum { AllReduce, NMinusOne, One, None } family = None;
    if (contains(k, "allreduce")) family = AllReduce, nelems = c.inNelems;
    else if (contains(k, "allgather")) family = NMinusOne, nelems = c.outNelems;
    else if (contains(k, "reduce_scatter")) family = NMinusOne, nelems = c.inNelems;
    else if (contains(k, "all_to_all") || contains(k, "alltoall")) family = NMinusOne, nelems = c.inNelems;
    else if (k == "broadcast" || k == "reduce") family = One, nelems = c.inNelems;
    else if (k == "send" || k == "recv" || k == "sendrecv")
        family = One, nelems = c.inNelems >= 0 ? c.inNelems : c.outNelems;
    if (family == None) return;
    if (elem > 0 && nelems >= 0 && nelems <= std::numeric_limits<int64_t>::max() / elem) c.sizeBytes = nelems * elem;
    if (family == One) factor = 1;
    else if (n >= 1) factor = family == AllReduce ? 2.0 * double(n - 1) / double(n) : double(n - 1) / double(n);
    if (factor >= 0) {
        c.busFactor = factor;
        c.busFactorKnown = true;
    }
}

std::vector<CollectiveSummaryRow> summarizeCollectiveCalls(const std::vector<CollectiveCall>& calls) {
    std::vector<CollectiveSummaryRow> summary;
    struct Repeats {
        std::vector<int64_t> times;
        double busFactor = 0;  // the same for every call of one kind and group size
        bool busFactorKnown = false;
    };
    std::map<std::tuple<std::string, int64_t, std::string, int64_t, int>, Repeats> groups;
    for (const CollectiveCall& c : calls) {
        Repeats& g = groups[{c.kind, c.sizeBytes, c.group, c.groupSize, int(c.timeSource)}];
        g.times.push_back(c.durationNs);
        g.busFactor = c.busFactor;
        g.busFactorKnown = c.busFactorKnown;
    }
    for (auto& [key, g] : groups) {
        CollectiveSummaryRow r;
        std::tie(r.kind, r.sizeBytes, r.group, r.groupSize, std::ignore) = key;
        r.timeSource = CollectiveTimeSource(std::get<4>(key));
        const ValueStats s = valueStatsOf(g.times);  // sorts
        r.count = s.count;
        r.totalNs = s.total;
        r.medianNs = s.median;
        r.p90Ns = linearQuantile(g.times, 90, 100);
        if (r.sizeBytes >= 0 && r.medianNs > 0 && r.timeSource != CollectiveTimeSource::Host) {
            r.algbwBytesPerS = double(r.sizeBytes) * 1e9 / double(r.medianNs);
            if (g.busFactorKnown) r.busbwBytesPerS = r.algbwBytesPerS * g.busFactor;
        }
        summary.push_back(std::move(r));
    }
    std::stable_sort(summary.begin(), summary.end(),
                     [](const CollectiveSummaryRow& a, const CollectiveSummaryRow& b) { return a.totalNs > b.totalNs; });
    return summary;
}

namespace {

// What a gloo run or a c10d op's recorded shapes say of its call.
struct Shapes {
    std::string group;  // a gloo run's process group (its worker thread's); "" unknown
    std::string dtype;  // Kineto's name; "" unknown
    CallElements elems;
};

// A c10d op's shapes ("Input Dims", "Input type"; record_shapes=True).
Shapes opShapes(const Trace& t, SliceRef op, std::string_view kind) {
    Shapes s;
    const std::string dims = sliceArgText(t, op, "Input Dims");
    if (dims.empty()) return s;
    s.elems = c10dCallElements(kind, argumentElements(dims));
    // The input's element type: the 2nd argument of the (output, input) ops; a tensor list's
    // type is written as "TensorList", which says none.
    const std::string types = sliceArgText(t, op, "Input type");
    s.dtype = dtypeOfCppType(firstListString(types, 0));
    if (s.dtype.empty()) s.dtype = dtypeOfCppType(firstListString(types, 1));
    return s;
}

// A gloo run's shapes: the one tensor it works on.
Shapes runShapes(const Trace& t, SliceRef run, std::string_view kind) {
    Shapes s;
    const std::vector<int64_t> args = argumentElements(sliceArgText(t, run, "Input Dims"));
    const int64_t e = args.empty() ? -1 : args.front();
    s.elems.in = e;
    if (kind == "allreduce" || kind == "broadcast" || kind == "reduce" || kind == "all_to_all") s.elems.out = e;
    s.dtype = dtypeOfCppType(firstListString(sliceArgText(t, run, "Input type")));
    return s;
}

// The runs' families a call of a kind may be run as: its own, and for a tensor's reduce-scatter
// gloo's all-reduce of the whole input (ProcessGroupGloo's _reduce_scatter_base).
std::vector<std::string> runFamiliesOf(std::string_view kind) {
    std::vector<std::string> f{kindFamily(kind)};
    if (f.front() == "reduce_scatter") f.push_back("allreduce");
    return f;
}

void pairGlooRuns(const Trace& t, const DistributedInfo& dist, const std::vector<uint8_t>& workerRun,
                  CollectivesResult& out) {
    // gloo's worker threads: those its runs are on, and those named for it that ran nothing.
    std::vector<TrackIndex> workerTracks;
    for (size_t i = 0; i < out.calls.size(); ++i)
        if (workerRun[i] && out.calls[i].hostOp.valid() &&
            std::find(workerTracks.begin(), workerTracks.end(), out.calls[i].hostOp.track) == workerTracks.end())
            workerTracks.push_back(out.calls[i].hostOp.track);
    if (!workerTracks.empty())
        for (size_t ti = 0; ti < t.tracks.size(); ++ti)
            if (t.tracks[ti].process == t.tracks[workerTracks.front()].process &&
                contains(t.tracks[ti].name, "pt_gloo_runloop") &&
                std::find(workerTracks.begin(), workerTracks.end(), TrackIndex(ti)) == workerTracks.end())
                workerTracks.push_back(TrackIndex(ti));
    const std::map<TrackIndex, std::string> threadGroup = glooThreadGroups(t, workerTracks, dist);
    if (!threadGroup.empty()) out.glooGroupsFromThreads = true;

    // Runs and waiting calls, with their shapes.
    std::vector<Shapes> shapes(out.calls.size());
    std::map<std::string, std::vector<size_t>> runs;  // by family, in start order
    std::vector<size_t> waiting;
    for (size_t i = 0; i < out.calls.size(); ++i) {
        CollectiveCall& c = out.calls[i];
        if (workerRun[i]) {
            ++out.workerRuns;
            if (!c.kernels.empty()) continue;
            shapes[i] = runShapes(t, c.hostOp, c.kind);
            if (const auto g = threadGroup.find(c.hostOp.track); g != threadGroup.end()) shapes[i].group = g->second;
            runs[kindFamily(c.kind)].push_back(i);
        } else if (c.kernels.empty() && c.hostOp.valid()) {
            if (c.kindSource != "metadata") shapes[i] = opShapes(t, c.hostOp, c.kind);
            waiting.push_back(i);
        }
    }
    const auto byStart = [&](size_t a, size_t b) { return out.calls[a].hostStartNs < out.calls[b].hostStartNs; };
    std::stable_sort(waiting.begin(), waiting.end(), byStart);
    for (auto& [family, r] : runs) std::stable_sort(r.begin(), r.end(), byStart);

    // Each call takes the earliest unpaired run that started after it, of a family it may be run
    // as, of its group and of its element count where both are known: gloo's queue of a group is
    // first in, first out. Runs that started before a call can be no later call's either.
    const auto fits = [&](size_t call, size_t run) {
        const CollectiveCall& c = out.calls[call];
        const std::string& group = c.group.empty() ? shapes[call].group : c.group;
        if (!group.empty() && !shapes[run].group.empty() && group != shapes[run].group) return false;
        const int64_t want = c.kindSource == "metadata" ? c.inNelems : shapes[call].elems.in;
        return want < 0 || shapes[run].elems.in < 0 || want == shapes[run].elems.in;
    };
    constexpr size_t kLookAhead = 64;  // runs of other groups or sizes passed over, at most
    std::vector<uint8_t> paired(out.calls.size(), 0);
    std::map<std::string, size_t> head;
    for (size_t call : waiting) {
        CollectiveCall& c = out.calls[call];
        size_t best = SIZE_MAX;
        for (const std::string& family : runFamiliesOf(c.kind)) {
            const auto it = runs.find(family);
            if (it == runs.end()) continue;
            const std::vector<size_t>& r = it->second;
            size_t& h = head[family];
            while (h < r.size() && (paired[r[h]] || out.calls[r[h]].hostStartNs < c.hostStartNs)) ++h;
            for (size_t k = h, seen = 0; k < r.size() && seen < kLookAhead; ++k) {
                if (paired[r[k]]) continue;
                ++seen;
                if (!fits(call, r[k])) continue;
                if (best == SIZE_MAX || byStart(r[k], best)) best = r[k];
                break;
            }
        }
        if (best == SIZE_MAX) continue;
        paired[best] = 1;
        const CollectiveCall& run = out.calls[best];
        c.workerSlice = run.hostOp;
        c.timeSource = CollectiveTimeSource::Worker;
        c.startNs = run.hostStartNs;
        c.durationNs = run.durationNs;
        if (c.group.empty()) c.group = shapes[best].group;
        if (c.kindSource != "metadata") {
            if (shapes[call].dtype.empty()) shapes[call].dtype = shapes[best].dtype;
            if (shapes[call].elems.in < 0) shapes[call].elems.in = shapes[best].elems.in;
        }
    }

    // The calls' sizes from their shapes where there is no metadata; unpaired runs are calls of
    // their own.
    size_t kept = 0;
    for (size_t i = 0; i < out.calls.size(); ++i) {
        if (paired[i]) continue;
        CollectiveCall& c = out.calls[i];
        if (workerRun[i] && c.kernels.empty()) {
            ++out.workerRunsWithoutCall;
            c.workerSlice = c.hostOp;
            c.timeSource = CollectiveTimeSource::Worker;
            c.group = shapes[i].group;
        }
        if (c.kindSource != "metadata" && (shapes[i].elems.in >= 0 || shapes[i].elems.out >= 0) &&
            !shapes[i].dtype.empty()) {
            c.dtype = shapes[i].dtype;
            c.inNelems = shapes[i].elems.in;
            c.outNelems = shapes[i].elems.out;
            ++out.withShapes;
        }
        if (kept != i) out.calls[kept] = std::move(out.calls[i]);
        ++kept;
    }
    out.calls.resize(kept);
}

std::optional<std::string> onlyGroupOf(const DistributedInfo& dist) {
    const std::vector<std::string> groups = groupsOfRank(dist);
    if (groups.size() == 1) return groups.front();
    return std::nullopt;
}

}  // namespace

CollectivesResult computeCollectives(const ClassifiedTrace& ct) {
    const Trace& t = *ct.trace;
    CollectivesResult out;
    const DistributedInfo dist = distributedInfo(t);
    out.rank = dist.rank;
    out.worldSize = dist.worldSize;

    // 1. Host ops of collective calls; a call is the outermost of them on its thread.
    std::unordered_map<uint64_t, uint32_t> callOfHostSlice;  // (track << 32 | index) -> call
    auto keyOf = [](SliceRef s) { return (uint64_t(s.track) << 32) | s.index; };
    std::vector<HostRole> bestRole;  // per call: the role its kind came from
    std::vector<uint8_t> workerRun;  // per call: a gloo worker's run (its outermost op is "gloo:<kind>")
    for (size_t ti = 0; ti < t.tracks.size(); ++ti) {
        if (ct.trackSkipped[ti] || ct.trackOnDevice[ti]) continue;
        const SliceColumns& c = t.tracks[ti].slices;
        for (uint32_t i = 0; i < c.size(); ++i) {
            analysisTick();
            const std::string_view name = t.str(c.name[i]);
            const char first = name.empty() ? 0 : name[0];
            if (first != 'r' && first != 'c' && first != 'n' && first != 'g') continue;  // cheap filter
            const SliceRef s{static_cast<TrackIndex>(ti), i};
            Metadata meta;
            const HostRole role = hostRoleOf(t, s, name, meta);
            if (role == HostRole::None) continue;
            // Slices come in (start, depth) order on a track, so an enclosing op was seen first.
            uint32_t call = kNoIndex;
            for (uint32_t p = ct.parents[ti][i]; p != kNoIndex; p = ct.parents[ti][p])
                if (const auto it = callOfHostSlice.find(keyOf({s.track, p})); it != callOfHostSlice.end())
                    call = it->second;  // keep climbing: the outermost decides
            if (call == kNoIndex) {
                call = static_cast<uint32_t>(out.calls.size());
                CollectiveCall& nc = out.calls.emplace_back();
                nc.hostOp = s;
                nc.hostStartNs = nc.startNs = c.start[i];
                nc.durationNs = c.duration[i];
                bestRole.push_back(HostRole::None);
                workerRun.push_back(role == HostRole::Annotation && startsWith(name, "gloo:"));
            }
            callOfHostSlice.emplace(keyOf(s), call);
            CollectiveCall& cc = out.calls[call];
            HostRole& best = bestRole[call];
            // The kind's best source: the metadata, then the c10d op, then an annotation.
            if (role != HostRole::None && (best == HostRole::None || role < best)) {
                best = role;
                if (role == HostRole::Metadata) {
                    applyMetadata(cc, meta);
                    cc.metadataSlice = s;
                } else {
                    cc.kind = meta.kind;
                    cc.kindSource = role == HostRole::Op ? "op" : "annotation";
                }
            }
        }
    }

    // 2. Communication kernels: each joins the call its launch ran inside, or is a call of its own.
    for (size_t ti = 0; ti < t.tracks.size(); ++ti) {
        if (ct.trackSkipped[ti] || !ct.trackOnDevice[ti]) continue;
        const SliceColumns& c = t.tracks[ti].slices;
        for (uint32_t i = 0; i < c.size(); ++i) {
            analysisTick();
            if (ct.roles[ti][i] != SliceRole::Kernel) continue;
            const SliceRef k{static_cast<TrackIndex>(ti), i};
            if (!isCollectiveKernelName(fullNameView(ct, k))) continue;
            ++out.commKernels;
            uint32_t call = kNoIndex;
            if (const SliceRef launch = launchOf(ct, k); launch.valid()) {
                const auto& parents = ct.parents[launch.track];
                for (uint32_t p = parents[launch.index]; p != kNoIndex; p = parents[p])
                    if (const auto it = callOfHostSlice.find(keyOf({launch.track, p})); it != callOfHostSlice.end())
                        call = it->second;
            }
            Metadata meta;
            const bool kernelMeta = readMetadata(t, k, meta) && meta.kind != "wait";
            if (call == kNoIndex) {
                ++out.kernelsWithoutCall;
                call = static_cast<uint32_t>(out.calls.size());
                CollectiveCall& nc = out.calls.emplace_back();
                nc.hostStartNs = c.start[i];
                nc.kind = kindFromKernelName(fullNameView(ct, k));
                nc.kindSource = "kernel name";
                bestRole.push_back(HostRole::None);
                workerRun.push_back(0);
            }
            CollectiveCall& cc = out.calls[call];
            if (kernelMeta && bestRole[call] != HostRole::Metadata) {
                applyMetadata(cc, meta);
                cc.metadataSlice = k;
                bestRole[call] = HostRole::Metadata;
            }
            cc.kernels.push_back(k);
        }
    }

    // 3. gloo's worker runs time the calls they ran (pairGlooRuns).
    pairGlooRuns(t, dist, workerRun, out);

    // 4. Times, sizes and bandwidths. A call whose group the trace does not name is in the one
    // group the rank belongs to, where distributedInfo lists only one.
    const std::optional<std::string> onlyGroup = onlyGroupOf(dist);
    for (CollectiveCall& c : out.calls) {
        if (!c.kernels.empty()) {
            std::sort(c.kernels.begin(), c.kernels.end(), [&](SliceRef a, SliceRef b) {
                return t.tracks[a.track].slices.start[a.index] < t.tracks[b.track].slices.start[b.index];
            });
            c.timeSource = CollectiveTimeSource::Kernel;
            c.startNs = t.tracks[c.kernels.front().track].slices.start[c.kernels.front().index];
            c.durationNs = 0;
            for (SliceRef k : c.kernels) c.durationNs = plusSat(c.durationNs, t.tracks[k.track].slices.duration[k.index]);
        }
        if (c.group.empty() && onlyGroup) c.group = *onlyGroup;
        if (c.groupSize == 0 && !c.group.empty())
            if (const auto it = dist.groups.find(c.group); it != dist.groups.end() && it->second.size)
                c.groupSize = *it->second.size;
        // An all-gather's recorded shapes give its input only: the gathered total is n of them.
        if (c.kindSource != "metadata" && kindFamily(c.kind) == "allgather" && c.outNelems < 0 && c.inNelems >= 0 &&
            c.groupSize > 0 && c.inNelems <= std::numeric_limits<int64_t>::max() / c.groupSize)
            c.outNelems = c.inNelems * c.groupSize;
        sizeCollective(c);
        // A host op's time is the time to issue the call (NCCL and gloo run it elsewhere), not to
        // move the data: no bandwidth from it.
        if (c.sizeBytes >= 0 && c.durationNs > 0 && c.timeSource != CollectiveTimeSource::Host) {
            c.algbwBytesPerS = double(c.sizeBytes) * 1e9 / double(c.durationNs);
            if (c.busFactorKnown) c.busbwBytesPerS = c.algbwBytesPerS * c.busFactor;
        }
        if (c.kindSource == "metadata") ++out.withMetadata;
    }
    std::stable_sort(out.calls.begin(), out.calls.end(),
                     [](const CollectiveCall& a, const CollectiveCall& b) { return a.hostStartNs < b.hostStartNs; });

    // 5. Per (kind, size, group, time source): nccl-tests' view of repeated calls.
    out.summary = summarizeCollectiveCalls(out.calls);

    // 6. Communication/compute overlap, over the trace and per step.
    const KernelUnions kernels = kernelUnionsOf(ct);
    out.overlap = overlapIn(kernels, std::numeric_limits<TimeNs>::min(), std::numeric_limits<TimeNs>::max());
    for (const Step& s : findSteps(ct).steps) {
        StepOverlap so;
        so.step = s.number;
        so.startNs = s.startNs;
        so.durationNs = s.durationNs;
        so.overlap = overlapIn(kernels, s.startNs, s.endNs());
        out.steps.push_back(so);
    }

    // 7. What is missing, said once.
    if (out.calls.empty()) out.notes.push_back("the trace records no collective calls");
    else if (out.withMetadata == 0 && out.withShapes == 0)
        out.notes.push_back("the trace records no collective metadata (Kineto's record_param_comms args): no sizes, "
                            "process groups or bandwidths; times and kinds only");
    else if (out.withMetadata == 0)
        out.notes.push_back("the trace records no collective metadata (Kineto's record_param_comms args): sizes read "
                            "from the recorded input shapes of the c10d ops and gloo's runs (record_shapes)");
    if (out.glooGroupsFromThreads)
        out.notes.push_back("gloo runs' process groups told by their worker threads (two a group, made in the order "
                            "of distributedInfo's pg_config)");
    if (out.kernelsWithoutCall > 0)
        out.notes.push_back(std::to_string(out.kernelsWithoutCall) +
                            " communication kernels were launched outside any collective op: kinds read from the "
                            "kernel names");
    const bool anyHostTimed = std::any_of(out.calls.begin(), out.calls.end(), [](const CollectiveCall& c) {
        return c.timeSource == CollectiveTimeSource::Host;
    });
    if (anyHostTimed)
        out.notes.push_back("calls without a communication kernel or a gloo worker's run (a one-rank group, a "
                            "backend that records neither, or a kernel the trace does not join to its launch) are "
                            "timed by their host op, the time to issue them: no bandwidth for those");
    if (out.workerRunsWithoutCall > 0)
        out.notes.push_back(std::to_string(out.workerRunsWithoutCall) +
                            " gloo worker runs were paired with no call: calls of their own");
    return out;
}

}  // namespace tracescope
