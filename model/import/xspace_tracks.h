// How XSpace planes and lines become processes and tracks (after XProf's trace
// viewer): XProf's process ids, the order of a device's lines, and the category given to
// each host event. What a plane or line is (classifyPlane, classifyLine) and the categories
// analyses match on are facts of the trace: model/trace/xspace_kinds.h.
#pragma once

#include "model/trace/xspace_kinds.h"

#include <cstdint>
#include <string_view>

namespace tracescope::xspace {

// XProf's process ids: GPU/TPU 1 + plane id, custom devices 501 + id, host planes 701, 702, ...
int64_t xprofPid(std::string_view planeName, int64_t planeId, int hostPlaneOrdinal);

// Order of a line inside its device process: derived summary lines first (XLA Modules,
// XLA Ops, Steps, Framework Ops, Framework Name Scope, Source code, Launch Stats, other
// derived), then streams (by stream id), then anything else.
int64_t deviceLineSortIndex(LineKind kind);

// Category of a host event from its name and whether it carries a correlation_id.
std::string_view hostEventCategory(std::string_view fullName, bool hasCorrelationId);

// Human name of a TraceMe 2.0 context type (the `_pt` / `_ct` value), for flow names.
std::string_view contextTypeName(uint64_t type);

}  // namespace tracescope::xspace
