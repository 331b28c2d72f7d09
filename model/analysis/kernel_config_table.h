// Kernel stats' running sums, one per distinct launch configuration (kernel_stats.cc).
//
// Built for traces with millions of distinct configurations, where the sums are the
// analysis's whole memory: names are views into the trace's strings (they live as long as
// the trace, which outlives the computation), so a configuration copies no string; the
// sums sit in fixed-size chunks (no reallocation doubling the peak while they grow); the
// index is an open-addressing table of 4-byte row numbers that hashes the configuration
// itself rather than holding a copy of its key.
#pragma once

#include "model/trace/types.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

namespace tracescope {

using Dim3 = std::array<uint32_t, 3>;

// What makes launches one row of the table.
struct KernelKey {
    std::string_view name, op;
    Dim3 grid, block;
    uint32_t regs;
    uint64_t shared;
    friend bool operator==(const KernelKey&, const KernelKey&) = default;
};

struct KernelKeyHash {
    size_t operator()(const KernelKey& k) const noexcept;
};

// One configuration's sums. Fields ordered so that the flags fill what would be padding.
struct KernelConfig {
    std::string_view name, op;
    Dim3 grid, block;
    uint32_t regs = 0;
    bool usesTensorCore = false;  // by its name: its launches count in tensorCoreNs
    bool hasOccupancy = false;
    uint64_t shared = 0;
    double occupancyPct = 0;  // the first launch's, when hasOccupancy
    uint64_t occurrences = 0;
    TimeNs totalNs = 0, minNs = 0, maxNs = 0;

    KernelKey key() const { return {name, op, grid, block, regs, shared}; }
};

class KernelConfigTable {
public:
    // The configuration of `key`, or nullptr when it has none yet.
    KernelConfig* find(const KernelKey& key);
    // Adds `key`'s configuration (find() gave nullptr); its sums start at zero.
    KernelConfig& add(const KernelKey& key);
    size_t size() const { return size_; }
    const KernelConfig& operator[](size_t row) const { return chunks_[row / kChunk][row % kChunk]; }
    // Frees the index (find() and add() no longer work); the configurations stay.
    void dropIndex();
    // Calls visit(const KernelConfig&) for each configuration in the order added, freeing
    // each chunk once visited, so a caller that copies them out never holds both in full.
    template <typename Visit>
    void drain(Visit visit) {
        size_t left = size_;
        for (auto& chunk : chunks_) {
            for (size_t i = 0; i < kChunk && left > 0; ++i, --left) visit(std::as_const(chunk[i]));
            chunk.reset();
        }
        chunks_.clear();
        size_ = 0;
    }

private:
    static constexpr size_t kChunk = 8192;  // 896 KiB: mmap'ed, so a freed chunk leaves the process
    KernelConfig& at(uint32_t row) { return chunks_[row / kChunk][row % kChunk]; }
    void grow();
    std::vector<std::unique_ptr<KernelConfig[]>> chunks_;
    size_t size_ = 0;
    // Row + 1 per slot, 0 = empty; linear probing; the capacity is a power of two, at most
    // half full.
    std::vector<uint32_t> slots_;
};

}  // namespace tracescope
