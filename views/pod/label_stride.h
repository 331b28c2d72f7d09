// Which labels of a dense axis to draw so that they never touch: the heat map's step numbers
// across the top and its worker names down the side. Qt-free, so it is tested without pixels.
#pragma once

#include <cmath>

namespace tracescope {

// Every how many-th of a row of evenly spaced labels to draw: labels `pitch` px apart (centre to
// centre), the widest `widest` px, with at least `gap` px between two drawn ones. The stride is
// 1, 2, 5, 10, 20, 50, … so the labels drawn fall on round positions. A pitch of zero (or not a
// number) gives a stride so large that only the first label is drawn.
inline long labelStride(double pitch, double widest, double gap = 6) {
    constexpr long kOnlyFirst = 1L << 40;
    if (!(pitch > 0)) return kOnlyFirst;
    const double need = std::ceil((std::fmax(widest, 0.0) + std::fmax(gap, 0.0)) / pitch);
    if (!(need <= double(kOnlyFirst))) return kOnlyFirst;
    for (long decade = 1;; decade *= 10)
        for (long m : {1L, 2L, 5L})
            if (double(m * decade) >= need) return m * decade;
}

}  // namespace tracescope
