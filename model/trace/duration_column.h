// Slice durations in 4 bytes each: almost every duration fits in uint32 ns
// (4.29 s); the rare longer ones live in a sorted side table. Reads cost one
// compare; saves 4 B per slice against a plain vector<TimeNs>.
#pragma once

#include "model/trace/column_iterator.h"
#include "model/trace/side_table.h"
#include "model/trace/types.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tracescope {

class DurationColumn {
public:
    // Stored in the uint32 slot when the real value is in the side table.
    static constexpr uint32_t kLong = 0xFFFFFFFFu;

    using const_iterator = ColumnIterator<DurationColumn, TimeNs>;

    TimeNs operator[](size_t i) const {
        const uint32_t v = short_[i];
        return v != kLong ? TimeNs(v) : longValue(i);
    }
    size_t size() const { return short_.size(); }
    bool empty() const { return short_.empty(); }
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }

    // Durations are >= 0 (the builder clamps); a negative value is stored as 0.
    void push_back(TimeNs v);
    void set(size_t i, TimeNs v);
    void reserve(size_t n) { short_.reserve(n); }
    void shrink_to_fit() {
        short_.shrink_to_fit();
        long_.shrink_to_fit();
    }
    void clear() {
        short_.clear();
        long_.clear();
    }
    void swap(DurationColumn& o) noexcept {
        short_.swap(o.short_);
        long_.swap(o.long_);
    }
    // Reorders so that new[k] = old[perm[k]].
    void permute(const std::vector<uint32_t>& perm);
    // Bytes held (capacity based, like the other columns).
    size_t memoryBytes() const {
        return short_.capacity() * sizeof(uint32_t) + long_.memoryBytes();
    }
    // Bytes per slice in the common case (a test pins the slice record size).
    static constexpr size_t kBytesPerSlice = sizeof(uint32_t);

private:
    TimeNs longValue(size_t i) const;

    std::vector<uint32_t> short_;
    SideTable<TimeNs> long_;  // durations >= kLong
};

}  // namespace tracescope
