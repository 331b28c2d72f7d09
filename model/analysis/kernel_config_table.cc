#include "model/analysis/kernel_config_table.h"

#include <functional>

namespace tracescope {

// The per-row cost analysis_cost.cc counts on: keep the sums this small.
static_assert(sizeof(KernelConfig) <= 112);

size_t KernelKeyHash::operator()(const KernelKey& k) const noexcept {
    size_t h = std::hash<std::string_view>{}(k.name);
    auto mix = [&](uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
    mix(std::hash<std::string_view>{}(k.op));
    for (uint32_t d : k.grid) mix(d);
    for (uint32_t d : k.block) mix(d);
    mix(k.regs);
    mix(k.shared);
    return h;
}

namespace {
// Linear probing takes the hash's low bits: the finalizer of MurmurHash3 makes each depend
// on all of them (hash_combine's low bits follow the last values mixed in too closely).
size_t slotHash(const KernelKey& key) {
    uint64_t h = KernelKeyHash{}(key);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return size_t(h);
}
}  // namespace

KernelConfig* KernelConfigTable::find(const KernelKey& key) {
    if (slots_.empty()) return nullptr;
    const size_t mask = slots_.size() - 1;
    for (size_t i = slotHash(key) & mask;; i = (i + 1) & mask) {
        const uint32_t s = slots_[i];
        if (s == 0) return nullptr;
        KernelConfig& c = at(s - 1);
        if (c.key() == key) return &c;
    }
}

KernelConfig& KernelConfigTable::add(const KernelKey& key) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    const uint32_t row = uint32_t(size_);
    if (row % kChunk == 0) chunks_.push_back(std::make_unique<KernelConfig[]>(kChunk));
    KernelConfig& c = at(row);
    c.name = key.name;
    c.op = key.op;
    c.grid = key.grid;
    c.block = key.block;
    c.regs = key.regs;
    c.shared = key.shared;
    ++size_;
    const size_t mask = slots_.size() - 1;
    size_t i = slotHash(key) & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = row + 1;
    return c;
}

void KernelConfigTable::grow() {
    // The hashes are computed again from the configurations: storing them would cost more
    // per row than the few rehashes (each doubles the table) cost in time.
    std::vector<uint32_t> slots(slots_.empty() ? 1024 : 2 * slots_.size(), 0);
    const size_t mask = slots.size() - 1;
    for (uint32_t row = 0; row < size_; ++row) {
        size_t i = slotHash(at(row).key()) & mask;
        while (slots[i] != 0) i = (i + 1) & mask;
        slots[i] = row + 1;
    }
    slots_ = std::move(slots);
}

void KernelConfigTable::dropIndex() { slots_ = {}; }

}  // namespace tracescope
