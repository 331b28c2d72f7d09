// The allocations of one memory id alive at a moment, for "what held the memory then" (a click
// on the memory chart lists them in the timeline's Details).
#pragma once

#include "model/analysis/memory_profile.h"

#include <cstdint>
#include <vector>

namespace tracescope {

struct AliveAllocations {
    // Allocations could be matched to their frees (the trace records addresses; not a counter).
    bool matched = false;
    std::vector<uint32_t> snapshots;  // timeline indices of the allocations, largest first (ties: earlier first)
    int64_t bytes = 0;                // their allocation bytes, summed
    // The allocator's memory in use (heap) at the moment, -1 before its first event: above
    // `bytes` when memory allocated before the profile was still held.
    int64_t heapBytes = -1;
};

// Alive at `moment`: allocated at or before it and not freed by then (freed later, or never in
// the profile). Events at the moment itself count as done, as memorySnapshotAt reads the
// allocator's state after them.
AliveAllocations allocationsAliveAt(const MemoryIdProfile& profile, TimeNs moment);

}  // namespace tracescope
