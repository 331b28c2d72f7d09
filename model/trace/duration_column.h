// Slice durations in 4 bytes each: almost every duration fits in uint32 ns
// (4.29 s); the rare longer ones live in a sorted side table. Reads cost one
// compare; saves 4 B per slice against a plain vector<TimeNs>.
#pragma once

#include "model/trace/types.h"

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

namespace tracescope {

class DurationColumn {
public:
    // Stored in the uint32 slot when the real value is in the side table.
    static constexpr uint32_t kLong = 0xFFFFFFFFu;

    // Random-access, read-only iterator yielding TimeNs (enough for std algorithms
    // and for copying into a vector<TimeNs>).
    class const_iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = TimeNs;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = TimeNs;

        const_iterator() = default;
        const_iterator(const DurationColumn* c, size_t i) : c_(c), i_(i) {}
        TimeNs operator*() const { return (*c_)[i_]; }
        TimeNs operator[](difference_type n) const { return (*c_)[size_t(difference_type(i_) + n)]; }
        const_iterator& operator++() { ++i_; return *this; }
        const_iterator operator++(int) { auto o = *this; ++i_; return o; }
        const_iterator& operator--() { --i_; return *this; }
        const_iterator operator--(int) { auto o = *this; --i_; return o; }
        const_iterator& operator+=(difference_type n) { i_ = size_t(difference_type(i_) + n); return *this; }
        const_iterator& operator-=(difference_type n) { i_ = size_t(difference_type(i_) - n); return *this; }
        friend const_iterator operator+(const_iterator a, difference_type n) { return a += n; }
        friend const_iterator operator+(difference_type n, const_iterator a) { return a += n; }
        friend const_iterator operator-(const_iterator a, difference_type n) { return a -= n; }
        friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
            return difference_type(a.i_) - difference_type(b.i_);
        }
        friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.i_ == b.i_; }
        friend auto operator<=>(const const_iterator& a, const const_iterator& b) { return a.i_ <=> b.i_; }

    private:
        const DurationColumn* c_ = nullptr;
        size_t i_ = 0;
    };

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
        return short_.capacity() * sizeof(uint32_t) + long_.capacity() * sizeof(std::pair<uint32_t, TimeNs>);
    }
    // Bytes per slice in the common case (a test pins the slice record size).
    static constexpr size_t kBytesPerSlice = sizeof(uint32_t);

private:
    TimeNs longValue(size_t i) const;

    std::vector<uint32_t> short_;
    // (index, duration) for durations >= kLong, sorted by index.
    std::vector<std::pair<uint32_t, TimeNs>> long_;
};

}  // namespace tracescope
