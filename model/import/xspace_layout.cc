#include "model/import/xspace_layout.h"

#include "model/proto/protobuf_wire.h"

#include <algorithm>
#include <optional>

namespace tracescope {

namespace {

// Field numbers of xplane.proto.
namespace f {
constexpr uint32_t kSpacePlanes = 1, kSpaceErrors = 2, kSpaceWarnings = 3, kSpaceHostnames = 4;
constexpr uint32_t kPlaneId = 1, kPlaneName = 2, kPlaneLines = 3, kPlaneEventMetadata = 4, kPlaneStatMetadata = 5,
                   kPlaneStats = 6;
constexpr uint32_t kLineId = 1, kLineName = 2, kLineTimestamp = 3, kLineEvents = 4, kLineDuration = 9,
                   kLineDisplayId = 10, kLineDisplayName = 11;
}  // namespace f

std::string at(size_t offset) { return " at byte " + std::to_string(offset); }

// Appends `range` to `fields`, joined with the last range when they touch.
void addMetadataRange(std::vector<ByteRange>& fields, ByteRange range) {
    if (!fields.empty() && fields.back().end == range.begin) fields.back().end = range.end;
    else fields.push_back(range);
}

// Scans one XLine whose bytes start at `base` in the file. False on a wire error.
bool scanLine(const uint8_t* file, size_t base, size_t size, size_t chunkBytes, XLineLayout& line, std::string& error) {
    wire::Reader r(file + base, size);
    wire::Field fd;
    ByteRange run;
    uint32_t runEvents = 0;
    bool inRun = false;
    auto closeRun = [&] {
        if (inRun) {
            line.eventChunks.push_back(run);
            line.chunkEventCounts.push_back(runEvents);
        }
        inRun = false;
    };
    while (r.next(fd)) {
        if (fd.number == f::kLineEvents && fd.type == wire::LengthDelimited) {
            ++line.eventCount;
            const size_t b = base + fd.offset, e = base + fd.end;
            if (inRun && run.end == b && run.size() < chunkBytes) {
                run.end = e;
                ++runEvents;
            } else {
                closeRun();
                run = {b, e};
                runEvents = 1;
                inRun = true;
            }
            continue;
        }
        closeRun();
        const bool isVarint = fd.type == wire::Varint;
        const bool isBytes = fd.type == wire::LengthDelimited;
        switch (fd.number) {
        case f::kLineId:
            if (isVarint) line.id = fd.asInt64();
            break;
        case f::kLineDisplayId:
            if (isVarint) line.displayId = fd.asInt64();
            break;
        case f::kLineName:
            if (isBytes) line.name = fd.text();
            break;
        case f::kLineDisplayName:
            if (isBytes) line.displayName = fd.text();
            break;
        case f::kLineTimestamp:
            if (isVarint) line.timestampNs = fd.asInt64();
            break;
        case f::kLineDuration:
            if (isVarint) line.durationPs = fd.asInt64();
            break;
        default: break;  // unknown fields are skipped, as protobuf does
        }
    }
    closeRun();
    if (r.error()) {
        error = std::string(r.error()) + at(base + r.errorOffset());
        return false;
    }
    return true;
}

// A plane cut by the end of the file: keeps its id, name and the lines that are complete.
// Its metadata maps come after the lines in the file, so they are lost: events keep their
// times and values but not their names.
void scanCutPlane(const uint8_t* file, size_t base, size_t size, size_t chunkBytes, XPlaneLayout& plane) {
    plane.bytes = {base, base + size};
    wire::Reader r(file + base, size);
    wire::Field fd;
    while (r.next(fd)) {
        if (fd.number == f::kPlaneId && fd.type == wire::Varint) plane.id = fd.asInt64();
        else if (fd.number == f::kPlaneName && fd.type == wire::LengthDelimited) plane.name = fd.text();
        else if (fd.number == f::kPlaneLines && fd.type == wire::LengthDelimited) {
            XLineLayout line;
            std::string ignored;
            if (!scanLine(file, base + fd.end - fd.size, fd.size, chunkBytes, line, ignored)) return;
            plane.lines.push_back(std::move(line));
        }
    }
    // The line the cut falls in: its events before the cut are complete.
    if (r.truncated() && r.errorOffset() < size) {
        const uint8_t* p = file + base + r.errorOffset();
        const uint8_t* end = file + base + size;
        uint64_t key = 0, len = 0;
        if (wire::readVarint(p, end, key) && key == (uint64_t(f::kPlaneLines) << 3 | wire::LengthDelimited) &&
            wire::readVarint(p, end, len)) {
            XLineLayout line;
            std::string ignored;
            scanLine(file, size_t(p - file), size_t(end - p), chunkBytes, line, ignored);
            if (line.eventCount > 0) plane.lines.push_back(std::move(line));
        }
    }
}

bool scanPlane(const uint8_t* file, size_t base, size_t size, size_t chunkBytes, XPlaneLayout& plane,
               std::string& error) {
    plane.bytes = {base, base + size};
    wire::Reader r(file + base, size);
    wire::Field fd;
    while (r.next(fd)) {
        switch (fd.number) {
        case f::kPlaneId:
            if (fd.type == wire::Varint) plane.id = fd.asInt64();
            break;
        case f::kPlaneName:
            if (fd.type == wire::LengthDelimited) plane.name = fd.text();
            break;
        case f::kPlaneLines:
            if (fd.type == wire::LengthDelimited) {
                XLineLayout line;
                const size_t payload = base + fd.end - fd.size;
                if (!scanLine(file, payload, fd.size, chunkBytes, line, error)) return false;
                plane.lines.push_back(std::move(line));
            }
            break;
        case f::kPlaneEventMetadata:
            if (fd.end - fd.offset > kLargeEventMetadataBytes) {
                plane.largeEventMetadata.push_back({base + fd.offset, base + fd.end});
                break;
            }
            [[fallthrough]];
        case f::kPlaneStatMetadata:
        case f::kPlaneStats: addMetadataRange(plane.metadataFields, {base + fd.offset, base + fd.end}); break;
        default: break;
        }
    }
    // Only XLA programs are read one by one; elsewhere a large entry is parsed with the others.
    if (plane.name != "/host:metadata" && !plane.largeEventMetadata.empty()) {
        for (const ByteRange& large : plane.largeEventMetadata) {
            const auto at = std::lower_bound(plane.metadataFields.begin(), plane.metadataFields.end(), large,
                                             [](const ByteRange& a, const ByteRange& b) { return a.begin < b.begin; });
            plane.metadataFields.insert(at, large);
        }
        plane.largeEventMetadata.clear();
        std::vector<ByteRange> merged;
        for (const ByteRange& range : plane.metadataFields) addMetadataRange(merged, range);
        plane.metadataFields = std::move(merged);
    }
    if (r.error()) {
        error = std::string(r.error()) + at(base + r.errorOffset());
        return false;
    }
    return true;
}

}  // namespace

bool scanXSpace(const uint8_t* data, size_t size, XSpaceLayout& out, std::string* error, size_t chunkBytes) {
    wire::Reader r(data, size);
    wire::Field fd;
    size_t fieldsSeen = 0;
    while (r.next(fd)) {
        ++fieldsSeen;
        const bool bytes = fd.type == wire::LengthDelimited;
        if (fd.number < f::kSpacePlanes || fd.number > f::kSpaceHostnames || !bytes) {
            // XSpace has only length-delimited fields 1..4: anything else means this is not one
            // (or the data is damaged here).
            if (out.planes.empty()) {
                if (error) *error = "not an XSpace: unexpected field " + std::to_string(fd.number) + at(fd.offset);
                return false;
            }
            out.problems.push_back(
                ImportWarning::corrupted(fd.offset, "unexpected data; the rest of the file was not read"));
            return true;
        }
        if (fd.number == f::kSpaceHostnames) out.hostnames.push_back(fd.text());
        else if (fd.number == f::kSpaceErrors) out.errors.push_back(fd.text());
        else if (fd.number == f::kSpaceWarnings) out.warnings.push_back(fd.text());
        else {
            XPlaneLayout plane;
            std::string planeError;
            if (scanPlane(data, fd.end - fd.size, fd.size, chunkBytes, plane, planeError)) {
                out.planes.push_back(std::move(plane));
            } else if (out.planes.empty() && fieldsSeen == 1 && fd.size > 0 && plane.lines.empty() &&
                       plane.name.empty()) {
                if (error) *error = "not an XSpace: " + planeError;
                return false;
            } else {
                out.problems.push_back(ImportWarning::corrupted(
                    fd.offset, "plane " + std::to_string(out.planes.size() + 1) +
                                   (plane.name.empty() ? "" : " (" + std::string(plane.name) + ")") + " is corrupt (" +
                                   planeError + ") and was skipped"));
            }
        }
    }
    if (r.error()) {
        if (r.truncated()) {
            out.truncated = true;
            // Everything before the cut plane is complete, and so are the event runs salvaged from it.
            size_t completeUpTo = r.errorOffset();
            const size_t completePlanes = out.planes.size();
            std::optional<ImportWarning> salvaged;
            // Salvage the complete lines of the cut plane (without event names).
            const uint8_t* p = data + r.errorOffset();
            uint64_t key = 0, len = 0;
            if (wire::readVarint(p, data + size, key) &&
                key == (uint64_t(f::kSpacePlanes) << 3 | wire::LengthDelimited) &&
                wire::readVarint(p, data + size, len)) {
                XPlaneLayout cut;
                scanCutPlane(data, size_t(p - data), size - size_t(p - data), chunkBytes, cut);
                size_t events = 0;
                for (const XLineLayout& l : cut.lines) events += l.eventCount;
                if (events > 0) {
                    for (const XLineLayout& l : cut.lines)
                        for (const ByteRange& run : l.eventChunks) completeUpTo = std::max(completeUpTo, run.end);
                    salvaged = ImportWarning::events(
                        WarningKind::AdjustedEvents, events,
                        "event(s) of the cut plane " + std::string(cut.name.empty() ? "?" : cut.name) + " (" +
                            std::to_string(cut.lines.size()) + " line(s)) loaded without event and stat names");
                    out.planes.push_back(std::move(cut));
                }
            }
            out.problems.push_back(ImportWarning::truncated(
                completeUpTo, size,
                "the plane starting at byte " + std::to_string(r.errorOffset()) + " is incomplete; " +
                    std::to_string(completePlanes) + " complete plane(s) before it"));
            if (salvaged) out.problems.push_back(std::move(*salvaged));
        } else {
            out.problems.push_back(ImportWarning::corrupted(
                r.errorOffset(), std::string(r.error()) + "; the rest of the file was not read"));
        }
        if (out.planes.empty()) {
            if (error)
                *error = r.truncated() ? "truncated XSpace: no complete plane before byte " + std::to_string(size)
                                       : "not an XSpace: " + std::string(r.error()) + at(r.errorOffset());
            return false;
        }
    }
    if (out.planes.empty() && fieldsSeen == 0) {
        if (error) *error = "empty XSpace";
        return false;
    }
    return true;
}

}  // namespace tracescope
