#include "app/cli/summary_files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace tracescope::cli {

namespace {

bool endsWith(const std::string& s, const std::string& p) {
    return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

}  // namespace

std::vector<std::string> summaryPaths(const std::vector<std::string>& paths) {
    std::vector<std::string> out;
    for (const std::string& p : paths) {
        std::error_code ec;
        if (std::filesystem::is_directory(p, ec)) {
            // tracescope-pod's index names the summaries of the run (a rank that failed keeps
            // its earlier summary on disk, left out of the index).
            std::ifstream indexFile(std::filesystem::path(p) / "index.json", std::ios::binary);
            const nlohmann::json index = indexFile ? nlohmann::json::parse(indexFile, nullptr, false) : nlohmann::json();
            if (index.is_object() && index.value("schema", std::string()) == "tracescope-pod-index" &&
                index.contains("ranks") && index["ranks"].is_array()) {
                for (const nlohmann::json& r : index["ranks"])
                    if (r.is_object() && r.contains("summary") && r["summary"].is_string())
                        out.push_back((std::filesystem::path(p) / r["summary"].get<std::string>()).string());
                continue;
            }
            std::vector<std::string> inside;
            for (const auto& e : std::filesystem::directory_iterator(p, ec))
                if (e.is_regular_file(ec) && endsWith(e.path().filename().string(), ".summary.json"))
                    inside.push_back(e.path().string());
            std::sort(inside.begin(), inside.end());
            out.insert(out.end(), inside.begin(), inside.end());
        } else if (endsWith(p, ".summary.json")) {
            out.push_back(p);
        }
    }
    return out;
}

nlohmann::json readJsonFile(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return nlohmann::json(nlohmann::json::value_t::discarded);
    return nlohmann::json::parse(f, nullptr, false);
}

std::string missingRanksNote(const std::set<int64_t>& seen, std::optional<int64_t> worldSize) {
    if (!worldSize || *worldSize <= 0 || int64_t(seen.size()) >= *worldSize) return {};
    std::string missing;
    int64_t listed = 0, count = 0;
    for (int64_t r = 0; r < *worldSize; ++r)
        if (!seen.count(r)) {
            ++count;
            if (listed++ < 20) missing += (missing.empty() ? "" : ", ") + std::to_string(r);
        }
    if (count == 0) return {};
    return std::to_string(count) + " of " + std::to_string(*worldSize) + " ranks have no summary: " + missing +
           (count > 20 ? ", ..." : "");
}

std::optional<std::vector<TimeNs>> wallClockOffsets(const std::vector<std::optional<int64_t>>& origins) {
    if (origins.empty() || !std::all_of(origins.begin(), origins.end(), [](const auto& o) { return o.has_value(); }))
        return std::nullopt;
    const int64_t earliest = **std::min_element(origins.begin(), origins.end());
    std::vector<TimeNs> out;
    for (const auto& o : origins) out.push_back(durationBetween(earliest, *o));
    return out;
}

}  // namespace tracescope::cli
