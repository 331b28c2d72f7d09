// A call tree (model/analysis/call_tree.h) as the files other tools read:
//  * folded stacks (Brendan Gregg's flamegraph.pl format, also read by speedscope and Perfetto): one
//    line per distinct stack, "frame;frame;leaf VALUE", the value the stack's own figure of the
//    chosen metric (self time in ns by default); frames are the slices' full names, a thread frame
//    only in a by-thread tree; ';' inside a name becomes ':' and line breaks become spaces, so a
//    name cannot split a frame or a line;
//  * a pprof profile (google/pprof's profile.proto, gzip-compressed): one sample per stack with its
//    self wall time and, where the tree has any, its self device time (sample types wall/nanoseconds,
//    device/nanoseconds); Python frames become functions with their file and line.
#pragma once

#include "model/analysis/call_tree.h"

#include <string>

namespace tracescope {

// Stacks top-down (root frame first), or leaf first when `leafFirst` (a bottom-up flame graph).
// Stacks whose value is 0 are left out.
std::string foldedStacks(const CallTree& topDown, CallMetric metric, bool leafFirst = false);

// The frame as written in folded stacks.
std::string foldedFrameName(std::string_view name);

struct PprofOptions {
    int64_t timeNanos = 0;      // when the profile starts (Unix ns), 0 when unknown
    int64_t durationNanos = 0;  // the span it covers
};
// The uncompressed profile.proto bytes.
std::string pprofProfileBytes(const CallTree& topDown, const PprofOptions& options = {});
// Writes it gzip-compressed; false with `error` set when the file cannot be written.
bool writePprofProfile(const CallTree& topDown, const std::string& path, std::string& error,
                       const PprofOptions& options = {});

}  // namespace tracescope
