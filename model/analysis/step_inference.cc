// Steps when the trace has no step marker (PyTorch profiled without a schedule, a bare
// XSpace): a user-named marker, a repeating top-level host annotation, or the period of the
// device work. Each rule says in StepsResult::rule what it did.
#include "model/analysis/steps.h"

#include "model/analysis/analysis_progress.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace tracescope {

namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// A host thread track that analyses read (not a device, not skipped, not an overflow lane).
bool isHostThread(const ClassifiedTrace& ct, TrackIndex ti) {
    const Track& tr = ct.trace->tracks[ti];
    return tr.kind == TrackKind::Thread && !ct.trackSkipped[ti] && !ct.trackOnDevice[ti] && tr.overflowOf == kNoIndex;
}

// Top-level (depth 0) slices of one host thread, with their names, in start order.
struct TopLevel {
    TrackIndex track = kNoIndex;
    std::vector<uint32_t> index;
    std::unordered_map<StringId, std::vector<uint32_t>> byName;  // name -> positions in `index`
    TimeNs busyNs = 0;
};

TopLevel topLevelOf(const ClassifiedTrace& ct, TrackIndex ti) {
    TopLevel tl;
    tl.track = ti;
    const SliceColumns& c = ct.trace->tracks[ti].slices;
    for (uint32_t i = 0; i < c.size(); ++i) {
        analysisTick();
        if (c.depth(i) != 0 || c.duration[i] <= 0 || ct.roles[ti][i] == SliceRole::StepMarker) continue;
        tl.byName[c.name[i]].push_back(uint32_t(tl.index.size()));
        tl.index.push_back(i);
        addSat(tl.busyNs, c.duration[i]);
    }
    return tl;
}

Step makeStep(int64_t number, std::string name, TimeNs start, TimeNs end, std::vector<SliceRef> markers) {
    Step s;
    s.number = number;
    s.name = std::move(name);
    s.startNs = start;
    s.durationNs = durationBetween(start, end);
    s.markers = std::move(markers);
    return s;
}

}  // namespace

StepsResult stepsFromNamedMarker(const ClassifiedTrace& ct, const std::string& marker) {
    const Trace& t = *ct.trace;
    std::vector<Step> steps;
    const std::string prefix = marker + "#";
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (!isHostThread(ct, ti)) continue;
        const SliceColumns& c = t.tracks[ti].slices;
        for (uint32_t i = 0; i < c.size(); ++i) {
            analysisTick();
            const std::string_view n = t.str(c.name[i]);
            if (n != marker && !startsWith(n, prefix)) continue;
            int64_t number = -1;  // an ordinal, given after sorting
            if (n.size() > prefix.size()) {
                const std::string_view rest = n.substr(prefix.size());
                if (!rest.empty() && rest.find_first_not_of("0123456789") == std::string_view::npos && rest.size() < 18)
                    number = std::stoll(std::string(rest));
            }
            steps.push_back(makeStep(number, std::string(n), c.start[i], c.end(i), {{ti, i}}));
        }
    }
    if (steps.empty()) {
        StepsResult r;
        r.rule = "no host slice is named \"" + marker + "\"";
        return r;
    }
    // Ordinals follow time when the names carry no number.
    std::sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) { return a.startNs < b.startNs; });
    for (size_t i = 0; i < steps.size(); ++i)
        if (steps[i].number < 0) steps[i].number = int64_t(i);
    return stepsResultOf(StepSource::NamedMarker, std::move(steps),
                         "each host slice named \"" + marker + "\" is one step (chosen by the user)");
}

StepsResult inferStepsFromAnnotation(const ClassifiedTrace& ct) {
    const Trace& t = *ct.trace;
    // 1. The end-of-iteration anchor PyTorch records once per iteration: Optimizer.step#<Class>.step.
    // 2. Otherwise the busiest host thread's top-level sequence: the count most repeating names
    //    share is the number of iterations; the earliest of those names starts each iteration.
    std::vector<TopLevel> threads;
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti)
        if (isHostThread(ct, ti)) {
            TopLevel tl = topLevelOf(ct, ti);
            if (tl.index.size() >= 2) threads.push_back(std::move(tl));
        }
    if (threads.empty()) return {};

    // Rule 1.
    const TopLevel* optThread = nullptr;
    StringId optName = kNoIndex;
    size_t optCount = 0;
    for (const TopLevel& tl : threads)
        for (const auto& [name, pos] : tl.byName)
            if (pos.size() >= 2 && startsWith(t.str(name), "Optimizer.step#") && pos.size() > optCount) {
                optThread = &tl;
                optName = name;
                optCount = pos.size();
            }
    if (optThread) {
        const SliceColumns& c = t.tracks[optThread->track].slices;
        const auto& pos = optThread->byName.at(optName);
        std::vector<Step> steps;
        for (size_t k = 0; k < pos.size(); ++k) {
            const uint32_t a = optThread->index[pos[k]];
            // The iteration begins with the first top-level slice after the previous optimizer step
            // (the first: as far back as the second iteration is long).
            size_t first;
            if (k == 0) {
                const TimeNs period = c.end(optThread->index[pos[1]]) - c.end(a);
                first = pos[0];
                while (first > 0 && c.start[optThread->index[first - 1]] >= c.end(a) - period) --first;
            } else {
                first = pos[k - 1] + 1;
            }
            const uint32_t s = optThread->index[first];
            steps.push_back(makeStep(int64_t(k), "step " + std::to_string(k), c.start[s], c.end(a),
                                     {{optThread->track, a}}));
        }
        return stepsResultOf(StepSource::InferredAnnotation, std::move(steps),
                             "no step marker: one step per top-level \"" + std::string(t.str(optName)) +
                                 "\" (a step ends where it ends and begins with the next top-level slice after "
                                 "the previous one)");
    }

    // Rule 2: the busiest thread that has repeating names.
    const TopLevel* best = nullptr;
    for (const TopLevel& tl : threads) {
        bool repeats = false;
        for (const auto& [name, pos] : tl.byName) repeats |= pos.size() >= 2;
        if (repeats && (!best || tl.busyNs > best->busyNs)) best = &tl;
    }
    if (!best) return {};
    std::map<size_t, size_t> namesWithCount;  // occurrences -> distinct names
    for (const auto& [name, pos] : best->byName)
        if (pos.size() >= 2) ++namesWithCount[pos.size()];
    size_t iterations = 0, names = 0;
    for (const auto& [count, n] : namesWithCount)
        if (n > names) {  // ties keep the smaller count (map order)
            iterations = count;
            names = n;
        }
    StringId anchor = kNoIndex;
    uint32_t anchorFirst = UINT32_MAX;
    for (const auto& [name, pos] : best->byName)
        if (pos.size() == iterations && pos.front() < anchorFirst) {
            anchor = name;
            anchorFirst = pos.front();
        }
    const SliceColumns& c = t.tracks[best->track].slices;
    // One repeating op alone is not an iteration; one repeating user annotation may be.
    if (names < 2 && ct.roles[best->track][best->index[anchorFirst]] != SliceRole::UserAnnotation) return {};
    const auto& pos = best->byName.at(anchor);
    std::vector<Step> steps;
    TimeNs longest = 0;
    for (size_t k = 0; k < pos.size(); ++k) {
        const uint32_t a = best->index[pos[k]];
        TimeNs end;
        if (k + 1 < pos.size()) {
            end = c.start[best->index[pos[k + 1]]];
            longest = std::max(longest, end - c.start[a]);
        } else {
            // The last iteration: its top-level slices that start within 1.5 (longest) periods.
            end = c.end(a);
            for (size_t p = pos[k]; p < best->index.size(); ++p) {
                const uint32_t s = best->index[p];
                if (c.start[s] - c.start[a] >= longest + longest / 2) break;
                end = std::max(end, c.end(s));
            }
        }
        steps.push_back(makeStep(int64_t(k), "step " + std::to_string(k), c.start[a], end, {{best->track, a}}));
    }
    return stepsResultOf(StepSource::InferredAnnotation, std::move(steps),
                         "no step marker: the top-level slices of thread \"" + t.tracks[best->track].name +
                             "\" repeat " + std::to_string(iterations) + " times; a step begins at each \"" +
                             std::string(t.str(anchor)) + "\"");
}

StepsResult inferStepsFromDevicePeriod(const ClassifiedTrace& ct) {
    const Trace& t = *ct.trace;
    // The device stream with the most kernels.
    TrackIndex busiest = kNoIndex;
    size_t most = 0;
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (ct.trackSkipped[ti] || !ct.trackOnDevice[ti] || t.tracks[ti].kind != TrackKind::Thread) continue;
        size_t n = 0;
        for (SliceRole r : ct.roles[ti]) n += r == SliceRole::Kernel;
        if (n > most) {
            most = n;
            busiest = ti;
        }
    }
    if (busiest == kNoIndex || most < 4) return {};
    const SliceColumns& c = t.tracks[busiest].slices;
    std::vector<uint32_t> k;
    for (uint32_t i = 0; i < c.size(); ++i)
        if (ct.roles[busiest][i] == SliceRole::Kernel) k.push_back(i);
    const size_t n = k.size();
    auto nameAt = [&](size_t i) { return c.name[k[i]]; };
    // The smallest period P (a position where the first kernel name recurs) such that at least
    // 90% of the compared names match one period later; checked on at most 4096 positions.
    size_t period = 0;
    size_t tried = 0;
    for (size_t p = 1; p <= n / 2 && tried < 400; ++p) {
        if (nameAt(p) != nameAt(0)) continue;
        ++tried;
        const size_t span = std::min<size_t>(n - p, 4096);
        const size_t stride = std::max<size_t>(1, (n - p) / span);
        size_t compared = 0, same = 0;
        for (size_t i = 0; i + p < n; i += stride) {
            ++compared;
            same += nameAt(i) == nameAt(i + p);
        }
        // A period of one kernel name alone says nothing about iterations.
        bool distinct = false;
        for (size_t i = 1; i < p && !distinct; ++i) distinct = nameAt(i) != nameAt(0);
        if (compared && same * 10 >= compared * 9 && distinct) {
            period = p;
            break;
        }
    }
    if (!period) return {};
    // Iterations start after the longest idle gap within a period (the host preparing the next).
    size_t phase = 0;
    TimeNs bestGap = -1;
    for (size_t j = 0; j < period; ++j) {
        TimeNs gap = 0;
        for (size_t i = j == 0 ? period : j; i < n; i += period) addSat(gap, c.start[k[i]] - c.end(k[i - 1]));
        if (gap > bestGap) {
            bestGap = gap;
            phase = j;
        }
    }
    std::vector<Step> steps;
    for (size_t s = phase; s + period <= n; s += period) {
        const TimeNs start = c.start[k[s]];
        const TimeNs end = s + period < n ? c.start[k[s + period]] : c.end(k[s + period - 1]);
        steps.push_back(makeStep(int64_t(steps.size()), "step " + std::to_string(steps.size()), start, end,
                                 {{busiest, k[s]}}));
    }
    if (steps.size() < 2) return {};
    return stepsResultOf(StepSource::InferredDevicePeriod, std::move(steps),
                         "no step marker: the kernel sequence of \"" + t.tracks[busiest].name + "\" repeats every " +
                             std::to_string(period) + " kernels; a step begins after the longest idle gap of the "
                             "period");
}

std::vector<StepMarkerCandidate> stepMarkerCandidates(const ClassifiedTrace& ct, size_t limit) {
    const Trace& t = *ct.trace;
    std::unordered_map<StringId, size_t> counts;
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (!isHostThread(ct, ti)) continue;
        const SliceColumns& c = t.tracks[ti].slices;
        for (uint32_t i = 0; i < c.size(); ++i)
            if (c.depth(i) == 0 && c.duration[i] > 0) ++counts[c.name[i]];
    }
    // Numbered names ("ProfilerStep#12") count under their stem, which as a marker matches them all.
    std::unordered_map<std::string_view, size_t> byMarker;
    for (const auto& [name, n] : counts) {
        std::string_view s = t.str(name);
        const size_t hash = s.rfind('#');
        if (hash != std::string_view::npos && hash > 0 && hash + 1 < s.size() &&
            s.find_first_not_of("0123456789", hash + 1) == std::string_view::npos)
            s = s.substr(0, hash);
        byMarker[s] += n;
    }
    std::vector<StepMarkerCandidate> out;
    for (const auto& [name, n] : byMarker)
        if (n >= 2) out.push_back({std::string(name), n});
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return a.occurrences != b.occurrences ? a.occurrences > b.occurrences : a.name < b.name;
    });
    if (out.size() > limit) out.resize(limit);
    return out;
}

}  // namespace tracescope
