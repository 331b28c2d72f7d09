// Sequential bytes of a trace file, inflated on the fly when it is gzip
// (detected by its magic bytes, not by its name). Never holds the whole file.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace tracescope {

class ByteSource {
public:
    virtual ~ByteSource() = default;

    // Opens a plain or gzip file; nullptr with *error set when it cannot be read.
    static std::unique_ptr<ByteSource> open(const std::string& path, std::string* error);

    // Reads up to n bytes into dst; 0 at the end of the data or on error (see error()).
    virtual size_t read(char* dst, size_t n) = 0;

    // Bytes of the file consumed so far (compressed bytes for gzip) and the file size,
    // for progress reports.
    virtual uint64_t fileBytesRead() const = 0;
    uint64_t fileSize() const { return fileSize_; }
    // Non-empty when reading stopped because of a problem (I/O, corrupt or suspicious gzip).
    const std::string& error() const { return error_; }
    // True when a gzip stream ended without its end marker (a cut .gz file).
    bool compressedStreamTruncated() const { return streamTruncated_; }
    bool compressed() const { return compressed_; }

protected:
    uint64_t fileSize_ = 0;
    std::string error_;
    bool streamTruncated_ = false;
    bool compressed_ = false;
};

}  // namespace tracescope
