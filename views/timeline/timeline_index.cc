#include "views/timeline/timeline_index.h"

#include "model/trace/threads.h"

#include <future>

namespace tracescope {

std::shared_ptr<const TimelineIndex> TimelineIndex::build(const Trace& trace, const std::atomic<bool>* cancel) {
    auto index = std::make_shared<TimelineIndex>();
    // The data's extent needs its own pass over every event: on another core, beside the
    // depth lists (the first picture waits on this build).
    const auto policy = machineThreads() > 1 ? std::launch::async : std::launch::deferred;
    std::future<DataExtent> extent = std::async(policy, [&trace, cancel] { return dataExtent(trace, cancel); });
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
    index->extent = extent.get();
    if (cancel && cancel->load(std::memory_order_relaxed)) return nullptr;
    return index;
}

uint64_t resultBytes(const std::shared_ptr<const TimelineIndex>& index) {
    if (!index) return 0;
    uint64_t bytes = sizeof(TimelineIndex) + index->depths.memoryBytes() + index->coarse.memoryBytes() +
                     index->density.capacity() * sizeof(uint32_t) + index->onDevice.capacity() +
                     index->counterModes.capacity() * sizeof(CounterDrawMode);
    for (const auto& [id, name] : index->shortNames) bytes += sizeof id + sizeof name + name.capacity();
    for (const CounterRangeIndex& c : index->counters) bytes += sizeof c + c.size() * 2 * sizeof(double);
    return bytes;
}

std::shared_ptr<const TimelineDerivedTracks> TimelineDerivedTracks::of(const Trace& trace,
                                                                        std::shared_ptr<const MemoryProfileResult> memory,
                                                                        const QueueLengthResult* queues) {
    auto derived = std::make_shared<TimelineDerivedTracks>();
    if (memory) derived->tracks = memoryCounterTracks(*memory);
    if (queues)
        for (DerivedCounterTrack& d : queueLengthCounterTracks(trace, *queues)) derived->tracks.push_back(std::move(d));
    for (const DerivedCounterTrack& d : derived->tracks) derived->ranges.emplace_back(d.series);
    derived->memory = std::move(memory);
    return derived;
}

std::shared_ptr<const TimelineDerivedTracks> TimelineDerivedTracks::with(const TimelineDerivedTracks* base,
                                                                          const std::vector<DerivedCounterTrack>& extra) {
    auto derived = base ? std::make_shared<TimelineDerivedTracks>(*base) : std::make_shared<TimelineDerivedTracks>();
    for (const DerivedCounterTrack& d : extra) {
        derived->tracks.push_back(d);
        derived->ranges.emplace_back(derived->tracks.back().series);
    }
    return derived;
}

}  // namespace tracescope
