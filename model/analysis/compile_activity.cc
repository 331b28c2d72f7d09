#include "model/analysis/compile_activity.h"

#include <array>

namespace tracescope {

namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool endsWith(std::string_view s, std::string_view p) { return s.size() >= p.size() && s.substr(s.size() - p.size()) == p; }
bool contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

bool isXlaCompileName(std::string_view name) {
    static constexpr std::array<std::string_view, 7> kPrefixes = {
        "backend_compile", "PJRT_Client_Compile", "CompileToBackendResult", "CompileSingleModule",
        "CompileModuleToLlvmIr", "Compiling IR", "XlaCompile"};
    for (std::string_view p : kPrefixes)
        if (startsWith(name, p)) return true;
    // C++ compile methods of PJRT clients and compilers: "PjRtCApiClient::CompileAndLoad(jit_f)".
    if (contains(name, "::Compile")) return true;
    // A TF op "scope/name:_XlaCompile" (the XLA JIT compiles a cluster).
    const size_t colon = name.rfind(':');
    if (colon != std::string_view::npos) {
        const std::string_view type = name.substr(colon + 1);
        if (type == "_XlaCompile" || type == "XlaCompile") return true;
    }
    return false;
}

}  // namespace

bool isCompileActivity(std::string_view name) { return endsWith(name, " (dynamo_timed)") || isXlaCompileName(name); }

}  // namespace tracescope
