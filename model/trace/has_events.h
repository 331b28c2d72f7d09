// Whether a trace holds anything to draw or analyse: a file may parse cleanly and still hold no
// event (an empty Chrome event list "[]", or only metadata records).
#pragma once

#include "model/trace/trace.h"

#include <algorithm>

namespace tracescope {

inline bool traceHasEvents(const Trace& t) {
    return !t.flows.empty() || std::any_of(t.tracks.begin(), t.tracks.end(), [](const Track& tr) {
               return !tr.slices.empty() || !tr.instants.empty() || !tr.counter.empty();
           });
}

}  // namespace tracescope
