#include "model/analysis/input_pipeline.h"

#include "model/analysis/analysis_progress.h"

#include "model/analysis/self_time.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <unordered_map>

namespace tracescope {

const char* inputOpCategoryName(InputOpCategory c) {
    switch (c) {
    case InputOpCategory::Enqueue: return "Enqueue";
    case InputOpCategory::DemandedFileRead: return "Demanded file read";
    case InputOpCategory::AdvancedFileRead: return "Advanced file read";
    case InputOpCategory::Preprocessing: return "Preprocessing";
    case InputOpCategory::Count: break;
    }
    return "";
}

namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool endsWith(std::string_view s, std::string_view p) {
    return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}
bool contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

}  // namespace

bool classifyInputOp(std::string_view name, InputOpCategory& out) {
    if (contains(name, "InfeedEnqueue") || startsWith(name, "infeed") || contains(name, "MemcpyHToD")) {
        out = InputOpCategory::Enqueue;
        return true;
    }
    if (startsWith(name, "Iterator::")) {
        static constexpr std::array<std::string_view, 6> kReaders = {"::TFRecord", "::TextLine", "::FixedLengthRecord",
                                                                     "::SSTable",  "::RecordIO", "::ArrayRecord"};
        bool reader = false;
        for (auto r : kReaders)
            if (endsWith(name, r)) reader = true;
        if (!reader) {
            out = InputOpCategory::Preprocessing;
            return true;
        }
        // A read behind a cache, interleave, prefetch or parallel map happens ahead of demand.
        // "Interleave" also matches ParallelInterleave[V2..V4].
        static constexpr std::array<std::string_view, 5> kAdvance = {"::MemoryReader", "::MemoryWriter", "Interleave",
                                                                     "::Prefetch", "::ParallelMap"};
        bool advanced = false;
        for (auto a : kAdvance)
            if (contains(name, a)) advanced = true;
        out = advanced ? InputOpCategory::AdvancedFileRead : InputOpCategory::DemandedFileRead;
        return true;
    }
    // PyTorch DataLoader: producing the next batch on the training thread.
    if (startsWith(name, "enumerate(DataLoader)") || contains(name, "DataLoader.__next__") ||
        contains(name, "DataLoaderIter.__next__")) {
        out = InputOpCategory::Preprocessing;
        return true;
    }
    return false;
}

namespace {

template <typename Visit>
void forEachInputOp(const ClassifiedTrace& ct, Visit visit) {
    const Trace& t = *ct.trace;
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (ct.trackSkipped[ti] || ct.trackOnDevice[ti] || t.tracks[ti].kind != TrackKind::Thread) continue;
        const SliceColumns& c = t.tracks[ti].slices;
        if (c.empty()) continue;
        std::vector<std::string> names(c.size());
        std::vector<int8_t> cat(c.size(), -1);
        bool any = false;
        for (uint32_t i = 0; i < c.size(); ++i) {
            analysisTick();
            const SliceRole r = ct.roles[ti][i];
            if (r == SliceRole::Kernel || r == SliceRole::Memcpy || r == SliceRole::Memset) continue;
            names[i] = ct.isXSpace ? fullNameOf(t, {ti, i}) : std::string(t.str(c.name[i]));
            InputOpCategory k;
            if (classifyInputOp(names[i], k)) {
                cat[i] = int8_t(k);
                any = true;
            }
        }
        if (!any) continue;
        // Self time among input ops: a nested dataset op's time is not its parent's self time.
        const std::vector<TimeNs> self = computeSelfTimes(c, [&](size_t i) { return cat[i] >= 0; });
        for (uint32_t i = 0; i < c.size(); ++i)
            if (cat[i] >= 0) visit(SliceRef{ti, i}, names[i], InputOpCategory(cat[i]), c.duration[i], self[i]);
    }
}

std::string pct(double p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", p);
    return buf;
}

}  // namespace

InputPipelineResult computeInputPipeline(const Trace& trace, const StepOptions& stepOptions) {
    return computeInputPipeline(classifyTrace(trace), stepOptions);
}

InputPipelineResult computeInputPipeline(const ClassifiedTrace& ct, const StepOptions& stepOptions) {
    InputPipelineResult res;
    const StepsResult steps = findSteps(ct, stepOptions);
    res.stepSource = steps.source;
    res.breakdown = breakdownSteps(ct, steps);
    res.stepSet = chooseStepSet(ct, res.breakdown, stepOptions.allSteps);
    res.categories = summarizeBreakdown(res.breakdown, res.stepSet);
    std::vector<double> waits, percents;
    for (size_t i = 0; i < res.breakdown.size(); ++i) {
        const StepBreakdown& b = res.breakdown[i];
        DeviceInputStep s;
        s.stepNumber = b.step.number;
        s.stepNs = b.step.durationNs;
        s.waitInputNs = b.at(StepCategory::Input);
        s.waitPercent = s.stepNs > 0 ? 100.0 * double(s.waitInputNs) / double(s.stepNs) : 0;
        s.inStepSet = res.stepSet.contains(i);
        if (s.inStepSet) {
            waits.push_back(double(s.waitInputNs));
            percents.push_back(s.waitPercent);
        }
        res.steps.push_back(s);
    }
    res.waitNs = distributionOf(waits);
    res.waitPercent = distributionOf(percents);
    res.inputPercent = res.categories[size_t(StepCategory::Input)].percentOfStep;
    const double otherPct = res.categories[size_t(StepCategory::Other)].percentOfStep;
    res.verdict = classifyInputBound(res.inputPercent, otherPct, res.stepSet.count > 0);
    if (res.breakdown.empty())
        res.summary = "No step marker observed: the device-side input wait per step cannot be computed.";
    else
        res.summary = std::string("The program is ") + inputBoundName(res.verdict) + ": " + pct(res.inputPercent) +
                      " of the step time is spent waiting for input (over " + res.stepSet.description + ").";

    std::unordered_map<std::string, size_t> index;
    forEachInputOp(ct, [&](SliceRef, const std::string& name, InputOpCategory cat, TimeNs dur, TimeNs self) {
        auto [it, inserted] = index.try_emplace(name, res.ops.size());
        if (inserted) {
            InputOpRow row;
            row.name = name;
            row.category = cat;
            res.ops.push_back(std::move(row));
        }
        InputOpRow& row = res.ops[it->second];
        ++row.count;
        addSat(row.totalNs, dur);
        addSat(row.selfNs, self);
        addSat(res.hostInputSelfNs, self);
        addSat(res.byCategoryNs[size_t(cat)], self);
    });
    TimeNs totalOfTotals = 0;
    for (const auto& r : res.ops) addSat(totalOfTotals, r.totalNs);
    for (auto& r : res.ops) {
        // Total % is of all input ops' total time (nested time counted at each level, like XProf).
        r.totalPercent = totalOfTotals > 0 ? 100.0 * double(r.totalNs) / double(totalOfTotals) : 0;
        r.selfPercent = res.hostInputSelfNs > 0 ? 100.0 * double(r.selfNs) / double(res.hostInputSelfNs) : 0;
    }
    std::sort(res.ops.begin(), res.ops.end(), [](const InputOpRow& a, const InputOpRow& b) {
        return a.selfNs != b.selfNs ? a.selfNs > b.selfNs : a.name < b.name;
    });
    return res;
}

std::vector<SliceRef> occurrencesOf(const ClassifiedTrace& ct, const InputPipelineResult& result, size_t opRow) {
    std::vector<SliceRef> out;
    if (opRow >= result.ops.size()) return out;
    const std::string& want = result.ops[opRow].name;
    forEachInputOp(ct, [&](SliceRef s, const std::string& name, InputOpCategory, TimeNs, TimeNs) {
        if (name == want) out.push_back(s);
    });
    return out;
}

SliceRowIndex sliceRowIndexOf(const ClassifiedTrace& ct, const InputPipelineResult& result) {
    std::map<std::string_view, uint32_t> rowOfName;
    for (size_t i = 0; i < result.ops.size(); ++i) rowOfName.emplace(result.ops[i].name, uint32_t(i));
    SliceRowIndex index;
    forEachInputOp(ct, [&](SliceRef s, const std::string& name, InputOpCategory, TimeNs, TimeNs) {
        auto it = rowOfName.find(name);
        if (it != rowOfName.end()) index.add(s, it->second);
    });
    index.finish();
    return index;
}

std::vector<SliceRef> occurrencesOf(const Trace& trace, const InputPipelineResult& result, size_t opRow) {
    return occurrencesOf(classifyTrace(trace), result, opRow);
}
SliceRowIndex sliceRowIndexOf(const Trace& trace, const InputPipelineResult& result) {
    return sliceRowIndexOf(classifyTrace(trace), result);
}

}  // namespace tracescope
