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

namespace {
std::string dumpCompact(const nlohmann::json& j) {
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}
}  // namespace

void printJson(const nlohmann::json& j) {
    std::cout << j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

void printJsonWithRows(const nlohmann::json& head, size_t rowCount,
                       const std::function<nlohmann::json(size_t row)>& rowAt) {
    std::string out = "{";
    for (auto it = head.begin(); it != head.end(); ++it)
        out += "\n " + dumpCompact(nlohmann::json(it.key())) + ": " + dumpCompact(it.value()) + ",";
    out += "\n \"rows\": [";
    std::cout << out;
    for (size_t i = 0; i < rowCount; ++i) std::cout << (i ? ",\n  " : "\n  ") << dumpCompact(rowAt(i));
    std::cout << (rowCount ? "\n ]\n}\n" : "]\n}\n");
}

}  // namespace tracescope::cli
