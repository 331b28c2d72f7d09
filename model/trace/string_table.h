// Interned strings: each distinct string is stored once and named by a StringId.
#pragma once

#include "model/trace/types.h"

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tracescope {

class StringTable {
public:
    StringTable();
    StringTable(StringTable&&) noexcept;
    StringTable& operator=(StringTable&&) noexcept;
    StringTable(const StringTable&) = delete;
    StringTable& operator=(const StringTable&) = delete;

    StringId intern(std::string_view s);
    // Returns kNoIndex when s was never interned.
    StringId find(std::string_view s) const;
    std::string_view get(StringId id) const { return views_[id]; }
    size_t size() const { return views_.size(); }
    // Bytes held by the characters plus the index (an estimate for memory reports).
    size_t memoryBytes() const;

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };
    // Characters live in fixed blocks so string_views stay valid while the table grows.
    std::vector<std::unique_ptr<char[]>> blocks_;
    size_t blockUsed_ = 0;
    size_t blockSize_ = 0;
    size_t charBytes_ = 0;
    std::vector<std::string_view> views_;
    std::unordered_map<std::string_view, StringId, Hash, std::equal_to<>> index_;

    std::string_view store(std::string_view s);
};

}  // namespace tracescope
