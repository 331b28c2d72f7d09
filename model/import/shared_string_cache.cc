#include "model/import/shared_string_cache.h"

#include "model/import/json_text.h"

#include <cstring>

namespace tracescope {

namespace {
// Past this many entries (or text bytes) the cache starts over rather than
// duplicating a huge string table (traces with a unique string per event).
constexpr size_t kMaxEntries = 1 << 20;
constexpr size_t kMaxTextBytes = 64 << 20;
}  // namespace

StringCache::StringCache(SharedStrings& shared) : shared_(shared) { reset(4096); }

void StringCache::reset(size_t slotCount) {
    slots_.assign(slotCount, Slot{});
    text_.clear();
    used_ = 0;
}

void StringCache::grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.size() * 2, Slot{});
    const size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
        if (s.id == kNoIndex) continue;
        size_t i = s.hash & mask;
        while (slots_[i].id != kNoIndex) i = (i + 1) & mask;
        slots_[i] = s;
    }
}

StringId StringCache::intern(std::string_view s) {
    const uint64_t h = json::hashBytes(s);
    const size_t mask = slots_.size() - 1;
    size_t i = h & mask;
    for (;; i = (i + 1) & mask) {
        Slot& slot = slots_[i];
        if (slot.id == kNoIndex) break;
        // (memcmp of 0 bytes still needs valid pointers; an empty cache text has none)
        if (slot.hash == h && slot.size == s.size() &&
            (s.empty() || std::memcmp(text_.data() + slot.offset, s.data(), s.size()) == 0))
            return slot.id;
    }
    const StringId id = shared_.intern(s);
    if (used_ >= kMaxEntries || text_.size() + s.size() > kMaxTextBytes) {
        reset(4096);
        return id;  // not cached this time; the next lookup caches it
    }
    Slot& slot = slots_[i];
    slot.hash = h;
    slot.offset = uint32_t(text_.size());
    slot.size = uint32_t(s.size());
    slot.id = id;
    text_.insert(text_.end(), s.begin(), s.end());
    if (++used_ * 2 > slots_.size()) grow();
    return id;
}

}  // namespace tracescope
