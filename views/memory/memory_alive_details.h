// The allocations of one memory id alive at a moment (allocationsAliveAt), as rows for the
// Details panel: what a click on the memory chart shows beside the timeline at that moment.
// Each allocation's row shows its lifetime in the timeline when clicked.
#pragma once

#include "model/analysis/memory_profile.h"
#include "views/details/details_item.h"

#include <functional>

namespace tracescope {

// The largest allocations get a row each, the rest one summary row.
inline constexpr size_t kAliveAllocationRows = 200;

// `showLifetime(begin, end)`: what a click on an allocation's row does (end: its free, else the
// trace's end).
DetailsGroup aliveAllocationsDetails(const Trace& trace, const MemoryIdProfile& profile, TimeNs moment,
                                     std::function<void(TimeNs, TimeNs)> showLifetime);

}  // namespace tracescope
