// Writing a capture where TensorBoard / XProf look for it, never as a partial file.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace tracescope::capture {

// <runDir>/<stem>.xplane.pb
std::string profileFilePath(const std::string& runDir, const std::string& stem);

// Writes `bytes` to `path` (creating its folder) through a temporary file in the same
// folder, renamed into place at the end, so a reader never sees a half-written
// .xplane.pb. If `keep` returns false just before the rename (the capture was cancelled),
// the temporary file is removed and nothing is written. False with `error` otherwise.
bool saveProfileFile(const std::string& path, std::string_view bytes, const std::function<bool()>& keep,
                     std::string& error);

// Reads a whole regular file; false with `error` when it cannot (or it is a FIFO, a device, a
// socket or a folder, which are never opened).
bool readWholeFile(const std::string& path, std::string& bytes, std::string& error);

// Removes `dir` if it exists and is empty (a run folder whose captures all failed).
void removeDirIfEmpty(const std::string& dir);

}  // namespace tracescope::capture
