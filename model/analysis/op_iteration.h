// Internal to the analyses: walks every op occurrence of a trace once, with its row key.
// Shared by op stats (aggregation) and occurrencesOf (navigation), so both agree exactly.
#pragma once

#include "model/analysis/op_classify.h"
#include "model/analysis/op_stats.h"

#include <functional>
#include <string>

namespace tracescope {

struct OpOccurrence {
    OpSide side = OpSide::Host;
    const std::string* name = nullptr;  // row name under the grouping
    const std::string* type = nullptr;
    SliceRef slice;
    TimeNs durationNs = 0;
    TimeNs selfNs = 0;
    SliceRole role = SliceRole::None;
    bool usesTensorCore = false;
};

void forEachOpOccurrence(const ClassifiedTrace& ct, OpGrouping grouping,
                         const std::function<void(const OpOccurrence&)>& visit);

// Row name/type of a host op slice and of a device activity (grouping ByName).
OpNameType hostOpNameType(const ClassifiedTrace& ct, SliceRef s);
OpNameType deviceOpNameType(const ClassifiedTrace& ct, SliceRef s);
const char* deviceKindName(SliceRole role);

}  // namespace tracescope
