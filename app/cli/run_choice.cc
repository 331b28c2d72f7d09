#include "app/cli/run_choice.h"

#include "app/cli/analysis_cli.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>

namespace tracescope::cli {

namespace {

std::string chosenRun;  // --run's value; empty: the newest run

bool isDirectory(const std::string& path) {
    std::error_code ec;
    return std::filesystem::is_directory(path, ec);
}

const char* kindName(RunKind k) { return k == RunKind::TorchCycle ? "pytorch-cycle" : "xspace-run"; }

std::string utcText(int64_t seconds) {
    const std::time_t t = std::time_t(seconds);
    std::tm tm{};
    if (!gmtime_r(&t, &tm)) return "?";
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
    return buf;
}

// The run of `dir` that --run names, or its newest; null with `error` set when none.
const RunInfo* pickRun(const std::string& dir, const std::vector<RunInfo>& runs, std::string& error) {
    if (runs.empty()) {
        error = dir + ": no profile runs to choose from";
        return nullptr;
    }
    if (chosenRun.empty()) return &runs.front();
    const RunInfo* run = findRun(runs, chosenRun, &error);
    if (!run) error = dir + ": " + error;
    return run;
}

}  // namespace

bool takeRunOption(const std::string& command, std::vector<std::string>& args) {
    if (command == "capture" || command == "launch") return true;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--") break;
        if (args[i] != "--run") continue;
        if (i + 1 >= args.size() || args[i + 1].empty()) {
            std::fprintf(stderr, "tracescope-cli: --run needs a run: its number (1 = the oldest) or its name\n");
            return false;
        }
        chosenRun = args[i + 1];
        args.erase(args.begin() + std::ptrdiff_t(i), args.begin() + std::ptrdiff_t(i) + 2);
        --i;
    }
    return true;
}

ImportResult openCliPath(const std::string& path, const ImportOptions& options, RunInfo* opened) {
    if (!isDirectory(path)) {
        if (!chosenRun.empty())
            return ImportResult::failure("--run " + chosenRun + ": " + path + " is not a folder of profile runs");
        return importTrace(path, options);
    }
    const std::vector<RunInfo> runs = listRuns(path);
    // No runs: importTrace says what a folder must hold.
    if (runs.empty() && chosenRun.empty()) return importTrace(path, options);
    std::string error;
    const RunInfo* run = pickRun(path, runs, error);
    if (!run) return ImportResult::failure(error);
    if (opened) *opened = *run;
    return importRun(*run, options);
}

bool runFilesOf(const std::vector<std::string>& paths, std::vector<std::string>& out, std::string& error) {
    out.clear();
    for (const std::string& p : paths) {
        if (chosenRun.empty()) {
            out.push_back(p);
            continue;
        }
        if (!isDirectory(p)) {
            error = "--run " + chosenRun + ": " + p + " is not a folder of profile runs";
            return false;
        }
        const std::vector<RunInfo> runs = listRuns(p);
        const RunInfo* run = pickRun(p, runs, error);
        if (!run) return false;
        out.insert(out.end(), run->files.begin(), run->files.end());
    }
    return true;
}

int listRunsCommand(const std::string& dir, bool json) {
    const std::vector<RunInfo> runs = listRuns(dir);
    if (runs.empty()) {
        std::fprintf(stderr,
                     "tracescope-cli: no profile runs in %s (expected <logdir>/plugins/profile/<run>/<host>.xplane.pb, "
                     "or PyTorch profiler files <worker>.<time>.pt.trace.json[.gz])\n",
                     dir.c_str());
        return 1;
    }
    // Oldest first, numbered as --run reads them; the newest is what opens without --run.
    if (json) {
        nlohmann::json rows = nlohmann::json::array();
        for (size_t i = runs.size(); i-- > 0;) {
            const RunInfo& r = runs[i];
            nlohmann::json workers = nlohmann::json::array();
            for (size_t k = 0; k < r.files.size(); ++k) workers.push_back({{"name", r.hosts[k]}, {"file", r.files[k]}});
            rows.push_back({{"number", runNumber(runs, i)},
                            {"name", r.name},
                            {"kind", kindName(r.kind)},
                            {"folder", r.path},
                            {"time_unix_ns", r.timeSeconds * 1'000'000'000LL},
                            {"time_from_name", r.timeFromName},
                            {"default", i == 0},
                            {"workers", workers}});
        }
        printJson({{"folder", dir}, {"runs", rows}});
        return 0;
    }
    std::printf("%s: %zu run%s (--run N opens run N; without it, the newest)\n", dir.c_str(), runs.size(),
                runs.size() == 1 ? "" : "s");
    std::printf("  %4s  %-24s %-20s %s\n", "run", "name", "time (UTC)", "workers");
    for (size_t i = runs.size(); i-- > 0;) {
        const RunInfo& r = runs[i];
        std::string workers;
        for (const std::string& h : r.hosts) workers += (workers.empty() ? "" : ", ") + h;
        std::printf("  %4d  %-24s %-20s %s%s\n", runNumber(runs, i), r.name.c_str(), utcText(r.timeSeconds).c_str(),
                    workers.c_str(), i == 0 ? "   (opens by default)" : "");
    }
    return 0;
}

}  // namespace tracescope::cli
