#include "model/import/logdir.h"

#include "model/import/memory_budget.h"
#include "model/import/torch_profile_folder.h"
#include "model/import/workers.h"
#include "model/import/xspace_importer.h"
#include "model/trace/merge_workers.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>

namespace tracescope {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kXSpaceSuffix = ".xplane.pb";
const std::string kNoPath;

bool endsWith(const std::string& s, std::string_view suffix) {
    return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Profile files directly inside `dir`, sorted by name.
std::vector<fs::path> xspaceFiles(const fs::path& dir) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code fec;
        if (it->is_regular_file(fec) && endsWith(it->path().filename().string(), kXSpaceSuffix))
            out.push_back(it->path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<fs::path> subdirectories(const fs::path& dir) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code dec;
        if (it->is_directory(dec) && !it->is_symlink(dec)) out.push_back(it->path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

int64_t mtimeSeconds(const fs::path& p) {
    std::error_code ec;
    const auto t = fs::last_write_time(p, ec);
    if (ec) return 0;
    const auto sys = std::chrono::file_clock::to_sys(t);
    return std::chrono::duration_cast<std::chrono::seconds>(sys.time_since_epoch()).count();
}

RunInfo makeRun(const fs::path& runDir, const std::string& name, const std::vector<fs::path>& files) {
    RunInfo r;
    r.name = name;
    r.path = runDir.string();
    for (const fs::path& f : files) {
        r.files.push_back(f.string());
        r.hosts.push_back(xspaceHostFromFileName(f.string()));
    }
    r.timeFromName = parseRunTimestamp(runDir.filename().string(), r.timeSeconds);
    if (!r.timeFromName) r.timeSeconds = mtimeSeconds(runDir);
    return r;
}

// The profiling cycles of a PyTorch profiler folder, as runs; `prefix` names a sub-folder of a logdir.
void collectTorchCycles(const fs::path& dir, const std::string& prefix, std::vector<RunInfo>& out) {
    for (const TorchCycle& c : torchCycles(dir.string())) {
        RunInfo r;
        r.kind = RunKind::TorchCycle;
        r.cycle = c.number;
        r.name = prefix + "cycle " + std::to_string(c.number);
        r.path = dir.string();
        for (const TorchWorkerFile& f : c.files) {
            r.files.push_back(f.path);
            r.hosts.push_back(f.worker.empty() ? fs::path(f.path).filename().string() : f.worker);
        }
        // Stamps that are not times (e.g. a pid) leave every cycle at the folder's time: the
        // cycle number orders them (listRuns).
        r.timeFromName = c.timeSeconds.has_value();
        r.timeSeconds = c.timeSeconds ? *c.timeSeconds : mtimeSeconds(dir);
        out.push_back(std::move(r));
    }
}

// The runs of one plugins/profile folder; `prefix` names nested TensorBoard runs.
void collectProfileRoot(const fs::path& root, const std::string& prefix, std::vector<RunInfo>& out) {
    for (const fs::path& run : subdirectories(root)) {
        auto files = xspaceFiles(run);
        if (!files.empty()) out.push_back(makeRun(run, prefix + run.filename().string(), files));
    }
}

// Looks for <dir>/plugins/profile, also in sub-runs of a TensorBoard logdir (a few levels deep).
void collectLogdir(const fs::path& dir, const std::string& prefix, int depth, std::vector<RunInfo>& out) {
    std::error_code ec;
    // A TensorBoard logdir of PyTorch runs: each sub-folder holds its own .pt.trace.json files
    // (the plugin lists every folder that has them as a run).
    if (!prefix.empty()) collectTorchCycles(dir, prefix, out);
    const fs::path profile = dir / "plugins" / "profile";
    if (fs::is_directory(profile, ec)) collectProfileRoot(profile, prefix, out);
    if (depth == 0) return;
    for (const fs::path& sub : subdirectories(dir)) {
        const std::string name = sub.filename().string();
        if (name == "plugins") continue;
        collectLogdir(sub, prefix + name + "/", depth - 1, out);
    }
}

}  // namespace

bool parseRunTimestamp(const std::string& name, int64_t& seconds) {
    // YYYY_MM_DD_HH_MM_SS, exactly.
    if (name.size() != 19) return false;
    for (size_t i = 0; i < name.size(); ++i) {
        const bool sep = i == 4 || i == 7 || i == 10 || i == 13 || i == 16;
        if (sep ? name[i] != '_' : (name[i] < '0' || name[i] > '9')) return false;
    }
    std::tm tm{};
    tm.tm_year = std::stoi(name.substr(0, 4)) - 1900;
    tm.tm_mon = std::stoi(name.substr(5, 2)) - 1;
    tm.tm_mday = std::stoi(name.substr(8, 2));
    tm.tm_hour = std::stoi(name.substr(11, 2));
    tm.tm_min = std::stoi(name.substr(14, 2));
    tm.tm_sec = std::stoi(name.substr(17, 2));
    if (tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
        return false;
    seconds = int64_t(timegm(&tm));
    return true;
}

std::vector<RunInfo> listRuns(const std::string& dirPath) {
    std::vector<RunInfo> runs;
    const fs::path dir(dirPath);
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return runs;
    // A run folder itself.
    if (auto files = xspaceFiles(dir); !files.empty()) {
        runs.push_back(makeRun(dir, dir.filename().string(), files));
        return runs;
    }
    // A PyTorch profiler folder: its profiling cycles.
    collectTorchCycles(dir, "", runs);
    // A logdir (possibly with nested TensorBoard runs; also beside PyTorch files, as TensorBoard
    // shows both plugins' runs of one logdir).
    collectLogdir(dir, "", 3, runs);
    // A plugins/profile folder (or any folder whose sub-folders are runs).
    if (runs.empty()) collectProfileRoot(dir, "", runs);
    // Newest first; a PyTorch folder's cycles by number where their times tie (the same second,
    // or stamps that are no times), XSpace runs by name as before.
    auto key = [](const RunInfo& r) {
        const bool torch = r.kind == RunKind::TorchCycle;
        return std::tie(r.timeSeconds, torch ? r.path : kNoPath, r.cycle, r.name);
    };
    std::stable_sort(runs.begin(), runs.end(), [&](const RunInfo& a, const RunInfo& b) { return key(a) > key(b); });
    return runs;
}

ImportResult importRun(const std::string& runDir, const ImportOptions& options) {
    const auto files = xspaceFiles(fs::path(runDir));
    if (files.empty()) return ImportResult::failure("no .xplane.pb files in " + runDir);
    std::vector<XSpaceSource> sources;
    std::vector<ImportFile> sizes;
    for (const fs::path& f : files) {
        sources.push_back({xspaceHostFromFileName(f.string()), f.string(), {}});
        sizes.push_back({f.string(), TraceFormat::XSpace});
    }
    if (std::string tooBig = checkImportMemory(sizes); !tooBig.empty()) return ImportResult::failure(tooBig);
    ImportResult r = importXSpaces(sources, options);
    if (r.trace) r.trace->metadata.emplace_back("xspace.run", fs::path(runDir).filename().string());
    return r;
}

ImportResult importRun(const RunInfo& run, const ImportOptions& options) {
    if (run.kind == RunKind::XSpaceRun) return importRun(run.path, options);
    if (run.files.empty()) return ImportResult::failure("no trace files in " + run.name);
    ImportResult r;
    if (run.files.size() == 1) {
        r = importTrace(run.files.front(), options);
    } else {
        // The cycle's workers as one trace: the multi-worker view the GUI shows for them.
        WorkerImportOptions wo;
        wo.base = options;
        MultiWorkerResult m = importWorkers(run.files, wo);
        if (m.cancelled) return ImportResult::cancel();
        if (!m.ok()) return ImportResult::failure(m.error);
        r.trace = mergeWorkersToTrace(m.run);
    }
    if (r.trace) {
        r.trace->metadata.emplace_back("pytorch.cycle", std::to_string(run.cycle));
        r.trace->metadata.emplace_back("pytorch.cycle_workers", std::to_string(run.files.size()));
    }
    return r;
}

const RunInfo* findRun(const std::vector<RunInfo>& runs, const std::string& nameOrNumber, std::string* error) {
    const bool number =
        !nameOrNumber.empty() && nameOrNumber.size() < 9 &&
        std::all_of(nameOrNumber.begin(), nameOrNumber.end(), [](char c) { return c >= '0' && c <= '9'; });
    for (size_t i = 0; i < runs.size(); ++i)
        if (number ? runNumber(runs, i) == std::stoi(nameOrNumber) : runs[i].name == nameOrNumber) return &runs[i];
    if (error) {
        if (runs.empty()) *error = "no profile runs to choose from";
        else
            *error = "no run '" + nameOrNumber + "' (runs 1 to " + std::to_string(runs.size()) +
                     ", 1 the oldest, or a run's name; see tracescope-cli info --list-runs)";
    }
    return nullptr;
}

ImportResult importLogdir(const std::string& dir, const ImportOptions& options) {
    const auto runs = listRuns(dir);
    if (runs.empty())
        return ImportResult::failure("no profile runs in " + dir +
                                     " (expected <logdir>/plugins/profile/<run>/<host>.xplane.pb, or PyTorch "
                                     "profiler files <worker>.<time>.pt.trace.json[.gz])");
    ImportResult r = importRun(runs.front(), options);
    if (r.trace)
        r.trace->metadata.emplace_back(
            runs.front().kind == RunKind::TorchCycle ? "pytorch.runs_in_folder" : "xspace.runs_in_folder",
            std::to_string(runs.size()));
    return r;
}

}  // namespace tracescope
