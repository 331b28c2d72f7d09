#include "model/query/slice_depth_mipmap.h"

#include <algorithm>

namespace tracescope {

size_t SliceDepthMipmap::Level::bucketOf(TimeNs time) const {
    if (time <= origin) return 0;
    return size_t(std::min<TimeNs>(durationBetween(origin, time) / width, TimeNs(rep.size())));
}

bool SliceDepthMipmap::build(const Trace& trace, const SliceDepthIndex& depths, const std::atomic<bool>* cancel,
                             std::span<const uint32_t> bucketCounts, size_t minSlicesPerBucket) {
    std::vector<std::vector<std::vector<Stored>>> tracks(trace.tracks.size());
    const TimeNs origin = trace.startNs;
    const TimeNs span = std::max<TimeNs>(1, trace.spanNs());
    for (TrackIndex t = 0; t < trace.tracks.size(); ++t) {
        const SliceColumns& c = trace.tracks[t].slices;
        tracks[t].resize(depths.depthCount(t));
        for (uint32_t d = 0; d < depths.depthCount(t); ++d) {
            if (cancel && cancel->load(std::memory_order_relaxed)) return false;
            const SliceDepthIndex::Level slices = depths.atDepth(t, d);
            for (const uint32_t count : bucketCounts) {
                if (size_t(count) * minSlicesPerBucket > slices.size()) continue;
                Stored s;
                s.width = span / count + 1;  // the buckets reach past endNs (a zero-length slice may sit there)
                s.rep.assign(count, kNone);
                s.names.assign(count, kEmptyString);
                s.widths.assign(count, 0);
                std::vector<TimeNs> repDuration(count, -1);
                const Level shape{origin, s.width, s.rep, s.names, s.widths};
                // Same-depth slices do not overlap, so this visits at most slices + buckets pairs.
                for (size_t i = 0; i < slices.size(); ++i) {
                    const uint32_t k = slices[i];
                    const TimeNs dur = c.duration[k];
                    const size_t first = shape.bucketOf(c.start[k]);
                    // A zero-length slice still marks the bucket it sits in.
                    const size_t last = std::min<size_t>(count - 1, shape.bucketOf(plusSat(c.start[k], std::max<TimeNs>(dur, 1) - 1)));
                    for (size_t b = std::min<size_t>(first, count - 1); b <= last; ++b) {
                        if (dur > repDuration[b]) {  // ties keep the earlier slice
                            repDuration[b] = dur;
                            s.rep[b] = k;
                            s.names[b] = c.name[k];
                            s.widths[b] = uint8_t(std::min<TimeNs>(255, dur / s.width));
                        }
                    }
                }
                tracks[t][d].push_back(std::move(s));
            }
        }
    }
    tracks_ = std::move(tracks);
    origin_ = origin;
    return true;
}

SliceDepthMipmap::Level SliceDepthMipmap::levelFor(TrackIndex t, uint32_t depth, double nsPerPx) const {
    if (t >= tracks_.size() || depth >= tracks_[t].size()) return {};
    // Coarsest first: the first one that fits has the fewest buckets to walk.
    for (const Stored& s : tracks_[t][depth])
        if (double(s.width) <= nsPerPx) return view(origin_, s);
    return {};
}

std::vector<SliceDepthMipmap::Level> SliceDepthMipmap::levels(TrackIndex t, uint32_t depth) const {
    std::vector<Level> out;
    if (t < tracks_.size() && depth < tracks_[t].size())
        for (const Stored& s : tracks_[t][depth]) out.push_back(view(origin_, s));
    return out;
}

size_t SliceDepthMipmap::memoryBytes() const {
    size_t bytes = 0;
    for (const auto& depthsOfTrack : tracks_)
        for (const auto& levelsOfDepth : depthsOfTrack)
            for (const Stored& s : levelsOfDepth)
                bytes += s.rep.capacity() * sizeof(uint32_t) + s.names.capacity() * sizeof(StringId) + s.widths.capacity();
    return bytes;
}

}  // namespace tracescope
