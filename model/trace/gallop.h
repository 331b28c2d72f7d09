// Galloping (exponential) search forward from a known position in a sorted
// range: O(log d) for an answer d elements ahead, and its probes stay near the
// start, so a painter that walks pixel columns left to right touches only the
// memory around each column instead of a binary search's far probes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>

namespace tracescope {

// The first position p >= from in [first, last) with !(comp(*p, value)), like
// std::lower_bound, given that every element before `from` is less than `value`.
template <class It, class T, class Compare = std::less<>>
It gallopLowerBound(It from, It last, const T& value, Compare comp = {}) {
    size_t step = 1;
    It lo = from;
    while (true) {
        const size_t left = size_t(last - lo);
        if (left <= step) return std::lower_bound(lo, last, value, comp);
        It probe = lo + ptrdiff_t(step);
        if (!comp(*probe, value)) return std::lower_bound(lo, probe, value, comp);
        lo = probe + 1;
        step *= 2;
    }
}

// The first position p >= from with value < *p (std::upper_bound), given that
// no element before `from` is greater than `value`.
template <class It, class T>
It gallopUpperBound(It from, It last, const T& value) {
    return gallopLowerBound(from, last, value, [](const auto& element, const T& v) { return !(v < element); });
}

}  // namespace tracescope
