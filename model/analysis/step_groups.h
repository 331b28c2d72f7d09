// Which host events belong to which step, as XProf groups them (tsl's group_events.cc,
// "EventForest"), for XSpace host planes.
//
// XProf does not cut steps out of the timeline by time: it links host events into a forest and
// gives every event reachable from a step's root event that step's group id. The links:
//  * nesting on one thread (an event inside another is its child),
//  * producer -> consumer context stats: an event with _pt/_p is the parent of every event with
//    _ct/_c of the same type and id (skipped, as in XProf, when both sides have 64 or more),
//  * TF's executor: ExecutorState::Process -> IteratorGetNext[AsOptional]Op::DoCompute with the
//    same (id, iter_num) stats.
// (tf.data's producer/consumer iterator links are made for the tf.data tool only, not here.)
// Roots are the events with an _r stat (its value is the root level) or named "TraceContext";
// roots of tf.data functions' steps (InstantiatedCapturedFunction::Run* ids) are none. Roots are
// taken by level (higher first), then by start; a root under a root of the same level is no
// group of its own; each root's group takes the not yet grouped events it reaches.
// A file that already holds group_id stats (TF 2.4-era profiles) keeps its groups.
//
// Left out: zero-length events (instants) take part in no link; TF's while-loop iterations as
// roots (XProf's ProcessTensorFlowLoop) and its "no grouping when the graph has loop ops" rule.
#pragma once

#include "model/analysis/op_classify.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace tracescope {

inline constexpr int32_t kNoStepGroup = -1;

struct StepGroups {
    struct Group {
        SliceRef root;       // the root event (invalid for groups read from group_id stats)
        int64_t id = 0;      // XProf's group id: the root's rank, or the file's group_id
        int64_t number = 0;  // step number: the root's step_num / iter_num stat, else the id
    };
    std::vector<Group> groups;
    // groupOf[track][slice]: index into groups, or kNoStepGroup; empty for tracks not grouped
    // (device planes, counters).
    std::vector<std::vector<int32_t>> groupOf;
    bool fromFile = false;  // the groups are the file's group_id stats

    bool empty() const { return groups.empty(); }
    int32_t of(SliceRef s) const {
        return s.track < groupOf.size() && s.index < groupOf[s.track].size() ? groupOf[s.track][s.index]
                                                                             : kNoStepGroup;
    }
};

// A slice of a thread, for nesting the thread's events by time as XProf does.
struct ThreadSlice {
    TimeNs start, end;
    SliceRef ref;
};
// The slices of one thread's lanes (its track, then its overflow lanes) in XProf's line order:
// by start, longer first (ties in lane order). The display's lanes are one sequence again here.
std::vector<ThreadSlice> threadSlicesInLineOrder(const Trace& trace, const std::vector<TrackIndex>& lanes);

// The host events' step groups of an XSpace trace (empty for other formats or without roots).
StepGroups groupHostEvents(const ClassifiedTrace& ct);

// XProf's explicit host step marker: a name starting with "train", "test" or "TraceContext"
// and holding no '/' (xplane_to_step_events.cc IsExplicitHostStepMarker).
bool isExplicitStepMarkerName(std::string_view name);

// XProf's roots that get no step name (FunctionRun, SessionRun, RunGraph, ExecutorState::Process):
// they group events but are no step marker.
bool isImplicitRootName(std::string_view name);

}  // namespace tracescope
