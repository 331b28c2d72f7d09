#include "model/analysis/tf_data.h"

#include "model/analysis/step_set.h"

#include "model/analysis/analysis_progress.h"

#include "model/analysis/producer_notes.h"
#include "model/trace/arg_number.h"
#include "model/trace/args.h"
#include "model/trace/import_warning.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace tracescope {

namespace {

constexpr std::string_view kIteratorPrefix = "Iterator::";
// XProf's kDeviceInputPipelineSecondIterator: its parent is the root of a device pipeline.
constexpr std::string_view kDeviceSecondIterator = "Iterator::Prefetch::Generator";
// XProf visits at most this deep (a guard against cycles in damaged files).
constexpr int kMaxDepth = 100;

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// The async hand-off events of XProf's ConnectTfDataEvents, without their Produce/Consume suffix.
constexpr std::array<std::string_view, 6> kHandOffPrefixes = {"Prefetch",    "ParallelInterleave", "ParallelMap",
                                                              "MapAndBatch", "ParseExample",       "ParallelBatch"};

enum class HandOff : uint8_t { None, Produce, Consume };

HandOff handOffOf(std::string_view name) {
    for (std::string_view suffix : {std::string_view("Produce"), std::string_view("Consume")}) {
        if (name.size() <= suffix.size() || name.substr(name.size() - suffix.size()) != suffix) continue;
        const std::string_view stem = name.substr(0, name.size() - suffix.size());
        for (std::string_view p : kHandOffPrefixes)
            if (stem == p) return suffix == "Produce" ? HandOff::Produce : HandOff::Consume;
    }
    return HandOff::None;
}

// "Iterator::Root::Prefetch::Map" -> "Map".
std::string_view lastComponent(std::string_view longName) {
    const size_t p = longName.rfind("::");
    return p == std::string_view::npos ? longName : longName.substr(p + 2);
}

// "...::Interleave[1]::TFRecord" -> "TFRecord [1]": tells apart the iterators of an interleave's inputs.
std::string labelOf(std::string_view longName) {
    const std::string name(lastComponent(longName));
    const size_t p = longName.rfind("::");
    if (p == std::string_view::npos || p == 0 || longName[p - 1] != ']') return name;
    const size_t open = longName.rfind('[', p - 1);
    if (open == std::string_view::npos) return name;
    return name + " " + std::string(longName.substr(open, p - open));
}

// A root iterator's long name has exactly two components.
bool isRootName(std::string_view longName) {
    return startsWith(longName, kIteratorPrefix) &&
           longName.find("::", kIteratorPrefix.size()) == std::string_view::npos &&
           longName.size() > kIteratorPrefix.size();
}

// Ids are uint64 in TF 2.x (int64 in older files): kept as their 64-bit pattern.
bool argBits(const ArgValue& v, uint64_t& out) {
    if (v.type == ArgValue::Type::UInt) {
        out = v.u;
        return true;
    }
    if (v.type == ArgValue::Type::Int) {
        out = uint64_t(v.i);
        return true;
    }
    int64_t i = 0;
    if (v.type == ArgValue::Type::Double && v.toInt64(i)) {
        out = uint64_t(i);
        return true;
    }
    return false;
}

struct Keys {
    StringId id = kNoIndex, parentId = kNoIndex, elementId = kNoIndex;
};

// One tf.data event (an iterator or a hand-off) of the trace.
struct Node {
    SliceRef slice;
    TimeNs start = 0;
    TimeNs end = 0;
    std::string_view longName;  // iterators: the full name
    uint64_t id = 0, parentId = 0, elementId = 0;
    bool hasId = false, hasParent = false, hasElement = false;
    bool iterator = false;
    HandOff handOff = HandOff::None;
    uint32_t parent = kNoIndex;  // the enclosing tf.data node on its thread, if directly enclosing
    bool parentDirect = false;   // the enclosing slice is that node itself (not some other event)
    std::vector<uint32_t> children;  // iterator children (nested, then stitched)
};

struct Forest {
    std::vector<Node> nodes;
};

Forest buildForest(const ClassifiedTrace& ct, const Keys& keys) {
    const Trace& t = *ct.trace;
    Forest f;
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        const Track& tr = t.tracks[ti];
        if (tr.kind != TrackKind::Thread || ct.trackOnDevice[ti] || tr.slices.empty()) continue;
        const SliceColumns& c = tr.slices;
        std::vector<uint32_t> nodeOf;  // slice -> node, made when the track has tf.data events
        for (uint32_t i = 0; i < c.size(); ++i) {
            analysisTick();
            // Iterator events show "Iterator::<Dn>" (or their long name) as their name: only those
            // need the long_name lookup.
            const std::string_view shown = t.str(c.name[i]);
            const bool iterator = startsWith(shown, kIteratorPrefix);
            const HandOff h = iterator ? HandOff::None : handOffOf(shown);
            if (!iterator && h == HandOff::None) continue;
            const std::string_view full = iterator ? fullNameView(ct, {ti, i}) : shown;
            if (nodeOf.empty()) nodeOf.assign(c.size(), kNoIndex);
            Node n;
            n.slice = {ti, i};
            n.start = c.start[i];
            n.end = c.end(i);
            n.iterator = iterator;
            n.handOff = h;
            if (iterator) n.longName = full;
            ArgsReader r(tr.argsView(), c.args[i]);
            Arg a;
            while (r.next(a)) {
                a.value = numericArg(a.value, t.strings);  // XProf's trace JSON: stats as strings
                if (a.key == keys.id) n.hasId = argBits(a.value, n.id);
                else if (a.key == keys.parentId) n.hasParent = argBits(a.value, n.parentId);
                else if (a.key == keys.elementId) n.hasElement = argBits(a.value, n.elementId);
            }
            // The nearest enclosing tf.data event on this thread, and whether it is the direct parent.
            const uint32_t direct = ct.parents[ti][i];
            uint32_t p = direct;
            while (p != kNoIndex && nodeOf[p] == kNoIndex) p = ct.parents[ti][p];
            if (p != kNoIndex) {
                n.parent = nodeOf[p];
                n.parentDirect = p == direct;
            }
            nodeOf[i] = uint32_t(f.nodes.size());
            f.nodes.push_back(std::move(n));
        }
    }
    // Intra-thread: an iterator event nested directly in an iterator event is its child.
    std::vector<uint32_t> firstIteratorOfProduce(f.nodes.size(), kNoIndex);
    for (uint32_t k = 0; k < f.nodes.size(); ++k) {
        const Node& n = f.nodes[k];
        if (!n.iterator || n.parent == kNoIndex || !n.parentDirect) continue;
        Node& p = f.nodes[n.parent];
        if (p.iterator) p.children.push_back(k);
        else if (p.handOff == HandOff::Produce && firstIteratorOfProduce[n.parent] == kNoIndex)
            firstIteratorOfProduce[n.parent] = k;  // nodes are in start order on a track
    }
    // Producer iterators by (process, their parent_id, element_id); each attaches to one consumer.
    // Per process: ids and element ids of different hosts are unrelated.
    auto processOf = [&](const Node& n) { return t.tracks[n.slice.track].process; };
    std::map<std::tuple<ProcessIndex, uint64_t, uint64_t>, std::vector<uint32_t>> producers;
    for (uint32_t k = 0; k < f.nodes.size(); ++k) {
        const Node& n = f.nodes[k];
        if (n.handOff != HandOff::Produce || !n.hasElement || firstIteratorOfProduce[k] == kNoIndex) continue;
        const Node& it = f.nodes[firstIteratorOfProduce[k]];
        if (!it.hasParent) continue;
        producers[{processOf(n), it.parentId, n.elementId}].push_back(firstIteratorOfProduce[k]);
    }
    if (producers.empty()) return f;
    for (uint32_t k = 0; k < f.nodes.size(); ++k) {
        const Node& n = f.nodes[k];
        if (n.handOff != HandOff::Consume || !n.hasElement || n.parent == kNoIndex || !n.parentDirect) continue;
        Node& consumer = f.nodes[n.parent];
        if (!consumer.iterator || !consumer.hasId) continue;
        auto it = producers.find({processOf(n), consumer.id, n.elementId});
        if (it == producers.end()) continue;
        for (uint32_t p : it->second) consumer.children.push_back(p);
        producers.erase(it);
    }
    return f;
}

TimeNs overlap(TimeNs a0, TimeNs a1, TimeNs b0, TimeNs b1) {
    const TimeNs lo = std::max(a0, b0), hi = std::min(a1, b1);
    return durationBetween(lo, hi);
}

struct CallBuilder {
    const Forest& forest;
    TfDataCall& call;
    std::unordered_map<uint64_t, size_t> statOf;
    std::vector<uint32_t> visited;  // node indices, for the event index and the metadata
    std::vector<TimeNs> visitedSelf;  // each visited event's self time

    void visit(uint32_t k, bool blocking, int level) {
        if (level > kMaxDepth) return;
        const Node& n = forest.nodes[k];
        if (!n.hasId) return;
        auto [pos, inserted] = statOf.try_emplace(n.id, call.iterators.size());
        if (inserted) {
            TfDataIteratorStat s;
            s.id = n.id;
            s.startNs = n.start;
            s.endNs = n.end;
            call.iterators.push_back(s);
        }
        const TimeNs duration = durationBetween(n.start, n.end);
        TimeNs self = duration;
        for (uint32_t c : n.children) {
            const Node& child = forest.nodes[c];
            const TimeNs o = overlap(n.start, n.end, child.start, child.end);
            visit(c, blocking && o > 0, level + 1);
            subSat(self, o);
        }
        TfDataIteratorStat& s = call.iterators[pos->second];
        s.startNs = std::min(s.startNs, n.start);
        s.endNs = std::max(s.endNs, n.end);
        addSat(s.totalNs, duration);
        addSat(s.selfNs, std::max<TimeNs>(self, 0));
        if (n.start < call.startNs) addSat(s.aheadNs, std::min(n.end, call.startNs) - n.start);
        ++s.calls;
        s.blocking = s.blocking || blocking;
        visited.push_back(k);
        visitedSelf.push_back(std::max<TimeNs>(self, 0));
    }
};

std::string durationText(TimeNs ns) { return formatWarningDuration(ns); }

std::string percentText(double p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", p);
    return buf;
}

}  // namespace

bool isAsyncIteratorName(std::string_view name) {
    // XProf's kAsyncIteratorNames (matched as prefixes, so versions such as ParallelMapV2 count).
    static constexpr std::array<std::string_view, 8> kAsync = {
        "Prefetch",    "ParallelInterleave", "ParallelMap",  "ParseExample",
        "MapAndBatch", "DataService",        "LegacyParallelInterleave", "ParallelBatch"};
    for (std::string_view a : kAsync)
        if (startsWith(name, a)) return true;
    return false;
}

const char* tfDataPipelineKindName(TfDataPipelineKind k) {
    return k == TfDataPipelineKind::Device ? "device" : "host";
}

const TfDataIteratorStat* TfDataCall::stat(uint64_t id) const {
    for (const auto& s : iterators)
        if (s.id == id) return &s;
    return nullptr;
}

const TfDataIterator* TfDataPipeline::iterator(uint64_t id) const {
    for (const auto& i : iterators)
        if (i.id == id) return &i;
    return nullptr;
}

const char* tfDataBottleneckCategoryName(TfDataBottleneckCategory c) {
    switch (c) {
        case TfDataBottleneckCategory::SlowSource: return "slow source";
        case TfDataBottleneckCategory::SlowDataService: return "slow tf.data service";
        case TfDataBottleneckCategory::SlowRemoteSource: return "slow remote source";
        case TfDataBottleneckCategory::TransformationWithParallelVersion: return "transformation with a parallel version";
        case TfDataBottleneckCategory::TransformationWithoutParallelVersion:
            return "transformation without a parallel version";
        case TfDataBottleneckCategory::Other: return "other";
    }
    return "other";
}

TfDataBottleneckCategory tfDataBottleneckCategory(std::string_view name) {
    using C = TfDataBottleneckCategory;
    // XProf's GetBottleneckType (tf_data_stats_utils.cc).
    static const std::map<std::string_view, C> kNames = {
        {"TFRecord", C::SlowSource},        {"SSTable", C::SlowSource},
        {"RecordIO", C::SlowSource},        {"Spanner", C::SlowSource},
        {"TFColumn", C::SlowSource},        {"SleepwalkRemoteDataset", C::SlowSource},
        {"TextLine", C::SlowSource},        {"StitchedTimelineDataset", C::SlowSource},
        {"DateKeyDataset", C::SlowSource},  {"CapacitorProto", C::SlowSource},
        {"LMDB", C::SlowSource},            {"ExternalDataset", C::SlowSource},
        {"PearModel", C::SlowSource},       {"FixedLengthRecordV2", C::SlowSource},
        {"FromTensor", C::SlowSource},      {"TensorSlice", C::SlowSource},
        {"Generator", C::SlowSource},       {"SyntheticDatasetOp", C::SlowSource},
        {"DataService", C::SlowDataService},
        {"GuzzlerDataGuzzlerRemoteDataset", C::SlowRemoteSource},
        {"ReverbDataset", C::SlowRemoteSource},
        {"DatasetSampleGame", C::SlowRemoteSource},
        {"Courier", C::SlowRemoteSource},   {"ReverbEpisodeDataset", C::SlowRemoteSource},
        {"Map", C::TransformationWithParallelVersion},
        {"Interleave", C::TransformationWithParallelVersion},
        {"Filter", C::TransformationWithoutParallelVersion},
        {"Batch", C::TransformationWithoutParallelVersion},
        {"Unbatch", C::TransformationWithoutParallelVersion},
    };
    if (auto it = kNames.find(name); it != kNames.end()) return it->second;
    // TF names later versions of a dataset "<Name>V2", "<Name>V3": XProf matches the exact name
    // only (so "BatchV2" was "other"); the version does not change the advice.
    size_t end = name.size();
    while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9') --end;
    if (end < name.size() && end > 1 && name[end - 1] == 'V') {
        if (auto it = kNames.find(name.substr(0, end - 1)); it != kNames.end()) return it->second;
    }
    return C::Other;
}

std::string tfDataSuggestion(std::string_view iteratorName) {
    const std::string n(iteratorName);
    switch (tfDataBottleneckCategory(iteratorName)) {
        case TfDataBottleneckCategory::SlowSource:
            return "The source " + n +
                   " is slow. Check that the host is close to the data (same region or data center), and read "
                   "in parallel: interleave several readers with num_parallel_calls, e.g. "
                   "files.interleave(tf.data.TFRecordDataset, num_parallel_calls=tf.data.AUTOTUNE).";
        case TfDataBottleneckCategory::SlowDataService:
            return "The tf.data service is slow: profile its workers to find their bottleneck.";
        case TfDataBottleneckCategory::SlowRemoteSource:
            return "The remote source " + n + " is slow: profile the host that serves it.";
        case TfDataBottleneckCategory::TransformationWithParallelVersion:
            return "Run the " + n + " in parallel: pass num_parallel_calls=tf.data.AUTOTUNE to it. If nothing "
                   "before it is random and its output fits in memory or on disk, cache its output with "
                   ".cache() after it.";
        case TfDataBottleneckCategory::TransformationWithoutParallelVersion:
            return n + " has no parallel version: parallelize around it, e.g. shard the input and interleave "
                   "copies of the pipeline (interleave(..., num_parallel_calls=tf.data.AUTOTUNE)). If nothing "
                   "before it is random, cache its output with .cache().";
        case TfDataBottleneckCategory::Other: break;
    }
    return "See the tf.data performance analysis guide "
           "(https://www.tensorflow.org/guide/data_performance_analysis) for how to speed up " + n + ".";
}

std::string tfDataNothingRecordedText() {
    return "No tf.data activity in this trace.\n\n"
           "This page needs tf.data's iterator events (Iterator::...), which TensorFlow records with its host\n"
           "tracer at level 2 or more. Profile the steps that read the dataset with\n"
           "    tf.profiler.experimental.start(logdir,\n"
           "        options=tf.profiler.experimental.ProfilerOptions(host_tracer_level=2))\n"
           "or capture from the program's profiler server with host tracer level 2,\n"
           "for long enough to see several steps.";
}

TfDataResult computeTfData(const Trace& trace, const StepOptions& stepOptions) {
    return computeTfData(classifyTrace(trace), stepOptions);
}

TfDataResult computeTfData(const ClassifiedTrace& ct, const StepOptions& stepOptions) {
    const Trace& t = *ct.trace;
    TfDataResult res;
    Keys keys;
    keys.id = t.strings.find("id");
    keys.parentId = t.strings.find("parent_id");
    keys.elementId = t.strings.find("element_id");
    const Forest forest = buildForest(ct, keys);
    {
        TfDataEventFacts facts;
        for (const Node& n : forest.nodes) {
            if (n.iterator) {
                ++facts.iteratorEvents;
                facts.asyncIterators = facts.asyncIterators || isAsyncIteratorName(lastComponent(n.longName));
            } else if (n.handOff != HandOff::None) {
                ++facts.handOffEvents;
            }
        }
        res.notes = tfDataNotes(ct, facts);
    }

    // Roots by (process, iterator id), in the order found; device roots.
    std::map<std::pair<ProcessIndex, uint64_t>, size_t> pipelineOf;
    std::vector<std::vector<uint32_t>> rootsOf;
    std::map<std::pair<ProcessIndex, uint64_t>, bool> deviceRoots;
    for (uint32_t k = 0; k < forest.nodes.size(); ++k) {
        const Node& n = forest.nodes[k];
        if (!n.iterator) continue;
        const ProcessIndex proc = t.tracks[n.slice.track].process;
        if (n.hasParent && n.longName == kDeviceSecondIterator) deviceRoots[{proc, n.parentId}] = true;
        if (!n.hasId || !isRootName(n.longName)) continue;
        auto [it, inserted] = pipelineOf.try_emplace({proc, n.id}, res.pipelines.size());
        if (inserted) {
            TfDataPipeline p;
            p.process = proc;
            p.rootId = n.id;
            if (proc < t.processes.size()) {
                const Process& pr = t.processes[proc];
                // XProf's trace JSON names a process "<hostname> <plane>": the host is the first part.
                const std::string_view jsonHost = ct.isXSpace ? xprofHostName(pr.name) : std::string_view();
                p.host = !pr.host.empty() ? pr.host : !jsonHost.empty() ? std::string(jsonHost) : pr.name;
            }
            res.pipelines.push_back(std::move(p));
            rootsOf.emplace_back();
        }
        rootsOf[it->second].push_back(k);
    }
    // Keep pipelines grouped by process (host) in trace order, numbered per host and kind.
    std::vector<size_t> order(res.pipelines.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return res.pipelines[a].process < res.pipelines[b].process; });
    {
        std::vector<TfDataPipeline> sorted;
        std::vector<std::vector<uint32_t>> sortedRoots;
        for (size_t i : order) {
            sorted.push_back(std::move(res.pipelines[i]));
            sortedRoots.push_back(std::move(rootsOf[i]));
        }
        res.pipelines = std::move(sorted);
        rootsOf = std::move(sortedRoots);
    }
    std::map<std::pair<ProcessIndex, TfDataPipelineKind>, int> counter;
    for (TfDataPipeline& p : res.pipelines) {
        p.kind = deviceRoots.count({p.process, p.rootId}) ? TfDataPipelineKind::Device : TfDataPipelineKind::Host;
        const int k = counter[{p.process, p.kind}]++;
        p.name = std::string(p.kind == TfDataPipelineKind::Device ? "Device:" : "Host:") + std::to_string(k);
    }

    // Calls.
    for (size_t pi = 0; pi < res.pipelines.size(); ++pi) {
        TfDataPipeline& p = res.pipelines[pi];
        // Each call with the events it visited and their self times.
        std::vector<std::pair<TfDataCall, std::pair<std::vector<uint32_t>, std::vector<TimeNs>>>> calls;
        for (uint32_t root : rootsOf[pi]) {
            TfDataCall call;
            const Node& n = forest.nodes[root];
            call.root = n.slice;
            call.startNs = n.start;
            call.durationNs = n.end - n.start;
            CallBuilder b{forest, call, {}, {}, {}};
            b.visit(root, true, 0);
            bool have = false;
            for (const TfDataIteratorStat& s : call.iterators) {
                if (!s.blocking || (have && s.selfNs <= call.bottleneckSelfNs)) continue;
                have = true;
                call.bottleneckId = s.id;
                call.bottleneckSelfNs = s.selfNs;
            }
            calls.emplace_back(std::move(call), std::make_pair(std::move(b.visited), std::move(b.visitedSelf)));
        }
        std::stable_sort(calls.begin(), calls.end(), [](const auto& a, const auto& b) {
            return a.first.durationNs != b.first.durationNs ? a.first.durationNs > b.first.durationNs
                                                            : a.first.startNs < b.first.startNs;
        });
        double sum = 0;
        for (size_t ci = 0; ci < calls.size(); ++ci) {
            TfDataCall& call = calls[ci].first;
            sum += double(call.durationNs);
            if (call.durationNs > kTfDataSlowCallNs) ++p.slowCalls;
            const auto& [visited, visitedSelf] = calls[ci].second;
            for (size_t vi = 0; vi < visited.size(); ++vi) {
                const Node& n = forest.nodes[visited[vi]];
                res.events.push_back({n.slice, uint32_t(pi), uint32_t(ci), n.id, visitedSelf[vi]});
                if (p.iterator(n.id)) continue;
                TfDataIterator it;
                it.id = n.id;
                it.hasParent = n.hasParent && n.id != p.rootId;
                it.parentId = it.hasParent ? n.parentId : 0;
                it.longName = std::string(n.longName);
                it.name = std::string(lastComponent(n.longName));
                it.label = labelOf(n.longName);
                it.isAsync = isAsyncIteratorName(it.name);
                p.iterators.push_back(std::move(it));
            }
            p.calls.push_back(std::move(call));
        }
        if (!p.calls.empty()) {
            p.maxNs = p.calls.front().durationNs;
            p.minNs = p.calls.back().durationNs;
            p.avgNs = sum / double(p.calls.size());
        }
        // Root first, then the others in the order found.
        std::stable_partition(p.iterators.begin(), p.iterators.end(),
                              [&](const TfDataIterator& i) { return i.id == p.rootId; });
    }
    std::stable_sort(res.events.begin(), res.events.end(), [](const TfDataEventRef& a, const TfDataEventRef& b) {
        return a.slice.track != b.slice.track ? a.slice.track < b.slice.track : a.slice.index < b.slice.index;
    });
    // An event reached twice (only through damaged links) is listed once, where it was first counted.
    res.events.erase(std::unique(res.events.begin(), res.events.end(),
                                 [](const TfDataEventRef& a, const TfDataEventRef& b) { return a.slice == b.slice; }),
                     res.events.end());

    // Bottleneck rows: host pipelines; device ones only when no host pipeline was found.
    bool anyHost = false;
    for (const auto& p : res.pipelines) anyHost = anyHost || (p.kind == TfDataPipelineKind::Host && !p.calls.empty());
    for (size_t pi = 0; pi < res.pipelines.size(); ++pi) {
        const TfDataPipeline& p = res.pipelines[pi];
        if (p.calls.empty() || (anyHost && p.kind != TfDataPipelineKind::Host)) continue;
        const TfDataCall& slowest = p.calls.front();
        TfDataBottleneck b;
        b.pipeline = pi;
        b.host = p.host;
        b.pipelineName = p.name;
        b.maxLatencyNs = p.maxNs;
        b.iteratorId = slowest.bottleneckId;
        if (const TfDataIterator* it = p.iterator(slowest.bottleneckId)) {
            b.iteratorName = it->name;
            b.iteratorLongName = it->longName;
        }
        b.iteratorLatencyNs = slowest.bottleneckSelfNs;
        b.category = tfDataBottleneckCategory(b.iteratorName);
        b.suggestion = tfDataSuggestion(b.iteratorName);
        // XProf files a device pipeline's Generator under "slow source" by its name, but that
        // Generator is the hand-over from the host pipeline (a MultiDeviceIterator), not a source.
        if (p.kind == TfDataPipelineKind::Device && b.iteratorLongName == kDeviceSecondIterator)
            b.suggestion = "The per-device prefetch waited for the host input pipeline that feeds it (through "
                           "Iterator::Prefetch::Generator): speed up that pipeline. Profile with host tracer level 2 "
                           "while the host pipeline runs to see its own iterators.";
        res.bottlenecks.push_back(std::move(b));
    }
    std::stable_sort(res.bottlenecks.begin(), res.bottlenecks.end(),
                     [](const TfDataBottleneck& a, const TfDataBottleneck& b) { return a.maxLatencyNs > b.maxLatencyNs; });

    // Summary, joined with the step-time breakdown.
    TfDataSummary& s = res.summary;
    const StepsResult steps = findSteps(ct, stepOptions);
    const std::vector<StepBreakdown> breakdown = breakdownSteps(ct, steps);
    const StepSet set = chooseStepSet(ct, breakdown, stepOptions.allSteps);
    const auto categories = summarizeBreakdown(breakdown, set);
    s.steps = breakdown.size();
    s.stepSet = set.description;
    s.stepInputPercent = categories[size_t(StepCategory::Input)].percentOfStep;
    s.stepVerdict = classifyInputBound(s.stepInputPercent, categories[size_t(StepCategory::Other)].percentOfStep,
                                       set.count > 0);
    const std::string stepText =
        breakdown.empty()
            ? " No step marker was found, so how long the device waited for input per step is not known."
            : " The step-time breakdown says the program is " + std::string(inputBoundName(s.stepVerdict)) + ": " +
                  percentText(s.stepInputPercent) + " of the step time is spent waiting for input (over " +
                  set.description + ").";
    if (res.bottlenecks.empty()) {
        s.text = tfDataNothingRecordedText();
        return res;
    }
    s.hasTfData = true;
    s.deviceOnly = !anyHost;
    s.worstBottleneck = 0;
    const TfDataBottleneck& w = res.bottlenecks.front();
    s.slowPipeline = w.maxLatencyNs > kTfDataSlowCallNs;
    const std::string which = (s.deviceOnly ? "device input pipeline " : "input pipeline ") + w.pipelineName +
                              " on " + (w.host.empty() ? std::string("this host") : w.host);
    if (s.slowPipeline) {
        s.text = "A tf.data " + which + " is slower than 50 µs: its slowest call took " +
                 durationText(w.maxLatencyNs) + ". Its bottleneck is " + w.iteratorName + " (" + w.iteratorLongName +
                 "), with " + durationText(w.iteratorLatencyNs) + " of self time on the critical path.";
        s.suggestion = w.suggestion;
    } else {
        s.text = "No tf.data input pipeline is slower than 50 µs (the slowest call, of " + which + ", took " +
                 durationText(w.maxLatencyNs) +
                 "). The program could still be input-bound on workers this profile did not capture.";
    }
    if (s.deviceOnly)
        s.text += " Only device input pipelines (a distribution strategy's per-device prefetch) were recorded: "
                  "their latency is how long the device-side prefetch waited for the host pipeline, whose own "
                  "iterators are not in the profile.";
    s.text += stepText;
    return res;
}

std::vector<SliceRef> tfDataEventsOf(const TfDataResult& r, size_t pipeline, size_t call, uint64_t iteratorId) {
    std::vector<SliceRef> out;
    for (const TfDataEventRef& e : r.events)
        if (e.pipeline == pipeline && e.call == call && e.iteratorId == iteratorId) out.push_back(e.slice);
    return out;
}

std::vector<TfDataEventRef> tfDataCallEvents(const Trace& trace, const TfDataResult& r, size_t pipeline, size_t call,
                                             uint64_t iteratorId) {
    std::vector<TfDataEventRef> out;
    for (const TfDataEventRef& e : r.events)
        if (e.pipeline == pipeline && e.call == call && e.iteratorId == iteratorId) out.push_back(e);
    auto startOf = [&](const TfDataEventRef& e) { return trace.tracks[e.slice.track].slices.start[e.slice.index]; };
    std::stable_sort(out.begin(), out.end(), [&](const TfDataEventRef& a, const TfDataEventRef& b) {
        return startOf(a) != startOf(b) ? startOf(a) < startOf(b) : a.slice.track < b.slice.track;
    });
    return out;
}

const TfDataEventRef* tfDataEventAt(const TfDataResult& r, SliceRef slice) {
    auto it = std::lower_bound(r.events.begin(), r.events.end(), slice, [](const TfDataEventRef& e, SliceRef s) {
        return e.slice.track != s.track ? e.slice.track < s.track : e.slice.index < s.index;
    });
    if (it == r.events.end() || !(it->slice == slice)) return nullptr;
    return &*it;
}

}  // namespace tracescope
