#include "model/trace/xspace_kinds.h"

namespace tracescope::xspace {

namespace {
bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// XProf's derived line ids: 0xDEADBEEF + k, stored as a 32-bit int (so negative in files).
constexpr int64_t kDerivedBase = int32_t(0xDEADBEEFu);
constexpr int64_t kDerivedCount = 290;
}  // namespace

PlaneKind classifyPlane(std::string_view name) {
    if (name == "/host:metadata" || name == "Task Environment") return PlaneKind::Metadata;
    if (startsWith(name, "/device:") || startsWith(name, "/virtualdevice:")) return PlaneKind::Device;
    if (startsWith(name, "/host:")) return PlaneKind::Host;
    return PlaneKind::Other;
}

LineKind classifyLine(PlaneKind plane, std::string_view name, int64_t id) {
    if (name == "_counters_") return LineKind::Counters;
    if (startsWith(name, "counters_")) return LineKind::SkippedCounters;
    if (plane == PlaneKind::Host) return LineKind::HostThread;
    if (plane != PlaneKind::Device) return LineKind::Other;
    if (name == "XLA Modules") return LineKind::XlaModules;
    if (name == "XLA Ops") return LineKind::XlaOps;
    if (name == "Steps") return LineKind::Steps;
    if (name == "Framework Ops" || name == "TensorFlow Ops") return LineKind::FrameworkOps;
    if (name == "Framework Name Scope" || name == "TensorFlow Name Scope") return LineKind::NameScope;
    if (name == "Source code") return LineKind::Source;
    if (name == "Launch Stats") return LineKind::LaunchStats;
    if (id >= kDerivedBase && id < kDerivedBase + kDerivedCount) return LineKind::OtherDerived;
    return LineKind::Stream;
}

}  // namespace tracescope::xspace
