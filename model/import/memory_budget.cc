#include "model/import/memory_budget.h"

#include "model/import/byte_source.h"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <vector>

namespace tracescope {
namespace {

// What an import holds at its peak, fitted on `tracescope-cli info` runs (peak RSS):
//   1 M compact events ({"ph":"X",...} ~58 B each, 55 MB):           84-90 MB
//   gen_chrome_trace.py --events 1000000 (1.6 M events, 209 MB):     208-220 MB
//   gen_chrome_trace.py --events 10000000 (16 M events, 2.1 GB):     1.14 GB
//   gen_chrome_trace.py --events 100000000 (160 M events, 22 GB):    9.5 GB
//   a 203 MB XSpace of 2.3 M events (bench_xspace_import's synthetic): 395-412 MB
// Chrome JSON costs per event (the compact model, strings, flows), a little per byte (args
// are kept as text), and chunk buffers that grow with the file up to ~100 MB. These
// constants meet the 1.6 M-event file (its growth over the bare process) and over-estimate
// the others (the 2.1 GB one by 1.1x, the 22 GB one by about 1.3x), so what opens today on a
// machine is not refused there.
constexpr double kJsonBytesPerEvent = 68;
constexpr double kJsonBytesPerByte = 0.1;
constexpr double kJsonBufferShare = 0.25;
constexpr uint64_t kJsonMaxBufferBytes = 96ull << 20;
// Protobuf files are mapped whole and parsed into the model: about twice their size.
constexpr double kProtobufBytesPerByte = 2.0;
// Chunk buffers, thread stacks, tables: what any import needs besides its data.
constexpr uint64_t kFixedBytes = 32ull << 20;
// The head that Chrome JSON's event density is measured on.
constexpr size_t kSampleBytes = 2u << 20;
// The share of MemAvailable an import may take: the rest is for the page cache the file
// itself needs, and for the programs around.
constexpr double kAvailableShare = 0.9;
constexpr const char* kLimitVariable = kMemoryLimitVariable;

uint64_t meminfoField(const char* name) {
    std::ifstream in("/proc/meminfo");
    std::string key;
    uint64_t kb = 0;
    std::string unit;
    while (in >> key >> kb) {
        std::getline(in, unit);
        if (key.size() == std::strlen(name) + 1 && key.compare(0, key.size() - 1, name) == 0 && key.back() == ':')
            return kb * 1024;
    }
    return 0;
}

// What the cgroup (v2) of this process still allows; 0 when unlimited or unknown.
uint64_t cgroupRoom() {
    std::ifstream maxFile("/sys/fs/cgroup/memory.max");
    std::string max;
    if (!(maxFile >> max) || max == "max") return 0;
    std::ifstream currentFile("/sys/fs/cgroup/memory.current");
    uint64_t current = 0;
    currentFile >> current;
    const uint64_t limit = std::strtoull(max.c_str(), nullptr, 10);
    return limit > current ? limit - current : 1;
}

// Counts "ph" keys (every Chrome trace event has one) in the first kSampleBytes of the
// content (and, in a large plain file, as much in its middle and at its end), and how many
// file bytes the head took.
struct JsonSample {
    uint64_t contentBytes = 0;  // sampled, in all
    uint64_t headBytes = 0;     // sampled from the start
    uint64_t fileBytes = 0;     // file bytes consumed for the head
    uint64_t events = 0;
    bool compressed = false;
    bool ended = false;  // the whole content was sampled
};

uint64_t countEvents(std::string_view text) {
    uint64_t n = 0;
    for (size_t at = text.find("\"ph\""); at != std::string_view::npos; at = text.find("\"ph\"", at + 4)) ++n;
    return n;
}

JsonSample sampleJson(const std::string& path) {
    JsonSample s;
    std::unique_ptr<ByteSource> source = ByteSource::open(path, nullptr);
    if (!source) return s;
    s.compressed = source->compressed();
    // Small files get a small buffer (gzip: room for a high ratio).
    const uint64_t room = s.compressed ? source->fileSize() * 64 + 65536 : source->fileSize() + 1;
    const size_t sample = size_t(std::min<uint64_t>(kSampleBytes, room));
    std::vector<char> buf(sample);
    size_t filled = 0;
    while (filled < sample) {
        const size_t n = source->read(buf.data() + filled, sample - filled);
        if (n == 0) {
            s.ended = true;
            break;
        }
        filled += n;
    }
    s.contentBytes = filled;
    s.fileBytes = source->fileBytesRead();
    s.headBytes = filled;
    s.events = countEvents(std::string_view(buf.data(), filled));
    // A plain file is sampled in the middle and at the end too: its head (metadata, the first
    // steps) is often denser or sparser than the rest.
    if (!s.compressed && !s.ended && source->fileSize() > 3 * uint64_t(sample)) {
        std::ifstream in(path, std::ios::binary);
        for (const uint64_t at : {source->fileSize() / 2, source->fileSize() - sample}) {
            in.seekg(std::streamoff(at));
            if (!in.read(buf.data(), std::streamsize(sample))) break;
            s.events += countEvents(std::string_view(buf.data(), sample));
            s.contentBytes += sample;
        }
    }
    return s;
}

uint64_t fileSize(const std::string& path) {
    std::error_code ec;
    const uint64_t size = std::filesystem::file_size(path, ec);
    return ec ? 0 : size;
}

// A gzip file's ISIZE trailer: the inflated size of its last member, modulo 2^32.
uint64_t gzipTrailerSize(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    in.seekg(-4, std::ios::end);
    unsigned char b[4] = {0, 0, 0, 0};
    if (!in.read(reinterpret_cast<char*>(b), 4)) return 0;
    return uint64_t(b[0]) | uint64_t(b[1]) << 8 | uint64_t(b[2]) << 16 | uint64_t(b[3]) << 24;
}

uint64_t saturatingDouble(double v) { return v >= 1.8e19 ? UINT64_MAX : uint64_t(std::max(0.0, v)); }

}  // namespace

uint64_t parseByteSize(const std::string& text) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || !std::isfinite(v) || v <= 0) return 0;
    std::string unit(end);
    while (!unit.empty() && (unit.back() == ' ' || unit.back() == 'B' || unit.back() == 'b' || unit.back() == 'i'))
        unit.pop_back();
    double scale = 1;
    if (unit == "K" || unit == "k") scale = 1024.0;
    else if (unit == "M" || unit == "m") scale = 1024.0 * 1024;
    else if (unit == "G" || unit == "g") scale = 1024.0 * 1024 * 1024;
    else if (unit == "T" || unit == "t") scale = 1024.0 * 1024 * 1024 * 1024;
    else if (!unit.empty()) return 0;
    return saturatingDouble(v * scale);
}

MemoryBudget importMemoryBudget() {
    MemoryBudget b;
    if (const char* limit = std::getenv(kLimitVariable); limit && *limit) {
        b.bytes = parseByteSize(limit);
        if (b.bytes) {
            b.source = kLimitVariable;
            return b;
        }
    }
    uint64_t available = uint64_t(double(meminfoField("MemAvailable")) * kAvailableShare);
    if (const uint64_t room = cgroupRoom(); room && (!available || room < available)) available = room;
    b.bytes = available;
    b.source = "available memory";
    return b;
}

uint64_t machineMemoryBytes() { return meminfoField("MemTotal"); }

uint64_t residentBytes() {
    std::ifstream in("/proc/self/statm");
    uint64_t size = 0, resident = 0;
    if (!(in >> size >> resident)) return 0;
    return resident * uint64_t(::sysconf(_SC_PAGESIZE));
}

MemoryEstimate estimateImportMemory(const std::string& path, TraceFormat format) {
    MemoryEstimate e;
    const uint64_t size = fileSize(path);
    switch (format) {
    case TraceFormat::ChromeJson: {
        const JsonSample s = sampleJson(path);
        e.compressed = s.compressed;
        // Inflated size: exact when all was sampled; else the gzip trailer's, while it can
        // hold it (under 4 GiB, one member); else the sample's ratio over the whole file.
        e.contentBytes = s.headBytes;
        if (!s.ended && s.fileBytes) {
            e.contentBytes = saturatingDouble(double(size) * double(s.headBytes) / double(s.fileBytes));
            if (s.compressed && e.contentBytes < (1ull << 32)) {
                const uint64_t trailer = gzipTrailerSize(path);
                if (trailer >= s.headBytes) e.contentBytes = trailer;
            }
        }
        const double eventsPerByte = s.contentBytes ? double(s.events) / double(s.contentBytes) : 0;
        const uint64_t buffers =
            std::min(kJsonMaxBufferBytes, saturatingDouble(double(e.contentBytes) * kJsonBufferShare));
        e.bytes = kFixedBytes + buffers +
                  saturatingDouble(double(e.contentBytes) * (eventsPerByte * kJsonBytesPerEvent + kJsonBytesPerByte));
        break;
    }
    case TraceFormat::XSpace:
    case TraceFormat::RunMetadata:
    case TraceFormat::AgentRecords:
        e.contentBytes = size;
        e.bytes = kFixedBytes + saturatingDouble(double(size) * kProtobufBytesPerByte);
        break;
    case TraceFormat::Directory:
    case TraceFormat::Unknown: break;
    }
    return e;
}

std::string checkImportMemory(const std::vector<ImportFile>& files) {
    const MemoryBudget budget = importMemoryBudget();
    if (!budget.bytes || files.empty()) return {};
    MemoryEstimate sum;
    for (const ImportFile& f : files) {
        const MemoryEstimate e = estimateImportMemory(f.path, f.format);
        // The fixed part once: files imported together share the buffers and tables.
        sum.bytes += sum.bytes ? e.bytes - std::min(e.bytes, kFixedBytes) : e.bytes;
        sum.contentBytes += e.contentBytes;
        sum.compressed = sum.compressed || e.compressed;
    }
    if (sum.bytes <= budget.bytes) return {};
    const std::string what = files.size() == 1 ? files.front().path : std::to_string(files.size()) + " files";
    return "not enough memory to open " + what + ": " + (files.size() == 1 ? "it holds " : "they hold ") +
           formatBytes(sum.contentBytes) + (sum.compressed ? " once inflated" : "") + ", which needs about " +
           formatBytes(sum.bytes) + " of memory, and " + formatBytes(budget.bytes) + " is free (" + budget.source +
           "). Close other programs, or set TRACESCOPE_MEMORY_LIMIT (e.g. 64G) to try anyway";
}

MemoryGuard::MemoryGuard() : budget_(importMemoryBudget()), startResident_(residentBytes()) {}

bool MemoryGuard::exceeded() {
    if (!budget_.bytes || !startResident_) return false;
    const uint64_t now = residentBytes();
    const uint64_t grown = now > startResident_ ? now - startResident_ : 0;
    grown_ = grown;
    return grown > budget_.bytes;
}

std::string MemoryGuard::message(uint64_t fileBytesRead) const {
    return "stopped: the import grew by " + formatBytes(grown_) + " after reading " + formatBytes(fileBytesRead) +
           " of the file, more than the " + formatBytes(budget_.bytes) + " of memory that is free (" + budget_.source +
           "); its data holds more than this machine can. Set TRACESCOPE_MEMORY_LIMIT (e.g. 64G) to try anyway";
}

std::string formatBytes(uint64_t bytes) {
    char text[32];
    const double b = double(bytes);
    if (b >= 1024.0 * 1024 * 1024) std::snprintf(text, sizeof text, "%.1f GB", b / (1024.0 * 1024 * 1024));
    else if (b >= 1024.0 * 1024) std::snprintf(text, sizeof text, "%.1f MB", b / (1024.0 * 1024));
    else if (b >= 1024.0) std::snprintf(text, sizeof text, "%.1f KB", b / 1024.0);
    else std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
    return text;
}

}  // namespace tracescope
