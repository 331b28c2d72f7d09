// Builds a Trace. Importers append events in any order; finish() sorts each
// track, computes nesting depth (spilling partial overlaps to overflow lanes),
// packs async spans into lanes, binds flows to slices and rebases times.
#pragma once

#include "model/trace/threads.h"
#include "model/trace/trace.h"

#include <atomic>
#include <memory>
#include <string>
#include <unordered_map>

namespace tracescope {

class TraceBuilder {
public:
    explicit TraceBuilder(std::string format);
    ~TraceBuilder();
    TraceBuilder(const TraceBuilder&) = delete;
    TraceBuilder& operator=(const TraceBuilder&) = delete;

    StringTable& strings() { return trace_->strings; }
    StringId intern(std::string_view s) { return trace_->strings.intern(s); }

    ProcessIndex addProcess(ProcessKind kind, int64_t pid, std::string name);
    Process& process(ProcessIndex p) { return trace_->processes[p]; }
    size_t processCount() const { return trace_->processes.size(); }

    TrackIndex addTrack(ProcessIndex process, TrackKind kind, std::string name, int64_t tid = 0);
    Track& track(TrackIndex t) { return trace_->tracks[t]; }
    size_t trackCount() const { return trace_->tracks.size(); }

    // Appends a slice; returns its provisional id (its insertion order within the track),
    // valid only for addFlow. `args` is an offset into track(t).argBlob (or kNoArgs).
    // An unfinished slice (a B without E) gets its duration at finish(): it ends at the trace end.
    uint32_t addSlice(TrackIndex t, TimeNs start, TimeNs duration, StringId name, StringId category,
                      ArgsOffset args = kNoArgs, bool unfinished = false);
    uint32_t addSlice(TrackIndex t, TimeNs start, TimeNs duration, StringId name, StringId category,
                      const ArgsWriter& args, bool unfinished = false);
    // Ends slice `slice` (an id addSlice returned) at time `end` (B/E pairs, async b/e): the end is
    // clamped like every time, and an end before the slice's start makes it 0 long.
    void endSlice(TrackIndex t, uint32_t slice, TimeNs end);
    void addInstant(TrackIndex t, TimeNs time, StringId name, StringId category, ArgsOffset args = kNoArgs);
    void addInstant(TrackIndex t, TimeNs time, StringId name, StringId category, const ArgsWriter& args);
    void addCounterSample(TrackIndex t, TimeNs time, double value);

    // Event times are kept within +-kMaxTimeNs so that every end, span and difference of two
    // times fits in 64 bits: times beyond are clamped to it (and slices cut there), with an
    // AdjustedEvents warning that counts them. A negative duration is made 0, with a warning too.
    static constexpr TimeNs kMaxTimeNs = 4'000'000'000'000'000'000;

    // One end of a flow: a slice by provisional id, or the slice of a track found by time.
    struct FlowEnd {
        enum class Bind : uint8_t { Slice, Enclosing, Next };
        TrackIndex track = kNoIndex;
        Bind bind = Bind::Slice;
        uint32_t slice = kNoIndex;  // Bind::Slice: provisional id
        TimeNs time = 0;  // Enclosing: deepest slice containing time; Next: first slice starting at/after time

        static FlowEnd ofSlice(TrackIndex t, uint32_t provisionalId) { return {t, Bind::Slice, provisionalId, 0}; }
        static FlowEnd enclosing(TrackIndex t, TimeNs time) { return {t, Bind::Enclosing, kNoIndex, time}; }
        static FlowEnd next(TrackIndex t, TimeNs time) { return {t, Bind::Next, kNoIndex, time}; }
    };
    // `id` (the producer's flow id) is accepted but not stored: the trace keeps
    // arrows small, and ids users need (correlation ids) are in the slices' args.
    void addFlow(const FlowEnd& from, const FlowEnd& to, StringId name, StringId category, uint64_t id = 0);
    // Room for n more flows (when the importer knows how many arrows may come).
    void reserveFlows(size_t n) { flows_.reserve(flows_.size() + n); }

    void addMetadata(std::string key, std::string value);
    void addXlaProgram(XlaProgramBlob program);
    void addWarning(ImportWarning warning);
    void addHost(std::string host);
    void setOriginUnixNs(int64_t unixNsOfTimeZero);  // the Unix time of time value 0 in the importer's clock

    // Finalizes and returns the trace; nullptr if cancelled. Uses `threads` workers.
    std::unique_ptr<Trace> finish(const std::atomic<bool>* cancel = nullptr, unsigned threads = machineThreads());

private:
    struct PendingFlow {
        FlowEnd from, to;
        uint32_t kind;  // index into Trace::flowKinds
    };
    std::unique_ptr<Trace> trace_;
    std::vector<PendingFlow> flows_;
    std::vector<uint8_t> trackNeedsIdMap_;
    std::optional<int64_t> unixNsOfZero_;
    // (name << 32 | category) -> index into Trace::flowKinds.
    std::unordered_map<uint64_t, uint32_t> flowKindIndex_;
    // Overflow lanes of each track, built once before flows are resolved.
    std::vector<std::vector<TrackIndex>> overflowLanes_;
    uint64_t clampedTimes_ = 0;
    uint64_t negativeDurations_ = 0;

    TimeNs clampTime(TimeNs t);

    void sortAndNest(TrackIndex t, std::vector<SliceRef>* idMap, std::vector<uint32_t>* parents);
    void packAsyncLanes(Track& track);
    void spillOverflow(std::vector<std::vector<SliceRef>>& idMaps, std::vector<std::vector<uint32_t>>& parents);
    void resolveFlows(const std::vector<std::vector<SliceRef>>& idMaps,
                      const std::vector<std::vector<uint32_t>>& parents);
    SliceRef resolve(const FlowEnd& end, const std::vector<std::vector<SliceRef>>& idMaps,
                     const std::vector<std::vector<uint32_t>>& parents) const;
    void orderProcessesAndTracks();
};

}  // namespace tracescope
