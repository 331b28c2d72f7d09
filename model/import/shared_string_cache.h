// Interning from several parser threads into one StringTable.
//
// Each thread keeps its own cache (text -> StringId); only a miss takes the
// table's lock. Trace strings repeat enormously (event names, arg keys), so
// almost every lookup is a lock-free hit and ids are final: nothing needs
// remapping when the threads' results are merged.
#pragma once

#include "model/trace/string_table.h"

#include <mutex>
#include <string_view>
#include <vector>

namespace tracescope {

class SharedStrings {
public:
    explicit SharedStrings(StringTable& table) : table_(table) {}
    StringId intern(std::string_view s) {
        std::lock_guard lock(mutex_);
        return table_.intern(s);
    }
    std::string text(StringId id) {
        std::lock_guard lock(mutex_);
        return std::string(table_.get(id));
    }

private:
    StringTable& table_;
    std::mutex mutex_;
};

class StringCache {
public:
    explicit StringCache(SharedStrings& shared);
    StringId intern(std::string_view s);

private:
    struct Slot {
        uint64_t hash = 0;
        uint32_t offset = 0;
        uint32_t size = 0;
        StringId id = kNoIndex;
    };
    SharedStrings& shared_;
    std::vector<Slot> slots_;
    std::vector<char> text_;
    size_t used_ = 0;

    void reset(size_t slotCount);
    void grow();
};

}  // namespace tracescope
