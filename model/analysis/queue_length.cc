#include "model/analysis/queue_length.h"

#include "model/analysis/analysis_progress.h"
#include "model/analysis/launch_stats.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace tracescope {

namespace {

struct Change {
    TimeNs time;
    int32_t delta;  // +1 a launch, -1 a start
};

// pandas' describe() percentiles: linear interpolation between the closest ranks.
double quantile(const std::vector<int32_t>& sorted, double q) {
    if (sorted.empty()) return 0;
    const double pos = double(sorted.size() - 1) * q;
    const size_t lo = size_t(pos);
    if (lo + 1 >= sorted.size()) return sorted.back();
    return sorted[lo] + (double(sorted[lo + 1]) - sorted[lo]) * (pos - double(lo));
}

void summarise(QueueLengthStream& s, std::vector<Change>& changes, int64_t limit) {
    // Launches before starts at the same time (see the header).
    std::sort(changes.begin(), changes.end(),
              [](const Change& a, const Change& b) { return a.time != b.time ? a.time < b.time : a.delta > b.delta; });
    std::vector<int32_t> samples;
    samples.reserve(changes.size());
    s.time.reserve(changes.size());
    s.value.reserve(changes.size());
    int32_t level = 0;
    long double sum = 0;
    for (size_t i = 0; i < changes.size(); ++i) {
        level += changes[i].delta;
        samples.push_back(level);
        sum += level;
        // The series keeps the value after the last change at each time.
        if (i + 1 == changes.size() || changes[i + 1].time != changes[i].time) {
            s.time.push_back(changes[i].time);
            s.value.push_back(level);
        }
    }
    s.time.shrink_to_fit();  // kept as a result (the timeline's queue track): no room past the series
    s.value.shrink_to_fit();
    const size_t n = samples.size();
    s.samples = n;
    if (n == 0) return;
    s.mean = double(sum / n);
    if (n > 1) {
        long double squares = 0;
        for (int32_t v : samples) squares += (v - (long double)s.mean) * (v - (long double)s.mean);
        s.std = double(std::sqrt(squares / (n - 1)));
    }
    std::sort(samples.begin(), samples.end());
    s.min = samples.front();
    s.max = samples.back();
    s.p25 = quantile(samples, 0.25);
    s.median = quantile(samples, 0.5);
    s.p75 = quantile(samples, 0.75);
    long double weighted = 0;
    for (size_t i = 0; i + 1 < s.time.size(); ++i) {
        const int64_t dt = s.time[i + 1] - s.time[i];
        weighted += (long double)s.value[i] * dt;
        if (s.value[i] >= limit) s.timeAtLimitNs += dt;
    }
    const int64_t span = s.time.back() - s.time.front();
    s.timeWeightedMean = span > 0 ? double(weighted / span) : double(s.value.back());
}

}  // namespace

std::vector<DerivedCounterTrack> queueLengthCounterTracks(const Trace& trace, const QueueLengthResult& queues) {
    std::vector<DerivedCounterTrack> out;
    for (const QueueLengthStream& s : queues.streams) {
        if (s.time.empty() || s.track >= trace.tracks.size()) continue;
        DerivedCounterTrack d;
        d.source = DerivedSource::QueueLength;
        d.process = trace.tracks[s.track].process;
        d.name = "Queue length · stream " + std::to_string(s.stream);
        d.series.time = s.time;
        d.series.value.assign(s.value.begin(), s.value.end());
        out.push_back(std::move(d));
    }
    return out;
}

QueueLengthResult computeQueueLength(const ClassifiedTrace& ct, const QueueLengthOptions& options) {
    const Trace& t = *ct.trace;
    QueueLengthResult out;
    out.options = options;
    LaunchPairs pairs = launchPairsOf(ct, false);
    out.activities = pairs.activities;
    out.withoutCall = pairs.withoutCall;
    for (const auto& [name, n] : pairs.otherCalls) out.otherCalls += n;
    out.launches = pairs.pairs.size();

    // Per stream track (an overflow lane belongs to the stream it spills from).
    std::map<std::pair<int64_t, int64_t>, std::pair<TrackIndex, std::vector<Change>>> streams;
    // The stream's changes per activity track, found once per track: the stream id as the trace
    // gives it (Kineto's arg "stream"; older Kineto names the thread "stream 7"), else the track's id.
    std::vector<std::vector<Change>*> changesOfTrack(t.tracks.size(), nullptr);
    for (const LaunchPair& p : pairs.pairs) {
        analysisTick();
        std::vector<Change>*& changes = changesOfTrack[p.activity.track];
        if (!changes) {
            TrackIndex track = p.activity.track;
            if (t.tracks[track].overflowOf != kNoIndex) track = t.tracks[track].overflowOf;
            const Track& tr = t.tracks[track];
            int64_t id = tr.tid;
            if (!sliceArgInt(t, p.activity, "stream", id)) id = tr.tid;
            const int64_t device = tr.process != kNoIndex ? t.processes[tr.process].pid : 0;
            auto& entry = streams[{device, id}];
            if (entry.second.empty()) entry.first = track;
            changes = &entry.second;
        }
        changes->push_back({t.tracks[p.call.track].slices.start[p.call.index], +1});
        changes->push_back({t.tracks[p.activity.track].slices.start[p.activity.index], -1});
    }
    for (auto& [key, entry] : streams) {
        QueueLengthStream s;
        s.device = key.first;
        s.stream = key.second;
        s.track = entry.first;
        s.launches = entry.second.size() / 2;
        summarise(s, entry.second, options.limit);
        out.streams.push_back(std::move(s));
    }

    if (out.activities == 0) out.notes.push_back("no kernels, copies or memsets in this trace: no queue to measure");
    else if (out.launches == 0 && out.withoutCall == out.activities)
        out.notes.push_back(
            "no device activity is joined to a launch call (no flows or correlation ids): the "
            "queue length needs the runtime call of each kernel");
    if (out.withoutCall)
        out.notes.push_back(std::to_string(out.withoutCall) + " of " + std::to_string(out.activities) +
                            " device activities have no runtime call in the trace: left out of the queues");
    if (out.otherCalls)
        out.notes.push_back(std::to_string(out.otherCalls) +
                            " device activities were launched by calls HTA does not take for launches "
                            "(cudaGraphLaunch...): left out of the queues");
    return out;
}

}  // namespace tracescope
