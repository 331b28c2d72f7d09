// Internal to the analyses: walks every op occurrence of a trace once, with its row key.
// Shared by op stats (aggregation) and occurrencesOf (navigation), so both agree exactly.
#pragma once

#include "model/analysis/op_classify.h"
#include "model/analysis/op_stats.h"

#include <functional>
#include <string>
#include <vector>

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

// What XProf's op-name rule (isXprofOpName) did to a walk: host events left out
// (xprofLeavesOutHostOp) and device activities named as XProf names them (splitXprofDeviceOp).
struct XprofRuleTally {
    uint64_t hostEvents = 0;
    TimeNs hostNs = 0;  // their durations, summed
    std::string hostExample;
    uint64_t deviceActivities = 0;
    TimeNs deviceNs = 0;
    std::string deviceExample;
};

// Every op occurrence of the XProf-convention tables; `tally`, when given, counts what XProf's
// op-name rule left out or renamed on the way.
void forEachOpOccurrence(const ClassifiedTrace& ct, OpGrouping grouping,
                         const std::function<void(const OpOccurrence&)>& visit, XprofRuleTally* tally = nullptr);

// The sentences that tell the reader what the rule did (none when it did nothing).
std::vector<std::string> xprofRuleNotes(const XprofRuleTally& tally);

// Row name/type of a host op slice and of a device activity (grouping ByName).
OpNameType hostOpNameType(const ClassifiedTrace& ct, SliceRef s);
OpNameType deviceOpNameType(const ClassifiedTrace& ct, SliceRef s);
const char* deviceKindName(SliceRole role);

}  // namespace tracescope
