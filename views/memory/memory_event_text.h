// One memory event as rich text (time, event, requested and allocated size, op, step,
// region type, data type, shape, memory in use): the memory chart's popup, the timeline's
// memory track tooltip and Details all show it the same way.
#pragma once

#include "model/analysis/memory_profile.h"

#include <QString>

namespace tracescope {

QString memoryEventText(const Trace& trace, const MemoryIdProfile& profile, size_t snapshot);

}  // namespace tracescope
