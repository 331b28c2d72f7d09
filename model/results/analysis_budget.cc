#include "model/results/analysis_budget.h"

#include <algorithm>

namespace tracescope {

namespace {
// The viewer keeps the process within this share of the machine.
constexpr double kProcessShare = 0.6;
}  // namespace

MemoryBudget analysisMemoryBudget() {
    MemoryBudget b = importMemoryBudget();
    if (b.source == kMemoryLimitVariable) return b;  // the user's figure, as it is
    const uint64_t total = machineMemoryBytes();
    if (!total) return b;
    const uint64_t share = uint64_t(double(total) * kProcessShare), resident = residentBytes();
    const uint64_t room = std::max<uint64_t>(share > resident ? share - resident : 0, 1);
    if (!b.bytes || room < b.bytes) {
        b.bytes = room;
        b.source = "60% of the machine's memory, less the " + formatBytes(resident) + " the viewer holds";
    }
    return b;
}

}  // namespace tracescope
