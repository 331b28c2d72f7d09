#include "views/timeline/timeline_index.h"

namespace tracescope {

std::shared_ptr<const TimelineIndex> TimelineIndex::build(const Trace& trace, const std::atomic<bool>* cancel) {
    auto index = std::make_shared<TimelineIndex>();
    if (!index->depths.build(trace, cancel)) return nullptr;
    if (!index->coarse.build(trace, index->depths, cancel)) return nullptr;
    index->counters.resize(trace.tracks.size());
    index->counterModes.assign(trace.tracks.size(), defaultCounterDrawMode(trace.format));
    index->onDevice.resize(trace.tracks.size(), 0);
    for (TrackIndex t = 0; t < trace.tracks.size(); ++t) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return nullptr;
        const Track& track = trace.tracks[t];
        if (!track.counter.empty()) index->counters[t] = CounterRangeIndex(track.counter);
        if (track.process < trace.processes.size())
            index->onDevice[t] = trace.processes[track.process].kind == ProcessKind::Device;
    }
    index->shortNames = shortNamesOf(trace.strings);
    index->density = eventDensity(trace, kDensityBuckets, cancel);
    if (cancel && cancel->load(std::memory_order_relaxed)) return nullptr;
    return index;
}

std::shared_ptr<const TimelineDerivedTracks> TimelineDerivedTracks::ofMemory(std::shared_ptr<const MemoryProfileResult> memory) {
    auto derived = std::make_shared<TimelineDerivedTracks>();
    if (!memory) return derived;
    derived->tracks = memoryCounterTracks(*memory);
    for (const DerivedCounterTrack& d : derived->tracks) derived->ranges.emplace_back(d.series);
    derived->memory = std::move(memory);
    return derived;
}

}  // namespace tracescope
