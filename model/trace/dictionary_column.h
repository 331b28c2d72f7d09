// String ids (event names, categories) stored as small codes into a dictionary per column.
//
// A track's events use a handful of categories (Kineto's cpu_op, cuda_runtime,
// user_annotation; a GPU stream's kernel, gpu_memcpy) and at most a few thousand names, so a
// slot is a 1-byte (categories) or 2-byte (names) index into the column's own dictionary
// instead of a 4-byte StringId. Past the code's range on one track (a hostile file, or a
// thread with more than 65,535 distinct names), the rest live in a sorted side table, as
// DurationColumn keeps its long durations.
#pragma once

#include "model/trace/column_iterator.h"
#include "model/trace/side_table.h"
#include "model/trace/types.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <unordered_map>
#include <vector>

namespace tracescope {

template <typename Code>
class DictionaryColumn {
public:
    // The slot's code when the id is in the side table.
    static constexpr Code kOther = std::numeric_limits<Code>::max();
    // Bytes per event in the common case (a test pins the slice record size).
    static constexpr size_t kBytesPerEvent = sizeof(Code);

    using const_iterator = ColumnIterator<DictionaryColumn, StringId>;

    StringId operator[](size_t i) const {
        const Code c = codes_[i];
        return c != kOther ? dictionary_[c] : otherValue(i);
    }
    size_t size() const { return codes_.size(); }
    bool empty() const { return codes_.empty(); }
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }

    void push_back(StringId id) {
        const Code code = codeOf(id);
        if (code == kOther) other_.append(codes_.size(), id);
        codes_.push_back(code);
    }
    void reserve(size_t n) { codes_.reserve(n); }
    // Also drops the lookup index used while events are added (made again if more come).
    void shrink_to_fit() {
        codes_.shrink_to_fit();
        dictionary_.shrink_to_fit();
        other_.shrink_to_fit();
        index_ = {};
    }
    void clear() { *this = DictionaryColumn(); }
    // Reorders so that new[k] = old[perm[k]].
    void permute(const std::vector<uint32_t>& perm) {
        std::vector<Code> out(codes_.size());
        for (size_t k = 0; k < perm.size(); ++k) out[k] = codes_[perm[k]];
        other_.permute(perm, [&out](size_t k) { return out[k] == kOther; });
        codes_.swap(out);
    }
    // Replaces every id s by to(s) (renumbering strings when traces merge).
    void remap(const std::function<StringId(StringId)>& to) {
        for (StringId& s : dictionary_) s = to(s);
        other_.transformValues(to);
        index_ = {};
    }
    // Bytes held (capacity based, like the other columns; the build-time index is not kept).
    size_t memoryBytes() const {
        return codes_.capacity() * sizeof(Code) + dictionary_.capacity() * sizeof(StringId) +
               other_.memoryBytes();
    }

private:
    // Up to this many ids a linear search beats a hash lookup.
    static constexpr size_t kLinearSearch = 16;

    StringId otherValue(size_t i) const {
        const StringId* id = other_.find(i);
        return id ? *id : kEmptyString;
    }

    Code codeOf(StringId id) {
        if (lastCode_ < dictionary_.size() && dictionary_[lastCode_] == id) return lastCode_;
        if (dictionary_.size() <= kLinearSearch) {
            for (size_t k = 0; k < dictionary_.size(); ++k)
                if (dictionary_[k] == id) return lastCode_ = Code(k);
        } else {
            if (index_.empty())
                for (size_t k = 0; k < dictionary_.size(); ++k) index_.emplace(dictionary_[k], Code(k));
            if (auto it = index_.find(id); it != index_.end()) return lastCode_ = it->second;
        }
        if (dictionary_.size() == size_t(kOther)) return kOther;
        const Code code = Code(dictionary_.size());
        dictionary_.push_back(id);
        if (!index_.empty() || dictionary_.size() > kLinearSearch) index_.emplace(id, code);
        return lastCode_ = code;
    }

    std::vector<Code> codes_;
    std::vector<StringId> dictionary_;          // at most kOther entries
    SideTable<StringId> other_;                 // ids past the dictionary
    std::unordered_map<StringId, Code> index_;  // id -> code while events are added
    Code lastCode_ = 0;                         // runs of one id are common
};

using CategoryColumn = DictionaryColumn<uint8_t>;
using NameColumn = DictionaryColumn<uint16_t>;

}  // namespace tracescope
