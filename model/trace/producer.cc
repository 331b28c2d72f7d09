#include "model/trace/producer.h"

#include <array>

namespace tracescope {

namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool endsWith(std::string_view s, std::string_view p) {
    return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}
bool contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

bool hasString(const Trace& t, std::string_view s) { return t.strings.find(s) != kNoIndex; }

// Categories only Kineto writes (new and old spellings).
constexpr std::array<std::string_view, 12> kKinetoCategories = {
    "cpu_op",          "cuda_runtime", "cuda_driver", "gpu_memcpy", "gpu_memset", "gpu_user_annotation",
    "python_function", "Operator",     "Runtime",     "Kernel",     "Memcpy",     "cpu_instant_event"};

}  // namespace

std::string_view xprofPlaneName(std::string_view name) {
    // "tw003 /device:GPU:0", "host /device:GPU:0", "/device:GPU:0 (pid 1)": the token that
    // starts with a plane prefix.
    size_t at = std::string_view::npos;
    for (std::string_view prefix :
         {std::string_view("/device:"), std::string_view("/host:"), std::string_view("/virtualdevice:")}) {
        const size_t p = name.find(prefix);
        if (p != std::string_view::npos && (p == 0 || name[p - 1] == ' ') && p < at) at = p;
    }
    if (at == std::string_view::npos) return name;
    const std::string_view rest = name.substr(at);
    return rest.substr(0, rest.find(' '));
}

std::string_view xprofHostName(std::string_view name) {
    const std::string_view plane = xprofPlaneName(name);
    if (plane.size() == name.size()) return {};
    std::string_view host = name.substr(0, size_t(plane.data() - name.data()));
    while (!host.empty() && host.back() == ' ') host.remove_suffix(1);
    return host;
}

bool isXProfPlaneProcessName(std::string_view name) {
    const std::string_view plane = xprofPlaneName(name);
    if (!(startsWith(plane, "/device:") || startsWith(plane, "/host:") || startsWith(plane, "/virtualdevice:")))
        return false;
    // TF1 device names ("/job:...", "/device:GPU:0/stream:all Compute") are not plane names.
    return !contains(name, "/job:") && !contains(plane, "stream:") && !contains(plane, "/memcpy") &&
           !isTf1TimelineProcessName(name);
}

bool isTf1TimelineProcessName(std::string_view name) {
    if (name == "Allocators") return true;
    const bool suffix = endsWith(name, " Compute") || endsWith(name, " Tensors");
    return suffix && (contains(name, "/job:") || contains(name, "/device:") || contains(name, "/gpu:") ||
                      contains(name, "/cpu:"));
}

Producer detectProducer(const Trace& t) {
    if (t.format == "xspace") return Producer::XProf;
    if (t.format == "runmetadata") return Producer::Tf1;
    // Kineto's top-level keys.
    for (const auto& [key, value] : t.metadata)
        if (key == "schemaVersion" || key == "deviceProperties" || key == "distributedInfo" || key == "traceName")
            return Producer::Kineto;
    size_t xprof = 0, tf1 = 0, job = 0;
    for (const Process& p : t.processes) {
        if (isTf1TimelineProcessName(p.name)) ++tf1;
        else if (isXProfPlaneProcessName(p.name)) ++xprof;
        else if (p.name.find("/job:") != std::string::npos) ++job;
    }
    // TF1 timeline: ops carry args "name" and "op" (category "Op"); other TF1 timeline writers
    // (tfprof) name processes after the device without the " Compute" suffix.
    const bool tf1Ops = hasString(t, "Op") && hasString(t, "op") && hasString(t, "name");
    if (tf1 > 0 && (xprof == 0 || tf1Ops)) return Producer::Tf1;
    if (job > 0 && xprof == 0 && tf1Ops) return Producer::Tf1;
    if (xprof > 0) return Producer::XProf;
    // Kineto files without the keys (old or trimmed): their categories.
    std::array<StringId, kKinetoCategories.size()> ids{};
    bool any = false;
    for (size_t i = 0; i < ids.size(); ++i) {
        ids[i] = t.strings.find(kKinetoCategories[i]);
        any = any || ids[i] != kNoIndex;
    }
    if (any) {
        for (const Track& tr : t.tracks)
            for (StringId c : tr.slices.category)
                for (StringId id : ids)
                    if (id != kNoIndex && c == id) return Producer::Kineto;
    }
    return Producer::Generic;
}

std::string_view producerName(Producer p, std::string_view format) {
    switch (p) {
    case Producer::Kineto: return "kineto";
    case Producer::XProf: return "xprof";
    case Producer::Tf1: return format == "runmetadata" ? "tf1" : "tf1-timeline";
    case Producer::Generic: break;
    }
    return "catapult";
}

}  // namespace tracescope
