// The inverse of an analysis's occurrencesOf(): which table row (or tree node) a
// slice was counted in, so a slice selected in the timeline can select its row.
// Built once per result from the per-row occurrence lists; a lookup is a binary search.
#pragma once

#include "model/trace/types.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace tracescope {

class SliceRowIndex {
public:
    // Records that `slices` belong to `row`. A slice added under several rows keeps the first.
    void add(const std::vector<SliceRef>& slices, uint32_t row);
    void add(SliceRef slice, uint32_t row);
    // Sorts the entries; call once after the last add().
    void finish();
    std::optional<uint32_t> rowOf(SliceRef slice) const;
    size_t size() const { return entries_.size(); }

    // Builds the index from occurrencesOfRow(row) for row in [0, rows).
    static SliceRowIndex build(size_t rows, const std::function<std::vector<SliceRef>(size_t row)>& occurrencesOfRow);

private:
    struct Entry {
        SliceRef slice;
        uint32_t row;
    };
    std::vector<Entry> entries_;
};

}  // namespace tracescope
