#include "model/query/slice_queries.h"

#include "model/query/slice_depth_index.h"

#include <algorithm>

namespace tracescope {

namespace {

const SliceColumns* columnsOf(const Trace& trace, SliceRef s) {
    if (s.track >= trace.tracks.size()) return nullptr;
    const SliceColumns& c = trace.tracks[s.track].slices;
    return s.index < c.size() ? &c : nullptr;
}

bool nests(const Trace& trace, TrackIndex t) { return trace.tracks[t].kind == TrackKind::Thread; }

}  // namespace

SliceRef parentSlice(const Trace& trace, SliceRef slice) {
    const SliceColumns* c = columnsOf(trace, slice);
    if (!c || !nests(trace, slice.track)) return {};
    const uint32_t depth = c->depth(slice.index);
    if (depth == 0) return {};
    // The nearest earlier slice one level up: any slice of that level between it
    // and us would overlap it, which proper nesting rules out.
    for (uint32_t k = slice.index; k-- > 0;)
        if (c->depth(k) == depth - 1) return {slice.track, k};
    return {};
}

std::vector<SliceRef> childSlices(const Trace& trace, SliceRef slice) {
    std::vector<SliceRef> out;
    const SliceColumns* c = columnsOf(trace, slice);
    if (!c || !nests(trace, slice.track)) return out;
    const uint32_t depth = c->depth(slice.index);
    const TimeNs end = c->end(slice.index);
    for (uint32_t k = slice.index + 1; k < c->size(); ++k) {
        const uint32_t d = c->depth(k);
        if (d <= depth) break;  // a sibling or an ancestor's sibling: our subtree is over
        if (c->start[k] >= end && c->duration[slice.index] > 0) break;
        if (d == depth + 1) out.push_back({slice.track, k});
    }
    return out;
}

TimeNs selfTime(const Trace& trace, SliceRef slice) {
    const SliceColumns* c = columnsOf(trace, slice);
    if (!c) return 0;
    TimeNs self = c->duration[slice.index];
    for (SliceRef child : childSlices(trace, slice)) subSat(self, c->duration[child.index]);
    return std::max<TimeNs>(self, 0);
}

SliceRef sliceAt(const Trace& trace, TrackIndex track, TimeNs time, uint32_t depth) {
    if (track >= trace.tracks.size()) return {};
    const SliceColumns& c = trace.tracks[track].slices;
    auto it = std::upper_bound(c.start.begin(), c.start.end(), time);
    for (auto k = uint32_t(it - c.start.begin()); k-- > 0;) {
        const uint32_t d = c.depth(k);
        const bool contains = c.end(k) > time || (c.duration[k] == 0 && c.start[k] == time);
        if (d == depth && contains) return {track, k};
        // On a nested track, a slice at or above our level that ended before `time`
        // shields everything earlier (an earlier match would overlap it).
        if (nests(trace, track) && d <= depth && !contains) return {};
    }
    return {};
}

SliceRef sliceAt(const Trace& trace, const SliceDepthIndex& index, TrackIndex track, TimeNs time, uint32_t depth) {
    if (track >= trace.tracks.size()) return {};
    const SliceColumns& c = trace.tracks[track].slices;
    const SliceDepthIndex::Level level = index.atDepth(track, depth);
    size_t pos = level.firstStartingAt(time + 1);  // slices starting at or before `time`
    while (pos-- > 0) {
        const uint32_t k = level[pos];
        if (c.end(k) > time || (c.duration[k] == 0 && c.start[k] == time)) return {track, k};
        if (c.start[k] < time) break;  // same-level slices do not overlap: nothing earlier reaches `time`
    }
    return {};
}

SliceRef firstSliceNamed(const Trace& trace, std::string_view name) {
    const StringId id = trace.strings.find(name);
    if (id == kNoIndex) return {};
    SliceRef best;
    TimeNs bestStart = 0;
    for (TrackIndex t = 0; t < trace.tracks.size(); ++t) {
        const SliceColumns& c = trace.tracks[t].slices;
        for (uint32_t k = 0; k < c.size(); ++k) {
            if (c.name[k] != id) continue;
            if (!best.valid() || c.start[k] < bestStart) {
                best = {t, k};
                bestStart = c.start[k];
            }
            break;  // later slices of this track start later
        }
    }
    return best;
}

namespace {

bool sameTrack(const Trace& a, const Track& ta, const Trace& b, const Track& tb) {
    if (ta.kind != tb.kind || ta.tid != tb.tid || ta.name != tb.name) return false;
    if (ta.process == kNoIndex || tb.process == kNoIndex) return ta.process == tb.process;
    const Process& pa = a.processes[ta.process];
    const Process& pb = b.processes[tb.process];
    return pa.pid == pb.pid && pa.name == pb.name;
}

}  // namespace

SliceRef correspondingSlice(const Trace& from, SliceRef slice, const Trace& to) {
    if (!slice.valid() || slice.track >= from.tracks.size()) return {};
    const Track& fromTrack = from.tracks[slice.track];
    if (slice.index >= fromTrack.slices.size()) return {};
    // An overflow lane's slice is looked for under its main track's identity, on every lane.
    const Track& identity = fromTrack.overflowOf != kNoIndex && fromTrack.overflowOf < from.tracks.size()
                                ? from.tracks[fromTrack.overflowOf]
                                : fromTrack;
    // Both traces' times are relative to their own origin: compare in the file's clock.
    const TimeNs start = fromTrack.slices.start[slice.index];
    const std::string_view name = from.str(fromTrack.slices.name[slice.index]);
    const TimeNs startInTo = plusSat(start, plusSat(from.originNs, -to.originNs));
    for (TrackIndex t = 0; t < to.tracks.size(); ++t) {
        const Track& track = to.tracks[t];
        const TrackIndex main = track.overflowOf != kNoIndex ? track.overflowOf : t;
        if (main >= to.tracks.size() || !sameTrack(from, identity, to, to.tracks[main])) continue;
        const TimeColumn& starts = track.slices.start;
        for (auto it = std::lower_bound(starts.begin(), starts.end(), startInTo);
             it != starts.end() && *it == startInTo; ++it) {
            const uint32_t i = uint32_t(it - starts.begin());
            if (to.str(track.slices.name[i]) == name) return {t, i};
        }
    }
    return {};
}

}  // namespace tracescope
