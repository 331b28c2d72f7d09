// Internal to the memory profile: reads a trace's memory events (XSpace MemoryAllocation /
// MemoryDeallocation, Kineto [memory] instants, allocator counters) into one unsorted
// snapshot list per memory id. See memory_profile.h for what each source contributes.
#pragma once

#include "model/analysis/memory_profile.h"

#include <string>
#include <vector>

namespace tracescope::memory_detail {

struct RawMemoryId {
    std::string memoryId;
    MemorySource source = MemorySource::XSpace;
    ProcessIndex eventsProcess = kNoIndex;  // process of the first event
    std::vector<MemorySnapshot> events;     // in trace order (track by track), times unsorted
    int64_t lifetimePeak = -1;              // XSpace peak_bytes_in_use, largest seen
    bool bytesOnly = false;                 // Kineto without Total Allocated
};

// Every memory event of the trace, grouped by memory id (in first-seen order). Op names
// are the event's own (tf_op) or the enclosing op on the allocating thread; steps are not
// set yet.
std::vector<RawMemoryId> collectMemoryEvents(const Trace& trace);

// Ops that only allocate (aten::empty, ...): the enclosing op above them names the allocation.
bool isAllocatorOnlyOp(std::string_view name);

}  // namespace tracescope::memory_detail
