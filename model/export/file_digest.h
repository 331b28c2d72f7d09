// The SHA-256 of a file's bytes as stored (a .gz file's compressed bytes), in lower-case hex: the
// content hash of a rank summary, which tracescope-pod compares (Python's hashlib gives the same)
// to skip a rank whose summary is up to date.
#pragma once

#include <string>

namespace tracescope {

// Empty, with `error` set, when the file cannot be read.
std::string fileSha256Hex(const std::string& path, std::string& error);

}  // namespace tracescope
