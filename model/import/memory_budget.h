// How much memory an import may use, what a file will need, and a guard that stops an
// import growing past what the machine holds: a clear error instead of an out-of-memory kill.
#pragma once

#include "model/import/import.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace tracescope {

// What an import may use now. TRACESCOPE_MEMORY_LIMIT (bytes, or with a K, M or G suffix)
// replaces the machine's figure: for tests, or a user who knows better (a huge value turns
// the check off). Otherwise 90% of MemAvailable (/proc/meminfo), lowered to what the cgroup
// (memory.max - memory.current) still allows. 0 when nothing is known (no check).
struct MemoryBudget {
    uint64_t bytes = 0;
    std::string source;  // "TRACESCOPE_MEMORY_LIMIT" or "available memory"
};
MemoryBudget importMemoryBudget();

// The variable that replaces the machine's figure (and the budget's source when it did).
inline constexpr const char* kMemoryLimitVariable = "TRACESCOPE_MEMORY_LIMIT";

// The machine's memory (MemTotal of /proc/meminfo); 0 when unknown.
uint64_t machineMemoryBytes();

// Parses "123", "64K", "200M", "1.5G" (powers of 1024); 0 when it is not a size.
uint64_t parseByteSize(const std::string& text);

// The process's resident memory now (/proc/self/statm); 0 when unknown.
uint64_t residentBytes();

// What importing `path` (of `format`) will take at its peak, from its size and, for Chrome
// JSON, the density of events in its first MiBs (inflated when it is gzip, whose inflated
// size is extrapolated from that sample's ratio).
struct MemoryEstimate {
    uint64_t bytes = 0;         // resident memory at the peak
    uint64_t contentBytes = 0;  // bytes of the format (inflated for gzip)
    bool compressed = false;
};
MemoryEstimate estimateImportMemory(const std::string& path, TraceFormat format);

// "" when the files (imported together: their estimates add up) fit the budget, else the
// message that refuses the import.
struct ImportFile {
    std::string path;
    TraceFormat format = TraceFormat::Unknown;
};
std::string checkImportMemory(const std::vector<ImportFile>& files);

// Watches an import: exceeded() is true once the process has grown by more than the budget
// since the guard was made. Cheap enough to ask after every read; the reader and the thread
// that merges parsed events may both ask.
class MemoryGuard {
public:
    MemoryGuard();
    bool exceeded();
    // The error for the user when exceeded(); `fileBytesRead`: how far the import got.
    std::string message(uint64_t fileBytesRead) const;

private:
    MemoryBudget budget_;
    uint64_t startResident_ = 0;
    std::atomic<uint64_t> grown_{0};
};

// "1.5 GB" (powers of 1024, as `free -g` and /proc/meminfo count).
std::string formatBytes(uint64_t bytes);

}  // namespace tracescope
