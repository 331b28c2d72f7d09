// The outline of a serialized XSpace: where each plane, line and run of events
// lies in the file, found by walking the wire format without parsing events.
// The importer then parses the pieces separately (several at a time), and a
// file cut short still yields every plane that ends before the cut.
#pragma once

#include "model/trace/import_warning.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tracescope {

struct ByteRange {
    size_t begin = 0;  // offsets into the XSpace bytes
    size_t end = 0;
    size_t size() const { return end - begin; }
};

struct XLineLayout {
    int64_t id = 0;
    int64_t displayId = 0;
    std::string_view name;
    std::string_view displayName;
    int64_t timestampNs = 0;
    int64_t durationPs = 0;
    size_t eventCount = 0;
    // Runs of consecutive `events` fields; each run parses as an XLine holding just those events.
    std::vector<ByteRange> eventChunks;
    std::vector<uint32_t> chunkEventCounts;  // events per run
};

struct XPlaneLayout {
    int64_t id = 0;
    std::string_view name;
    ByteRange bytes;  // the whole plane
    std::vector<XLineLayout> lines;
    // The plane's event_metadata, stat_metadata and stats fields (parsed together as an XPlane).
    std::vector<ByteRange> metadataFields;
    // /host:metadata's event_metadata entries larger than kLargeEventMetadataBytes, not in
    // metadataFields: each XLA program (its HLO proto) is read on its own, as protobuf parses no
    // message over 2 GB and a few large programs together would pass that.
    std::vector<ByteRange> largeEventMetadata;
};

inline constexpr size_t kLargeEventMetadataBytes = size_t(64) << 20;

struct XSpaceLayout {
    std::vector<XPlaneLayout> planes;
    std::vector<std::string_view> hostnames;
    std::vector<std::string_view> errors;    // XSpace.errors (from the profiler)
    std::vector<std::string_view> warnings;  // XSpace.warnings (from the profiler)
    // Problems met while scanning, for the user (truncation, skipped corrupt planes).
    std::vector<ImportWarning> problems;
    bool truncated = false;
};

// Scans `data`. Returns false (with `error`) when the bytes are not an XSpace at all;
// damage after at least one good plane is reported in `problems` instead.
// `chunkBytes` bounds the size of one run of events (the unit of parallel parsing).
bool scanXSpace(const uint8_t* data, size_t size, XSpaceLayout& out, std::string* error,
                size_t chunkBytes = 1 << 20);

}  // namespace tracescope
