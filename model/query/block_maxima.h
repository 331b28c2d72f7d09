// Maxima of a sequence over blocks of 16, 256, 4096, … items, to find the next item whose value
// is at least some bound without looking at every item before it: a block whose maximum is below
// the bound is skipped whole. The timeline uses it to find the idle gaps at least a pixel wide
// among millions of narrower ones, so a frame costs O(gaps drawn × log n), not O(gaps in view).
// The sequence itself is not copied: callers pass the same value function to build and query.
// Extra memory: about a fifteenth of one int64 per item.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace tracescope {

class BlockMaxima {
public:
    static constexpr size_t kFanOut = 16;

    BlockMaxima() = default;
    // value(i) for i in [0, n) gives the item's value.
    template <class Value>
    BlockMaxima(size_t n, const Value& value) : size_(n) {
        std::vector<int64_t> level;
        for (size_t b = 0; b * kFanOut < n; ++b) {
            int64_t m = std::numeric_limits<int64_t>::min();
            for (size_t i = b * kFanOut; i < std::min(n, (b + 1) * kFanOut); ++i) m = std::max(m, int64_t(value(i)));
            level.push_back(m);
        }
        while (level.size() > 1) {
            std::vector<int64_t> up;
            for (size_t b = 0; b * kFanOut < level.size(); ++b)
                up.push_back(*std::max_element(level.begin() + b * kFanOut,
                                               level.begin() + std::min(level.size(), (b + 1) * kFanOut)));
            levels_.push_back(std::move(level));
            level = std::move(up);
        }
        if (!level.empty()) levels_.push_back(std::move(level));
    }

    // The first index in [from, to) whose value is at least `bound`, or `to` when there is none.
    template <class Value>
    size_t nextAtLeast(size_t from, size_t to, int64_t bound, const Value& value) const {
        to = std::min(to, size_);
        size_t i = from;
        while (i < to) {
            if (int64_t(value(i)) >= bound) return i;
            // Skip the largest block that starts at i and holds nothing at the bound; at least i.
            size_t step = 1, span = kFanOut;
            for (const std::vector<int64_t>& level : levels_) {
                if (i % span != 0 || level[i / span] >= bound) break;
                step = span;
                span *= kFanOut;
            }
            i += step;
        }
        return to;
    }

private:
    size_t size_ = 0;
    std::vector<std::vector<int64_t>> levels_;  // levels_[k][b]: maximum of items [b·16^(k+1), (b+1)·16^(k+1))
};

}  // namespace tracescope
