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

// The value forms for times: every end (start + duration), span (end - start) and shift of a
// time goes through these, so hostile times (Chrome µs near 1e16, XSpace ps near INT64_MAX,
// far-apart worker clocks) saturate instead of wrapping (signed overflow is undefined).
inline TimeNs plusSat(TimeNs a, TimeNs b) {
    addSat(a, b);
    return a;
}
inline TimeNs minusSat(TimeNs a, TimeNs b) {
    subSat(a, b);
    return a;
}
// The length from `start` to `end`: end - start, saturated, and 0 when end is before start.
inline TimeNs durationBetween(TimeNs start, TimeNs end) { return end > start ? minusSat(end, start) : 0; }

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
