#include "model/query/slice_row_index.h"

#include <algorithm>

namespace tracescope {

namespace {

bool sliceLess(const SliceRef& a, const SliceRef& b) {
    return a.track != b.track ? a.track < b.track : a.index < b.index;
}

}  // namespace

void SliceRowIndex::add(const std::vector<SliceRef>& slices, uint32_t row) {
    // Grow geometrically: callers add one slice at a time, and an exact reserve
    // per call would copy the whole vector each time (quadratic on big traces).
    if (entries_.capacity() < entries_.size() + slices.size())
        entries_.reserve(std::max(2 * entries_.capacity(), entries_.size() + slices.size()));
    for (const SliceRef& s : slices) entries_.push_back({s, row});
}

void SliceRowIndex::add(SliceRef slice, uint32_t row) { entries_.push_back({slice, row}); }

void SliceRowIndex::finish() {
    // Stable: among duplicates the first added (lowest row) comes first and survives.
    std::stable_sort(entries_.begin(), entries_.end(),
                     [](const Entry& a, const Entry& b) { return sliceLess(a.slice, b.slice); });
    entries_.erase(std::unique(entries_.begin(), entries_.end(),
                               [](const Entry& a, const Entry& b) { return a.slice == b.slice; }),
                   entries_.end());
}

std::optional<uint32_t> SliceRowIndex::rowOf(SliceRef slice) const {
    auto it = std::lower_bound(entries_.begin(), entries_.end(), slice,
                               [](const Entry& e, const SliceRef& s) { return sliceLess(e.slice, s); });
    if (it == entries_.end() || !(it->slice == slice)) return std::nullopt;
    return it->row;
}

SliceRowIndex SliceRowIndex::build(size_t rows,
                                   const std::function<std::vector<SliceRef>(size_t row)>& occurrencesOfRow) {
    SliceRowIndex index;
    for (size_t r = 0; r < rows; ++r) index.add(occurrencesOfRow(r), uint32_t(r));
    index.finish();
    return index;
}

}  // namespace tracescope
