// Rewrites a finished track's args as templated entries (the encoding is in args.h).
//
// Events of one producer repeat the same keys, and most of their values: a Kineto
// kernel's grid, block, registers, stream and device come from a few hundred
// combinations, while its correlation and External id change with every launch. A
// template holds the keys and the values that repeat; an entry holds the rest.
#pragma once

#include "model/trace/track.h"

namespace tracescope {

// Rewrites `track`'s plain entries, the ones its slices and instants refer to, and updates
// their offsets; entries nothing refers to are dropped. A track already compacted, or
// whose args would not fit a 32-bit offset, is left as it is. The args every reader
// decodes are unchanged, in the same order.
void compactArgs(Track& track);

}  // namespace tracescope
