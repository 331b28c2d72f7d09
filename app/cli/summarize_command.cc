// tracescope-cli summarize TRACE [--out FILE.json]
// One rank's summary (model/results/rank_summary.h): what tracescope-pod collects from each rank
// of a large job, and what `collectives` reads back instead of the traces.
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/export/file_digest.h"
#include "model/import/workers.h"
#include "model/results/rank_summary.h"
#include "tracescope_version.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace tracescope::cli {

namespace {

const char* kUsage =
    "usage: tracescope-cli summarize TRACE [--out FILE.json]\n"
    "  The facts of one rank's trace that collectives, pod and diff need, in kilobytes: the file's name,\n"
    "  size and SHA-256, producer, rank, world size, the wall clock of time 0, steps with their time by\n"
    "  category, the top host and device ops, a kernel summary, every collective call (kind, group, Seq,\n"
    "  size, time, bandwidths), the communication/compute overlap, memory peaks, import warnings.\n"
    "  The same file and tool version give the same bytes (no clock, no folder names inside).\n"
    "  Written to FILE.json (through a temporary file, renamed when complete), else to stdout.\n"
    "  tracescope-cli collectives reads a folder of summaries like a folder of traces.\n";

}  // namespace

int runSummarize(const Args& args) {
    if (hasFlag(args, "--help") || hasFlag(args, "-h")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const auto files = positionals(args, {"--out"});
    if (files.size() != 1) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    const std::string& path = files[0];
    std::string error;
    RankSummaryFile file;
    file.sha256 = fileSha256Hex(path, error);
    if (file.sha256.empty()) {
        std::fprintf(stderr, "tracescope-cli: %s\n", error.c_str());
        return 1;
    }
    std::error_code ec;
    file.sizeBytes = std::filesystem::file_size(path, ec);
    file.name = std::filesystem::path(path).filename().string();
    std::shared_ptr<const Trace> trace = loadTraceOrReport(path);
    if (!trace) return 1;
    WorkerTrace w;
    w.path = path;
    w.trace = trace;
    nameWorker(w);
    file.rank = w.rank;
    const nlohmann::json summary = rankSummaryJson(*ResultStore::of(trace), file, TRACESCOPE_VERSION);
    const std::string text = summary.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    const std::string out = flagValue(args, "--out");
    if (out.empty()) {
        std::fputs(text.c_str(), stdout);
        return exitStatus(args, 0);
    }
    // Never a half-written summary under the final name: a restarted run trusts what it finds.
    const std::string partial = out + ".partial";
    {
        std::ofstream f(partial, std::ios::binary | std::ios::trunc);
        f << text;
        if (!f.flush()) {
            std::fprintf(stderr, "tracescope-cli: cannot write %s\n", partial.c_str());
            return 1;
        }
    }
    std::filesystem::rename(partial, out, ec);
    if (ec) {
        std::fprintf(stderr, "tracescope-cli: cannot write %s: %s\n", out.c_str(), ec.message().c_str());
        return 1;
    }
    return exitStatus(args, 0);
}

}  // namespace tracescope::cli
