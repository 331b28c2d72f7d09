// Basic value types shared by the whole trace model.
#pragma once

#include <cstdint>
#include <limits>

namespace tracescope {

// Nanoseconds. Inside a Trace, times are relative to Trace::originNs.
using TimeNs = int64_t;

// acc += v and acc -= v for integer sums of times, saturated at the limits of acc's type:
// a trace may hold durations near 8e18 ns, and a sum of two of them must not wrap.
template <typename T, typename U>
inline void addSat(T& acc, U v) {
    T r;
    if (__builtin_add_overflow(acc, v, &r)) r = v > 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
    acc = r;
}
template <typename T, typename U>
inline void subSat(T& acc, U v) {
    T r;
    if (__builtin_sub_overflow(acc, v, &r)) r = v < 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
    acc = r;
}

// Index into a Trace's StringTable.
using StringId = uint32_t;
inline constexpr StringId kEmptyString = 0;  // id 0 is always ""

// Index of a track / process inside a Trace.
using TrackIndex = uint32_t;
using ProcessIndex = uint32_t;
inline constexpr uint32_t kNoIndex = std::numeric_limits<uint32_t>::max();

// A slice addressed by its track and its index in that track's sorted columns.
struct SliceRef {
    TrackIndex track = kNoIndex;
    uint32_t index = kNoIndex;

    bool valid() const { return track != kNoIndex && index != kNoIndex; }
    friend bool operator==(const SliceRef&, const SliceRef&) = default;
};

}  // namespace tracescope
