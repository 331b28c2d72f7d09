// The rare values a compact column cannot keep in its slot (a duration past 4.29 s, a time
// more than 2.1 s from its block's base, a name past the dictionary's codes), by index: a
// vector of (index, value) sorted by index, found by binary search. A column appends while it
// is built, in index order, so the table stays sorted; set() and erase() are rare and keep it so.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace tracescope {

template <typename T>
class SideTable {
public:
    using Entry = std::pair<uint32_t, T>;

    // The value kept for `index`, or null when it has none here.
    const T* find(size_t index) const {
        auto it = lowerBound(index);
        return it != entries_.end() && it->first == index ? &it->second : nullptr;
    }
    // A value for an index past every index held (a column's push_back).
    void append(size_t index, T value) { entries_.emplace_back(uint32_t(index), std::move(value)); }
    // Sets or adds the value of `index`.
    void set(size_t index, T value) {
        auto it = lowerBound(index);
        if (it != entries_.end() && it->first == index) it->second = std::move(value);
        else entries_.insert(it, {uint32_t(index), std::move(value)});
    }
    // Removes the value of `index`, if any.
    void erase(size_t index) {
        auto it = lowerBound(index);
        if (it != entries_.end() && it->first == index) entries_.erase(it);
    }
    // For a column reordered so that new[k] = old[perm[k]]: the value of each new index k for
    // which `kept(k)` says the column's slot points here, taken from old index perm[k].
    template <typename Kept>
    void permute(const std::vector<uint32_t>& perm, Kept kept) {
        if (entries_.empty()) return;
        std::vector<Entry> moved;
        for (size_t k = 0; k < perm.size(); ++k)
            if (kept(k))
                if (const T* v = find(perm[k])) moved.emplace_back(uint32_t(k), *v);
        entries_.swap(moved);  // built in index order: sorted
    }
    // Replaces every value v by f(v) (a clock shift, renumbered strings).
    template <typename F>
    void transformValues(F f) {
        for (Entry& e : entries_) e.second = f(e.second);
    }
    template <typename P>
    bool anyValue(P p) const {
        return std::any_of(entries_.begin(), entries_.end(), [&](const Entry& e) { return p(e.second); });
    }

    bool empty() const { return entries_.empty(); }
    size_t memoryBytes() const { return entries_.capacity() * sizeof(Entry); }
    void shrink_to_fit() { entries_.shrink_to_fit(); }
    void clear() { entries_.clear(); }
    void swap(SideTable& o) noexcept { entries_.swap(o.entries_); }

private:
    typename std::vector<Entry>::const_iterator lowerBound(size_t index) const {
        return std::lower_bound(entries_.begin(), entries_.end(), index,
                                [](const Entry& e, size_t i) { return e.first < i; });
    }
    typename std::vector<Entry>::iterator lowerBound(size_t index) {
        return std::lower_bound(entries_.begin(), entries_.end(), index,
                                [](const Entry& e, size_t i) { return e.first < i; });
    }

    std::vector<Entry> entries_;
};

}  // namespace tracescope
