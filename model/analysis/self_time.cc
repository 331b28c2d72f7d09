#include "model/analysis/self_time.h"

#include "model/analysis/analysis_progress.h"

#include <algorithm>

namespace tracescope {

namespace {

// Walks the track once keeping, per depth, the nearest counted slice open at that depth.
// Slices are sorted by start with ancestors before descendants, and a slice's ancestors are
// exactly the slices last seen at each smaller depth, so a stack indexed by depth suffices.
template <typename Visit>
void walkCounted(const SliceColumns& c, const std::function<bool(size_t)>& counted, Visit visit) {
    // open[d] = index of the last slice seen at depth d (kNoIndex if none);
    // nearestCounted[d] = nearest counted slice at depth <= d on the current ancestor chain.
    std::vector<uint32_t> nearestCounted;
    for (size_t i = 0; i < c.size(); ++i) {
        analysisTick();
        const size_t d = c.depth(i);
        if (nearestCounted.size() < d + 1) nearestCounted.resize(d + 1, kNoIndex);
        const uint32_t parent = d > 0 ? nearestCounted[d - 1] : kNoIndex;
        const bool isCounted = !counted || counted(i);
        visit(i, isCounted, parent);
        nearestCounted[d] = isCounted ? static_cast<uint32_t>(i) : parent;
        // Deeper entries belong to earlier siblings' subtrees; they are overwritten before use
        // because a slice at depth d+1 always follows its parent at depth d.
    }
}

}  // namespace

std::vector<TimeNs> computeSelfTimes(const SliceColumns& c, const std::function<bool(size_t)>& counted) {
    std::vector<TimeNs> self(c.size(), 0);
    walkCounted(c, counted, [&](size_t i, bool isCounted, uint32_t parent) {
        if (!isCounted) return;
        addSat(self[i], c.duration[i]);
        if (parent != kNoIndex) subSat(self[parent], c.duration[i]);
    });
    for (auto& s : self) s = std::max<TimeNs>(s, 0);
    return self;
}

std::vector<uint32_t> computeCountedParents(const SliceColumns& c, const std::function<bool(size_t)>& counted) {
    std::vector<uint32_t> parents(c.size(), kNoIndex);
    walkCounted(c, counted, [&](size_t i, bool isCounted, uint32_t parent) {
        if (isCounted) parents[i] = parent;
    });
    return parents;
}

TimeNs unionLength(std::vector<std::pair<TimeNs, TimeNs>> iv) {
    std::sort(iv.begin(), iv.end());
    TimeNs total = 0;
    TimeNs curStart = 0, curEnd = 0;
    bool open = false;
    for (const auto& [s, e] : iv) {
        if (e <= s) continue;
        if (!open || s > curEnd) {
            if (open) addSat(total, durationBetween(curStart, curEnd));
            curStart = s;
            curEnd = e;
            open = true;
        } else {
            curEnd = std::max(curEnd, e);
        }
    }
    if (open) addSat(total, durationBetween(curStart, curEnd));
    return total;
}

}  // namespace tracescope
