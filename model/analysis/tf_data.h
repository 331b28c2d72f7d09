// tf.data bottleneck analysis: every input pipeline of every host rebuilt from the tf.data
// iterator events, its latency per call, and per call the critical path and the bottleneck.
// Follows XProf's xplane_to_tf_data_stats.cc and tf_data_stats_utils.cc (the backend of its
// former "tf.data Bottleneck Analysis" tool):
//  * Iterator events are named "Iterator::<D1>::...::<Dn>" (the long name; stat "long_name" when
//    the event shows the short "Iterator::<Dn>") with stats id and parent_id. A root iterator has
//    exactly two components ("Iterator::Root", "Iterator::Model", "Iterator::Prefetch"); its id
//    is a pipeline and each of its events a call.
//  * Children of an iterator event: the iterator events nested directly inside it on its thread,
//    and the producer iterators of the elements it consumed: a *Produce event (PrefetchProduce,
//    ParallelMapProduce, ...) with stat element_id holds the producer iterator (its first nested
//    iterator, keyed by (parent_id, element_id)); a *Consume event with the same element_id
//    nested directly in an iterator (keyed by (id, element_id)) makes it that iterator's child.
//  * Per call, per iterator: start (first event), total (sum of durations), self (duration minus
//    each iterator child's overlap with it), calls, and blocking: the root is blocking, a child is
//    blocking when its parent is and it overlaps it (a Prefetch child that ran ahead of the
//    consumer is not). The bottleneck is the blocking iterator with the largest self time.
//  * A pipeline whose root has a "Iterator::Prefetch::Generator" child (a distribution strategy's
//    per-device prefetch) is a device pipeline; the others are host pipelines.
//  * Slow call: a root call longer than 50 us (the tf.data performance guide: a GetNext of 50 us
//    or less means the step is not input-bound).
#pragma once

#include "model/analysis/op_classify.h"
#include "model/analysis/overview.h"
#include "model/trace/trace.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tracescope {

inline constexpr TimeNs kTfDataSlowCallNs = 50'000;  // 50 us

// The iterators XProf calls asynchronous (they hand elements over through a buffer).
bool isAsyncIteratorName(std::string_view name);

enum class TfDataPipelineKind : uint8_t { Host, Device };
const char* tfDataPipelineKindName(TfDataPipelineKind k);

// One iterator of a pipeline (a node of its graph).
struct TfDataIterator {
    uint64_t id = 0;
    uint64_t parentId = 0;
    bool hasParent = false;   // false for the root
    std::string name;         // the last component: "Map", "BatchV2", "Prefetch"
    // The name with the input index an interleave or flat_map gives its inputs' iterators
    // ("...::Interleave[1]::TFRecord" -> "TFRecord [1]"), else the name.
    std::string label;
    std::string longName;     // "Iterator::Root::Prefetch::BatchV2::Map"
    bool isAsync = false;
};

// One iterator within one root call: its events reached from that root event, summed.
// An asynchronous iterator's input (below Prefetch, ParallelMap, ...) runs on other threads, often
// before the consumer asked: its start can precede the call's, and its total exceed its parent's.
struct TfDataIteratorStat {
    uint64_t id = 0;
    TimeNs startNs = 0;   // its first event in the call (trace time)
    TimeNs endNs = 0;     // the end of its last event in the call (trace time)
    TimeNs totalNs = 0;   // sum of its event durations in the call
    TimeNs selfNs = 0;    // total minus the overlap of its iterator children with it
    // The part of totalNs before the root call began: work done ahead by an asynchronous producer.
    TimeNs aheadNs = 0;
    uint64_t calls = 0;   // its events in the call
    bool blocking = false;  // on the critical path of the call
};

// One call of the root iterator (one root event).
struct TfDataCall {
    SliceRef root;
    TimeNs startNs = 0;
    TimeNs durationNs = 0;
    std::vector<TfDataIteratorStat> iterators;  // in the order the call reached them (root first)
    uint64_t bottleneckId = 0;      // the blocking iterator with the largest self time
    TimeNs bottleneckSelfNs = 0;

    const TfDataIteratorStat* stat(uint64_t id) const;
};

struct TfDataPipeline {
    ProcessIndex process = kNoIndex;
    std::string host;              // the host the process ran on (its name when unknown)
    std::string name;              // "Host:0", "Device:1" (numbered per host, in order found)
    TfDataPipelineKind kind = TfDataPipelineKind::Host;
    uint64_t rootId = 0;
    std::vector<TfDataIterator> iterators;  // every iterator any call reached, root first
    std::vector<TfDataCall> calls;          // sorted by duration, slowest first (index = rank)
    TimeNs minNs = 0;
    TimeNs maxNs = 0;
    double avgNs = 0;
    uint64_t slowCalls = 0;  // calls longer than kTfDataSlowCallNs

    const TfDataIterator* iterator(uint64_t id) const;
};

// XProf's bottleneck categories, by the bottleneck iterator's name.
enum class TfDataBottleneckCategory : uint8_t {
    SlowSource,
    SlowDataService,
    SlowRemoteSource,
    TransformationWithParallelVersion,
    TransformationWithoutParallelVersion,
    Other,
};
const char* tfDataBottleneckCategoryName(TfDataBottleneckCategory c);
// The category of an iterator name ("Map", "TFRecord"); a version suffix ("BatchV2") is ignored.
TfDataBottleneckCategory tfDataBottleneckCategory(std::string_view iteratorName);
// What to try, for a bottleneck of that name (plain text).
std::string tfDataSuggestion(std::string_view iteratorName);

// A host pipeline's slowest call and its bottleneck (XProf's "bottleneck analysis" row).
struct TfDataBottleneck {
    size_t pipeline = 0;  // index into TfDataResult::pipelines
    std::string host;
    std::string pipelineName;
    TimeNs maxLatencyNs = 0;
    uint64_t iteratorId = 0;
    std::string iteratorName;
    std::string iteratorLongName;
    TimeNs iteratorLatencyNs = 0;  // its self time in the slowest call
    TfDataBottleneckCategory category = TfDataBottleneckCategory::Other;
    std::string suggestion;
};

struct TfDataSummary {
    bool hasTfData = false;     // at least one root call
    // The worst pipeline's slowest call is longer than 50 us (XProf's is_input_bound).
    bool slowPipeline = false;
    size_t worstBottleneck = SIZE_MAX;  // index into bottlenecks (the first), SIZE_MAX if none
    // Only device pipelines were found: the worst of those is summarized instead.
    bool deviceOnly = false;
    // The step-time breakdown's verdict (overview), joined here.
    InputBound stepVerdict = InputBound::Unknown;
    double stepInputPercent = 0;  // over the step set (step_set.h), as the Overview's input %
    size_t steps = 0;             // every step
    std::string stepSet;          // which steps stepInputPercent is taken over, in words
    std::string text;        // one paragraph
    std::string suggestion;  // for the worst pipeline's bottleneck ("" without one)
};

// One iterator event and where it counted: for navigation between the graph and the timeline.
struct TfDataEventRef {
    SliceRef slice;
    uint32_t pipeline = 0;
    uint32_t call = 0;  // rank within the pipeline
    uint64_t iteratorId = 0;
    // This event's share of its iterator's self time in the call: its duration minus the overlap
    // of its iterator children. Work it runs itself (a map function) is not subtracted, unlike
    // the timeline's self time, which subtracts every slice nested in the event.
    TimeNs selfNs = 0;
};

struct TfDataResult {
    std::vector<TfDataPipeline> pipelines;  // by host, then in the order found
    // Host pipelines (device ones when there are no host pipelines), worst first.
    std::vector<TfDataBottleneck> bottlenecks;
    TfDataSummary summary;
    // Every iterator event a call reached, sorted by slice (track, index).
    std::vector<TfDataEventRef> events;
    // What the file lacks for this analysis (producer_notes.h), e.g. the hand-off events
    // XProf's trace JSON leaves out.
    std::vector<std::string> notes;
};

// `stepOptions` pick the steps the summary's step input % is taken over, as on the Overview.
TfDataResult computeTfData(const Trace& trace, const StepOptions& stepOptions = {});
TfDataResult computeTfData(const ClassifiedTrace& ct, const StepOptions& stepOptions = {});

// The events of one iterator in one call (by track, then start).
std::vector<SliceRef> tfDataEventsOf(const TfDataResult& r, size_t pipeline, size_t call, uint64_t iteratorId);
// The same events in time order (start, then track), each with its self time: the events a
// graph box sums.
std::vector<TfDataEventRef> tfDataCallEvents(const Trace& trace, const TfDataResult& r, size_t pipeline, size_t call,
                                             uint64_t iteratorId);
// Where an event counted; nullptr when it is not an iterator event of any call.
const TfDataEventRef* tfDataEventAt(const TfDataResult& r, SliceRef slice);

// What to record when a trace has no tf.data events (for the CLI and the page).
std::string tfDataNothingRecordedText();

}  // namespace tracescope
