#include "views/timeline/color_palette.h"

#include <algorithm>
#include <cctype>

namespace tracescope {

namespace {

bool containsNoCase(std::string_view hay, std::string_view needle) {
    auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    });
    return it != hay.end();
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// FNV-1a: stable across runs and platforms (std::hash is not).
uint32_t stableHash(std::string_view s) {
    uint32_t h = 2166136261u;
    for (unsigned char c : s) h = (h ^ c) * 16777619u;
    return h;
}

}  // namespace

SliceKind classifySlice(std::string_view name, std::string_view category, bool onDevice) {
    // Runtime / driver calls first: cudaMemcpyAsync is an API call (violet), not a copy on the GPU (orange).
    if (containsNoCase(category, "cuda_runtime") || containsNoCase(category, "cuda_driver") ||
        containsNoCase(category, "runtime"))
        return SliceKind::Runtime;
    if (containsNoCase(category, "memcpy") || containsNoCase(name, "memcpy")) return SliceKind::Memcpy;
    if (containsNoCase(category, "memset") || containsNoCase(name, "memset")) return SliceKind::Memset;
    if (category == "kernel" || containsNoCase(category, "kernel")) return SliceKind::Kernel;
    if (containsNoCase(category, "cuda_runtime") || containsNoCase(category, "cuda_driver") ||
        containsNoCase(category, "runtime") || startsWith(name, "cuda") ||
        (startsWith(name, "cu") && name.size() > 2 && std::isupper(static_cast<unsigned char>(name[2]))))
        return SliceKind::Runtime;
    if (containsNoCase(category, "python")) return SliceKind::Python;
    if (containsNoCase(category, "annotation")) return SliceKind::Annotation;
    if (category == "cpu_op" || category == "operator" || containsNoCase(category, "op")) return SliceKind::CpuOp;
    if (onDevice) return SliceKind::Kernel;
    return SliceKind::Other;
}

const char* sliceKindName(SliceKind kind) {
    switch (kind) {
    case SliceKind::Kernel: return "GPU kernel";
    case SliceKind::Memcpy: return "memcpy";
    case SliceKind::Memset: return "memset";
    case SliceKind::CpuOp: return "CPU op";
    case SliceKind::Runtime: return "runtime API";
    case SliceKind::Python: return "Python";
    case SliceKind::Annotation: return "annotation";
    case SliceKind::Other: return "other";
    }
    return "other";
}

QColor ColorPalette::colorFor(SliceKind kind, std::string_view name, bool dark) {
    const uint32_t h = stableHash(name);
    // Hue window [base, base + span) per family; saturation / lightness vary a little by hash.
    int base = 0, span = 360, sat = 150, light = 165;
    switch (kind) {
    case SliceKind::Kernel: base = 95; span = 70; sat = 140; light = 150; break;     // greens
    case SliceKind::Memcpy: base = 22; span = 20; sat = 200; light = 160; break;     // orange
    case SliceKind::Memset: base = 320; span = 25; sat = 150; light = 170; break;    // pink
    case SliceKind::CpuOp: base = 198; span = 40; sat = 140; light = 165; break;     // blues
    case SliceKind::Runtime: base = 255; span = 35; sat = 120; light = 175; break;   // violet
    case SliceKind::Python: base = 40; span = 25; sat = 60; light = 170; break;      // sand
    case SliceKind::Annotation: base = 175; span = 15; sat = 90; light = 185; break; // pale teal
    case SliceKind::Other: break;                                                    // any hue
    }
    const int hue = (base + int(h % uint32_t(span))) % 360;
    const int s = std::clamp(sat + int((h >> 12) % 50) - 25, 30, 255);
    int l = std::clamp(light + int((h >> 20) % 30) - 15, 60, 220);
    if (dark) l = l * 82 / 100;  // a little darker on dark backgrounds, labels stay legible
    return QColor::fromHsl(hue, s, l);
}

void ColorPalette::setDark(bool dark) {
    if (dark == dark_) return;
    dark_ = dark;
    cache_.clear();
    instantCache_.clear();
}

QRgb ColorPalette::sliceColor(const Trace& trace, StringId name, StringId category, bool onDevice) {
    const uint64_t key = (uint64_t(category) << 33) | (uint64_t(onDevice) << 32) | name;
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    const std::string_view n = trace.str(name);
    const QRgb rgb = colorFor(classifySlice(n, trace.str(category), onDevice), n, dark_).rgb();
    cache_.emplace(key, rgb);
    return rgb;
}

QRgb ColorPalette::instantColor(const Trace& trace, StringId name) {
    auto it = instantCache_.find(name);
    if (it != instantCache_.end()) return it->second;
    QColor color = colorFor(SliceKind::Other, trace.str(name), dark_).darker(130);
    color.setAlpha(200);
    return instantCache_.emplace(name, color.rgba()).first->second;
}

QRgb ColorPalette::textColorOn(QRgb fill) {
    const double lum = 0.299 * qRed(fill) + 0.587 * qGreen(fill) + 0.114 * qBlue(fill);
    return lum > 140 ? qRgb(20, 20, 20) : qRgb(250, 250, 250);
}

}  // namespace tracescope
