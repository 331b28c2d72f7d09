// Which timeline snapshots a memory chart draws for a time window at a pixel width: per
// pixel column the snapshot with the least and the one with the most memory in use (and
// the most reserved), in time order, plus the last one before the window so the line
// enters from the left edge. The peak of every column is always drawn, unlike XProf's
// fixed 1,000-point sampling, and a frame costs O(log n + events in the window).
#pragma once

#include "model/analysis/memory_profile.h"

#include <cstdint>
#include <vector>

namespace tracescope {

std::vector<uint32_t> memoryPointsToDraw(const MemoryIdProfile& profile, TimeNs begin, TimeNs end, int columns);

}  // namespace tracescope
