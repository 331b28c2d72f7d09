// The overview page (§7.5 "performance summary"): run environment, steps, step-time
// breakdown, top device ops, op placement, compute precision and recommendations.
#pragma once

#include "model/analysis/op_stats.h"
#include "model/analysis/step_set.h"
#include "model/analysis/steps.h"

#include <string>
#include <utility>
#include <vector>

namespace tracescope {

struct DeviceInfo {
    std::string name;  // "/device:GPU:0", "GPU 0"
    std::string host;
    // Known properties as text: name, compute capability, SM count, memory, clock...
    // (XSpace: Process.properties from plane stats; Kineto: metadata deviceProperties).
    std::vector<std::pair<std::string, std::string>> properties;
};

struct RunEnvironment {
    std::vector<std::string> hosts;  // distinct host names the files record
    // Hosts = files: named ones plus those whose file records no host name (never guessed).
    size_t hostCount = 0;
    size_t filesWithoutHostName = 0;
    std::string deviceType;  // "GPU", "TPU", "CPU" (no device activity)
    size_t deviceCount = 0;
    std::vector<DeviceInfo> devices;
};

// §7.5 input-bound verdict from the input share of the step time.
enum class InputBound : uint8_t { Unknown, NotInputBound, Potentially, Moderately, Highly };
const char* inputBoundName(InputBound b);

// Thresholds from §7.5: input% >= 20 highly; >= 5 moderately; else all-other% >= 3 potentially;
// else not input-bound. Unknown when there are no steps.
InputBound classifyInputBound(double inputPercent, double otherPercent, bool haveSteps);

struct TopOp {
    std::string name;
    std::string type;
    TimeNs selfNs = 0;
    double percent = 0;  // of device self time (idle excluded)
};

struct Overview {
    RunEnvironment environment;
    StepsResult steps;
    std::vector<StepBreakdown> breakdown;  // every step
    // The steps the averages and percentages below are taken over (step_set.h).
    StepSet stepSet;
    std::array<CategorySummary, kStepCategoryCount> categories{};  // over the step set
    Distribution stepTimeNs;                                        // over the step set
    double averageStepNs = 0;
    std::vector<TopOp> topDeviceOps;  // top 10 device ops by self time
    // Op placement: share of op self time on host vs device (idle excluded), in %.
    double hostOpPercent = 0;
    double deviceOpPercent = 0;
    // Device compute precision: share of device compute time in 16-bit vs 32-bit kernels, in %.
    double compute16Percent = 0;
    double compute32Percent = 0;
    // Percent of step time over the step set: the category's time summed over the set divided by
    // the step time summed over it (0 without steps).
    double inputPercent = 0;
    double kernelLaunchPercent = 0;
    double outputPercent = 0;
    double otherPercent = 0;
    InputBound inputBound = InputBound::Unknown;
    // Recommendation paragraphs, plain text, most important first.
    std::vector<std::string> recommendations;
    // What the file does not carry for this page (producer_notes.h), as sentences.
    std::vector<std::string> notes;
};

Overview computeOverview(const Trace& trace, const StepOptions& stepOptions = {});
Overview computeOverview(const ClassifiedTrace& ct, const StepOptions& stepOptions = {});

// Recommendation text from the numbers alone (used by computeOverview; testable on hand cases).
std::vector<std::string> recommendationsFor(const Overview& o);

RunEnvironment runEnvironmentOf(const Trace& trace);

// "1 host: worker-0", "1 host, name unknown (not recorded in the file)", "3 hosts: a, b, and 1
// whose file records no name": the same words in the GUI and the CLI.
std::string hostsText(const RunEnvironment& env);

}  // namespace tracescope
