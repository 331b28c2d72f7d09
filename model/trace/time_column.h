// Event start times in about 4 bytes each: a track's times are sorted, so the times of 256
// consecutive events almost always lie within +-2.1 s of the block's first; each event keeps
// its int32 offset from that base (8 bytes per block), and the rare one that does not fit
// lives in a sorted side table, as DurationColumn's long durations do. Saves 4 B per slice
// and instant against a plain vector<TimeNs>; a read costs two loads and a compare.
#pragma once

#include "model/trace/column_iterator.h"
#include "model/trace/side_table.h"
#include "model/trace/types.h"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <vector>

namespace tracescope {

class TimeColumn {
public:
    static constexpr unsigned kBlockShift = 8;  // 256 events per base
    // Stored as the offset when the real time is in the side table.
    static constexpr int32_t kWide = std::numeric_limits<int32_t>::min();

    using const_iterator = ColumnIterator<TimeColumn, TimeNs>;

    TimeColumn() = default;
    TimeColumn(std::initializer_list<TimeNs> values) {
        for (TimeNs v : values) push_back(v);
    }

    TimeNs operator[](size_t i) const {
        const int32_t d = offset_[i];
        return d != kWide ? base_[i >> kBlockShift] + d : wideValue(i);
    }
    size_t size() const { return offset_.size(); }
    bool empty() const { return offset_.empty(); }
    TimeNs front() const { return (*this)[0]; }
    TimeNs back() const { return (*this)[size() - 1]; }
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }

    void push_back(TimeNs v);
    void set(size_t i, TimeNs v);
    // Adds `delta` to every time (saturating), as a clock offset does.
    void shift(TimeNs delta);
    void reserve(size_t n) {
        offset_.reserve(n);
        base_.reserve((n >> kBlockShift) + 1);
    }
    void shrink_to_fit() {
        offset_.shrink_to_fit();
        base_.shrink_to_fit();
        wide_.shrink_to_fit();
    }
    void clear() {
        offset_.clear();
        base_.clear();
        wide_.clear();
    }
    void swap(TimeColumn& o) noexcept {
        offset_.swap(o.offset_);
        base_.swap(o.base_);
        wide_.swap(o.wide_);
    }
    // Reorders so that new[k] = old[perm[k]]; the bases are chosen again from the new order.
    void permute(const std::vector<uint32_t>& perm);
    std::vector<TimeNs> toVector() const { return {begin(), end()}; }
    // Bytes held (capacity based, like the other columns).
    size_t memoryBytes() const {
        return offset_.capacity() * sizeof(int32_t) + base_.capacity() * sizeof(TimeNs) +
               wide_.memoryBytes();
    }
    // Bytes per event in the common case (a test pins the slice record size).
    static constexpr size_t kBytesPerEvent = sizeof(int32_t);

    friend bool operator==(const TimeColumn& a, const TimeColumn& b) {
        if (a.size() != b.size()) return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (a[i] != b[i]) return false;
        return true;
    }

private:
    TimeNs wideValue(size_t i) const;
    // The offset of v from its block's base, or kWide when it does not fit in int32.
    int32_t offsetOf(size_t i, TimeNs v) const;

    std::vector<int32_t> offset_;
    std::vector<TimeNs> base_;  // the first time pushed into each block of 256
    SideTable<TimeNs> wide_;    // times whose offset does not fit
};

}  // namespace tracescope
