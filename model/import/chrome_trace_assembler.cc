#include "model/import/chrome_trace_assembler.h"

#include <algorithm>
#include <thread>
#include <tuple>

namespace tracescope {

namespace {

// Times above this many ns (1e15 us, the year 2001 as epoch microseconds) are
// taken to be Unix epoch times.
constexpr int64_t kEpochThresholdNs = 1'000'000'000'000'000'000;

// Sorts big record vectors on two threads (two halves, then one merge): these
// sorts are most of the time spent between reading the file and building the trace.
template <typename T, typename Less>
void parallelSort(std::vector<T>& v, Less less) {
    if (v.size() < 200000) {
        std::sort(v.begin(), v.end(), less);
        return;
    }
    const auto mid = v.begin() + std::ptrdiff_t(v.size() / 2);
    std::thread half([&] { std::sort(v.begin(), mid, less); });
    std::sort(mid, v.end(), less);
    half.join();
    std::inplace_merge(v.begin(), mid, v.end(), less);
}

bool contains(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

std::vector<Arg> mergeArgs(std::vector<Arg> base, const std::vector<Arg>& extra) {
    for (const Arg& e : extra) {
        auto it = std::find_if(base.begin(), base.end(), [&](const Arg& b) { return b.key == e.key; });
        if (it != base.end()) it->value = e.value;
        else base.push_back(e);
    }
    return base;
}

}  // namespace

ChromeTraceAssembler::ChromeTraceAssembler(TraceBuilder& builder, SharedStrings& strings)
    : builder_(builder), strings_(strings) {
    // An encoded arg starts with varint(key << 3 | type): keys with StringIds below
    // 16 cost one byte instead of two. Give those ids to the arg keys that are most
    // frequent in real PyTorch/Kineto traces (op and kernel events), before any
    // other string is interned.
    const char* commonArgKeys[] = {"External id", "Ev Idx", "correlation", "Input type", "Input Dims",
                                   "cbid", "Record function id", "Concrete Inputs", "stream", "device",
                                   "context", "grid", "block", "registers per thread", "shared memory"};
    for (const char* k : commonArgKeys) strings_.intern(k);
    const char* device[] = {"kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset"};
    for (int i = 0; i < 6; ++i) deviceCategories_[i] = strings_.intern(device[i]);
    processName_ = strings_.intern("process_name");
    processLabels_ = strings_.intern("process_labels");
    processSortIndex_ = strings_.intern("process_sort_index");
    threadName_ = strings_.intern("thread_name");
    threadSortIndex_ = strings_.intern("thread_sort_index");
}

uint32_t ChromeTraceAssembler::pidSlot(const ProcessThreadId& pid) {
    auto [it, inserted] = pidSlots_.try_emplace(pid, uint32_t(pids_.size()));
    if (inserted) pids_.push_back(PidInfo{pid});
    return it->second;
}

uint32_t ChromeTraceAssembler::threadSlot(const ProcessThreadId& pid, const ProcessThreadId& tid) {
    // Events of one thread usually come in runs: remember the last one.
    if (lastThread_ != kNoIndex && pid == lastPid_ && tid == lastTid_) return lastThread_;
    const uint32_t p = pidSlot(pid);
    auto [it, inserted] = threadSlots_.try_emplace(ThreadKey{p, tid}, uint32_t(threads_.size()));
    if (inserted) threads_.push_back(ThreadInfo{p, tid});
    lastPid_ = pid;
    lastTid_ = tid;
    lastThread_ = it->second;
    return lastThread_;
}

ProcessIndex ChromeTraceAssembler::processOf(uint32_t slot) {
    PidInfo& info = pids_[slot];
    if (info.process == kNoIndex) {
        // Kind, name and order are set at the end, once all M events are known.
        const int64_t pid = info.id.isString ? -2 - int64_t(slot) : info.id.value;
        info.process = builder_.addProcess(ProcessKind::Host, pid, std::string());
    }
    return info.process;
}

TrackIndex ChromeTraceAssembler::threadTrack(uint32_t thread) {
    ThreadInfo& info = threads_[thread];
    if (info.track == kNoIndex) {
        const int64_t tid = info.tid.isString ? -2 - int64_t(thread) : info.tid.value;
        const ProcessIndex p = processOf(info.pidSlot);
        threads_[thread].track = builder_.addTrack(p, TrackKind::Thread, std::string(), tid);
    }
    return threads_[thread].track;
}

TrackIndex ChromeTraceAssembler::processMarkers(uint32_t slot) {
    if (pids_[slot].markers == kNoIndex) {
        const ProcessIndex p = processOf(slot);
        pids_[slot].markers = builder_.addTrack(p, TrackKind::Markers, "Process instants");
    }
    return pids_[slot].markers;
}

TrackIndex ChromeTraceAssembler::globalMarkers() {
    if (globalMarkers_ == kNoIndex) {
        globalProcess_ = builder_.addProcess(ProcessKind::Host, -1, "Global");
        globalMarkers_ = builder_.addTrack(globalProcess_, TrackKind::Markers, "Global instants");
    }
    return globalMarkers_;
}

TrackIndex ChromeTraceAssembler::counterTrack(uint32_t slot, StringId name, StringId id, StringId key) {
    auto [it, inserted] = counterTracks_.try_emplace(CounterKey{slot, name, id, key}, kNoIndex);
    if (inserted) {
        std::string series = text(name);
        if (id != kNoIndex) series += "[" + text(id) + "]";
        // A value named like its counter ({"name":"HBM","args":{"HBM":5}}, as XProf writes
        // them) is the counter itself: one name, as the XSpace importer names its track.
        if (key != name) series += " " + text(key);
        it->second = builder_.addTrack(processOf(slot), TrackKind::Counter, std::move(series));
    }
    return it->second;
}

TrackIndex ChromeTraceAssembler::asyncTrack(uint32_t slot, StringId name) {
    auto [it, inserted] = asyncTracks_.try_emplace((uint64_t(slot) << 32) | name, kNoIndex);
    if (inserted) it->second = builder_.addTrack(processOf(slot), TrackKind::Async, text(name));
    return it->second;
}

ArgsOffset ChromeTraceAssembler::copyArgs(TrackIndex t, const EventBatch& batch, const ChromeEvent& e) {
    if (e.argsSize == 0) return kNoArgs;
    std::vector<uint8_t>& blob = builder_.track(t).argBlob;
    if (blob.size() + e.argsSize >= kNoArgs) return kNoArgs;  // a 4 GiB arg blob on one track: drop args
    const auto offset = ArgsOffset(blob.size());
    blob.insert(blob.end(), batch.args.begin() + e.argsBegin, batch.args.begin() + e.argsBegin + e.argsSize);
    return offset;
}

void ChromeTraceAssembler::noteCategory(uint32_t slot, StringId cat) {
    for (StringId c : deviceCategories_)
        if (cat == c) pids_[slot].deviceCategory = true;
}

void ChromeTraceAssembler::noteTime(int64_t ts) {
    if (!anyTime_ || ts < minTime_) minTime_ = ts;
    anyTime_ = true;
}

void ChromeTraceAssembler::add(const EventBatch& batch) {
    for (size_t i = 0; i < 256; ++i) unsupported_[i] += batch.unsupportedPhases[i];
    withoutPhase_ += batch.withoutPhase;
    withoutTs_ += batch.withoutTs;
    missingDur_ += batch.missingDur;
    utf8Replaced_ += batch.utf8Replaced;
    if (batch.invalid > 0) {
        if (invalid_ == 0) {
            firstInvalidOffset_ = batch.firstInvalidOffset;
            firstInvalidError_ = batch.firstInvalidError;
        }
        invalid_ += batch.invalid;
    }
    for (const ChromeEvent& e : batch.events) addEvent(batch, e);
}

void ChromeTraceAssembler::addMetadataEvent(const ChromeEvent& e) {
    const uint32_t p = pidSlot(e.pid);
    if (e.name == processName_ && e.has(ChromeEvent::kHasText)) {
        pids_[p].name = e.text;
    } else if (e.name == processLabels_ && e.has(ChromeEvent::kHasText)) {
        if (std::find(pids_[p].labels.begin(), pids_[p].labels.end(), e.text) == pids_[p].labels.end())
            pids_[p].labels.push_back(e.text);
    } else if (e.name == processSortIndex_ && e.has(ChromeEvent::kHasSortIndex)) {
        pids_[p].sortIndex = e.dur;
        pids_[p].hasSortIndex = true;
    } else if (e.name == threadName_ && e.has(ChromeEvent::kHasText)) {
        threads_[threadSlot(e.pid, e.tid)].name = e.text;
    } else if (e.name == threadSortIndex_ && e.has(ChromeEvent::kHasSortIndex)) {
        ThreadInfo& t = threads_[threadSlot(e.pid, e.tid)];
        t.sortIndex = e.dur;
        t.hasSortIndex = true;
    }
}

void ChromeTraceAssembler::addEvent(const EventBatch& batch, const ChromeEvent& e) {
    const uint64_t seq = seq_++;
    switch (e.ph) {
    case 'X':
    case 'B': {
        const uint32_t thread = threadSlot(e.pid, e.tid);
        const TrackIndex t = threadTrack(thread);
        if (e.ph == 'X' && e.has(ChromeEvent::kOnePicosecond) && !e.bindId.present()) {
            // The TSL/XProf exporter writes a zero-length XSpace event 1 ps long; the XSpace
            // importer makes such an event an instant of its line, and so do we.
            builder_.addInstant(t, e.ts, e.name, e.cat, copyArgs(t, batch, e));
            noteCategory(threads_[thread].pidSlot, e.cat);
            noteTime(e.ts);
            ++imported_;
            break;
        }
        const uint32_t slice = builder_.addSlice(t, e.ts, e.ph == 'X' ? e.dur : 0, e.name, e.cat, copyArgs(t, batch, e));
        noteCategory(threads_[thread].pidSlot, e.cat);
        noteTime(e.ts);
        if (e.ph == 'B') beginEnds_.push_back({e.ts, seq, thread, slice, e.name, 0, 0, false});
        if (e.bindId.present() && e.has(ChromeEvent::kFlowIn | ChromeEvent::kFlowOut))
            boundSlices_.push_back({e.bindId.value, e.bindId.shown, e.ts, seq, t, slice, e.bindId.kind, uint8_t(e.flags)});
        ++imported_;
        break;
    }
    case 'E': {
        const uint32_t thread = threadSlot(e.pid, e.tid);
        const auto argsBegin = uint32_t(endArgs_.size());
        endArgs_.insert(endArgs_.end(), batch.args.begin() + e.argsBegin,
                        batch.args.begin() + e.argsBegin + e.argsSize);
        beginEnds_.push_back({e.ts, seq, thread, kNoIndex, e.name, argsBegin, e.argsSize, true});
        ++imported_;
        break;
    }
    case 'i':
    case 'I': {
        TrackIndex t;
        uint32_t slot;
        if (e.instantScope == 'g') {
            t = globalMarkers();
            slot = kNoIndex;
        } else if (e.instantScope == 'p') {
            slot = pidSlot(e.pid);
            t = processMarkers(slot);
        } else {
            const uint32_t thread = threadSlot(e.pid, e.tid);
            slot = threads_[thread].pidSlot;
            t = threadTrack(thread);
        }
        builder_.addInstant(t, e.ts, e.name, e.cat, copyArgs(t, batch, e));
        if (slot != kNoIndex) noteCategory(slot, e.cat);
        noteTime(e.ts);
        ++imported_;
        break;
    }
    case 'C': {
        const uint32_t slot = pidSlot(e.pid);
        const StringId id = e.has(ChromeEvent::kHasText) ? e.text : kNoIndex;
        for (uint32_t k = 0; k < e.countersSize; ++k) {
            const auto& [key, value] = batch.counters[e.countersBegin + k];
            builder_.addCounterSample(counterTrack(slot, e.name, id, key), e.ts, value);
        }
        if (e.countersSize) {
            noteCategory(slot, e.cat);
            noteTime(e.ts);
        }
        ++imported_;
        break;
    }
    case 'b': case 'e': case 'n': case 'S': case 'F': case 'T': case 'p': {
        const uint32_t slot = pidSlot(e.pid);
        const auto argsBegin = uint32_t(asyncArgs_.size());
        uint32_t argsSize = 0;
        if (e.ph == 'b' || e.ph == 'n' || e.ph == 'S') {
            asyncArgs_.insert(asyncArgs_.end(), batch.args.begin() + e.argsBegin,
                              batch.args.begin() + e.argsBegin + e.argsSize);
            argsSize = e.argsSize;
        }
        const bool legacy = e.ph == 'S' || e.ph == 'F' || e.ph == 'T' || e.ph == 'p';
        asyncEvents_.push_back({e.id, e.cat, e.scope, e.name, e.has(ChromeEvent::kIdLocal) ? slot : kNoIndex, slot,
                                e.ts, seq, argsBegin, argsSize, e.ph, uint8_t(legacy ? 1 : 0)});
        ++imported_;
        break;
    }
    case 's': case 't': case 'f': {
        const uint32_t thread = threadSlot(e.pid, e.tid);
        flowEvents_.push_back({e.id.value, e.id.shown, e.ts, seq, e.cat, e.name, thread, e.id.kind, e.ph,
                               e.has(ChromeEvent::kBindEnclosing)});
        ++imported_;
        break;
    }
    case 'M':
        addMetadataEvent(e);
        ++imported_;
        break;
    default: break;
    }
}

// B/E per thread in time order, file order on ties: a B and E at one ts, in that order in
// the file, are a 0-long slice (catapult reads it so; sorting E first would close the parent).
void ChromeTraceAssembler::resolveBeginEnd() {
    parallelSort(beginEnds_, [](const BeginEnd& a, const BeginEnd& b) {
        return std::tie(a.thread, a.ts, a.seq) < std::tie(b.thread, b.ts, b.seq);
    });
    uint64_t unmatchedEnds = 0, mismatchedNames = 0, unfinished = 0;
    std::vector<const BeginEnd*> open;
    auto closeRemaining = [&](uint32_t thread) {
        if (open.empty()) return;
        SliceColumns& c = builder_.track(threads_[thread].track).slices;
        for (const BeginEnd* b : open) c.depthAndFlags[b->slice] |= kSliceUnfinished;
        unfinished += open.size();
        open.clear();
    };
    for (size_t i = 0; i < beginEnds_.size(); ++i) {
        const BeginEnd& r = beginEnds_[i];
        if (i > 0 && beginEnds_[i - 1].thread != r.thread) closeRemaining(beginEnds_[i - 1].thread);
        if (!r.isEnd) {
            open.push_back(&r);
            continue;
        }
        if (open.empty()) {
            ++unmatchedEnds;
            continue;
        }
        const BeginEnd& b = *open.back();
        open.pop_back();
        const TrackIndex t = threads_[r.thread].track;
        builder_.endSlice(t, b.slice, r.ts);  // clamped like the B's start, so the slice stays in range
        Track& track = builder_.track(t);
        if (r.name != kEmptyString && r.name != b.name) ++mismatchedNames;
        if (r.argsSize > 0) {
            // E args are merged into the B's (E wins on equal keys).
            std::vector<Arg> endArgs = decodeArgs(endArgs_, r.argsBegin);
            std::vector<Arg> merged = mergeArgs(decodeArgs(track.argBlob, track.slices.args[b.slice]), endArgs);
            ArgsWriter w;
            for (const Arg& a : merged) w.add(a.key, a.value);
            if (track.argBlob.size() + w.encoded().size() < kNoArgs) track.slices.args[b.slice] = w.appendTo(track.argBlob);
        }
    }
    if (!beginEnds_.empty()) closeRemaining(beginEnds_.back().thread);
    beginEnds_ = {};
    endArgs_ = {};
    if (unmatchedEnds)
        builder_.addWarning(
            ImportWarning::events(WarningKind::DroppedEvents, unmatchedEnds, "E event(s) without an open B on their thread dropped"));
    if (mismatchedNames)
        builder_.addWarning(ImportWarning::events(WarningKind::AdjustedEvents, mismatchedNames, "E event(s) closed a B of another name"));
    if (unfinished)
        builder_.addWarning(
            ImportWarning::events(WarningKind::AdjustedEvents, unfinished, "B event(s) never ended: shown up to the trace end"));
}

// Async spans per id in time order (file order at equal ts): b/S open, e/F close
// the innermost open one. n becomes an instant on its group's track.
void ChromeTraceAssembler::resolveAsync() {
    auto identity = [](const AsyncEvent& a) {
        return std::tie(a.family, a.cat, a.scope, a.localPid, a.id.kind, a.id.value);
    };
    parallelSort(asyncEvents_, [&](const AsyncEvent& a, const AsyncEvent& b) {
        const auto ia = identity(a), ib = identity(b);
        if (ia != ib) return ia < ib;
        return std::tie(a.ts, a.seq) < std::tie(b.ts, b.seq);
    });
    uint64_t unmatchedEnds = 0, unfinished = 0;
    struct Open {
        const AsyncEvent* begin;
        StringId outerName;  // name of the outermost open span: names the track
    };
    std::vector<Open> open;
    auto addSpan = [&](const Open& o, int64_t end, bool isUnfinished) {
        const AsyncEvent& b = *o.begin;
        const TrackIndex t = asyncTrack(b.pidSlot, o.outerName);
        ArgsOffset args = kNoArgs;
        if (b.argsSize) {
            std::vector<uint8_t>& blob = builder_.track(t).argBlob;
            if (blob.size() + b.argsSize < kNoArgs) {
                args = ArgsOffset(blob.size());
                blob.insert(blob.end(), asyncArgs_.begin() + b.argsBegin, asyncArgs_.begin() + b.argsBegin + b.argsSize);
            }
        }
        const uint32_t slice = builder_.addSlice(t, b.ts, 0, b.name, b.cat, args, isUnfinished);
        if (!isUnfinished) builder_.endSlice(t, slice, end);
        noteCategory(b.pidSlot, b.cat);
        noteTime(b.ts);
    };
    auto flush = [&]() {
        for (const Open& o : open) addSpan(o, 0, true);
        unfinished += open.size();
        open.clear();
    };
    for (size_t i = 0; i < asyncEvents_.size(); ++i) {
        const AsyncEvent& a = asyncEvents_[i];
        if (i > 0 && identity(asyncEvents_[i - 1]) != identity(a)) flush();
        switch (a.ph) {
        case 'b':
        case 'S':
            open.push_back({&a, open.empty() ? a.name : open.front().outerName});
            break;
        case 'e':
        case 'F':
            if (open.empty()) {
                ++unmatchedEnds;
                break;
            }
            addSpan(open.back(), a.ts, false);
            open.pop_back();
            break;
        case 'n': {
            const TrackIndex t = asyncTrack(a.pidSlot, open.empty() ? a.name : open.front().outerName);
            ArgsOffset args = kNoArgs;
            if (a.argsSize) {
                std::vector<uint8_t>& blob = builder_.track(t).argBlob;
                if (blob.size() + a.argsSize < kNoArgs) {
                    args = ArgsOffset(blob.size());
                    blob.insert(blob.end(), asyncArgs_.begin() + a.argsBegin, asyncArgs_.begin() + a.argsBegin + a.argsSize);
                }
            }
            builder_.addInstant(t, a.ts, a.name, a.cat, args);
            noteCategory(a.pidSlot, a.cat);
            noteTime(a.ts);
            break;
        }
        default:  // T / p: steps of an open S are not drawn; without one they are stray
            if (open.empty()) {
                ++unsupported_[static_cast<unsigned char>(a.ph)];
            }
            break;
        }
    }
    flush();
    asyncEvents_ = {};
    asyncArgs_ = {};
    if (unmatchedEnds)
        builder_.addWarning(
            ImportWarning::events(WarningKind::DroppedEvents, unmatchedEnds, "async end event(s) (e/F) without a begin dropped"));
    if (unfinished)
        builder_.addWarning(
            ImportWarning::events(WarningKind::AdjustedEvents, unfinished, "async span(s) never ended: shown up to the trace end"));
}

// Flow v1: per (cat, name, id) in time order. s and t bind to the slice enclosing
// them on their thread; f to the next slice starting there, or with bp:"e" to the
// enclosing one.
void ChromeTraceAssembler::resolveFlows() {
    auto identity = [](const FlowEvent& f) { return std::tie(f.cat, f.name, f.idKind, f.idValue); };
    parallelSort(flowEvents_, [&](const FlowEvent& a, const FlowEvent& b) {
        const auto ia = identity(a), ib = identity(b);
        if (ia != ib) return ia < ib;
        return std::tie(a.ts, a.seq) < std::tie(b.ts, b.seq);
    });
    using FlowEnd = TraceBuilder::FlowEnd;
    size_t ends = 0;  // each t or f makes at most one arrow
    for (const FlowEvent& f : flowEvents_) ends += f.ph != 's';
    builder_.reserveFlows(ends + boundSlices_.size());
    uint64_t withoutStart = 0;
    bool open = false;
    FlowEnd source;
    for (size_t i = 0; i < flowEvents_.size(); ++i) {
        const FlowEvent& f = flowEvents_[i];
        if (i > 0 && identity(flowEvents_[i - 1]) != identity(f)) open = false;
        const TrackIndex t = threads_[f.thread].track;  // kNoIndex: no slice there, the builder drops the arrow
        if (f.ph == 's') {
            source = FlowEnd::enclosing(t, f.ts);
            open = true;
            continue;
        }
        if (!open) {
            ++withoutStart;
            continue;
        }
        if (f.ph == 't') {
            const FlowEnd step = FlowEnd::enclosing(t, f.ts);
            builder_.addFlow(source, step, f.name, f.cat, f.shownId);
            source = step;
        } else {
            builder_.addFlow(source, f.enclosing ? FlowEnd::enclosing(t, f.ts) : FlowEnd::next(t, f.ts), f.name, f.cat,
                             f.shownId);
            open = false;
        }
    }
    flowEvents_ = {};
    if (withoutStart)
        builder_.addWarning(
            ImportWarning::events(WarningKind::DroppedEvents, withoutStart, "flow event(s) (t/f) without an open s dropped"));
}

// Flow v2: per bind_id in time order, flow_in links from the pending flow_out slice.
void ChromeTraceAssembler::resolveBoundFlows() {
    std::sort(boundSlices_.begin(), boundSlices_.end(), [](const BoundSlice& a, const BoundSlice& b) {
        return std::tie(a.idKind, a.idValue, a.ts, a.seq) < std::tie(b.idKind, b.idValue, b.ts, b.seq);
    });
    using FlowEnd = TraceBuilder::FlowEnd;
    const BoundSlice* pending = nullptr;
    for (size_t i = 0; i < boundSlices_.size(); ++i) {
        const BoundSlice& s = boundSlices_[i];
        if (i > 0 && (boundSlices_[i - 1].idKind != s.idKind || boundSlices_[i - 1].idValue != s.idValue))
            pending = nullptr;
        if ((s.flags & ChromeEvent::kFlowIn) && pending)
            builder_.addFlow(FlowEnd::ofSlice(pending->track, pending->slice), FlowEnd::ofSlice(s.track, s.slice),
                             kEmptyString, kEmptyString, s.shownId);
        if (s.flags & ChromeEvent::kFlowOut) pending = &s;
    }
    boundSlices_ = {};
}

std::string ChromeTraceAssembler::idText(const ProcessThreadId& id) {
    if (!id.isString) return std::to_string(id.value);
    return text(StringId(id.value));
}

void ChromeTraceAssembler::nameProcessesAndThreads() {
    for (PidInfo& info : pids_) {
        if (info.process == kNoIndex) continue;  // only metadata: not a process
        Process& p = builder_.process(info.process);
        if (info.name != kNoIndex) p.name = text(info.name);
        else if (info.id.isString) p.name = idText(info.id).empty() ? "Process \"\"" : idText(info.id);
        else p.name = "Process " + std::to_string(info.id.value);
        for (StringId l : info.labels) p.labels += (p.labels.empty() ? "" : ", ") + text(l);
        if (info.hasSortIndex) {
            p.sortIndex = info.sortIndex;
            p.hasSortIndex = true;
        }
        const bool device = info.deviceCategory || contains(p.name, "GPU") || contains(p.name, "TPU") ||
                            contains(p.name, "/device:") || contains(p.name, "MTIA") || contains(p.labels, "GPU") ||
                            contains(p.labels, "TPU") || contains(p.labels, "/device:") || contains(p.labels, "MTIA");
        p.kind = device ? ProcessKind::Device : ProcessKind::Host;
    }
    for (ThreadInfo& info : threads_) {
        if (info.track == kNoIndex) continue;
        Track& t = builder_.track(info.track);
        if (info.name != kNoIndex) t.name = text(info.name);
        else if (info.tid.isString) t.name = idText(info.tid).empty() ? "Thread \"\"" : idText(info.tid);
        else t.name = "Thread " + std::to_string(info.tid.value);
        if (info.hasSortIndex) {
            t.sortIndex = info.sortIndex;
            t.hasSortIndex = true;
        }
    }
}

void ChromeTraceAssembler::finish(const std::vector<TopLevelValue>& metadata) {
    resolveBeginEnd();
    resolveAsync();
    resolveFlows();
    resolveBoundFlows();
    nameProcessesAndThreads();

    bool hasBase = false;
    for (const TopLevelValue& m : metadata) {
        builder_.addMetadata(m.key, m.json);
        if (m.key == "baseTimeNanoseconds") {
            // Kineto: ts are microseconds relative to this Unix time.
            std::string v = m.json;
            v.erase(std::remove(v.begin(), v.end(), '"'), v.end());
            char* end = nullptr;
            const long long base = std::strtoll(v.c_str(), &end, 10);
            if (end && end != v.c_str()) {
                builder_.setOriginUnixNs(base);
                hasBase = true;
            }
        }
    }
    if (!hasBase && anyTime_ && minTime_ > kEpochThresholdNs) builder_.setOriginUnixNs(0);

    uint64_t skipped = withoutPhase_;
    for (uint64_t n : unsupported_) skipped += n;
    if (skipped) {
        std::string w = "event(s) of unsupported phases skipped:";
        for (int c = 0; c < 256; ++c) {
            if (!unsupported_[c]) continue;
            w += " ";
            if (c >= 0x21 && c < 0x7f) w += char(c);
            else w += "?";
            w += ":" + std::to_string(unsupported_[c]);
        }
        if (withoutPhase_) w += " (no ph):" + std::to_string(withoutPhase_);
        builder_.addWarning(ImportWarning::events(WarningKind::DroppedEvents, skipped, std::move(w)));
    }
    if (withoutTs_) builder_.addWarning(ImportWarning::events(WarningKind::DroppedEvents, withoutTs_, "event(s) without a valid ts skipped"));
    if (missingDur_)
        builder_.addWarning(ImportWarning::events(WarningKind::AdjustedEvents, missingDur_, "X event(s) without a numeric dur are 0 long"));
    if (utf8Replaced_)
        builder_.addWarning(ImportWarning::events(WarningKind::AdjustedEvents, utf8Replaced_, "invalid UTF-8 byte(s) replaced by '?'"));
    if (invalid_)
        builder_.addWarning(ImportWarning::corrupted(firstInvalidOffset_, "event(s) are not valid JSON and were "
                                                                          "skipped (the first: " + firstInvalidError_ + ")",
                                                     invalid_));
}

}  // namespace tracescope
