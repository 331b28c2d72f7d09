#include "model/analysis/step_set.h"

#include "model/trace/types.h"

#include <algorithm>

namespace tracescope {

namespace {

// XProf drops the first and the last step only when more than this many remain.
constexpr size_t kDropEndsAbove = 5;

std::string plural(size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// "numbers 3–10" when the included steps are consecutive in the list, else "".
std::string numberRange(const std::vector<StepBreakdown>& steps, const std::vector<uint8_t>& included) {
    size_t first = steps.size(), last = 0, count = 0;
    for (size_t i = 0; i < steps.size(); ++i)
        if (included[i]) first = std::min(first, i), last = i, ++count;
    if (count < 2 || last - first + 1 != count) return {};
    return "numbers " + std::to_string(steps[first].step.number) + "\u2013" + std::to_string(steps[last].step.number);
}

}  // namespace

const char* stepSetRuleName(StepSetRule r) { return r == StepSetRule::XProf ? "xprof" : "all"; }

StepSet chooseStepSet(const ClassifiedTrace& ct, const std::vector<StepBreakdown>& steps, bool allSteps) {
    StepSet set;
    const size_t n = steps.size();
    set.included.assign(n, 1);
    set.count = n;
    if (!ct.isXSpace) {
        set.description = n == 0 ? "no steps"
                                 : "all " + plural(n, "step", "steps") + ", as PyTorch's tools and timelines average them";
        return set;
    }
    // XProf's set, also when the user asks for every step (to say what TensorBoard would show).
    std::vector<uint8_t> xprof(n, 0);
    for (size_t i = 0; i < n; ++i) xprof[i] = steps[i].hasCompute;
    size_t withCompute = 0;
    for (uint8_t v : xprof) withCompute += v;
    set.withoutCompute = n - withCompute;
    set.xprofCount = withCompute;
    if (withCompute > kDropEndsAbove) {
        set.endsDropped = true;
        set.xprofCount -= 2;
        size_t i = 0;
        while (!xprof[i]) ++i;
        xprof[i] = 0;
        size_t j = n - 1;
        while (!xprof[j]) --j;
        xprof[j] = 0;
    }
    const std::string computeWord = std::any_of(ct.trace->processes.begin(), ct.trace->processes.end(),
                                                [](const Process& p) { return p.kind == ProcessKind::Device; })
                                        ? "device compute"
                                        : "host compute";
    if (allSteps) {
        set.rule = StepSetRule::AllSteps;
        set.allStepsChosen = true;
        set.description = "all " + plural(n, "step", "steps") + " (chosen; TensorBoard averages " +
                          std::to_string(set.xprofCount) + " of them)";
        return set;
    }
    set.rule = StepSetRule::XProf;
    if (set.xprofCount == 0) {
        // TensorBoard shows no step here; every step is more useful than no figure, and the
        // sentence says why.
        set.noneWithCompute = n > 0;
        set.description = n == 0 ? "no steps"
                                 : "all " + plural(n, "step", "steps") + ": TensorBoard shows none, as no step has " +
                                       computeWord;
        return set;
    }
    set.included = std::move(xprof);
    set.count = set.xprofCount;
    const std::string range = numberRange(steps, set.included);
    std::string d = std::to_string(set.count) + " of " + plural(n, "step", "steps");
    if (!range.empty()) d += " (" + range + ")";
    d += ", as TensorBoard";
    std::vector<std::string> why;
    if (set.withoutCompute > 0) why.push_back(plural(set.withoutCompute, "step", "steps") + " without " + computeWord + " left out");
    if (set.endsDropped) why.push_back("the first and the last left out as incomplete");
    if (!why.empty()) {
        d += ": " + why[0];
        if (why.size() > 1) d += ", then " + why[1];
    }
    set.description = d;
    return set;
}

std::array<CategorySummary, kStepCategoryCount> summarizeBreakdown(const std::vector<StepBreakdown>& steps,
                                                                   const StepSet& set) {
    std::array<CategorySummary, kStepCategoryCount> out{};
    TimeNs totalStep = 0;
    for (size_t i = 0; i < steps.size(); ++i)
        if (set.contains(i)) addSat(totalStep, steps[i].step.durationNs);
    for (size_t c = 0; c < kStepCategoryCount; ++c) {
        std::vector<double> v;
        TimeNs sum = 0;
        for (size_t i = 0; i < steps.size(); ++i) {
            if (!set.contains(i)) continue;
            v.push_back(double(steps[i].ns[c]));
            addSat(sum, steps[i].ns[c]);
        }
        out[c].ns = distributionOf(v);
        out[c].percentOfStep = totalStep > 0 ? 100.0 * double(sum) / double(totalStep) : 0;
    }
    return out;
}

Distribution stepTimeOf(const std::vector<StepBreakdown>& steps, const StepSet& set) {
    std::vector<double> v;
    for (size_t i = 0; i < steps.size(); ++i)
        if (set.contains(i)) v.push_back(double(steps[i].step.durationNs));
    return distributionOf(v);
}

}  // namespace tracescope
