// Progressive display: a large trace is shown from its first events while the whole file
// imports (Perfetto UI and chrome://tracing show nothing until the end). A preview is an import
// of part of the events, read on its own with one thread: of a Chrome JSON file, the events of
// its first bytes of text (whole events); of an XSpace, the same share of every line's events,
// the first in the file's order (profilers write a line's events in time order). Its traces are
// complete in themselves (names, flows within the part, a B without its E ending at the part's
// end) and are replaced by the whole trace.
#pragma once

#include "model/import/import.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace tracescope {

// Bytes of events at which previews are worth taking, smallest first: 16 MiB, then ×8, each
// only when the whole file's text (an XSpace: its bytes) is at least 8 times as large (so the
// whole import is still far from done when a preview arrives, and the previews together read at
// most a seventh of the file again). Empty for a small file, a folder (a logdir's XSpaces), a
// gzipped XSpace, or a format other than Chrome JSON and XSpace.
// `firstBytes` other than 16 MiB: tests, with small files.
inline constexpr uint64_t kFirstPreviewBytes = uint64_t(16) << 20;
std::vector<uint64_t> previewLimits(const std::string& path, uint64_t firstBytes = kFirstPreviewBytes);

// The trace of about `textBytes` of `path`'s events, as above.
ImportResult importPreview(const std::string& path, uint64_t textBytes, const std::atomic<bool>* cancel = nullptr);

}  // namespace tracescope
