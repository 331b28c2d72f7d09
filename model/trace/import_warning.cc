#include "model/trace/import_warning.h"

#include <cstddef>
#include <cstdio>
#include <utility>

namespace tracescope {

const char* warningKindName(WarningKind kind) {
    switch (kind) {
    case WarningKind::Truncated: return "truncated";
    case WarningKind::Corrupted: return "corrupted";
    case WarningKind::TrailingData: return "trailing_data";
    case WarningKind::DroppedEvents: return "dropped_events";
    case WarningKind::AdjustedEvents: return "adjusted_events";
    case WarningKind::SkippedData: return "skipped_data";
    case WarningKind::ProfilerWarning: return "profiler_warning";
    }
    return "unknown";
}

ImportWarning ImportWarning::truncated(uint64_t completeUpTo, uint64_t totalBytes, std::string detail) {
    ImportWarning w;
    w.kind = WarningKind::Truncated;
    w.byteOffset = completeUpTo;
    w.totalBytes = totalBytes;
    w.detail = std::move(detail);
    return w;
}

ImportWarning ImportWarning::corrupted(std::optional<uint64_t> byteOffset, std::string detail,
                                       std::optional<uint64_t> count) {
    ImportWarning w;
    w.kind = WarningKind::Corrupted;
    w.byteOffset = byteOffset;
    w.detail = std::move(detail);
    w.count = count;
    return w;
}

ImportWarning ImportWarning::trailingData(uint64_t byteOffset) {
    ImportWarning w;
    w.kind = WarningKind::TrailingData;
    w.byteOffset = byteOffset;
    return w;
}

ImportWarning ImportWarning::events(WarningKind kind, uint64_t count, std::string what) {
    ImportWarning w;
    w.kind = kind;
    w.count = count;
    w.detail = std::move(what);
    return w;
}

ImportWarning ImportWarning::skipped(std::string what) {
    ImportWarning w;
    w.kind = WarningKind::SkippedData;
    w.detail = std::move(what);
    return w;
}

ImportWarning ImportWarning::profiler(std::string text) {
    ImportWarning w;
    w.kind = WarningKind::ProfilerWarning;
    w.detail = std::move(text);
    return w;
}

namespace {

std::string byteText(uint64_t offset, bool uncompressed) {
    return "byte " + std::to_string(offset) + (uncompressed ? " (uncompressed)" : "");
}

}  // namespace

std::string warningText(const ImportWarning& w) {
    const std::string counted = w.count ? std::to_string(*w.count) + " " + w.detail : w.detail;
    switch (w.kind) {
    case WarningKind::Truncated: {
        std::string t = "file is truncated at byte " + std::to_string(w.totalBytes.value_or(0));
        if (w.uncompressedOffsets) t += " of the uncompressed data";
        t += ": loaded the records complete before byte " + std::to_string(w.byteOffset.value_or(0));
        if (!w.detail.empty()) t += " (" + w.detail + ")";
        return t;
    }
    case WarningKind::Corrupted:
        if (!w.byteOffset) return "damaged data: " + counted;
        return "damaged data at " + byteText(*w.byteOffset, w.uncompressedOffsets) + ": " + counted;
    case WarningKind::TrailingData:
        return "ignored data after the end of the trace at " +
               byteText(w.byteOffset.value_or(0), w.uncompressedOffsets);
    case WarningKind::DroppedEvents:
    case WarningKind::AdjustedEvents:
    case WarningKind::SkippedData:
    case WarningKind::ProfilerWarning: return counted;
    }
    return counted;
}

bool losesData(const ImportWarning& w) {
    return w.kind == WarningKind::Truncated || w.kind == WarningKind::Corrupted;
}

bool anyDataLost(const std::vector<ImportWarning>& warnings) {
    for (const ImportWarning& w : warnings)
        if (losesData(w)) return true;
    return false;
}

std::string formatWarningDuration(TimeNs ns) {
    const double v = double(ns);
    const double a = v < 0 ? -v : v;
    char buf[48];
    if (a >= 1e9) std::snprintf(buf, sizeof buf, "%.3f s", v / 1e9);
    else if (a >= 1e6) std::snprintf(buf, sizeof buf, "%.3f ms", v / 1e6);
    else if (a >= 1e3) std::snprintf(buf, sizeof buf, "%.3f µs", v / 1e3);
    else std::snprintf(buf, sizeof buf, "%lld ns", static_cast<long long>(ns));
    return buf;
}

std::string formatWarningCount(uint64_t n) {
    std::string digits = std::to_string(n);
    for (ptrdiff_t i = ptrdiff_t(digits.size()) - 3; i > 0; i -= 3) digits.insert(size_t(i), 1, ',');
    return digits;
}

}  // namespace tracescope
