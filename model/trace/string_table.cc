#include "model/trace/string_table.h"

#include <algorithm>
#include <cstring>

namespace tracescope {

namespace {
constexpr size_t kBlockBytes = 256 * 1024;
}

StringTable::StringTable() { intern(std::string_view{}); }
StringTable::StringTable(StringTable&&) noexcept = default;
StringTable& StringTable::operator=(StringTable&&) noexcept = default;

std::string_view StringTable::store(std::string_view s) {
    if (s.empty()) return {};
    if (blocks_.empty() || blockUsed_ + s.size() > blockSize_) {
        blockSize_ = std::max(kBlockBytes, s.size());
        blocks_.push_back(std::make_unique<char[]>(blockSize_));
        blockUsed_ = 0;
    }
    char* dst = blocks_.back().get() + blockUsed_;
    std::memcpy(dst, s.data(), s.size());
    blockUsed_ += s.size();
    charBytes_ += s.size();
    return {dst, s.size()};
}

StringId StringTable::intern(std::string_view s) {
    if (auto it = index_.find(s); it != index_.end()) return it->second;
    std::string_view stored = store(s);
    auto id = static_cast<StringId>(views_.size());
    views_.push_back(stored);
    index_.emplace(stored, id);
    return id;
}

StringId StringTable::find(std::string_view s) const {
    auto it = index_.find(s);
    return it == index_.end() ? kNoIndex : it->second;
}

size_t StringTable::memoryBytes() const {
    return charBytes_ + views_.capacity() * sizeof(std::string_view) +
           index_.size() * (sizeof(std::string_view) + sizeof(StringId) + 2 * sizeof(void*));
}

}  // namespace tracescope
