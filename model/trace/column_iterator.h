// A random-access, read-only iterator over a column that decodes on read (DurationColumn,
// DictionaryColumn): it yields column[i] by value, which is enough for std algorithms and
// for copying into a vector.
#pragma once

#include <compare>
#include <cstddef>
#include <iterator>

namespace tracescope {

template <typename Column, typename Value>
class ColumnIterator {
public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = Value;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = Value;

    ColumnIterator() = default;
    ColumnIterator(const Column* c, size_t i) : c_(c), i_(i) {}
    Value operator*() const { return (*c_)[i_]; }
    Value operator[](difference_type n) const { return (*c_)[size_t(difference_type(i_) + n)]; }
    ColumnIterator& operator++() {
        ++i_;
        return *this;
    }
    ColumnIterator operator++(int) {
        auto o = *this;
        ++i_;
        return o;
    }
    ColumnIterator& operator--() {
        --i_;
        return *this;
    }
    ColumnIterator operator--(int) {
        auto o = *this;
        --i_;
        return o;
    }
    ColumnIterator& operator+=(difference_type n) {
        i_ = size_t(difference_type(i_) + n);
        return *this;
    }
    ColumnIterator& operator-=(difference_type n) {
        i_ = size_t(difference_type(i_) - n);
        return *this;
    }
    friend ColumnIterator operator+(ColumnIterator a, difference_type n) { return a += n; }
    friend ColumnIterator operator+(difference_type n, ColumnIterator a) { return a += n; }
    friend ColumnIterator operator-(ColumnIterator a, difference_type n) { return a -= n; }
    friend difference_type operator-(const ColumnIterator& a, const ColumnIterator& b) {
        return difference_type(a.i_) - difference_type(b.i_);
    }
    friend bool operator==(const ColumnIterator& a, const ColumnIterator& b) { return a.i_ == b.i_; }
    friend auto operator<=>(const ColumnIterator& a, const ColumnIterator& b) { return a.i_ <=> b.i_; }

private:
    const Column* c_ = nullptr;
    size_t i_ = 0;
};

}  // namespace tracescope
