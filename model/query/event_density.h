// Event density over the whole trace for the timeline's minimap: how many
// slices, instants and counter samples start in each of `buckets` equal time
// buckets from the trace's start to its end. One pass over the start columns.
#pragma once

#include "model/trace/trace.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace tracescope {

// Empty when the trace has no span or when cancelled.
std::vector<uint32_t> eventDensity(const Trace& trace, size_t buckets, const std::atomic<bool>* cancel = nullptr);

}  // namespace tracescope
