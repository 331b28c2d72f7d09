#include "model/trace/partial_trace.h"

namespace tracescope {

namespace {

// 1234567 -> "1,234,567": byte offsets of big files are read by people here.
std::string grouped(uint64_t n) {
    std::string digits = std::to_string(n), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string bytePosition(const ImportWarning& w) {
    std::string s = "byte " + grouped(w.byteOffset.value_or(0));
    if (w.totalBytes) s += " of " + grouped(*w.totalBytes);
    if (w.uncompressedOffsets) s += " (uncompressed)";
    return s;
}

}  // namespace

const ImportWarning* firstDataLoss(const Trace& trace) {
    for (const ImportWarning& w : trace.warnings)
        if (w.kind == WarningKind::Truncated) return &w;
    for (const ImportWarning& w : trace.warnings)
        if (losesData(w)) return &w;
    return nullptr;
}

bool traceIsPartial(const Trace& trace) { return firstDataLoss(trace) != nullptr; }

std::string partialTraceBanner(const Trace& trace) {
    const ImportWarning* w = firstDataLoss(trace);
    if (!w) return {};
    std::string text;
    if (w->kind == WarningKind::Truncated) {
        text = "The file ends early at " + bytePosition(*w) + ": events after " +
               formatWarningDuration(w->lastEventNs.value_or(trace.endNs)) +
               " are missing, and so are any the file held after the cut";
    } else {
        text = "The file is damaged";
        if (w->byteOffset) text += " at " + bytePosition(*w);
        text += ": " + (w->count ? std::to_string(*w->count) + " " : std::string()) + w->detail;
    }
    return text + "; numbers below cover only what was read.";
}

std::string partialTraceNote(const Trace& trace) {
    const ImportWarning* w = firstDataLoss(trace);
    if (!w) return {};
    if (w->kind == WarningKind::Truncated)
        return "Partial trace: the file ends early at " + bytePosition(*w) +
               ", so these figures cover only the events read before the cut (device events are often written "
               "last and may be missing).";
    return "Damaged trace: these figures leave out the data that could not be read.";
}

}  // namespace tracescope
