#include "model/analysis/steps.h"

#include "model/analysis/analysis_progress.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>

namespace tracescope {

const char* stepSourceName(StepSource s) {
    switch (s) {
        case StepSource::None: return "none";
        case StepSource::XSpaceStepsLine: return "device Steps line";
        case StepSource::XSpaceStepAnnotation: return "host step annotations";
        case StepSource::ProfilerStep: return "ProfilerStep#N";
        case StepSource::UserAnnotation: return "user step annotations";
        case StepSource::NamedMarker: return "named step marker";
        case StepSource::InferredAnnotation: return "inferred from a repeating annotation";
        case StepSource::InferredDevicePeriod: return "inferred from the period of device work";
    }
    return "none";
}

const char* stepCategoryName(StepCategory c) {
    switch (c) {
        case StepCategory::DeviceCompute: return "Device compute";
        case StepCategory::DeviceToDevice: return "Device to device";
        case StepCategory::DeviceCollectives: return "Device collective communication";
        case StepCategory::HostCompute: return "Host compute";
        case StepCategory::KernelLaunch: return "Kernel launch";
        case StepCategory::Input: return "Input";
        case StepCategory::Output: return "Output";
        case StepCategory::Compilation: return "Compilation";
        case StepCategory::Other: return "All others";
        case StepCategory::Count: break;
    }
    return "";
}

Distribution distributionOf(const std::vector<double>& v) {
    Distribution d;
    d.count = v.size();
    if (v.empty()) return d;
    double sum = 0;
    d.min = d.max = v.front();
    for (double x : v) {
        sum += x;
        d.min = std::min(d.min, x);
        d.max = std::max(d.max, x);
    }
    d.mean = sum / double(v.size());
    double sq = 0;
    for (double x : v) sq += (x - d.mean) * (x - d.mean);
    d.stddev = std::sqrt(sq / double(v.size()));
    return d;
}

namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

// Digits at the start of s -> number; false when none.
bool leadingNumber(std::string_view s, int64_t& out) {
    int64_t v = 0;
    size_t n = 0;
    while (n < s.size() && n < 18 && std::isdigit(static_cast<unsigned char>(s[n]))) v = v * 10 + (s[n++] - '0');
    if (n == 0) return false;
    out = v;
    return true;
}

// A user step annotation: "train_step", "train", "step", "training_step", "Step 3", "step#3", "train_step#3".
bool isUserStepName(std::string_view n, int64_t& number, bool& hasNumber) {
    hasNumber = false;
    for (std::string_view base : {"train_step", "training_step", "train", "step", "Step"}) {
        if (!startsWith(n, base)) continue;
        std::string_view rest = n.substr(base.size());
        if (rest.empty()) return true;
        if (rest.front() == '#' || rest.front() == ' ' || rest.front() == '_') rest.remove_prefix(1);
        if (leadingNumber(rest, number) && rest.find_first_not_of("0123456789") == std::string_view::npos) {
            hasNumber = true;
            return true;
        }
        return false;
    }
    return false;
}

struct StepAcc {
    Step step;
    TimeNs end = 0;
    TimeNs longest = -1;
};

StepsResult finish(StepSource source, std::map<int64_t, StepAcc>& acc, std::string rule) {
    std::vector<Step> steps;
    for (auto& [k, a] : acc) {
        a.step.durationNs = durationBetween(a.step.startNs, a.end);
        steps.push_back(std::move(a.step));
    }
    return stepsResultOf(source, std::move(steps), std::move(rule));
}

// Steps defined by their longest marker (§7.4: the longest host marker is the step).
void addLongest(std::map<int64_t, StepAcc>& acc, int64_t key, int64_t number, std::string name, SliceRef ref,
                TimeNs start, TimeNs dur, std::optional<int64_t> group) {
    StepAcc& a = acc[key];
    a.step.markers.push_back(ref);
    if (dur > a.longest) {
        a.longest = dur;
        a.step.number = number;
        a.step.name = std::move(name);
        a.step.startNs = start;
        a.end = plusSat(start, dur);
        a.step.groupId = group;
    }
}

}  // namespace

StepsResult stepsResultOf(StepSource source, std::vector<Step> steps, std::string rule) {
    StepsResult r;
    r.source = source;
    r.rule = std::move(rule);
    r.steps = std::move(steps);
    std::sort(r.steps.begin(), r.steps.end(), [](const Step& a, const Step& b) {
        return a.startNs != b.startNs ? a.startNs < b.startNs : a.number < b.number;
    });
    std::vector<double> d;
    for (const auto& s : r.steps) d.push_back(double(s.durationNs));
    r.stepTimeNs = distributionOf(d);
    return r;
}

StepsResult findSteps(const Trace& trace, const StepOptions& options) {
    return findSteps(classifyTrace(trace), options);
}

StepsResult findSteps(const ClassifiedTrace& ct, const StepOptions& options) {
    if (!options.marker.empty()) return stepsFromNamedMarker(ct, options.marker);
    const Trace& t = *ct.trace;
    // 1. XSpace device "Steps" lines.
    if (ct.isXSpace) {
        std::map<int64_t, StepAcc> acc;
        int64_t ordinal = 0;
        for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
            if (!ct.trackOnDevice[ti] || t.tracks[ti].name != "Steps") continue;
            const SliceColumns& c = t.tracks[ti].slices;
            for (uint32_t i = 0; i < c.size(); ++i) {
                analysisTick();
                const SliceRef ref{ti, i};
                int64_t num = 0, group = 0;
                const bool hasGroup = sliceArgInt(t, ref, "group_id", group);
                const bool hasNum = sliceArgInt(t, ref, "step_num", num) ||
                                    leadingNumber(t.str(c.name[i]), num);
                const int64_t key = hasNum ? num : hasGroup ? group : ordinal++;
                std::string name = sliceArgText(t, ref, "step_name");
                if (name.empty()) name = std::string(t.str(c.name[i]));
                addLongest(acc, key, hasNum ? num : key, std::move(name), ref, c.start[i], c.duration[i],
                           hasGroup ? std::optional<int64_t>(group) : std::nullopt);
            }
        }
        if (!acc.empty()) {
            // §7.4: the step is the longest host marker of the group when it contains the longest
            // device marker, else the longest device marker.
            std::map<int64_t, std::pair<TimeNs, TimeNs>> hostLongest;  // group -> (start, end)
            for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
                if (ct.trackOnDevice[ti] || ct.trackSkipped[ti]) continue;
                const SliceColumns& c = t.tracks[ti].slices;
                for (uint32_t i = 0; i < c.size(); ++i) {
                    analysisTick();
                    int64_t group;
                    if (ct.roles[ti][i] != SliceRole::StepMarker || !sliceArgInt(t, {ti, i}, "group_id", group)) continue;
                    auto [it, inserted] = hostLongest.try_emplace(group, c.start[i], c.end(i));
                    if (!inserted && c.duration[i] > it->second.second - it->second.first)
                        it->second = {c.start[i], c.end(i)};
                }
            }
            for (auto& [k, a] : acc) {
                if (!a.step.groupId) continue;
                auto h = hostLongest.find(*a.step.groupId);
                if (h != hostLongest.end() && h->second.first <= a.step.startNs && a.end <= h->second.second) {
                    a.step.startNs = h->second.first;
                    a.end = h->second.second;
                }
            }
            return finish(StepSource::XSpaceStepsLine, acc, "the device \"Steps\" lines of the XSpace (XProf's step events)");
        }
    }
    // 2. XSpace host step markers in host step groups (XProf's grouping).
    if (ct.isXSpace) {
        auto groups = std::make_shared<StepGroups>(groupHostEvents(ct));
        if (!groups->empty() && !groups->fromFile) {
            std::map<int64_t, StepAcc> acc;
            for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
                if (ti >= groups->groupOf.size() || groups->groupOf[ti].empty()) continue;
                const SliceColumns& c = t.tracks[ti].slices;
                for (uint32_t i = 0; i < c.size(); ++i) {
                    analysisTick();
                    const int32_t g = groups->groupOf[ti][i];
                    if (g == kNoStepGroup) continue;
                    const SliceRef ref{ti, i};
                    const StepGroups::Group& group = groups->groups[size_t(g)];
                    // XProf's markers: the root (it gets a step_name unless it is an implicit
                    // root such as FunctionRun) and the events named like a step.
                    const std::string_view full = fullNameView(ct, ref);
                    const bool marker = ref == group.root ? !isImplicitRootName(full) : isExplicitStepMarkerName(full);
                    if (!marker) continue;
                    std::string name = sliceArgText(t, group.root, "step_name");
                    if (name.empty()) name = std::string(t.str(t.tracks[group.root.track].slices.name[group.root.index]));
                    addLongest(acc, g, group.number, std::move(name), ref, c.start[i], c.duration[i], std::nullopt);
                    acc[g].step.hostGroup = g;
                }
            }
            if (!acc.empty()) {
                StepsResult r = finish(StepSource::XSpaceStepAnnotation, acc,
                                       "host step annotations, host events grouped into steps as XProf groups them");
                r.hostGroups = std::move(groups);
                return r;
            }
        }
    }
    // 2./3. Host step markers: XSpace step annotations (group_id stats, or step_num), PyTorch
    // ProfilerStep#N.
    {
        std::map<int64_t, StepAcc> acc;
        // Markers without a number are numbered in order, keyed apart from every step number
        // (a key shared with a numbered step would merge two steps into the longer one).
        constexpr int64_t kOwnKeys = std::numeric_limits<int64_t>::min();
        int64_t ordinal = 0;
        // A marker's own group_id / step number (ProfilerStep#N's N).
        auto keyOf = [&](SliceRef ref, int64_t& num, int64_t& group, bool& hasNum, bool& hasGroup) {
            hasGroup = false;
            if (ct.isXSpace) {
                hasGroup = sliceArgInt(t, ref, "group_id", group);
                hasNum = sliceArgInt(t, ref, "step_num", num);
            } else {
                const std::string_view name = t.str(t.tracks[ref.track].slices.name[ref.index]);
                hasNum = leadingNumber(name.substr(std::string_view("ProfilerStep#").size()), num);
            }
        };
        for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
            if (ct.trackSkipped[ti] || ct.trackOnDevice[ti]) continue;
            const SliceColumns& c = t.tracks[ti].slices;
            for (uint32_t i = 0; i < c.size(); ++i) {
                analysisTick();
                if (ct.roles[ti][i] != SliceRole::StepMarker) continue;
                const SliceRef ref{ti, i};
                const std::string_view name = t.str(c.name[i]);
                int64_t num = 0, group = 0;
                bool hasNum = false, hasGroup = false;
                keyOf(ref, num, group, hasNum, hasGroup);
                // An unnumbered marker inside a numbered one (a tf.function "train_step" inside the
                // "train" annotation) belongs to that step, as XProf's grouping puts it there.
                for (uint32_t up = ct.parents[ti][i]; !hasNum && !hasGroup && up != kNoIndex; up = ct.parents[ti][up])
                    if (ct.roles[ti][up] == SliceRole::StepMarker) keyOf({ti, up}, num, group, hasNum, hasGroup);
                const int64_t own = hasGroup || hasNum ? 0 : ordinal++;
                const int64_t key = hasGroup ? group : hasNum ? num : kOwnKeys + own;
                std::string stepName = sliceArgText(t, ref, "step_name");
                if (stepName.empty()) stepName = std::string(name);
                addLongest(acc, key, hasNum ? num : hasGroup ? key : own, std::move(stepName), ref, c.start[i], c.duration[i],
                           hasGroup ? std::optional<int64_t>(group) : std::nullopt);
            }
        }
        if (!acc.empty())
            return ct.isXSpace ? finish(StepSource::XSpaceStepAnnotation, acc,
                                        "host step annotations (step_num / group_id stats)")
                               : finish(StepSource::ProfilerStep, acc, "PyTorch's ProfilerStep#N markers");
    }
    // 4. User step annotations (Kineto user_annotation).
    {
        std::map<int64_t, StepAcc> acc;
        int64_t ordinal = 0;
        for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
            if (ct.trackSkipped[ti] || ct.trackOnDevice[ti]) continue;
            const SliceColumns& c = t.tracks[ti].slices;
            for (uint32_t i = 0; i < c.size(); ++i) {
                analysisTick();
                if (ct.roles[ti][i] != SliceRole::UserAnnotation) continue;
                int64_t num = 0;
                bool hasNum = false;
                if (!isUserStepName(t.str(c.name[i]), num, hasNum)) continue;
                const int64_t key = hasNum ? num : ordinal++;
                addLongest(acc, key, key, std::string(t.str(c.name[i])), {ti, i}, c.start[i], c.duration[i],
                           std::nullopt);
            }
        }
        if (!acc.empty())
            return finish(StepSource::UserAnnotation, acc, "user annotations named like a step (train_step, step#N)");
    }
    // 5./6. No marker: infer. Not for TF1: a RunMetadata is one Session.run, its executor's
    // op lanes repeat op names without being iterations.
    if (ct.isTf1) {
        StepsResult none;
        none.rule = "no step marker observed";
        return none;
    }
    if (StepsResult r = inferStepsFromAnnotation(ct); r.source != StepSource::None) return r;
    if (StepsResult r = inferStepsFromDevicePeriod(ct); r.source != StepSource::None) return r;
    StepsResult none;
    none.rule = "no step marker observed";
    return none;
}

}  // namespace tracescope
