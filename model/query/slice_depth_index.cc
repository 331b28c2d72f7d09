#include "model/query/slice_depth_index.h"

#include <algorithm>

namespace tracescope {

bool SliceDepthIndex::build(const Trace& trace, const std::atomic<bool>* cancel) {
    std::vector<std::vector<Depth>> tracks(trace.tracks.size());
    for (TrackIndex t = 0; t < trace.tracks.size(); ++t) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return false;
        const SliceColumns& c = trace.tracks[t].slices;
        if (c.empty()) continue;
        // Count first so every level is allocated exactly once.
        std::vector<uint32_t> counts;
        for (size_t i = 0; i < c.size(); ++i) {
            const uint32_t d = c.depth(i);
            if (d >= counts.size()) counts.resize(d + 1, 0);
            ++counts[d];
        }
        auto& levels = tracks[t];
        levels.resize(counts.size());
        for (size_t d = 0; d < counts.size(); ++d) {
            levels[d].slices.reserve(counts[d]);
            levels[d].samples.reserve(counts[d] / kSampleEvery + 1);
        }
        for (size_t i = 0; i < c.size(); ++i) {
            Depth& level = levels[c.depth(i)];
            if (level.slices.size() % kSampleEvery == 0) level.samples.push_back(c.start[i]);
            level.slices.push_back(uint32_t(i));
        }
    }
    tracks_ = std::move(tracks);
    trace_ = &trace;
    return true;
}

SliceDepthIndex::Level SliceDepthIndex::atDepth(TrackIndex t, uint32_t depth) const {
    if (t >= tracks_.size() || depth >= tracks_[t].size()) return {};
    const Depth& d = tracks_[t][depth];
    return Level{&trace_->tracks[t].slices, d.slices, d.samples};
}

size_t SliceDepthIndex::Level::firstStartingAt(TimeNs time, size_t from) const {
    if (slices.empty()) return 0;
    from = std::min(from, slices.size());
    // 1. Which block of kSampleEvery: the first sample >= time, galloping from `from`'s block.
    size_t lo = from / kSampleEvery;  // samples[lo] <= start of slices[from] (or lo is past the end)
    size_t block;
    if (lo >= samples.size() || samples[lo] >= time) {
        block = size_t(std::lower_bound(samples.begin(), samples.begin() + ptrdiff_t(std::min(lo, samples.size())), time) -
                       samples.begin());
    } else {
        size_t step = 1;
        while (lo + step < samples.size() && samples[lo + step] < time) {
            lo += step;
            step *= 2;
        }
        const size_t hi = std::min(samples.size(), lo + step);
        block = size_t(std::lower_bound(samples.begin() + ptrdiff_t(lo), samples.begin() + ptrdiff_t(hi), time) -
                       samples.begin());
    }
    // 2. The answer lies in (sample block-1, sample block]: search those <= kSampleEvery slices.
    const size_t begin = block == 0 ? 0 : (block - 1) * kSampleEvery;
    const size_t end = std::min(slices.size(), block * kSampleEvery);
    const SliceColumns& c = *columns;
    auto it = std::partition_point(slices.begin() + ptrdiff_t(begin), slices.begin() + ptrdiff_t(end),
                                   [&](uint32_t i) { return c.start[i] < time; });
    return size_t(it - slices.begin());
}

size_t SliceDepthIndex::Level::skipStartingBefore(TimeNs time, TimeNs slack, size_t from, TimeNs* absorbedEnd) const {
    *absorbedEnd = -1;
    // First sample at or after `time`, galloping from `from`'s block.
    size_t lo = from / kSampleEvery;
    if (lo < samples.size() && samples[lo] < time) {
        size_t step = 1;
        while (lo + step < samples.size() && samples[lo + step] < time) {
            lo += step;
            step *= 2;
        }
        const size_t hi = std::min(samples.size(), lo + step);
        const size_t k = size_t(std::lower_bound(samples.begin() + ptrdiff_t(lo), samples.begin() + ptrdiff_t(hi), time) -
                                samples.begin());
        // Slices before block k start before samples[k] and, not overlapping, end by it.
        if (k < samples.size() && k * kSampleEvery > from + 1 && samples[k] < time + slack) {
            *absorbedEnd = samples[k];
            return k * kSampleEvery;
        }
    }
    return firstStartingAt(time, from);
}

size_t SliceDepthIndex::Level::firstEndingAfter(TimeNs time) const {
    // Same-depth slices do not overlap: only the slice just before the first one
    // starting after `time` can still be running at `time`.
    const size_t j = firstStartingAt(time);
    if (j > 0) {
        const SliceColumns& c = *columns;
        const uint32_t k = slices[j - 1];
        if (c.end(k) > time) return j - 1;
    }
    return j;
}

size_t SliceDepthIndex::memoryBytes() const {
    size_t bytes = 0;
    for (const auto& levels : tracks_)
        for (const auto& l : levels) bytes += l.slices.capacity() * sizeof(uint32_t) + l.samples.capacity() * sizeof(TimeNs);
    return bytes;
}

}  // namespace tracescope
