// The order the timeline shows processes and tracks in by default (before
// any user layout), shared with `tracescope-cli tracks`.
//
// - The file's sort indices (process_sort_index, thread_sort_index) come
//   first: processes and tracks that have one are ordered by it (then pid /
//   the producer's order), ahead of those without. Kineto writes them so that
//   the host comes before the GPUs, as Perfetto and chrome://tracing show it.
// - Without sort indices the producer's convention holds: a Kineto trace
//   (PyTorch profiler JSON) shows its host processes before its devices;
//   otherwise as the importer ordered them: devices first, XSpace device
//   planes by id, a process's
//   tracks markers, counters, threads (by tid), async; overflow lanes right
//   after their track.
// - Processes and tracks with no events (no slices, instants or counter
//   samples) are left out.
#pragma once

#include "model/trace/trace.h"

#include <vector>

namespace tracescope {

struct OrderedProcess {
    ProcessIndex process = kNoIndex;
    std::vector<TrackIndex> tracks;  // in display order, none empty
};

std::vector<OrderedProcess> defaultTrackOrder(const Trace& trace);

// PyTorch profiler (Kineto) JSON: schemaVersion and deviceProperties at the top level.
bool isKinetoTrace(const Trace& trace);

// Slices + instants + counter samples.
size_t trackEventCount(const Track& track);

}  // namespace tracescope
