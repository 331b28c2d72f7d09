// Event categories in 1 byte each: a track's events use a handful of categories (Kineto's
// cpu_op, cuda_runtime, user_annotation; a GPU stream's kernel, gpu_memcpy), so a slot is an
// index into the column's own small dictionary. Past 255 categories on one track (a hostile
// file), the rest live in a sorted side table, as DurationColumn keeps its long durations.
#pragma once

#include "model/trace/types.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <utility>
#include <vector>

namespace tracescope {

class CategoryColumn {
public:
    // The slot's code when the category is in the side table.
    static constexpr uint8_t kOther = 0xFF;

    // Random-access, read-only iterator yielding StringId.
    class const_iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = StringId;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = StringId;

        const_iterator() = default;
        const_iterator(const CategoryColumn* c, size_t i) : c_(c), i_(i) {}
        StringId operator*() const { return (*c_)[i_]; }
        StringId operator[](difference_type n) const { return (*c_)[size_t(difference_type(i_) + n)]; }
        const_iterator& operator++() {
            ++i_;
            return *this;
        }
        const_iterator operator++(int) {
            auto o = *this;
            ++i_;
            return o;
        }
        const_iterator& operator--() {
            --i_;
            return *this;
        }
        const_iterator operator--(int) {
            auto o = *this;
            --i_;
            return o;
        }
        const_iterator& operator+=(difference_type n) {
            i_ = size_t(difference_type(i_) + n);
            return *this;
        }
        const_iterator& operator-=(difference_type n) {
            i_ = size_t(difference_type(i_) - n);
            return *this;
        }
        friend const_iterator operator+(const_iterator a, difference_type n) { return a += n; }
        friend const_iterator operator+(difference_type n, const_iterator a) { return a += n; }
        friend const_iterator operator-(const_iterator a, difference_type n) { return a -= n; }
        friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
            return difference_type(a.i_) - difference_type(b.i_);
        }
        friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.i_ == b.i_; }
        friend auto operator<=>(const const_iterator& a, const const_iterator& b) { return a.i_ <=> b.i_; }

    private:
        const CategoryColumn* c_ = nullptr;
        size_t i_ = 0;
    };

    StringId operator[](size_t i) const {
        const uint8_t c = codes_[i];
        return c != kOther ? dictionary_[c] : otherValue(i);
    }
    size_t size() const { return codes_.size(); }
    bool empty() const { return codes_.empty(); }
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }

    void push_back(StringId category);
    void reserve(size_t n) { codes_.reserve(n); }
    void shrink_to_fit();
    void clear();
    // Reorders so that new[k] = old[perm[k]].
    void permute(const std::vector<uint32_t>& perm);
    // Replaces every category c by to(c) (renumbering strings when traces merge).
    void remap(const std::function<StringId(StringId)>& to);
    // Bytes held (capacity based, like the other columns).
    size_t memoryBytes() const;
    // Bytes per event in the common case (a test pins the slice record size).
    static constexpr size_t kBytesPerEvent = sizeof(uint8_t);

private:
    StringId otherValue(size_t i) const;
    uint8_t codeOf(StringId category);

    std::vector<uint8_t> codes_;
    std::vector<StringId> dictionary_;  // at most kOther entries
    // (index, category) past the dictionary, sorted by index.
    std::vector<std::pair<uint32_t, StringId>> other_;
    uint8_t lastCode_ = 0;  // the last code pushed: runs of one category are common
};

}  // namespace tracescope
