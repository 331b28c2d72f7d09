#include "model/results/summary_run.h"

#include "model/results/rank_summary.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace tracescope {

namespace {

using json = nlohmann::json;

bool endsWith(const std::string& s, const std::string& p) {
    return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

json readJsonFile(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return json(json::value_t::discarded);
    return json::parse(f, nullptr, false);
}

// tracescope-pod's index of a folder: summary path -> the rank's trace; empty without one.
std::vector<std::pair<std::string, std::string>> indexOf(const std::filesystem::path& dir) {
    std::vector<std::pair<std::string, std::string>> out;
    const json index = readJsonFile((dir / "index.json").string());
    if (!index.is_object() || index.value("schema", std::string()) != "tracescope-pod-index" ||
        !index.contains("ranks") || !index["ranks"].is_array())
        return out;
    // A rank that failed keeps its earlier summary on disk, left out of the index.
    for (const json& r : index["ranks"])
        if (r.is_object() && r.contains("summary") && r["summary"].is_string())
            out.emplace_back(
                (dir / r["summary"].get<std::string>()).string(),
                r.contains("file") && r["file"].is_string() ? r["file"].get<std::string>() : std::string());
    return out;
}

}  // namespace

std::vector<std::string> summaryPaths(const std::vector<std::string>& paths) {
    std::vector<std::string> out;
    for (const std::string& p : paths) {
        std::error_code ec;
        if (std::filesystem::is_directory(p, ec)) {
            const auto index = indexOf(p);
            if (!index.empty()) {
                for (const auto& [summary, trace] : index) out.push_back(summary);
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

SummaryRun loadSummaryRun(const std::vector<std::string>& paths) {
    SummaryRun run;
    // Each folder's index, for the ranks' traces.
    std::map<std::string, std::string> traceOf;
    std::set<std::string> dirs;
    for (const std::string& p : paths) {
        std::filesystem::path dir = std::filesystem::path(p).parent_path();
        if (dir.empty()) dir = ".";
        if (dirs.insert(dir.string()).second)
            for (const auto& [summary, trace] : indexOf(dir)) traceOf.emplace(summary, trace);
    }
    std::set<int64_t> seen;
    std::optional<int64_t> worldSize;
    std::vector<std::optional<int64_t>> origins;
    for (const std::string& path : paths) {
        const json j = readJsonFile(path);
        SummaryRank r;
        std::string error;
        if (j.is_discarded()) error = "not JSON";
        else if (!podWorkerFromSummary(j, r.pod, error) || !rankCollectivesFromSummary(j, r.collectives, error)) {
        } else if (r.pod.worker.rank && !seen.insert(*r.pod.worker.rank).second) {
            error = "rank " + std::to_string(*r.pod.worker.rank) + " again (its first summary kept)";
        }
        if (!error.empty()) {
            run.warnings.push_back(std::filesystem::path(path).filename().string() + ": " + error);
            continue;
        }
        if (j.contains("world_size") && j["world_size"].is_number_integer()) worldSize = j["world_size"].get<int64_t>();
        origins.push_back(rankSummaryOriginUnixNs(j));
        r.summaryPath = path;
        if (const auto it = traceOf.find(path); it != traceOf.end()) r.tracePath = it->second;
        run.ranks.push_back(std::move(r));
    }
    const bool clocked =
        !origins.empty() && std::all_of(origins.begin(), origins.end(), [](const auto& o) { return o.has_value(); });
    if (clocked) {
        run.originUnixNs = **std::min_element(origins.begin(), origins.end());
        for (size_t i = 0; i < run.ranks.size(); ++i) {
            const TimeNs offset = durationBetween(*run.originUnixNs, *origins[i]);
            run.ranks[i].pod.worker.offsetNs = run.ranks[i].collectives.offsetNs = offset;
            run.ranks[i].pod.worker.clock = WorkerClock::WallClock;
        }
    } else if (run.ranks.size() > 1) {
        run.notes.push_back(
            "some summaries have no wall clock: their ranks are aligned on their first step on the "
            "Pod page, and their collectives' times compared as they are");
    }
    if (worldSize && *worldSize > 0 && int64_t(seen.size()) < *worldSize) {
        std::string missing;
        int64_t listed = 0, count = 0;
        for (int64_t r = 0; r < *worldSize; ++r)
            if (!seen.count(r)) {
                ++count;
                if (listed++ < 20) missing += (missing.empty() ? "" : ", ") + std::to_string(r);
            }
        run.notes.push_back(std::to_string(count) + " of " + std::to_string(*worldSize) +
                            " ranks have no summary: " + missing + (count > 20 ? ", ..." : ""));
    }
    return run;
}

PodResult podOfSummaries(const SummaryRun& run) {
    std::vector<PodWorkerFacts> facts;
    for (const SummaryRank& r : run.ranks) facts.push_back(r.pod);
    PodResult pod = assemblePod(std::move(facts));
    std::vector<std::string> notes = run.warnings;
    notes.insert(notes.end(), run.notes.begin(), run.notes.end());
    pod.notes.insert(pod.notes.begin(), notes.begin(), notes.end());
    return pod;
}

RunCollectives collectivesOfSummaries(const SummaryRun& run) {
    RunCollectives out;
    for (size_t i = 0; i < run.ranks.size(); ++i) {
        out.ranks.push_back(run.ranks[i].collectives);
        out.workers.push_back(i);
    }
    out.stragglers = matchCollectives(out.ranks);
    std::vector<std::string> notes = run.warnings;
    notes.insert(notes.end(), run.notes.begin(), run.notes.end());
    out.stragglers.notes.insert(out.stragglers.notes.begin(), notes.begin(), notes.end());
    return out;
}

}  // namespace tracescope
