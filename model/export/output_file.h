// An output file written through a temporary name and renamed into place on
// success, so a failed or cancelled export never leaves a half file that
// looks complete. Optionally gzip-compressed (zlib).
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace tracescope {

class OutputFile {
public:
    OutputFile();
    ~OutputFile();  // discards the temporary file unless commit() succeeded
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    bool open(const std::string& path, bool gzip);
    bool write(std::string_view bytes);
    // Flushes, closes and renames the temporary file to the final path.
    bool commit();
    const std::string& error() const { return error_; }

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    std::string error_;
};

// True when the path names a gzip file (ends with ".gz").
bool isGzipPath(std::string_view path);

}  // namespace tracescope
