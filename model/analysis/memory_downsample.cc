#include "model/analysis/memory_downsample.h"

#include <algorithm>

namespace tracescope {

std::vector<uint32_t> memoryPointsToDraw(const MemoryIdProfile& profile, TimeNs begin, TimeNs end, int columns) {
    std::vector<uint32_t> out;
    const auto& t = profile.timeline;
    if (t.empty() || end < begin) return out;
    columns = std::max(columns, 1);
    const auto byTime = [](const MemorySnapshot& s, TimeNs x) { return s.time < x; };
    size_t i = size_t(std::lower_bound(t.begin(), t.end(), begin, byTime) - t.begin());
    const size_t last = size_t(std::upper_bound(t.begin(), t.end(), end,
                                                [](TimeNs x, const MemorySnapshot& s) { return x < s.time; }) -
                               t.begin());
    if (i > 0) out.push_back(uint32_t(i - 1));
    const double span = double(end - begin) + 1.0;
    while (i < last) {
        const int col = int(double(t[i].time - begin) / span * columns);
        size_t lo = i, hi = i, hiReserved = i;
        size_t j = i + 1;
        for (; j < last && int(double(t[j].time - begin) / span * columns) == col; ++j) {
            if (t[j].inUseBytes() < t[lo].inUseBytes()) lo = j;
            if (t[j].inUseBytes() >= t[hi].inUseBytes()) hi = j;
            if (t[j].reservedBytes > t[hiReserved].reservedBytes) hiReserved = j;
        }
        size_t picks[4] = {lo, hi, hiReserved, j - 1};  // j - 1: the column's last state carries on
        std::sort(std::begin(picks), std::end(picks));
        for (size_t k = 0; k < 4; ++k)
            if (k == 0 || picks[k] != picks[k - 1]) out.push_back(uint32_t(picks[k]));
        i = j;
    }
    return out;
}

}  // namespace tracescope
