#include "model/trace/category_column.h"

#include <algorithm>

namespace tracescope {

namespace {
using OtherEntry = std::pair<uint32_t, StringId>;
bool indexLess(const OtherEntry& e, size_t i) { return e.first < i; }
}  // namespace

StringId CategoryColumn::otherValue(size_t i) const {
    auto it = std::lower_bound(other_.begin(), other_.end(), i, indexLess);
    return it != other_.end() && it->first == i ? it->second : kEmptyString;
}

uint8_t CategoryColumn::codeOf(StringId category) {
    if (lastCode_ < dictionary_.size() && dictionary_[lastCode_] == category) return lastCode_;
    for (size_t k = 0; k < dictionary_.size(); ++k)
        if (dictionary_[k] == category) return lastCode_ = uint8_t(k);
    if (dictionary_.size() == kOther) return kOther;
    dictionary_.push_back(category);
    return lastCode_ = uint8_t(dictionary_.size() - 1);
}

void CategoryColumn::push_back(StringId category) {
    const uint8_t code = codeOf(category);
    // The new index is the largest so far: the side table stays sorted.
    if (code == kOther) other_.emplace_back(uint32_t(codes_.size()), category);
    codes_.push_back(code);
}

void CategoryColumn::shrink_to_fit() {
    codes_.shrink_to_fit();
    dictionary_.shrink_to_fit();
    other_.shrink_to_fit();
}

void CategoryColumn::clear() {
    codes_.clear();
    dictionary_.clear();
    other_.clear();
    lastCode_ = 0;
}

void CategoryColumn::permute(const std::vector<uint32_t>& perm) {
    std::vector<uint8_t> out(codes_.size());
    for (size_t k = 0; k < perm.size(); ++k) out[k] = codes_[perm[k]];
    if (!other_.empty()) {
        std::vector<OtherEntry> moved;
        for (size_t k = 0; k < perm.size(); ++k)
            if (out[k] == kOther) moved.emplace_back(uint32_t(k), otherValue(perm[k]));
        other_.swap(moved);  // built in index order: sorted
    }
    codes_.swap(out);
}

void CategoryColumn::remap(const std::function<StringId(StringId)>& to) {
    for (StringId& c : dictionary_) c = to(c);
    for (OtherEntry& e : other_) e.second = to(e.second);
}

size_t CategoryColumn::memoryBytes() const {
    return codes_.capacity() + dictionary_.capacity() * sizeof(StringId) + other_.capacity() * sizeof(OtherEntry);
}

}  // namespace tracescope
