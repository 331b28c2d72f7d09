#include "model/analysis/memory_tracks.h"

namespace tracescope {

std::vector<DerivedCounterTrack> memoryCounterTracks(const MemoryProfileResult& result) {
    std::vector<DerivedCounterTrack> out;
    for (size_t i = 0; i < result.ids.size(); ++i) {
        const MemoryIdProfile& p = result.ids[i];
        if (p.timeline.empty()) continue;
        DerivedCounterTrack a;
        a.process = p.process;
        a.name = "Memory " + p.memoryId + (p.source == MemorySource::Kineto ? ": allocated" : ": in use");
        a.memoryId = i;
        a.series.time.reserve(p.timeline.size());
        a.series.value.reserve(p.timeline.size());
        for (const MemorySnapshot& s : p.timeline) {
            a.series.time.push_back(s.time);
            a.series.value.push_back(double(s.inUseBytes()));
        }
        out.push_back(std::move(a));
        if (!p.hasReserved) continue;
        DerivedCounterTrack r;
        r.process = p.process;
        r.name = "Memory " + p.memoryId + ": reserved";
        r.memoryId = i;
        r.reserved = true;
        for (const MemorySnapshot& s : p.timeline) {
            if (s.reservedBytes < 0) continue;
            r.series.time.push_back(s.time);
            r.series.value.push_back(double(s.reservedBytes));
        }
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace tracescope
