#include "model/import/workers.h"

#include "model/import/logdir.h"
#include "model/import/memory_budget.h"
#include "model/import/torch_profile_folder.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <thread>

namespace tracescope {

namespace {

bool endsWith(std::string_view s, std::string_view p) {
    return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

bool isTraceFileName(std::string_view n) {
    return endsWith(n, ".json") || endsWith(n, ".json.gz") || endsWith(n, ".xplane.pb");
}

// The number after "rank" in a file name ("rank-3.json", "sampled_rank_12.pt.trace.json").
std::optional<int64_t> rankFromFileName(const std::string& path) {
    const std::string name = std::filesystem::path(path).filename().string();
    for (size_t at = name.find("rank"); at != std::string::npos; at = name.find("rank", at + 1)) {
        size_t p = at + 4;
        if (p < name.size() && (name[p] == '-' || name[p] == '_')) ++p;
        size_t q = p;
        while (q < name.size() && q - p < 9 && std::isdigit(static_cast<unsigned char>(name[q]))) ++q;
        if (q > p) return std::stoll(name.substr(p, q - p));
    }
    return std::nullopt;
}

}  // namespace

std::vector<std::string> expandWorkerPaths(const std::vector<std::string>& paths) {
    std::vector<std::string> out;
    for (const std::string& p : paths) {
        std::error_code ec;
        if (!std::filesystem::is_directory(p, ec)) {
            out.push_back(p);
            continue;
        }
        const std::vector<RunInfo> runs = listRuns(p);
        if (!runs.empty()) {  // a TensorBoard logdir or run: the newest run's hosts
            out.insert(out.end(), runs.front().files.begin(), runs.front().files.end());
            continue;
        }
        std::vector<std::string> files;
        for (const auto& e : std::filesystem::directory_iterator(p, ec))
            if (e.is_regular_file(ec) && isTraceFileName(e.path().filename().string()))
                files.push_back(e.path().string());
        std::sort(files.begin(), files.end());
        out.insert(out.end(), files.begin(), files.end());
    }
    return out;
}

void nameWorker(WorkerTrace& w) {
    if (w.trace) w.rank = distributedInfo(*w.trace).rank;
    if (!w.rank) w.rank = rankFromFileName(w.path);
    if (w.rank) {
        w.name = "rank " + std::to_string(*w.rank);
        return;
    }
    if (w.trace && !w.trace->hosts.empty() && !w.trace->hosts.front().empty()) {
        w.name = w.trace->hosts.front();
        return;
    }
    const std::string fileName = std::filesystem::path(w.path).filename().string();
    // A PyTorch profiler file: its worker, as TensorBoard's PyTorch plugin names it.
    if (const auto torch = parseTorchTraceFileName(fileName); torch && !torch->worker.empty()) {
        w.name = torch->worker;
        return;
    }
    w.name = fileName;
}

void alignWorkersOnWallClock(MultiWorkerRun& run) {
    std::optional<int64_t> earliest;
    for (const auto& w : run.workers)
        if (w.trace && w.trace->originUnixNs)
            earliest = earliest ? std::min(*earliest, *w.trace->originUnixNs) : *w.trace->originUnixNs;
    run.originUnixNs = earliest;
    for (auto& w : run.workers) {
        if (!w.trace || !w.trace->originUnixNs) continue;
        w.offsetNs = durationBetween(*earliest, *w.trace->originUnixNs);
        w.clock = WorkerClock::WallClock;
    }
}

MultiWorkerResult importWorkers(const std::vector<std::string>& paths, const WorkerImportOptions& options) {
    const auto t0 = std::chrono::steady_clock::now();
    MultiWorkerResult res;
    const std::vector<std::string> files = expandWorkerPaths(paths);
    if (files.empty()) {
        res.error = "no trace files to open";
        return res;
    }
    // The run is held whole (every worker's trace, then the merge): the files' estimates add up.
    std::vector<ImportFile> sizes;
    for (const std::string& f : files) sizes.push_back({f, detectFormat(f)});
    if (std::string tooBig = checkImportMemory(sizes); !tooBig.empty()) {
        res.error = std::move(tooBig);
        return res;
    }
    auto& workers = res.run.workers;
    workers.resize(files.size());
    for (size_t i = 0; i < files.size(); ++i) workers[i].path = files[i];

    // One file per thread: a worker's import is single-threaded, the files run side by side.
    std::vector<uint64_t> done(files.size(), 0), total(files.size(), 0);
    std::mutex progressMutex;
    std::atomic<size_t> next{0};
    auto loadLoop = [&] {
        for (size_t i = next++; i < files.size(); i = next++) {
            if (options.base.cancelled()) return;
            ImportOptions one = options.base;
            one.threads = 1;
            one.progress = [&, i](uint64_t d, uint64_t t) {
                if (options.fileProgress) options.fileProgress(i, d, t);
                if (!options.base.progress) return;
                std::lock_guard lock(progressMutex);
                done[i] = d;
                total[i] = t;
                uint64_t sd = 0, st = 0;
                for (size_t k = 0; k < files.size(); ++k) sd += done[k], st += total[k];
                options.base.progress(sd, st);
            };
            if (options.fileStarted) options.fileStarted(i);
            ImportResult r = importTrace(files[i], one);
            workers[i].trace = std::move(r.trace);
            workers[i].error = r.error;
            if (options.fileFinished) options.fileFinished(i, workers[i].error);
        }
    };
    const unsigned threads = std::max(1u, std::min<unsigned>(options.base.threads, unsigned(files.size())));
    std::vector<std::thread> pool;
    for (unsigned k = 1; k < threads; ++k) pool.emplace_back(loadLoop);
    loadLoop();
    for (auto& th : pool) th.join();
    if (options.base.cancelled()) {
        res.cancelled = true;
        res.error = "cancelled";
        return res;
    }

    for (auto& w : workers) nameWorker(w);
    // Two files of one rank (or host): tell them apart by file name.
    for (auto& w : workers) {
        const auto same = std::count_if(workers.begin(), workers.end(), [&](const WorkerTrace& o) {
            return o.name == w.name || o.name.rfind(w.name + " (", 0) == 0;
        });
        if (same > 1) w.name += " (" + std::filesystem::path(w.path).filename().string() + ")";
    }
    for (auto& w : workers) {
        if (!w.trace)
            res.run.warnings.push_back(
                ImportWarning::corrupted(std::nullopt, w.path + ": " + w.error + " (worker " + w.name + " skipped)"));
    }
    std::stable_sort(workers.begin(), workers.end(), [](const WorkerTrace& a, const WorkerTrace& b) {
        if (a.rank.has_value() != b.rank.has_value()) return a.rank.has_value();
        if (a.rank && *a.rank != *b.rank) return *a.rank < *b.rank;
        return a.name < b.name;
    });
    if (res.run.loadedCount() == 0) {
        res.error = files.size() == 1 ? workers.front().error
                                      : "none of the " + std::to_string(files.size()) + " worker files could be opened";
        return res;
    }
    res.job = checkOneJob(workers);
    if (!res.job.oneJob()) {
        const std::string what = "files merged as one run though not one job: " + res.job.reason;
        res.run.warnings.push_back(ImportWarning::events(WarningKind::AdjustedEvents, res.run.loadedCount(), what));
    }
    alignWorkersOnWallClock(res.run);
    for (ImportWarning& w : farOffsetWarnings(res.run)) res.run.warnings.push_back(std::move(w));
    res.run.loadSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return res;
}

}  // namespace tracescope
