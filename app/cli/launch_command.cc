// tracescope-cli launch [--logdir DIR | --out DIR] [--duration-ms N] [--kinds LIST]
//     [--cwd DIR] [--env NAME=VALUE]... [--agent PATH] [--flush-ms N] [--early-nvtx] [--json]
//     -- PROGRAM ARGS...
// Runs PROGRAM under our CUPTI agent (Launch & Capture) and saves one XSpace per CUDA
// process in DIR/plugins/profile/<run>/<host>.<pid>.xplane.pb. --duration-ms (or Ctrl-C)
// ends the capture window: the agents stop collecting, the capture is saved, and the
// program runs on to its exit. The agent is NVTX's tool from the program's first NVTX call
// unless the environment names another; --early-nvtx names it anyway and preloads it. Prints
// the files written on
// stdout (or a JSON summary with --json); the agent's problems on stderr. Exits with the
// program's own status (128 + signal when it was killed); when the program succeeded but
// nothing was captured, with 1 and the reason; 127 when the program cannot be started.
#include "app/cli/commands.h"

#include "model/capture/launch_session.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <thread>

namespace tracescope::cli {
namespace {

using namespace tracescope::capture;

std::atomic<LaunchSession*> g_session{nullptr};
void onInterrupt(int) {
    if (LaunchSession* s = g_session.load()) s->stop();
}

const char* kUsage =
    "usage: tracescope-cli launch [--logdir DIR | --out DIR] [--duration-ms N] [--kinds LIST] [--cwd DIR]\n"
    "           [--env NAME=VALUE]... [--agent PATH] [--flush-ms N] [--early-nvtx] [--json]\n"
    "           -- PROGRAM [ARGS...]\n"
    "  LIST: comma-separated kernel,memcpy,memset,runtime,driver,sync,nvtx,memory,overhead,all\n"
    "        (default: all but driver and overhead)\n"
    "  --duration-ms N: capture the first N ms (the program runs on to its exit)\n"
    "  --early-nvtx: the agent is NVTX's tool even where the environment names another, and is\n"
    "               preloaded (without it: NVTX's tool unless the environment names one)\n";

bool parseCount(const std::string& text, uint64_t& out) {
    if (text.empty() || text.size() > 12) return false;
    uint64_t v = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + uint64_t(c - '0');
    }
    out = v;
    return true;
}

}  // namespace

int runLaunch(const Args& all) {
    // Everything after "--" belongs to the program.
    Args args;
    LaunchOptions options;
    size_t i = 0;
    for (; i < all.size() && all[i] != "--"; ++i) args.push_back(all[i]);
    for (++i; i < all.size(); ++i) options.command.push_back(all[i]);
    bool json = false;
    for (size_t a = 0; a < args.size(); ++a) {
        const std::string& f = args[a];
        auto value = [&](std::string& out) {
            if (a + 1 >= args.size()) return false;
            out = args[++a];
            return true;
        };
        std::string v;
        if (f == "--json") json = true;
        else if (f == "--early-nvtx") options.earlyNvtx = true;
        else if (f == "--logdir" || f == "--out") {
            if (!value(options.logdir)) return std::fprintf(stderr, "tracescope-cli: %s needs a folder\n", f.c_str()), 2;
        } else if (f == "--duration-ms") {
            if (!value(v) || !parseCount(v, options.durationMs) || options.durationMs == 0)
                return std::fprintf(stderr, "tracescope-cli: --duration-ms expects a positive integer\n"), 2;
        } else if (f == "--flush-ms") {
            uint64_t ms = 0;
            if (!value(v) || !parseCount(v, ms) || ms < 100 || ms > 250)
                return std::fprintf(stderr, "tracescope-cli: --flush-ms expects 100 to 250\n"), 2;
            options.flushMs = int(ms);
        } else if (f == "--kinds") {
            if (!value(options.kinds)) return std::fprintf(stderr, "tracescope-cli: --kinds needs a list\n"), 2;
            static const std::vector<std::string> kKnown = {"kernel", "memcpy", "memset", "runtime", "driver",
                                                            "sync",   "nvtx",   "memory", "overhead", "all"};
            size_t at = 0;
            while (at <= options.kinds.size()) {
                const size_t end = std::min(options.kinds.find(',', at), options.kinds.size());
                const std::string kind = options.kinds.substr(at, end - at);
                if (std::find(kKnown.begin(), kKnown.end(), kind) == kKnown.end())
                    return std::fprintf(stderr, "tracescope-cli: unknown kind '%s' in --kinds\n%s", kind.c_str(), kUsage), 2;
                at = end + 1;
            }
        } else if (f == "--cwd") {
            if (!value(options.workingDir)) return std::fprintf(stderr, "tracescope-cli: --cwd needs a folder\n"), 2;
        } else if (f == "--agent") {
            if (!value(options.agentPath)) return std::fprintf(stderr, "tracescope-cli: --agent needs a path\n"), 2;
        } else if (f == "--env") {
            if (!value(v) || v.find('=') == std::string::npos || v.front() == '=')
                return std::fprintf(stderr, "tracescope-cli: --env expects NAME=VALUE\n"), 2;
            options.environment.emplace_back(v.substr(0, v.find('=')), v.substr(v.find('=') + 1));
        } else {
            std::fprintf(stderr, "tracescope-cli: unknown option '%s'\n%s", f.c_str(), kUsage);
            return 2;
        }
    }
    if (options.command.empty() || options.logdir.empty()) {
        std::fprintf(stderr, "%s", kUsage);
        return 2;
    }

    LaunchSession session(options);
    g_session = &session;
    auto previous = std::signal(SIGINT, onInterrupt);
    const LaunchResult result = session.run();
    std::signal(SIGINT, previous);
    g_session = nullptr;

    if (!result.started) {
        std::fprintf(stderr, "tracescope-cli: %s\n", result.startError.c_str());
        return 127;
    }
    for (const LaunchedProcess& p : result.processes) {
        std::fprintf(stderr, "process %lld (%s): %llu records, %llu kernels, %llu copies, %llu memsets, %llu API calls%s\n",
                     static_cast<long long>(p.pid), p.executable.c_str(), static_cast<unsigned long long>(p.records),
                     static_cast<unsigned long long>(p.stats.kernels), static_cast<unsigned long long>(p.stats.memcpys),
                     static_cast<unsigned long long>(p.stats.memsets), static_cast<unsigned long long>(p.stats.apis),
                     p.stats.droppedRecords ? (", " + std::to_string(p.stats.droppedRecords) + " dropped").c_str() : "");
        for (const std::string& problem : p.problems) std::fprintf(stderr, "  %s\n", problem.c_str());
    }
    if (json) {
        nlohmann::json out;
        out["exit_status"] = result.exitStatus;
        if (result.termSignal) out["signal"] = result.termSignal;
        out["capture_ok"] = result.captureOk();
        out["run_dir"] = result.runDir;
        out["agent"] = result.agentPath;
        out["files"] = result.savedFiles();
        out["problems"] = result.problems;
        nlohmann::json procs = nlohmann::json::array();
        for (const LaunchedProcess& p : result.processes)
            procs.push_back({{"pid", p.pid},
                             {"executable", p.executable},
                             {"file", p.savedPath},
                             {"records", p.records},
                             {"kernels", p.stats.kernels},
                             {"memcpys", p.stats.memcpys},
                             {"memsets", p.stats.memsets},
                             {"api_calls", p.stats.apis},
                             {"syncs", p.stats.syncs},
                             {"nvtx_ranges", p.stats.nvtxRanges},
                             {"memory_events", p.stats.memoryEvents},
                             {"dropped_records", p.stats.droppedRecords},
                             {"records_after_window", p.recordsAfterWindow},
                             {"problems", p.problems}});
        out["processes"] = procs;
        std::printf("%s\n", out.dump(2).c_str());
    } else {
        for (const std::string& f : result.savedFiles()) std::printf("%s\n", f.c_str());
    }
    std::fflush(stdout);
    if (result.termSignal)
        std::fprintf(stderr, "tracescope-cli: the program was killed by signal %d\n", result.termSignal);
    if (!result.captureOk()) {
        std::string reasons;
        for (const std::string& p : result.problems) reasons += (reasons.empty() ? "" : "; ") + p;
        std::fprintf(stderr, "tracescope-cli: nothing was captured: %s\n", reasons.c_str());
        if (result.exitStatus == 0) return 1;
    }
    return result.exitStatus;
}

}  // namespace tracescope::cli
