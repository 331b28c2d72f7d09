#include "model/analysis/memory_profile.h"

#include "model/analysis/memory_events.h"
#include "model/analysis/memory_xprof_peak.h"
#include "model/analysis/steps.h"
#include "model/trace/arg_number.h"
#include "model/trace/args.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <tuple>
#include <unordered_map>

namespace tracescope {

using memory_detail::RawMemoryId;

const char* memoryEventKindName(MemoryEventKind k) {
    switch (k) {
    case MemoryEventKind::Allocation: return "allocation";
    case MemoryEventKind::Deallocation: return "deallocation";
    case MemoryEventKind::Sample: return "sample";
    }
    return "";
}

const char* memorySourceName(MemorySource s) {
    switch (s) {
    case MemorySource::XSpace: return "xspace";
    case MemorySource::Kineto: return "kineto";
    case MemorySource::KinetoBytesOnly: return "kineto-bytes-only";
    case MemorySource::Counter: return "counter";
    }
    return "";
}

std::string tfDataTypeName(int64_t type) {
    // tensorflow/core/framework/types.proto, as DataTypeString() prints them.
    static constexpr std::array<const char*, 24> kNames = {
        "",          "float",  "double",     "int32", "uint8",    "int16",   "int8",     "string",
        "complex64", "int64",  "bool",       "qint8", "quint8",   "qint32",  "bfloat16", "qint16",
        "quint16",   "uint16", "complex128", "half",  "resource", "variant", "uint32",   "uint64"};
    if (type > 0 && type < int64_t(kNames.size())) return kNames[size_t(type)];
    if (type > 100 && type - 100 < int64_t(kNames.size())) return std::string(kNames[size_t(type - 100)]) + "_ref";
    return type == 0 ? std::string() : "type " + std::to_string(type);
}

namespace {

// The GPU ordinal an allocator name implies ("GPU_3_bfc", "cuda:3"), or -1.
int64_t deviceOrdinalOf(const std::string& id) {
    size_t p = std::string::npos;
    if (id.rfind("GPU_", 0) == 0) p = 4;
    else if (id.rfind("cuda:", 0) == 0) p = 5;
    if (p == std::string::npos || p >= id.size() || !std::isdigit(static_cast<unsigned char>(id[p]))) return -1;
    int64_t n = 0;
    while (p < id.size() && std::isdigit(static_cast<unsigned char>(id[p])) && n < 1000000)
        n = n * 10 + (id[p++] - '0');
    return n;
}

// The process of GPU `ordinal`: "/device:GPU:N" (XSpace) or "GPU N" (Kineto, in the name or the
// process labels), as a whole part of it.
ProcessIndex gpuProcess(const Trace& trace, int64_t ordinal) {
    if (ordinal < 0) return kNoIndex;
    const std::string n = std::to_string(ordinal);
    for (ProcessIndex p = 0; p < trace.processes.size(); ++p) {
        const Process& proc = trace.processes[p];
        if (proc.kind != ProcessKind::Device) continue;
        for (const std::string* text : {&proc.name, &proc.labels})  // Kineto: labels "GPU 0"
            for (const std::string& pattern : {"/device:GPU:" + n, "GPU " + n}) {
                const size_t at = text->find(pattern);
                if (at == std::string::npos) continue;
                const size_t after = at + pattern.size();
                if (after == text->size() || !std::isdigit(static_cast<unsigned char>((*text)[after]))) return p;
            }
    }
    return kNoIndex;
}

// Steps by time: the number of the step containing each (ascending) time.
class StepAt {
public:
    explicit StepAt(const std::vector<Step>& steps) : steps_(steps) {}
    int64_t at(TimeNs t) {
        if (t < last_) k_ = 0;
        last_ = t;
        while (k_ < steps_.size() && steps_[k_].endNs() <= t) ++k_;
        for (size_t j = k_; j < steps_.size() && steps_[j].startNs <= t; ++j)
            if (t < steps_[j].endNs()) return steps_[j].number;
        return -1;
    }

private:
    const std::vector<Step>& steps_;
    size_t k_ = 0;
    TimeNs last_ = 0;
};

struct Builder {
    const Trace& trace;
    const std::vector<Step>& steps;
    const StepGroups* groups;  // the host step groups, as XProf makes them; null when steps were not looked for

    MemoryIdProfile build(RawMemoryId& raw) {
        MemoryIdProfile p;
        p.memoryId = raw.memoryId;
        p.source = raw.bytesOnly ? MemorySource::KinetoBytesOnly : raw.source;
        p.timeline = std::move(raw.events);
        p.timeline.shrink_to_fit();  // kept as a result: no room left from growing while collected
        sortByTime(p.timeline);
        if (p.source == MemorySource::KinetoBytesOnly) sumBytes(p);
        p.process = gpuProcess(trace, deviceOrdinalOf(p.memoryId));
        if (p.process == kNoIndex) p.process = raw.eventsProcess;
        if (raw.lifetimePeak >= 0) p.lifetimePeakBytes = raw.lifetimePeak;
        StepAt stepAt(steps);
        for (MemorySnapshot& s : p.timeline) {
            s.step = stepAt.at(s.time);
            if (s.kind == MemoryEventKind::Allocation) ++p.allocations;
            if (s.kind == MemoryEventKind::Deallocation) ++p.deallocations;
            p.hasStack |= s.stackBytes != 0;
            p.hasFree |= s.freeBytes > 0;
            p.hasFragmentation |= s.fragmentation >= 0;
            p.hasReserved |= s.reservedBytes >= 0;
            if (s.reservedBytes >= 0 && (!p.peakReservedBytes || s.reservedBytes > *p.peakReservedBytes))
                p.peakReservedBytes = s.reservedBytes;
        }
        findPeak(p);
        matchAndBreakDown(p);
        if (p.source == MemorySource::Counter)
            p.notes.push_back(
                "from an allocator counter: allocations and deallocations are its rises and falls; "
                "it names no ops, so there is no breakdown and no leak hints");
        return p;
    }

    // Stable by time. Events arrive track by track, each track sorted: often one track, already
    // in order. Otherwise (time, index) keys are sorted and the snapshots moved once, which
    // costs far less than sorting the wide snapshots themselves.
    static void sortByTime(std::vector<MemorySnapshot>& t) {
        const auto byTime = [](const MemorySnapshot& a, const MemorySnapshot& b) { return a.time < b.time; };
        if (std::is_sorted(t.begin(), t.end(), byTime)) return;
        std::vector<std::pair<TimeNs, uint32_t>> keys(t.size());
        for (uint32_t i = 0; i < t.size(); ++i) keys[i] = {t[i].time, i};
        std::sort(keys.begin(), keys.end());  // the index breaks ties: stable
        std::vector<MemorySnapshot> sorted;
        sorted.reserve(t.size());
        for (const auto& k : keys) sorted.push_back(t[k.second]);
        t = std::move(sorted);
    }

    // Kineto without totals: heap = running sum of Bytes, lifted so that it never drops
    // below zero (what was freed but never allocated inside the profile existed before it).
    static void sumBytes(MemoryIdProfile& p) {
        int64_t sum = 0, low = 0;
        for (MemorySnapshot& s : p.timeline) {
            if (s.kind == MemoryEventKind::Allocation) addSat(sum, s.allocationBytes);
            else subSat(sum, s.allocationBytes);
            s.heapBytes = sum;
            low = std::min(low, sum);
        }
        for (MemorySnapshot& s : p.timeline) subSat(s.heapBytes, low);
        std::string note =
            "the trace records no Total Allocated: memory in use is the running sum of Bytes since the profile began";
        if (low < 0) note += ", lifted by the " + std::to_string(-low) + " bytes freed but not allocated inside it";
        p.notes.push_back(note);
    }

    static void findPeak(MemoryIdProfile& p) {
        if (p.timeline.empty()) return;
        int64_t best = std::numeric_limits<int64_t>::min();
        for (size_t i = 0; i < p.timeline.size(); ++i) {
            const int64_t v = p.timeline[i].inUseBytes();
            if (v >= best) {  // ties: the later event, as XProf
                best = v;
                p.peakSnapshot = uint32_t(i);
            }
        }
        const MemorySnapshot& s = p.timeline[p.peakSnapshot];
        p.peakBytes = best;
        p.peakTimeNs = s.time;
        p.stackAtPeak = s.stackBytes;
        p.heapAtPeak = s.heapBytes;
        if (s.step >= 0) p.peakStep = s.step;
        if (p.hasFree && s.freeBytes >= 0) {
            p.freeAtPeak = s.freeBytes;
            int64_t capacity = s.inUseBytes();
            addSat(capacity, s.freeBytes);
            p.capacityBytes = capacity;
        }
        if (s.fragmentation >= 0) p.fragmentationAtPeak = s.fragmentation;
    }

    // XProf's Memory Profile breaks the peak down otherwise (xplane_to_memory_profile.cc): only
    // the allocations made in the peak's step are rows, and the rest of the heap, by its reckoning
    // of that step's allocations and frees, is one "unused preallocated device memory" row. Its
    // steps are the host step groups (memory_xprof_peak.h), so its figures are worked out here as
    // it works them out and named beside ours.
    void noteXprofBreakdown(MemoryIdProfile& p, size_t liveAtPeak) const {
        if (!groups || p.timeline.empty()) return;
        const std::vector<int64_t> stepIds = xprofMemoryStepIds(trace, *groups, p.timeline);
        // XProf reads the host plane line by line: our tracks in order, each track's events in order.
        std::vector<uint32_t> readOrder(p.timeline.size());
        std::iota(readOrder.begin(), readOrder.end(), 0u);
        std::stable_sort(readOrder.begin(), readOrder.end(), [&](uint32_t a, uint32_t b) {
            const MemorySnapshot &x = p.timeline[a], &y = p.timeline[b];
            return x.track != y.track ? x.track < y.track : x.index < y.index;
        });
        std::vector<XprofMemoryEvent> events;
        events.reserve(readOrder.size());
        for (uint32_t i : readOrder) {
            const MemorySnapshot& s = p.timeline[i];
            events.push_back({s.time, s.heapBytes, s.stackBytes, s.allocationBytes, s.address, stepIds[i],
                              s.kind == MemoryEventKind::Allocation});
        }
        const XprofPeakBreakdown x = xprofPeakBreakdown(events);
        const auto plural = [](size_t n, const char* one, const char* many) {
            return std::to_string(n) + " " + (n == 1 ? one : many);
        };
        // XProf's step ids are group ids (0, 1, ... in root order); name the step number too.
        std::string step = "XProf's step id " + std::to_string(x.peakStep);
        for (const StepGroups::Group& g : groups->groups)
            if (g.id == x.peakStep) {
                step += " = step " + std::to_string(g.number);
                break;
            }
        std::string note = "XProf's Memory Profile lists the " + plural(x.active.size(), "allocation", "allocations") +
                           " made in its peak's step (" + step + ") and alive at its peak, and ";
        if (x.unmappedBytes > 0) {
            char mib[32];
            std::snprintf(mib, sizeof mib, "%.1f", double(x.unmappedBytes) / double(1 << 20));
            note += "shows the other " + std::to_string(x.unmappedBytes) + " bytes (" + mib +
                    " MiB) of the heap as \"unused preallocated device memory\"";
        } else {
            note += "no \"unused preallocated device memory\" row (its reckoning of the rest of the heap: " +
                    std::to_string(x.unmappedBytes) + " bytes)";
        }
        note +=
            "; its step of an event is the host step group of the event's enclosing event, and an event outside "
            "every group takes the step after the one before it (0 at the start); this breakdown lists all " +
            plural(liveAtPeak, "allocation", "allocations") + " alive at the peak";
        p.notes.push_back(std::move(note));
    }

    // One walk over the timeline: pairs allocations with deallocations by address (a
    // deallocation gets its allocation's op), keeps the live set at the peak for the
    // breakdown and the one at the end for the leak hints.
    void matchAndBreakDown(MemoryIdProfile& p) {
        if (p.source == MemorySource::Counter) return;
        std::unordered_map<uint64_t, uint32_t> live;
        std::vector<uint32_t> liveAtPeak;
        bool hasAddresses = false;
        for (uint32_t i = 0; i < p.timeline.size(); ++i) {
            MemorySnapshot& s = p.timeline[i];
            if (s.address != 0) {
                hasAddresses = true;
                if (s.kind == MemoryEventKind::Allocation) {
                    live[s.address] = i;  // a second allocation at a live address: the newer wins
                } else if (s.kind == MemoryEventKind::Deallocation) {
                    auto it = live.find(s.address);
                    if (it != live.end()) {
                        MemorySnapshot& a = p.timeline[it->second];
                        a.partner = i;
                        s.partner = it->second;
                        if (a.op != kEmptyString) s.op = a.op;  // what was freed, not where
                        if (s.requestedBytes < 0) s.requestedBytes = a.requestedBytes;
                        live.erase(it);
                    }
                }
            }
            if (i == p.peakSnapshot) {
                liveAtPeak.reserve(live.size());
                for (const auto& [addr, idx] : live) liveAtPeak.push_back(idx);
            }
        }
        p.hasAddresses = hasAddresses;
        breakdown(p, liveAtPeak, hasAddresses);
        if (p.source == MemorySource::XSpace && hasAddresses) noteXprofBreakdown(p, liveAtPeak.size());
        if (!hasAddresses)
            p.notes.push_back(
                "the trace records no allocation addresses: allocations cannot be matched to "
                "their deallocations, so there is no breakdown by op and no leak hints");
        std::vector<uint32_t> atEnd;
        atEnd.reserve(live.size());
        for (const auto& [addr, idx] : live) atEnd.push_back(idx);
        leakHints(p, atEnd);
    }

    void breakdown(MemoryIdProfile& p, std::vector<uint32_t>& liveAtPeak, bool hasAddresses) {
        std::sort(liveAtPeak.begin(), liveAtPeak.end());
        using Key = std::tuple<std::string, std::string, std::string, std::string>;
        std::map<Key, size_t> rowOf;
        int64_t attributed = 0;
        for (uint32_t idx : liveAtPeak) {
            const MemorySnapshot& s = p.timeline[idx];
            MemoryEventInfo info = memoryEventInfo(trace, p, idx);
            Key key{info.op, info.regionType, info.dataType, info.shape};
            auto [it, fresh] = rowOf.try_emplace(key, p.breakdown.size());
            if (fresh) {
                MemoryBreakdownRow r;
                std::tie(r.op, r.regionType, r.dataType, r.shape) = std::move(key);
                r.firstSnapshot = idx;
                p.breakdown.push_back(std::move(r));
            }
            MemoryBreakdownRow& r = p.breakdown[it->second];
            addSat(r.allocationBytes, s.allocationBytes);
            if (s.requestedBytes >= 0) {
                if (r.requestedBytes < 0) r.requestedBytes = 0;
                addSat(r.requestedBytes, s.requestedBytes);
            }
            ++r.occurrences;
            addSat(attributed, s.allocationBytes);
        }
        int64_t unattributed = p.heapAtPeak;
        subSat(unattributed, attributed);
        if (unattributed > 0) {
            MemoryBreakdownRow r;
            r.op = hasAddresses ? "(allocated before the profile)" : "(not attributed: the trace records no addresses)";
            r.allocationBytes = unattributed;
            r.special = true;
            p.breakdown.push_back(r);
        }
        if (p.stackAtPeak > 0) {
            MemoryBreakdownRow r;
            r.op = "(stack)";
            r.regionType = "stack";
            r.allocationBytes = p.stackAtPeak;
            r.special = true;
            p.breakdown.push_back(r);
        }
        std::stable_sort(p.breakdown.begin(), p.breakdown.end(), [](const auto& a, const auto& b) {
            if (a.allocationBytes != b.allocationBytes) return a.allocationBytes > b.allocationBytes;
            return a.op < b.op;
        });
    }

    void leakHints(MemoryIdProfile& p, std::vector<uint32_t>& atEnd) {
        std::sort(atEnd.begin(), atEnd.end());
        p.aliveAtEnd = atEnd.size();
        const int64_t lastStepNumber = steps.empty() ? -1 : steps.back().number;
        std::unordered_map<StringId, size_t> rowOf;
        std::vector<int64_t> lastStep;
        for (uint32_t idx : atEnd) {
            const MemorySnapshot& s = p.timeline[idx];
            addSat(p.aliveAtEndBytes, s.allocationBytes);
            // A leak hint: made inside a step that is not the last, and outlived the steps after it.
            if (steps.size() < 2 || s.step < 0 || s.step == lastStepNumber) continue;
            auto [it, fresh] = rowOf.try_emplace(s.op, p.leaks.size());
            if (fresh) {
                MemoryLeakHint h;
                h.op = s.op == kEmptyString ? "(no op)" : std::string(trace.str(s.op));
                h.firstSnapshot = idx;
                p.leaks.push_back(h);
                lastStep.push_back(-2);
            }
            MemoryLeakHint& h = p.leaks[it->second];
            ++h.allocations;
            addSat(h.bytes, s.allocationBytes);
            if (lastStep[it->second] != s.step) {  // indices ascend, so steps do too
                lastStep[it->second] = s.step;
                ++h.steps;
            }
        }
        std::stable_sort(p.leaks.begin(), p.leaks.end(), [](const auto& a, const auto& b) {
            if (a.steps != b.steps) return a.steps > b.steps;
            return a.bytes > b.bytes;
        });
    }
};

}  // namespace

namespace {

// `classified`: gives the classification the steps are found on (for peak_step and the leak
// hints), asked only when the trace has memory events; null or returning null: no steps.
MemoryProfileResult memoryProfile(const Trace& trace, const std::function<const ClassifiedTrace*()>& classified) {
    MemoryProfileResult res;
    std::vector<RawMemoryId> raw = memory_detail::collectMemoryEvents(trace);
    if (raw.empty()) {
        res.howToRecord =
            "This trace has no memory events.\n"
            "PyTorch: record with torch.profiler.profile(profile_memory=True) (the [memory] events).\n"
            "TensorFlow / JAX: the GPU/TPU allocator records MemoryAllocation events at host_tracer_level 2 "
            "or higher; CPU-only runs have none.\n"
            "TF1: RunMetadata from a FULL_TRACE run records allocator memory.";
        return res;
    }
    StepsResult steps;
    std::shared_ptr<const StepGroups> groups;
    if (const ClassifiedTrace* ct = classified ? classified() : nullptr) {
        steps = findSteps(*ct);
        groups = steps.hostGroups;
        if (!groups &&
            std::any_of(raw.begin(), raw.end(), [](const RawMemoryId& r) { return r.source == MemorySource::XSpace; }))
            groups = std::make_shared<const StepGroups>(groupHostEvents(*ct));
    }
    res.stepCount = steps.steps.size();
    Builder b{trace, steps.steps, groups.get()};
    for (RawMemoryId& r : raw) res.ids.push_back(b.build(r));
    std::sort(res.ids.begin(), res.ids.end(),
              [](const MemoryIdProfile& a, const MemoryIdProfile& b) { return a.memoryId < b.memoryId; });
    return res;
}

}  // namespace

MemoryProfileResult computeMemoryProfile(const Trace& trace, bool findStepsToo) {
    std::optional<ClassifiedTrace> ct;
    if (!findStepsToo) return memoryProfile(trace, nullptr);
    return memoryProfile(trace, [&] { return &ct.emplace(classifyTrace(trace)); });
}

MemoryProfileResult computeMemoryProfile(const ClassifiedTrace& classified) {
    return memoryProfile(*classified.trace, [&] { return &classified; });
}

size_t memorySnapshotAt(const MemoryIdProfile& profile, TimeNs time) {
    const auto& t = profile.timeline;
    auto it = std::upper_bound(t.begin(), t.end(), time, [](TimeNs x, const MemorySnapshot& s) { return x < s.time; });
    return it == t.begin() ? 0 : size_t(it - t.begin()) - 1;
}

MemoryEventInfo memoryEventInfo(const Trace& trace, const MemoryIdProfile& profile, size_t snapshot) {
    MemoryEventInfo info;
    if (snapshot >= profile.timeline.size()) return info;
    const MemorySnapshot* s = &profile.timeline[snapshot];
    if (s->op != kEmptyString) info.op = trace.str(s->op);
    // A deallocation shows what its allocation was (XProf fills them the same way).
    if (s->kind == MemoryEventKind::Deallocation && s->partner != kNoIndex) s = &profile.timeline[s->partner];
    if (s->track >= trace.tracks.size() || profile.source == MemorySource::Counter) return info;
    const Track& track = trace.tracks[s->track];
    if (s->index >= track.instants.size()) return info;
    const StringId region = trace.strings.find("region_type");
    const StringId dataType = trace.strings.find("data_type");
    const StringId shape = trace.strings.find("shape");
    ArgsReader r(track.argsView(), track.instants.args[s->index]);
    Arg a;
    while (r.next(a)) {
        if (a.key == region && region != kNoIndex) info.regionType = a.value.toString(trace.strings);
        else if (a.key == dataType && dataType != kNoIndex) {
            int64_t v = 0;
            // XProf's trace JSON writes the DataType enum as a string ("19").
            info.dataType =
                numericArg(a.value, trace.strings).toInt64(v) ? tfDataTypeName(v) : a.value.toString(trace.strings);
        } else if (a.key == shape && shape != kNoIndex) info.shape = a.value.toString(trace.strings);
    }
    return info;
}

}  // namespace tracescope
