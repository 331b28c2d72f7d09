// Per track and nesting depth, the slice indices at that depth in start order.
//
// Slices at one depth of a thread track (or one lane of an async track) never
// overlap, so both their starts and their ends increase along this list: a
// binary search finds the slices of a time window at that depth in O(log n).
// Every 32nd start is also kept in a small contiguous array, so a search
// touches the big event columns only in its last block of 32 (a frame's
// searches stay in cache instead of missing on every probe).
// The timeline uses it to paint in O(pixels x depth x log n); it costs ~4.25
// bytes per slice and is built once after load, off the UI thread.
#pragma once

#include "model/trace/trace.h"

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

namespace tracescope {

class SliceDepthIndex {
public:
    static constexpr size_t kSampleEvery = 32;

    // The slices of one depth of one track.
    struct Level {
        const SliceColumns* columns = nullptr;
        std::span<const uint32_t> slices;   // slice indices in start order
        std::span<const TimeNs> samples;    // start of slices[k * kSampleEvery]

        size_t size() const { return slices.size(); }
        bool empty() const { return slices.empty(); }
        uint32_t operator[](size_t i) const { return slices[i]; }
        // Position of the first slice starting at or after `time`, searching from
        // position `from` on (galloping over the samples: cheap for short hops).
        size_t firstStartingAt(TimeNs time, size_t from = 0) const;
        // Position of the first slice ending after `time` (or starting at it).
        size_t firstEndingAfter(TimeNs time) const;
        // How many slices of this depth overlap [begin, end).
        size_t countOverlapping(TimeNs begin, TimeNs end) const {
            const size_t from = firstEndingAfter(begin);
            return firstStartingAt(end, from) - from;
        }
        // For folding at coarse zoom: a position p > from such that every slice in
        // [from, p) starts before `time + slack` and ends by `*absorbedEnd`. When a
        // whole block of samples lies in that window, p is a block boundary found
        // from the samples alone (it may pass slices starting in [time, time + slack)),
        // which spares the event columns a cache miss per probe. Otherwise p is
        // firstStartingAt(time, from) and *absorbedEnd is -1 (the caller looks at p - 1).
        size_t skipStartingBefore(TimeNs time, TimeNs slack, size_t from, TimeNs* absorbedEnd) const;
    };

    SliceDepthIndex() = default;
    // Returns false (and leaves the index empty) when cancelled.
    bool build(const Trace& trace, const std::atomic<bool>* cancel = nullptr);

    bool empty() const { return tracks_.empty(); }
    uint32_t depthCount(TrackIndex t) const { return t < tracks_.size() ? uint32_t(tracks_[t].size()) : 0; }
    Level atDepth(TrackIndex t, uint32_t depth) const;
    size_t memoryBytes() const;

private:
    struct Depth {
        std::vector<uint32_t> slices;
        std::vector<TimeNs> samples;
    };
    const Trace* trace_ = nullptr;
    std::vector<std::vector<Depth>> tracks_;
};

}  // namespace tracescope
