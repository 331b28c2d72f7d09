// Where the time goes by call stack: the host threads' slices merged into a tree keyed by name path
// (a flame graph's data), with each frame's wall and self time, count, and the device time it
// launched; its bottom-up inversion and a pivot on one frame.
//
// Frames: the slices of host thread tracks (Kineto python_function, cpu_op, user_annotation,
// cuda_runtime/cuda_driver; XSpace host lines; any Chrome trace's threads). Device tracks, derived
// XSpace lines, async and counter tracks are not frames, nor are profiler spans (Kineto's
// "PyTorch Profiler (0)", category "Trace").
//
// Nesting, per thread, by time containment, as XProf's EventForest connects a line: the thread's
// slices (its track and its overflow lanes as one sequence) in (start, longer first) order; a
// slice's parent is the top of a stack after popping every slice that does not wholly contain it.
// A slice that only partly overlaps an open one (a ProfilerStep#N that begins inside a Python
// frame) closes it for the slices after it; how the timeline puts slices in lanes plays no part.
//
// A range [from, to) keeps the slices that overlap it, each counting only its part inside it; a set
// of slices keeps them and what they enclose.
// Self time: a slice's part in the range minus the union of its children's parts (never negative).
// Device time: each kernel, copy and memset counts its whole duration for the runtime call that
// launched it (flow, else correlation id; op_classify.h's launchOf) when that call is a frame of the
// selection; a frame's device time is what it and its callees launched (HTA's and torch's
// "device time" of an op).
#pragma once

#include "model/analysis/op_classify.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tracescope {

struct CallTreeOptions {
    // Only the part of the trace in [from, to) when set.
    std::optional<std::pair<TimeNs, TimeNs>> range;
    // Only these host tracks when not empty (an overflow lane follows its track).
    std::vector<TrackIndex> tracks;
    // One root frame per thread ("<process>: <thread>") instead of merging the threads.
    bool byThread = false;
    // Only these slices and the slices they enclose when not empty (a set of slices: search
    // matches, the frames of one name); each counts from the root, its callers left out. A chosen
    // slice inside another chosen one counts as its callee.
    std::vector<SliceRef> roots;

    // A text for the result store's key.
    std::string key() const;
};

// What a frame's width is measured in.
enum class CallMetric : uint8_t {
    Wall,    // inclusive time of the frame's slices
    Self,    // time in the frame's own slices when no callee runs
    Device,  // device time launched by the frame (and, inclusive, by its callees)
    Count,   // slices
};
const char* callMetricId(CallMetric m);  // "wall", "self", "device", "count"
std::optional<CallMetric> callMetricFromId(std::string_view id);

inline constexpr uint32_t kCallRoot = 0;

struct CallNode {
    std::string_view name;  // the frame's full name (a view into the trace's or the tree's strings)
    uint32_t parent = kNoIndex;
    std::vector<uint32_t> children;  // by totalNs descending, then name
    uint32_t depth = 0;              // the root is 0
    // Top-down: the slices at exactly this stack. Bottom-up: routed from the leaves below (see
    // invertCallTree).
    TimeNs totalNs = 0;        // wall time of the slices at this stack (their parts in the range)
    TimeNs selfNs = 0;         // their self time
    TimeNs subtreeSelfNs = 0;  // self time at or under this stack (what folded stacks add up to)
    TimeNs deviceNs = 0;       // device time launched at or under this stack (inclusive)
    TimeNs selfDeviceNs = 0;   // device time launched by the slices at this stack
    uint64_t count = 0;        // slices at this stack
    uint64_t totalCount = 0;   // slices at or under this stack
    bool synthetic = false;    // a thread frame (by-thread trees) or the root: no slice of its own
    bool python = false;       // a Python frame (Kineto python_function, JAX/XSpace "$file.py:N f")
};

struct CallTree {
    // Names view ownedNames, so a tree moves but is not copied.
    CallTree() = default;
    CallTree(CallTree&&) = default;
    CallTree& operator=(CallTree&&) = default;
    CallTree(const CallTree&) = delete;
    CallTree& operator=(const CallTree&) = delete;

    // nodes[0] is the root ("" name, synthetic); a child's index is greater than its parent's.
    std::vector<CallNode> nodes;
    bool bottomUp = false;
    CallTreeOptions options;
    uint64_t slices = 0;              // slices counted (overlapping the range)
    uint64_t deviceActivities = 0;    // device activities attributed to a frame
    uint64_t unattributedDevice = 0;  // device activities in the range with no link to a launching call
    uint64_t cutAtDepth = 0;          // slices deeper than kMaxCallDepth, counted in their deepest kept frame
    uint32_t maxDepth = 0;
    std::vector<std::string> notes;      // what the file lacks (no Python frames, no device links)
    std::deque<std::string> ownedNames;  // names that are not the trace's (thread frames)

    const CallNode& root() const { return nodes[kCallRoot]; }
    // The width a frame is drawn with. Top-down: wall totalNs, self subtreeSelfNs (flamegraph.pl's
    // width from folded stacks), device deviceNs, count totalCount. Bottom-up: the routed values
    // (wall and self both totalNs).
    TimeNs width(uint32_t node, CallMetric metric) const;
    // The stack's own value of a metric (self time, self device time, count) as folded stacks and
    // pprof samples carry it; wall: the stack's inclusive time.
    TimeNs stackValue(uint32_t node, CallMetric metric) const;
    // The names from the first frame under the root down to `node`.
    std::vector<std::string_view> stackOf(uint32_t node) const;
};

// Deeper stacks (runaway recursion) stop here: a deeper slice counts in its deepest kept frame.
inline constexpr uint32_t kMaxCallDepth = 1024;

CallTree computeCallTree(const ClassifiedTrace& ct, const CallTreeOptions& options = {});

// A top-down tree from folded stacks (flamegraph.pl's format, "main;f;g" and a value, as our folded
// export writes them and a query's rows can give them): a stack's value is its last frame's self
// time and one slice there; a frame's wall time is its own value and its callees'. Repeated stacks
// add up. Frames past kMaxCallDepth are cut: their value counts in the deepest kept frame
// (cutAtDepth counts such stacks). Empty frame names (";;") are kept as "(empty)".
struct FoldedStack {
    std::string_view stack;
    TimeNs value = 0;
};
CallTree callTreeFromFolded(const std::vector<FoldedStack>& stacks);

// Bottom-up: the roots are the frames where time was spent (the leaves of each stack with self
// time, self device time or slices), their children the callers. A node's totalNs, deviceNs and
// totalCount are the self time, self device time and count routed through that caller chain; its
// selfNs / selfDeviceNs / count are those of the stacks that end there (the roots' only).
CallTree invertCallTree(const CallTree& topDown);

// A pivot on every frame named `name` (the outermost one of a stack when it recurses): callees, a
// top-down tree whose root's one child is `name` with every such frame's subtree merged; callers, a
// bottom-up tree whose root's one child is `name` with the frames above each occurrence.
struct CallPivot {
    CallTree callees;
    CallTree callers;
    uint64_t occurrences = 0;  // stacks where `name` is outermost
};
CallPivot pivotCallTree(const CallTree& topDown, std::string_view name);

// The frame slices (as computeCallTree takes them, before any range) whose full name `match` accepts:
// a set of slices for CallTreeOptions::roots.
std::vector<SliceRef> frameSlicesMatching(const ClassifiedTrace& ct,
                                          const std::function<bool(std::string_view)>& match);

// The slices counted at exactly nodes[node] of a tree made with these options (top-down), in time
// order per thread; at most `limit`.
std::vector<SliceRef> slicesOfCallNode(const ClassifiedTrace& ct, const CallTree& tree, uint32_t node,
                                       size_t limit = SIZE_MAX);
// The top-down nodes a bottom-up node stands for (whose stack, read upward, begins with it).
std::vector<uint32_t> topDownNodesOf(const CallTree& topDown, const CallTree& bottomUp, uint32_t node);

// A Python frame's location, from Kineto's "file.py(12): function" or the Python tracer's
// "$file.py:12 function"; nullopt for other names.
struct PythonLocation {
    std::string_view file;
    int64_t line = 0;
    std::string_view function;
};
std::optional<PythonLocation> pythonLocationOf(std::string_view frameName);

// Per distinct frame name: its figures over the whole tree, counting a frame that recurses once
// (its outermost occurrence) for wall and device time, as pprof's "cum" does; self and count over
// every occurrence. The code view is this table for the Python frames.
struct CallFrameRow {
    std::string_view name;
    uint64_t count = 0;
    TimeNs selfNs = 0;
    TimeNs totalNs = 0;
    TimeNs deviceNs = 0;
    bool python = false;
};
std::vector<CallFrameRow> frameTable(const CallTree& topDown);  // by selfNs descending, then name

}  // namespace tracescope
