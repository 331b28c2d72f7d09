#include "model/analysis/memory_alive.h"

#include <algorithm>

namespace tracescope {

AliveAllocations allocationsAliveAt(const MemoryIdProfile& profile, TimeNs moment) {
    AliveAllocations out;
    const std::vector<MemorySnapshot>& timeline = profile.timeline;
    if (!timeline.empty() && timeline.front().time <= moment)
        out.heapBytes = timeline[memorySnapshotAt(profile, moment)].heapBytes;
    out.matched = profile.hasAddresses && profile.source != MemorySource::Counter;
    if (!out.matched) return out;
    for (uint32_t i = 0; i < timeline.size() && timeline[i].time <= moment; ++i) {
        const MemorySnapshot& s = timeline[i];
        // Without an address an allocation cannot be matched to its free (the breakdown skips it too).
        if (s.kind != MemoryEventKind::Allocation || s.address == 0) continue;
        const bool freedBy = s.partner < timeline.size() && timeline[s.partner].time <= moment;
        if (freedBy) continue;
        out.snapshots.push_back(i);
        addSat(out.bytes, s.allocationBytes);
    }
    std::stable_sort(out.snapshots.begin(), out.snapshots.end(),
                     [&](uint32_t a, uint32_t b) { return timeline[a].allocationBytes > timeline[b].allocationBytes; });
    return out;
}

}  // namespace tracescope
