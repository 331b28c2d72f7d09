// Everything the timeline precomputes once per trace (off the UI thread) so a
// frame never scans events: per-depth slice lists and their coarse summaries, counter
// min/max trees, and per-track facts used while painting. The derived tracks (memory
// counters of the trace's memory profile, a result of its store) come later, on their own:
// the first picture never waits on an analysis.
#pragma once

#include "model/analysis/memory_tracks.h"
#include "model/analysis/queue_length.h"
#include "model/analysis/short_name.h"
#include "model/query/counter_layout.h"
#include "model/query/counter_range_index.h"
#include "model/query/data_extent.h"
#include "model/query/event_density.h"
#include "model/query/slice_depth_index.h"
#include "model/query/slice_depth_mipmap.h"
#include "model/trace/trace.h"

#include <atomic>
#include <memory>
#include <vector>

namespace tracescope {

struct TimelineIndex {
    SliceDepthIndex depths;
    SliceDepthMipmap coarse;                               // per-bucket summaries for zoomed-out frames
    std::vector<CounterRangeIndex> counters;               // per track (empty for non-counter tracks)
    std::vector<CounterDrawMode> counterModes;             // per track: steps or lines, as the producer's data is
    std::vector<uint8_t> onDevice;                         // per track: its process is a device
    std::unordered_map<StringId, std::string> shortNames;  // short forms of the names that have one
    std::vector<uint32_t> density;                         // events per time bucket over the whole trace (the minimap)
    static constexpr size_t kDensityBuckets = 4096;
    DataExtent extent;  // what Fit All shows: the span without long empty margins

    // Returns nullptr when cancelled.
    static std::shared_ptr<const TimelineIndex> build(const Trace& trace, const std::atomic<bool>* cancel = nullptr);
};

// The memory the index holds, for the result store's limit (its counter trees and short
// names roughly).
uint64_t resultBytes(const std::shared_ptr<const TimelineIndex>& index);

// The counter tracks derived from a memory profile and from the GPU streams' queue lengths
// (shown under their process), with their min/max trees.
struct TimelineDerivedTracks {
    std::shared_ptr<const MemoryProfileResult> memory;
    std::vector<DerivedCounterTrack> tracks;  // the memory tracks, then the queue lengths
    std::vector<CounterRangeIndex> ranges;    // per derived track

    static std::shared_ptr<const TimelineDerivedTracks> of(const Trace& trace,
                                                           std::shared_ptr<const MemoryProfileResult> memory,
                                                           const QueueLengthResult* queues);
    // `base` (may be null: none yet) with `extra` tracks after its own (the queries' tracks).
    static std::shared_ptr<const TimelineDerivedTracks> with(const TimelineDerivedTracks* base,
                                                             const std::vector<DerivedCounterTrack>& extra);
};

}  // namespace tracescope
