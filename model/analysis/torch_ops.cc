#include "model/analysis/torch_ops.h"

#include "model/analysis/analysis_progress.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

namespace tracescope {

namespace {

bool isCpuSide(SliceRole r) {
    return r == SliceRole::HostOp || r == SliceRole::Runtime || r == SliceRole::UserAnnotation ||
           r == SliceRole::StepMarker;
}

bool isDeviceActivity(SliceRole r) {
    return r == SliceRole::Kernel || r == SliceRole::Memcpy || r == SliceRole::Memset;
}

// CPU side or device side is decided per event, by its role, not by the process it sits in:
// torch.profiler takes an event's device type from its Kineto activity type
// (deviceTypeFromActivity in torch/csrc/autograd/profiler_kineto.cpp: CPU_OP, USER_ANNOTATION,
// CUDA_RUNTIME, ... are CPU; CONCURRENT_KERNEL, GPU_MEMCPY, GPU_MEMSET are CUDA), and a Kineto
// trace's role comes from that activity type (its "cat"). So a cpu_op written on a pid that also
// holds kernels is still a CPU event. (Traces with device roles on device planes only, XSpace
// and TF1, have no torch table.)
bool usableTrack(const ClassifiedTrace& ct, TrackIndex ti) {
    return ct.trace->tracks[ti].kind == TrackKind::Thread && !ct.trackSkipped[ti];
}

// Which slices are events of the table, and the row key of each.
class EventKeys {
public:
    EventKeys(const ClassifiedTrace& ct, const TorchOpsOptions& o) : ct_(ct), t_(*ct.trace), o_(o) {
        inputDims_ = t_.strings.find("Input Dims");
        callStack_ = t_.strings.find("Call stack");
        pythonFunction_ = t_.strings.find("python_function");
        // torch.profiler drops these before it builds its tree (_filter_name in
        // torch/autograd/profiler.py): memory instants and the utility ops it does not observe.
        for (const char* n :
             {"[memory]", "[OutOfMemory]", "profiler::_record_function_enter", "profiler::_record_function_enter_new",
              "profiler::_record_function_exit", "aten::is_leaf", "aten::output_nr", "aten::_version"})
            if (const StringId id = t_.strings.find(n); id != kNoIndex) filtered_.push_back(id);
    }

    // A CPU-side event on a host thread.
    bool isCpuEvent(TrackIndex ti, uint32_t i) const {
        return usableTrack(ct_, ti) && isCpuSide(ct_.roles[ti][i]) &&
               std::find(filtered_.begin(), filtered_.end(), t_.tracks[ti].slices.name[i]) == filtered_.end();
    }
    // Whether two events have the same name as torch names them (ProfilerStep#N are all "ProfilerStep*").
    bool sameName(SliceRef a, SliceRef b) const {
        const StringId na = t_.tracks[a.track].slices.name[a.index], nb = t_.tracks[b.track].slices.name[b.index];
        if (na == nb) return true;
        return isProfilerStep(t_.str(na)) && isProfilerStep(t_.str(nb));
    }
    static bool isProfilerStep(std::string_view n) { return n.rfind("ProfilerStep#", 0) == 0; }
    // A Python frame (python_function, with_stack=True): a node of torch's event tree without a row.
    bool isPythonFrame(TrackIndex ti, uint32_t i) const {
        return pythonFunction_ != kNoIndex && t_.tracks[ti].slices.category[i] == pythonFunction_;
    }

    std::string key(SliceRef s, bool device, TorchOpRow* fill = nullptr) const {
        const SliceColumns& c = t_.tracks[s.track].slices;
        std::string name(t_.str(c.name[s.index]));
        // key_averages() takes every ProfilerStep#N as one row, "ProfilerStep*" (torch's _rewrite_name).
        if (!device && isProfilerStep(name)) name = "ProfilerStep*";
        std::string shapes, stack;
        if (!device && o_.groupByInputShapes && inputDims_ != kNoIndex) shapes = sliceArgText(t_, s, "Input Dims");
        if (!device && o_.groupByStackFrames > 0) stack = stackOf(s);
        std::string k;
        k.reserve(name.size() + shapes.size() + stack.size() + 3);
        k += device ? 'd' : 'c';
        k += name;
        k += '\x1f';
        k += shapes;
        k += '\x1f';
        k += stack;
        if (fill) {
            fill->name = std::move(name);
            fill->inputShapes = std::move(shapes);
            fill->stack = std::move(stack);
            fill->onDevice = device;
        }
        return k;
    }

    bool traceHasInputShapes() const { return inputDims_ != kNoIndex; }
    bool traceHasStacks() const { return callStack_ != kNoIndex || pythonFunction_ != kNoIndex; }

private:
    const ClassifiedTrace& ct_;
    const Trace& t_;
    TorchOpsOptions o_;
    StringId inputDims_ = kNoIndex, callStack_ = kNoIndex, pythonFunction_ = kNoIndex;
    std::vector<StringId> filtered_;

    // The top N frames, innermost first: the "Call stack" arg where Kineto wrote one
    // ("file.py(12): f;file.py(3): g", innermost first), else the enclosing Python frames.
    std::string stackOf(SliceRef s) const {
        std::vector<std::string> frames;
        const std::string arg = callStack_ != kNoIndex ? sliceArgText(t_, s, "Call stack") : std::string();
        if (!arg.empty()) {
            size_t b = 0;
            while (b <= arg.size() && frames.size() < o_.groupByStackFrames) {
                const size_t e = arg.find(';', b);
                std::string f = arg.substr(b, e == std::string::npos ? std::string::npos : e - b);
                if (!f.empty()) frames.push_back(std::move(f));
                if (e == std::string::npos) break;
                b = e + 1;
            }
        } else if (pythonFunction_ != kNoIndex) {
            const SliceColumns& c = t_.tracks[s.track].slices;
            const auto& parents = ct_.parents[s.track];
            for (uint32_t p = parents[s.index]; p != kNoIndex && frames.size() < o_.groupByStackFrames; p = parents[p])
                if (c.category[p] == pythonFunction_) frames.emplace_back(t_.str(c.name[p]));
        }
        std::string out;
        for (const std::string& f : frames) out += (out.empty() ? "" : "\n") + f;
        return out;
    }
};

// torch.profiler's event tree over the CPU events and Python frames of every host thread.
//  * EventList._populate_cpu_children: per thread, the thread track and its overflow lanes
//    together (events that partially overlap a Python frame, such as a record_function entered
//    and left in Python, are on a lane of their own), the nodes sorted by start, longest first;
//    a node's parent is the innermost open one that contains it entirely (one that starts at the
//    end of an open node is not inside it), partial overlaps are not nested.
//  * EventList._remove_dup_nodes: a node that is the only child of a parent of the same name is
//    removed ("merged" into that parent), its children becoming the parent's: the parent keeps
//    one call whose total is its own duration, and the child has no row.
class EventTree {
public:
    EventTree(const ClassifiedTrace& ct, const EventKeys& keys) : keys_(keys) {
        const Trace& t = *ct.trace;
        parent_.resize(t.tracks.size());
        merged_.resize(t.tracks.size());
        std::vector<std::vector<uint32_t>> children(t.tracks.size());
        std::unordered_map<TrackIndex, std::vector<TrackIndex>> threads;  // track -> it and its lanes
        std::vector<TrackIndex> threadOrder;
        for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
            if (!usableTrack(ct, ti)) continue;
            parent_[ti].assign(t.tracks[ti].slices.size(), SliceRef{});
            merged_[ti].assign(t.tracks[ti].slices.size(), 0);
            children[ti].assign(t.tracks[ti].slices.size(), 0);
            const TrackIndex base = t.tracks[ti].overflowOf != kNoIndex ? t.tracks[ti].overflowOf : ti;
            auto [it, inserted] = threads.try_emplace(base);
            if (inserted) threadOrder.push_back(base);
            it->second.push_back(ti);
        }
        struct Node {
            TimeNs start, end;
            SliceRef s;
        };
        std::vector<Node> nodes;
        std::vector<const Node*> open;
        for (TrackIndex base : threadOrder) {
            nodes.clear();
            for (TrackIndex ti : threads[base]) {
                const SliceColumns& c = t.tracks[ti].slices;
                for (uint32_t i = 0; i < c.size(); ++i)
                    if (isNode({ti, i})) nodes.push_back({c.start[i], c.end(i), {ti, i}});
            }
            std::stable_sort(nodes.begin(), nodes.end(), [](const Node& a, const Node& b) {
                return a.start != b.start ? a.start < b.start : a.end > b.end;
            });
            open.clear();
            for (const Node& n : nodes) {
                while (!open.empty()) {
                    const Node& p = *open.back();
                    if (n.start >= p.end || n.end > p.end) {
                        open.pop_back();
                    } else {
                        parent_[n.s.track][n.s.index] = p.s;
                        ++children[p.s.track][p.s.index];
                        break;
                    }
                }
                open.push_back(&n);
            }
            // Parents come before their children in this order, so one pass merges whole chains:
            // a node's parent has met its own fate when the node is reached.
            for (const Node& n : nodes) {
                SliceRef& p = parent_[n.s.track][n.s.index];
                p = survivor(p);
                if (!p.valid() || children[p.track][p.index] != 1 || !keys.sameName(p, n.s)) continue;
                merged_[n.s.track][n.s.index] = 1;
                children[p.track][p.index] = children[n.s.track][n.s.index];
            }
        }
    }

    bool isNode(SliceRef s) const {
        return keys_.isCpuEvent(s.track, s.index) || keys_.isPythonFrame(s.track, s.index);
    }
    bool onHostThread(TrackIndex ti) const { return !parent_[ti].empty(); }
    // A CPU event that has a row of its own (not merged into its parent).
    bool isRowEvent(SliceRef s) const { return keys_.isCpuEvent(s.track, s.index) && !merged(s); }
    bool merged(SliceRef s) const { return merged_[s.track][s.index] != 0; }
    // The node in the tree's place: s itself, or the node it was merged into.
    SliceRef survivor(SliceRef s) const {
        while (s.valid() && merged(s)) s = parent_[s.track][s.index];
        return s;
    }
    // The parent of a node that was not merged.
    SliceRef parent(SliceRef s) const { return parent_[s.track][s.index]; }
    // The nearest CPU event above a node (Python frames have no rows).
    SliceRef eventParent(SliceRef s) const {
        SliceRef p = parent(s);
        while (p.valid() && !keys_.isCpuEvent(p.track, p.index)) p = parent(p);
        return p;
    }

private:
    const EventKeys& keys_;
    std::vector<std::vector<SliceRef>> parent_;
    std::vector<std::vector<uint8_t>> merged_;
};

}  // namespace

TorchOpsResult computeTorchOps(const Trace& trace, const TorchOpsOptions& options) {
    return computeTorchOps(classifyTrace(trace), options);
}

std::string torchOpsUnavailableReason(const ClassifiedTrace& ct) {
    const Trace& t = *ct.trace;
    if (ct.producer == Producer::Tf1)
        return "a TensorFlow 1 step-stats trace: it holds TensorFlow ops, not torch.profiler's events; "
               "Op Stats in XProf's convention reads it";
    if (ct.producer != Producer::XProf) return {};
    // PyTorch/XLA names its XLA programs "SyncTensorsGraph.N", its device ops after the aten op
    // they lower ("aten__addmm") and its host TraceMe events after its graph executor.
    bool pytorchXla = false;
    for (StringId id = 0; id < t.strings.size() && !pytorchXla; ++id) {
        const std::string_view s = t.strings.get(id);
        pytorchXla = s.rfind("SyncTensorsGraph", 0) == 0 || s.rfind("aten__", 0) == 0 ||
                     s.find("XLAGraphExecutor") != std::string_view::npos;
    }
    if (pytorchXla)
        return "a PyTorch/XLA trace: PyTorch/XLA records aten ops lazily into XLA graphs (SyncTensorsGraph) "
               "and runs them as compiled XLA programs, so the trace has no aten op calls with their CPU time "
               "and no CUDA runtime calls launching kernels, which torch.profiler's table is made of. Its "
               "device ops carry the aten op they were lowered from (aten__addmm): Op Stats in XProf's "
               "convention shows them";
    return "an XSpace / XProf trace (JAX, TensorFlow or PyTorch/XLA): it holds XLA and TensorFlow ops and "
           "TraceMe annotations, not torch.profiler's event tree; Op Stats in XProf's convention reads it";
}

TorchOpsResult computeTorchOps(const ClassifiedTrace& ct, const TorchOpsOptions& options) {
    const Trace& t = *ct.trace;
    const EventKeys keys(ct, options);
    TorchOpsResult res;
    res.options = options;
    res.unavailable = torchOpsUnavailableReason(ct);
    if (!res.unavailable.empty()) return res;
    res.hasInputShapes = keys.traceHasInputShapes();
    res.hasStacks = keys.traceHasStacks();
    const EventTree tree(ct, keys);

    // Per CPU event: self CPU (its duration minus its direct children's, CPU events and Python
    // frames alike), own (self) CUDA and subtree CUDA time.
    std::vector<std::vector<TimeNs>> selfCpu(t.tracks.size()), selfCuda(t.tracks.size()), cudaTotal(t.tracks.size());
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (!tree.onHostThread(ti)) continue;
        const size_t n = t.tracks[ti].slices.size();
        selfCpu[ti].assign(n, 0);
        selfCuda[ti].assign(n, 0);
        cudaTotal[ti].assign(n, 0);
    }
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (!tree.onHostThread(ti)) continue;
        const SliceColumns& c = t.tracks[ti].slices;
        for (uint32_t i = 0; i < c.size(); ++i) {
            analysisTick();
            if (!tree.isNode({ti, i}) || tree.merged({ti, i})) continue;
            if (keys.isCpuEvent(ti, i)) addSat(selfCpu[ti][i], c.duration[i]);
            const SliceRef p = tree.parent({ti, i});
            if (p.valid() && keys.isCpuEvent(p.track, p.index)) subSat(selfCpu[p.track][p.index], c.duration[i]);
        }
    }

    std::unordered_map<std::string, size_t> rowOf;
    auto rowFor = [&](SliceRef s, bool device) -> TorchOpRow& {
        TorchOpRow fresh;
        const std::string k = keys.key(s, device, &fresh);
        auto [it, inserted] = rowOf.try_emplace(k, res.rows.size());
        if (inserted) res.rows.push_back(std::move(fresh));
        return res.rows[it->second];
    };

    // Device activity: its own row, and the CPU events above its launch.
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        const SliceColumns& c = t.tracks[ti].slices;
        if (!usableTrack(ct, ti)) continue;
        for (uint32_t i = 0; i < c.size(); ++i) {
            analysisTick();
            if (!isDeviceActivity(ct.roles[ti][i])) continue;
            const TimeNs dur = c.duration[i];
            TorchOpRow& row = rowFor({ti, i}, true);
            ++row.calls;
            addSat(row.selfCudaNs, dur);
            addSat(row.cudaTotalNs, dur);
            SliceRef launch = launchOf(ct, {ti, i});
            if (!launch.valid() || !tree.onHostThread(launch.track) || !tree.isNode(launch)) continue;
            launch = tree.survivor(launch);
            SliceRef p = tree.eventParent(launch);
            if (p.valid()) addSat(selfCuda[p.track][p.index], dur);
            for (; p.valid(); p = tree.eventParent(p)) addSat(cudaTotal[p.track][p.index], dur);
        }
    }

    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (selfCpu[ti].empty()) continue;
        const SliceColumns& c = t.tracks[ti].slices;
        for (uint32_t i = 0; i < c.size(); ++i) {
            analysisTick();
            if (!tree.isRowEvent({ti, i})) continue;
            TorchOpRow& row = rowFor({ti, i}, false);
            ++row.calls;
            addSat(row.cpuTotalNs, c.duration[i]);
            addSat(row.selfCpuNs, selfCpu[ti][i]);
            addSat(row.selfCudaNs, selfCuda[ti][i]);
            addSat(row.cudaTotalNs, cudaTotal[ti][i]);
        }
    }

    for (const TorchOpRow& r : res.rows) {
        addSat(res.totalSelfCpuNs, r.selfCpuNs);
        if (r.onDevice) addSat(res.totalSelfCudaNs, r.selfCudaNs);
    }
    auto pct = [](TimeNs v, TimeNs total) { return total > 0 ? 100.0 * double(v) / double(total) : 0.0; };
    for (TorchOpRow& r : res.rows) {
        r.selfCpuPercent = pct(r.selfCpuNs, res.totalSelfCpuNs);
        r.cpuTotalPercent = pct(r.cpuTotalNs, res.totalSelfCpuNs);
        r.selfCudaPercent = pct(r.selfCudaNs, res.totalSelfCudaNs);
        r.cudaTotalPercent = pct(r.cudaTotalNs, res.totalSelfCudaNs);
    }
    std::sort(res.rows.begin(), res.rows.end(), [](const TorchOpRow& a, const TorchOpRow& b) {
        if (a.onDevice != b.onDevice) return !a.onDevice;
        const TimeNs ka = a.onDevice ? a.cudaTotalNs : a.cpuTotalNs, kb = b.onDevice ? b.cudaTotalNs : b.cpuTotalNs;
        if (ka != kb) return ka > kb;
        return std::tie(a.name, a.inputShapes, a.stack) < std::tie(b.name, b.inputShapes, b.stack);
    });
    return res;
}

namespace {

// Calls visit(slice, row, counted) for every event of `result`'s rows, in track/time order:
// counted is false for an event merged into its parent of the same name, which is visited with
// its parent's row.
template <typename Visit>
void forEachRowEvent(const ClassifiedTrace& ct, const TorchOpsResult& result, Visit visit) {
    const Trace& trace = *ct.trace;
    const EventKeys keys(ct, result.options);
    const EventTree tree(ct, keys);
    std::unordered_map<std::string, uint32_t> rowOfKey;
    for (size_t r = 0; r < result.rows.size(); ++r) {
        const TorchOpRow& row = result.rows[r];
        std::string k;
        k += row.onDevice ? 'd' : 'c';
        k += row.name + '\x1f' + row.inputShapes + '\x1f' + row.stack;
        rowOfKey.emplace(std::move(k), uint32_t(r));
    }
    for (TrackIndex ti = 0; ti < trace.tracks.size(); ++ti) {
        if (!usableTrack(ct, ti)) continue;
        const size_t n = trace.tracks[ti].slices.size();
        for (uint32_t i = 0; i < n; ++i) {
            const bool device = isDeviceActivity(ct.roles[ti][i]);
            if (!device && !keys.isCpuEvent(ti, i)) continue;
            const SliceRef keyed = device ? SliceRef{ti, i} : tree.survivor({ti, i});
            auto it = rowOfKey.find(keys.key(keyed, device));
            if (it != rowOfKey.end()) visit(SliceRef{ti, i}, it->second, device || !tree.merged({ti, i}));
        }
    }
}

}  // namespace

std::vector<SliceRef> occurrencesOf(const ClassifiedTrace& ct, const TorchOpsResult& result, size_t row) {
    std::vector<SliceRef> out;
    if (row >= result.rows.size()) return out;
    forEachRowEvent(ct, result, [&](SliceRef s, uint32_t r, bool counted) {
        if (r == row && counted) out.push_back(s);
    });
    return out;
}

SliceRowIndex sliceRowIndexOf(const ClassifiedTrace& ct, const TorchOpsResult& result) {
    SliceRowIndex index;
    forEachRowEvent(ct, result, [&](SliceRef s, uint32_t r, bool) { index.add(s, r); });
    index.finish();
    return index;
}

std::vector<SliceRef> occurrencesOf(const Trace& trace, const TorchOpsResult& result, size_t row) {
    return occurrencesOf(classifyTrace(trace), result, row);
}
SliceRowIndex sliceRowIndexOf(const Trace& trace, const TorchOpsResult& result) {
    return sliceRowIndexOf(classifyTrace(trace), result);
}

}  // namespace tracescope
