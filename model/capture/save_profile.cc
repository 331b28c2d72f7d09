#include "model/capture/save_profile.h"

#include "model/export/output_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace tracescope::capture {

namespace fs = std::filesystem;

std::string profileFilePath(const std::string& runDir, const std::string& stem) {
    return (fs::path(runDir) / (stem + ".xplane.pb")).string();
}

bool saveProfileFile(const std::string& path, std::string_view bytes, const std::function<bool()>& keep,
                     std::string& error) {
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    if (ec) {
        error = "cannot create " + fs::path(path).parent_path().string() + ": " + ec.message();
        return false;
    }
    // OutputFile writes <path>.partial and renames it on commit(); its destructor removes
    // the temporary file when commit() was not reached.
    OutputFile out;
    if (!out.open(path, /*gzip=*/false) || !out.write(bytes)) {
        error = out.error();
        return false;
    }
    if (keep && !keep()) {
        error = "cancelled";
        return false;
    }
    if (!out.commit()) {
        error = out.error();
        return false;
    }
    return true;
}

bool readWholeFile(const std::string& path, std::string& bytes, std::string& error) {
    // The path may come from a server's reply: a FIFO or a device there would be waited on
    // forever, so only regular files are read.
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec) {
        error = ec.message();
        return false;
    }
    if (!fs::is_regular_file(st)) {
        error = "not a regular file";
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = std::strerror(errno);
        return false;
    }
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad()) {
        error = "read error";
        return false;
    }
    return true;
}

void removeDirIfEmpty(const std::string& dir) {
    std::error_code ec;
    if (fs::is_directory(dir, ec) && fs::is_empty(dir, ec)) fs::remove(dir, ec);
}

}  // namespace tracescope::capture
