// Slice colours: a family per kind of work (GPU kernels, memcpy, memset, CPU
// ops, runtime/driver API, Python, annotations) so a glance tells them apart,
// and within a family a shade picked by a hash of the name, so one op keeps
// its colour across tracks, zooms and sessions.
#pragma once

#include "model/trace/trace.h"

#include <QColor>

#include <string_view>
#include <unordered_map>

namespace tracescope {

enum class SliceKind : uint8_t { Kernel, Memcpy, Memset, CpuOp, Runtime, Python, Annotation, Other };

SliceKind classifySlice(std::string_view name, std::string_view category, bool onDevice);
const char* sliceKindName(SliceKind kind);

class ColorPalette {
public:
    explicit ColorPalette(bool dark = false) : dark_(dark) {}
    void setDark(bool dark);
    bool dark() const { return dark_; }

    // Fill colour of a slice; cached per (name, category, device).
    QRgb sliceColor(const Trace& trace, StringId name, StringId category, bool onDevice);
    // Marker colour of an instant event (any hue by name, a little dark, translucent); cached.
    QRgb instantColor(const Trace& trace, StringId name);
    // Black or white, whichever reads better on `fill`.
    static QRgb textColorOn(QRgb fill);
    static QColor colorFor(SliceKind kind, std::string_view name, bool dark);

private:
    bool dark_ = false;
    std::unordered_map<uint64_t, QRgb> cache_;
    std::unordered_map<StringId, QRgb> instantCache_;
};

}  // namespace tracescope
