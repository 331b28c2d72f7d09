// Training steps and the per-step time breakdown (§7.4, §7.5).
//
// How steps are found, first match wins:
//  1. XSpace: events of the device "Steps" lines (one step per step_num / group_id). As in
//     XProf (§7.4) the step is the longest device marker of that step (devices may run one
//     step at different times), or the longest host step marker of the same group_id when
//     that one contains it.
//  2. XSpace: host step markers (e.g. "train" step annotations), one step per step group.
//     Without group_id stats the groups are made as XProf makes them (step_groups.h): a step
//     is a root event's group and its markers are the root and the events in the group named
//     like a step ("train…", "test…"); the longest marker is the step. Files with group_id
//     stats keep their groups; files without root events key markers by step_num.
//  3. PyTorch: host slices named "ProfilerStep#N" (N = step number).
//  4. User step annotations: host slices whose name is a step marker such as
//     "train_step", "train", "step#N", "Step N" (regex-free rules in steps.cc).
// Without any of these, steps are inferred (step_inference.cc):
//  5. a repeating top-level host annotation (e.g. "Optimizer.step#AdamW.step", or the first of
//     the "## forward ##"-style phases that repeat once per iteration),
//  6. the periodicity of the device work (the kernel sequence of the busiest stream repeats).
// StepOptions::marker overrides all of them: the slices of that name are the steps.
// If none is found the result has source None and the overview says
// "No step marker observed". StepsResult::rule says in words which rule was used.
#pragma once

#include "model/analysis/op_classify.h"
#include "model/analysis/step_groups.h"
#include "model/trace/trace.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tracescope {

enum class StepSource : uint8_t {
    None,
    XSpaceStepsLine,
    XSpaceStepAnnotation,
    ProfilerStep,
    UserAnnotation,
    NamedMarker,          // StepOptions::marker
    InferredAnnotation,   // a repeating top-level host annotation
    InferredDevicePeriod  // the period of the device work
};
const char* stepSourceName(StepSource s);

struct Step {
    int64_t number = 0;  // step number when known, else the ordinal
    std::string name;
    TimeNs startNs = 0;
    TimeNs durationNs = 0;
    std::optional<int64_t> groupId;  // XSpace group_id
    int32_t hostGroup = kNoStepGroup;  // index into StepsResult::hostGroups when grouped
    std::vector<SliceRef> markers;   // the slices that define the step (for navigation)

    TimeNs endNs() const { return plusSat(startNs, durationNs); }
};

// avg / stddev (population) / min / max of a set of values.
struct Distribution {
    size_t count = 0;
    double mean = 0;
    double stddev = 0;
    double min = 0;
    double max = 0;
};
Distribution distributionOf(const std::vector<double>& values);

struct StepsResult {
    StepSource source = StepSource::None;
    // The rule that found the steps, one sentence for the Overview and the CLI.
    std::string rule;
    std::vector<Step> steps;  // sorted by start
    Distribution stepTimeNs;
    // XSpace host events grouped into steps (step_groups.h) when the steps came from them.
    std::shared_ptr<const StepGroups> hostGroups;
};

struct StepOptions {
    // When set, host slices named exactly this (or "<marker>#N") are the steps and no other
    // rule is tried ("ProfilerStep" matches "ProfilerStep#12").
    std::string marker;
    // Average over every step instead of the trace's step set (step_set.h): the pages' "All
    // steps" switch, the CLI's --all-steps.
    bool allSteps = false;
};

StepsResult findSteps(const Trace& trace, const StepOptions& options = {});
StepsResult findSteps(const ClassifiedTrace& ct, const StepOptions& options = {});

// Sorts steps by start and fills the distribution.
StepsResult stepsResultOf(StepSource source, std::vector<Step> steps, std::string rule);

// The inference rules (step_inference.cc); each returns source None when it finds nothing.
StepsResult stepsFromNamedMarker(const ClassifiedTrace& ct, const std::string& marker);
StepsResult inferStepsFromAnnotation(const ClassifiedTrace& ct);
StepsResult inferStepsFromDevicePeriod(const ClassifiedTrace& ct);

// Names a user may pick as the step marker: host slice names that occur at least twice at the
// top level of a thread, most frequent first (at most `limit`); numbered names ("ProfilerStep#12")
// count under their stem ("ProfilerStep").
struct StepMarkerCandidate {
    std::string name;
    size_t occurrences = 0;
};
std::vector<StepMarkerCandidate> stepMarkerCandidates(const ClassifiedTrace& ct, size_t limit = 50);

// Displayed step-time categories (§7.5). Internal event types resolve overlaps by priority;
// these are the groups the overview and the input-pipeline page show.
enum class StepCategory : uint8_t {
    DeviceCompute,      // DEVICE_COMPUTE_16 + DEVICE_COMPUTE_32
    DeviceToDevice,     // DEVICE_TO_DEVICE + DEVICE_WAIT_DEVICE
    DeviceCollectives,  // nccl* kernels
    HostCompute,        // HOST_COMPUTE (+ pre/post-process, batch formation, runtime, host-to-host)
    KernelLaunch,       // HOST_PREPARE: runtime launch calls
    Input,              // HOST_WAIT_INPUT + HOST_TO_DEVICE + DEVICE_WAIT_HOST
    Output,             // DEVICE_TO_HOST
    Compilation,        // HOST_COMPILE
    Other,              // UNKNOWN_TIME: step time covered by no event
    Count
};
inline constexpr size_t kStepCategoryCount = static_cast<size_t>(StepCategory::Count);
const char* stepCategoryName(StepCategory c);

struct StepBreakdown {
    Step step;
    // Time per displayed category; the categories add up to step.durationNs.
    std::array<TimeNs, kStepCategoryCount> ns{};
    // Finer parts kept for the overview and the input-pipeline page.
    TimeNs deviceCompute16Ns = 0;
    TimeNs deviceCompute32Ns = 0;
    TimeNs hostWaitInputNs = 0;  // input part: host waiting for the input pipeline
    TimeNs hostToDeviceNs = 0;   // input part: H2D copies
    TimeNs deviceWaitHostNs = 0;
    // XProf's "well-formed" step: it holds device compute (profiles with a device) or host
    // compute (CPU-only profiles); steps without are left out of XProf's step set.
    bool hasCompute = false;

    TimeNs at(StepCategory c) const { return ns[static_cast<size_t>(c)]; }
};

// Collective communication kernels (NCCL; RCCL keeps the names), by full name.
bool isCollectiveKernelName(std::string_view fullName);

// Each step's time split by §7.5 priority over all host and device events inside it.
// A CPU-only XSpace whose steps are host step groups takes, as XProf does, only the host events
// of the step's group (xplane_to_step_events.cc): markers and EagerExecute / EagerLocalExecute /
// EagerKernelExecute / FunctionRun wrappers aside, IteratorGetNext* is Input, MemcpyHToD /
// InfeedEnqueue Input (host to device), compile passes Compilation, every other event Host
// compute; step time none of them covers is All others.
std::vector<StepBreakdown> breakdownSteps(const ClassifiedTrace& ct, const StepsResult& steps);

// Per category, over a set of steps (step_set.h summarizeBreakdown): distribution of the time (ns)
// and its share of the step time.
struct CategorySummary {
    Distribution ns;
    double percentOfStep = 0;  // total category time / total step time * 100
};

}  // namespace tracescope
