// What the viewer's background analyses may take now (the job runner's memory admission):
// the import's budget (model/import/memory_budget.h), lowered so that the whole process stays
// within 60% of the machine's memory (MemTotal; 14.4 GB of 24 GiB): a viewer left open with a
// huge trace must not take the machine from everything else. TRACESCOPE_MEMORY_LIMIT, when
// set, is used as it is. Never 0 when the machine's memory is known: a process already past
// its share gets 1 byte, so every analysis asks before it runs.
#pragma once

#include "model/import/memory_budget.h"

namespace tracescope {

MemoryBudget analysisMemoryBudget();

}  // namespace tracescope
