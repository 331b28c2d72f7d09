// A whole file as read-only bytes: memory-mapped when possible, so large
// profiles are never copied into a second buffer. A gzip file (an `.xplane.pb.gz`) is inflated
// into memory instead, watched by the import's memory guard.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tracescope {

class MappedFile {
public:
    MappedFile() = default;
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    // Opens `path`; on failure returns false and sets `error` to a one-line message.
    bool open(const std::string& path, std::string* error);

    const uint8_t* data() const { return data_; }
    size_t size() const { return size_; }

private:
    const uint8_t* data_ = nullptr;
    size_t size_ = 0;
    void* mapping_ = nullptr;
    std::vector<uint8_t> fallback_;  // used when mmap is not possible (e.g. a pipe), or for gzip
    bool inflateGzip(const std::string& path, std::string* error);
};

}  // namespace tracescope
