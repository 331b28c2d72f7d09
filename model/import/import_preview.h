// Progressive display: a large Chrome JSON trace is shown from the events at the start of its
// file while the whole file imports (Perfetto UI and chrome://tracing show nothing until the end).
// A preview is an import of the file's first bytes of event text (whole events), read on its
// own with one thread: its traces are complete in themselves (names, flows within the part,
// a B without its E ending at the part's end) and are replaced by the whole trace.
#pragma once

#include "model/import/import.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace tracescope {

// Bytes of event text at which previews are worth taking, smallest first: 16 MiB, then ×8,
// each only when the whole file's text is at least 8 times as large (so the whole import is
// still far from done when a preview arrives, and the previews together read at most a
// seventh of the file again). Empty for a small file, a folder, or a format other than
// Chrome JSON (XSpace cannot be read in part).
// `firstBytes` other than 16 MiB: tests, with small files.
inline constexpr uint64_t kFirstPreviewBytes = uint64_t(16) << 20;
std::vector<uint64_t> previewLimits(const std::string& path, uint64_t firstBytes = kFirstPreviewBytes);

// The trace of the events within the first `textBytes` of `path`'s JSON text.
ImportResult importPreview(const std::string& path, uint64_t textBytes, const std::atomic<bool>* cancel = nullptr);

}  // namespace tracescope
