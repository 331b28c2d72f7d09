#include "app/cli/analysis_cli.h"

#include "model/import/import.h"

#include <cstdio>
#include <iostream>

namespace tracescope::cli {

std::unique_ptr<Trace> loadTraceOrReport(const std::string& path) {
    ImportResult r = importTrace(path);
    if (!r.ok()) {
        std::fprintf(stderr, "tracescope-cli: %s\n", r.error.c_str());
        return nullptr;
    }
    return std::move(r.trace);
}

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
    return out;
}

void printJson(const nlohmann::json& j) {
    std::cout << j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace tracescope::cli
