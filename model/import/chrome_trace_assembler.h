// Turns parsed Chrome events (in file order) into a Trace through TraceBuilder.
//
// Slices, instants and counter samples go to the builder as they arrive. What
// needs the whole file first is kept as compact records and resolved at the
// end, each in time order: B/E matching per thread, async spans (b/e, S/F)
// per id, flow v1 arrows (s/t/f) per (cat, name, id) and flow v2 arrows per
// bind_id. Process and thread names are applied last, since M events may come
// anywhere in the file.
#pragma once

#include "model/import/chrome_event.h"
#include "model/import/json_chunk_reader.h"
#include "model/import/shared_string_cache.h"
#include "model/trace/trace_builder.h"

#include <array>
#include <string>
#include <unordered_map>
#include <vector>

namespace tracescope {

class ChromeTraceAssembler {
public:
    ChromeTraceAssembler(TraceBuilder& builder, SharedStrings& strings);

    // Adds one chunk's events; batches must come in file order.
    void add(const EventBatch& batch);
    // Events that produced something (for telling a trace from garbage).
    size_t importedEvents() const { return imported_; }
    size_t invalidEvents() const { return invalid_; }
    std::string firstInvalid() const { return "byte " + std::to_string(firstInvalidOffset_) + ": " + firstInvalidError_; }

    // Resolves everything pending and applies names, metadata and warnings.
    void finish(const std::vector<TopLevelValue>& metadata);

private:
    struct PidHash {
        size_t operator()(const ProcessThreadId& p) const noexcept {
            // Unsigned: a pid or tid near the int64 limits must not overflow (undefined in int64_t).
            return std::hash<uint64_t>{}(uint64_t(p.value) * 2 + (p.isString ? 1 : 0));
        }
    };
    struct ThreadKey {
        uint32_t pidSlot;
        ProcessThreadId tid;
        friend bool operator==(const ThreadKey&, const ThreadKey&) = default;
    };
    struct ThreadKeyHash {
        size_t operator()(const ThreadKey& k) const noexcept {
            return PidHash{}(k.tid) * 31 + k.pidSlot;
        }
    };
    struct PidInfo {
        ProcessThreadId id;
        ProcessIndex process = kNoIndex;
        StringId name = kNoIndex;
        std::vector<StringId> labels;  // distinct process_labels, in file order
        int64_t sortIndex = 0;
        bool hasSortIndex = false;
        bool deviceCategory = false;
        TrackIndex markers = kNoIndex;
    };
    struct ThreadInfo {
        uint32_t pidSlot;
        ProcessThreadId tid;
        TrackIndex track = kNoIndex;
        StringId name = kNoIndex;
        int64_t sortIndex = 0;
        bool hasSortIndex = false;
    };
    // B and E events, matched per thread at the end.
    struct BeginEnd {
        int64_t ts;
        uint64_t seq;
        uint32_t thread;
        uint32_t slice;      // B: provisional slice id
        StringId name;
        uint32_t argsBegin;  // E: args in endArgs_
        uint32_t argsSize;
        bool isEnd;
    };
    // b/e/n and S/F/T/p events, matched per async id at the end.
    struct AsyncEvent {
        EventId id;
        StringId cat, scope, name;
        uint32_t localPid;  // id2.local: the pid slot; kNoIndex for global ids
        uint32_t pidSlot;
        int64_t ts;
        uint64_t seq;
        uint32_t argsBegin, argsSize;  // in asyncArgs_
        char ph;
        uint8_t family;  // 0: b/e/n, 1: S/F/T/p
    };
    // Flow v1 s/t/f events.
    struct FlowEvent {
        uint64_t idValue;
        uint64_t shownId;
        int64_t ts;
        uint64_t seq;
        StringId cat, name;
        uint32_t thread;
        uint8_t idKind;
        char ph;
        bool enclosing;
    };
    // Slices carrying bind_id with flow_in / flow_out.
    struct BoundSlice {
        uint64_t idValue;
        uint64_t shownId;
        int64_t ts;
        uint64_t seq;
        TrackIndex track;
        uint32_t slice;
        uint8_t idKind;
        uint8_t flags;
    };
    struct CounterKey {
        uint32_t pidSlot;
        StringId name, id, key;
        friend bool operator==(const CounterKey&, const CounterKey&) = default;
    };
    struct CounterKeyHash {
        size_t operator()(const CounterKey& k) const noexcept {
            return ((size_t(k.pidSlot) * 1000003u + k.name) * 1000003u + k.id) * 1000003u + k.key;
        }
    };

    TraceBuilder& builder_;
    SharedStrings& strings_;

    std::vector<PidInfo> pids_;
    std::unordered_map<ProcessThreadId, uint32_t, PidHash> pidSlots_;
    std::vector<ThreadInfo> threads_;
    std::unordered_map<ThreadKey, uint32_t, ThreadKeyHash> threadSlots_;
    ProcessThreadId lastPid_{}, lastTid_{};
    uint32_t lastThread_ = kNoIndex;

    ProcessIndex globalProcess_ = kNoIndex;
    TrackIndex globalMarkers_ = kNoIndex;
    std::unordered_map<CounterKey, TrackIndex, CounterKeyHash> counterTracks_;
    std::unordered_map<uint64_t, TrackIndex> asyncTracks_;  // (pid slot << 32 | name)

    std::vector<BeginEnd> beginEnds_;
    std::vector<uint8_t> endArgs_;
    std::vector<AsyncEvent> asyncEvents_;
    std::vector<uint8_t> asyncArgs_;
    std::vector<FlowEvent> flowEvents_;
    std::vector<BoundSlice> boundSlices_;

    StringId deviceCategories_[6];
    StringId processName_, processLabels_, processSortIndex_, threadName_, threadSortIndex_;

    uint64_t seq_ = 0;
    size_t imported_ = 0;
    bool anyTime_ = false;
    int64_t minTime_ = 0;

    // Counts for warnings.
    std::array<uint64_t, 256> unsupported_{};
    uint64_t withoutPhase_ = 0, withoutTs_ = 0, missingDur_ = 0, utf8Replaced_ = 0;
    size_t invalid_ = 0;
    uint64_t firstInvalidOffset_ = 0;
    std::string firstInvalidError_;

    uint32_t pidSlot(const ProcessThreadId& pid);
    uint32_t threadSlot(const ProcessThreadId& pid, const ProcessThreadId& tid);
    ProcessIndex processOf(uint32_t pidSlot);
    TrackIndex threadTrack(uint32_t thread);
    TrackIndex processMarkers(uint32_t pidSlot);
    TrackIndex globalMarkers();
    TrackIndex counterTrack(uint32_t pidSlot, StringId name, StringId id, StringId key);
    TrackIndex asyncTrack(uint32_t pidSlot, StringId name);
    ArgsOffset copyArgs(TrackIndex t, const EventBatch& batch, const ChromeEvent& e);
    void noteCategory(uint32_t pidSlot, StringId cat);
    void noteTime(int64_t ts);
    void addEvent(const EventBatch& batch, const ChromeEvent& e);
    void addMetadataEvent(const ChromeEvent& e);

    void resolveBeginEnd();
    void resolveAsync();
    void resolveFlows();
    void resolveBoundFlows();
    void nameProcessesAndThreads();
    std::string idText(const ProcessThreadId& id);
    std::string text(StringId id) { return strings_.text(id); }
};

}  // namespace tracescope
