// Coarse per-bucket summaries of each track depth, for painting zoomed-out views
// in O(pixels) whatever the trace size (the idea of Perfetto's mipmaps).
//
// For every track and depth of a SliceDepthIndex, a few levels divide the trace
// span into a fixed number of equal buckets. Each bucket keeps the longest slice
// at that depth intersecting it (none = not covered), its name, and its duration
// in whole bucket widths (saturated at 255), so a painter whose pixel is at least
// a bucket wide can tell "covered", "narrow", "maybe wide" and "a search match"
// from the level alone and touches the event columns only for fold colours and
// wide slices. Levels finer than slices/kMinSlicesPerBucket buckets are skipped
// (the exact path is cheap there): 9 bytes per bucket, at most 3 bytes per slice
// (1.7 measured on a 10M-slice trace).
#pragma once

#include "model/query/slice_depth_index.h"
#include "model/trace/trace.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

namespace tracescope {

class SliceDepthMipmap {
public:
    static constexpr uint32_t kNone = UINT32_MAX;
    static constexpr std::array<uint32_t, 3> kDefaultBuckets = {1u << 12, 1u << 14, 1u << 16};
    static constexpr size_t kMinSlicesPerBucket = 4;

    // One level of one depth: bucket b covers [origin + b * width, origin + (b + 1) * width).
    struct Level {
        TimeNs origin = 0;
        TimeNs width = 0;                  // ns per bucket, >= 1
        std::span<const uint32_t> rep;     // longest slice intersecting the bucket, or kNone
        std::span<const StringId> names;   // its name (search highlighting reads these, not the event columns)
        std::span<const uint8_t> widths;   // its duration / width, saturated at 255

        bool valid() const { return width > 0; }
        size_t size() const { return rep.size(); }
        // Bucket holding `time`, clamped to [0, size()].
        size_t bucketOf(TimeNs time) const;
        TimeNs bucketStart(size_t b) const { return origin + TimeNs(b) * width; }
    };

    SliceDepthMipmap() = default;
    // Returns false (leaving the mipmap empty) when cancelled. `bucketCounts`
    // ascending; tests pass small ones.
    bool build(const Trace& trace, const SliceDepthIndex& depths, const std::atomic<bool>* cancel = nullptr,
               std::span<const uint32_t> bucketCounts = kDefaultBuckets,
               size_t minSlicesPerBucket = kMinSlicesPerBucket);

    // The coarsest level whose buckets are at most `nsPerPx` wide (a pixel covers
    // one or two buckets: the fewest to walk), or an invalid Level.
    Level levelFor(TrackIndex t, uint32_t depth, double nsPerPx) const;
    // All levels of a depth, coarsest first (for tests).
    std::vector<Level> levels(TrackIndex t, uint32_t depth) const;
    size_t memoryBytes() const;

private:
    struct Stored {
        TimeNs width = 0;
        std::vector<uint32_t> rep;
        std::vector<StringId> names;
        std::vector<uint8_t> widths;
    };
    TimeNs origin_ = 0;
    std::vector<std::vector<std::vector<Stored>>> tracks_;  // [track][depth][level], coarsest first

    static Level view(TimeNs origin, const Stored& s) { return Level{origin, s.width, s.rep, s.names, s.widths}; }
};

}  // namespace tracescope
