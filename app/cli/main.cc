// tracescope-cli: every number the GUI shows, as JSON or CSV.
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"
#include "app/cli/run_choice.h"
#include "tracescope_version.h"

#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <sys/resource.h>

namespace tracescope::cli {

bool hasFlag(const Args& args, const std::string& flag) {
    for (const auto& a : args)
        if (a == flag) return true;
    return false;
}

std::string flagValue(const Args& args, const std::string& flag, const std::string& fallback) {
    for (size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == flag) return args[i + 1];
    return fallback;
}

std::vector<std::string> positionals(const Args& args, const std::vector<std::string>& flagsWithValue) {
    std::vector<std::string> out;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.size() > 1 && a[0] == '-') {
            for (const auto& f : flagsWithValue)
                if (a == f) ++i;
            continue;
        }
        out.push_back(a);
    }
    return out;
}

long long peakRssBytes() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<long long>(ru.ru_maxrss) * 1024;
}

}  // namespace tracescope::cli

namespace {

const char* const kUsage =
                 "Usage: tracescope-cli COMMAND FILE [options]   (FILE may be - or a pipe: read once)\n"
                 "Commands:\n"
                 "  info FILE [--json]          summary: processes, tracks, event counts, span\n"
                 "  info --list-runs DIR [--json]  the profile runs of a folder (TensorBoard logdir runs, PyTorch\n"
                 "                              profiler cycles), numbered for --run\n"
                 "  stats FILE [--by name|type] [--side host|device|all] [--csv|--json] [--no-idle] [--names short|full]\n"
                 "                              op statistics (host and device, self time)\n"
                 "  tracks FILE [--json]        tracks in the timeline's default order (process, track, kind, events)\n"
                 "  kernels FILE [--csv|--json] [--names short|full]  GPU kernel statistics\n"
                 "  overview FILE [--json]      run environment, steps, step-time breakdown, verdict\n"
                 "  input-pipeline FILE [--json] device input wait per step, host input ops\n"
                 "  tfdata FILE [--json|--csv]  tf.data input pipelines: latency per pipeline, the critical path and\n"
                 "                              bottleneck of the slowest call, summary and suggestion\n"
                 "  scopes FILE [--json] [--depth N]  op time by name scope, op-type view\n"
                 "  torch-ops FILE [--csv|--json] [--group-by-shape] [--group-by-stack N] [--sort KEY] [--names short|full]\n"
                 "                              PyTorch's key_averages() table (Self CPU, Self CUDA, calls)\n"
                 "  memory FILE [--json|--csv [--breakdown]] [--timeline-csv OUT.csv]\n"
                 "                              memory profile per allocator/device: peaks, breakdown at the peak,\n"
                 "                              leak hints; --timeline-csv writes every allocation/deallocation\n"
                 "  convert FILE --to chrome-json OUT.json[.gz]\n"
                 "                              write the trace as Chrome trace JSON (gzip for .gz)\n"
                 "  capture ADDR[,ADDR...] --duration-ms N --logdir DIR [--retries N] [--host-level N]\n"
                 "          [--device-level N] [--python-level N] [--delay-ms N]\n"
                 "                              capture from TensorFlow/JAX profiler servers into\n"
                 "                              DIR/plugins/profile/<run>/; prints the files written\n"
                 "  launch [--logdir DIR] [--duration-ms N] [--kinds LIST] [--cwd DIR] [--env NAME=VALUE]...\n"
                 "         [--agent PATH] [--json] -- PROGRAM ARGS...\n"
                 "                              run a CUDA program under our CUPTI agent and save its GPU activity\n"
                 "                              in DIR/plugins/profile/<run>/ (exits with the program's status)\n"
                 "  pod FILE|DIR|SUMMARY... [--json|--csv] [--step-marker NAME] [--offset WORKER=NS]... [--force-merge]\n"
                 "                              several workers (rank files, hosts) as one run: per worker and\n"
                 "                              step the breakdown, stragglers, exposed communication;\n"
                 "                              --offset sets a worker's clock offset by hand (WORKER: its name\n"
                 "                              as printed, e.g. \"rank 3\", or its rank; NS: integer ns, or with\n"
                 "                              us / ms / s), repeatable; files that are not one job\n"
                 "                              (producer, world size, process groups, a rank twice, far\n"
                 "                              apart wall clocks) are refused with status 2 unless\n"
                 "                              --force-merge\n"
                 "  diff A B [--json|--csv] [--totals] [--step-marker NAME]\n"
                 "                              compare two runs: step time, op and kernel stats with deltas,\n"
                 "                              per step (each run's total over its step set's count; totals when\n"
                 "                              a run has no steps) and in total; --totals ranks by the totals\n"
                 "  cuda-api FILE [--json|--csv]  CUDA API, memcpy (time and size per copy kind), memset, kernel\n"
                 "                              and sync summaries as nsys stats reports them (cuda-api --help)\n"
                 "  critical-path FILE [--step N] [--out PATH.json] [--json|--csv]\n"
                 "                              the critical path per step as HTA defines it, CUDA graph kernels\n"
                 "                              included; --out marks it in a Chrome trace (critical-path --help)\n"
                 "  launch-stats FILE [--json|--csv] [--rows] [--hta-calls]\n"
                 "                              per launch: runtime call, kernel and launch delay; HTA's\n"
                 "                              outliers and distributions (launch-stats --help; not `launch`)\n"
                 "  queue FILE [--json|--csv] [--timeline-csv OUT] [--limit N]\n"
                 "                              queue length per stream as HTA defines it: summary, series,\n"
                 "                              time at CUDA's 1024-entry limit (queue --help)\n"
                 "  gpu-util FILE [--json|--csv] [--gaps]\n"
                 "                              per GPU: idle, compute and non-compute time over the active\n"
                 "                              window, and idle time per stream by cause (host_wait,\n"
                 "                              kernel_wait, other), as HTA defines them (gpu-util --help)\n"
                 "  hlo-ops FILE [--program NAME] [--json|--csv] [--sort time|wasted|utilization]\n"
                 "                              per XLA program and HLO op: device time, FLOPs and bytes (XLA's\n"
                 "                              cost analysis), FLOP rate, bandwidth, utilisation of the\n"
                 "                              device's peaks and the bound, as XProf's op profile (hlo-ops --help)\n"
                 "  hlo-graph FILE --program NAME --op NAME [--radius N] [--fused] --dot OUT.dot\n"
                 "                              an HLO instruction's neighbourhood as Graphviz DOT, with device\n"
                 "                              time and the critical chain (hlo-graph --help)\n"
                 "  hlo-memory FILE [--program NAME] [--json|--csv]\n"
                 "                              the compiler's memory view of the XLA programs: peak heap from\n"
                 "                              the buffer assignment, buffers live at the peak (hlo-memory --help)\n"
                 "  roofline FILE [--json|--csv]\n"
                 "                              the roofline of the XLA programs: per op and program, FLOPs per\n"
                 "                              byte against the attained FLOP rate under the device's ceilings,\n"
                 "                              ridge point, time by region (roofline --help)\n"
                 "  advice FILE [--json|--csv] [--gap-threshold-us N]\n"
                 "                              why the GPU waits: GPU gaps with the host's work meanwhile,\n"
                 "                              blocking calls in steps, pageable copies, kernels shorter than\n"
                 "                              their launch, starved launch queues (advice --help)\n"
                 "  flame FILE [--range A:B] [--tracks REGEX] [--under REGEX] [--step N] [--metric wall|self|device|count]\n"
                 "        [--bottom-up] [--by-thread] [--pivot NAME] [--json|--csv|--folded|--pprof OUT|--code]\n"
                 "                              time by call stack: flame graph data, folded stacks, a pprof\n"
                 "                              profile, the Python code view (flame --help)\n"
                 "  query FILE 'SQL'|--file Q.sql|--schema [--json|--csv] [--timeout S]\n"
                 "                              SQL over the trace: slice, instant, counter, track, thread,\n"
                 "                              process, flow, args and the analyses' tables (query --help)\n"
                 "  collectives FILE|DIR... [--json|--csv] [--force-merge]\n"
                 "                              collective calls per rank with nccl-tests bandwidths (algbw,\n"
                 "                              busbw), communication/compute overlap as HTA defines it, and\n"
                 "                              stragglers across ranks by (group, Seq) (collectives --help)\n"
                 "  summarize FILE [--out FILE.json]\n"
                 "                              one rank's summary (steps, top ops, kernels, collectives with\n"
                 "                              Seq, memory peaks), kilobytes, the same bytes for the same file;\n"
                 "                              what tracescope-pod gathers (summarize --help)\n"
                 "  overview, input-pipeline, tfdata, pod, diff:\n"
                 "    --step-marker NAME        the slices named NAME are the steps\n"
                 "    --all-steps               average over every step; by default XSpace and XProf's trace JSON\n"
                 "                              use TensorBoard's step set (steps with compute, then without the\n"
                 "                              first and the last when more than 5), other traces every step;\n"
                 "                              the JSON's step_set names the steps used\n"
                 "  --names short               (stats, kernels, torch-ops) C++ names without return type, namespaces and\n"
                 "                              parameters; the full name in full_name (default: full)\n"
                 "every command that reads a trace:\n"
                 "  FILE may be a folder: a TensorBoard logdir or run, or a PyTorch profiler folder\n"
                 "  (<worker>.<time>.pt.trace.json[.gz]: the workers of one profiling cycle open together)\n"
                 "  --run N                     the folder's run N (1 = the oldest; info --list-runs numbers\n"
                 "                              them) or the run of that name; without it, the newest\n"
                 "  import warnings (a cut or damaged file, dropped events) go to stderr and, with --json,\n"
                 "  into a top-level \"warnings\" array; the exit status stays 0\n"
                 "  --strict                    exit with status 3 when the trace has import warnings\n"
                 "  --help, -h                  this text (each command: COMMAND --help where it says so)\n"
                 "  --version, -V               the version, and the git commit when built from a checkout\n";

// --help writes to standard output (help2man and pagers read it there); a usage error to stderr.
void usage(FILE* out = stderr) { std::fputs(kUsage, out); }

// COMMAND --help for a command without help of its own: its entries of the usage above (the
// lines that start with it, a group of commands that names it, and their continuation lines),
// so that each command's --help and the whole --help (and the man page made from it) agree.
void commandHelp(const std::string& command) {
    std::string out;
    bool inSection = false;
    const std::string text = kUsage;
    size_t at = 0;
    while (at < text.size()) {
        const size_t end = std::min(text.find('\n', at), text.size());
        const std::string line = text.substr(at, end - at);
        at = end + 1;
        const bool entry = line.size() > 2 && line.compare(0, 2, "  ") == 0 && line[2] != ' ';
        if (entry) {
            const std::string head = line.substr(2, line.find("  ", 2) == std::string::npos ? std::string::npos
                                                                                             : line.find("  ", 2) - 2);
            const bool starts = line.compare(2, command.size(), command) == 0 &&
                                (line.size() == 2 + command.size() || line[2 + command.size()] == ' ');
            // "  overview, input-pipeline, tfdata, pod, diff:" heads options those commands share.
            const bool group = head.back() == ':' && (", " + head.substr(0, head.size() - 1) + ",").find(" " + command + ",") != std::string::npos;
            inSection = starts || group;
        } else if (line.empty() || line[0] != ' ') {
            inSection = false;
        }
        if (inSection) out += line + "\n";
    }
    std::printf("Usage: tracescope-cli %s ...  (every command: tracescope-cli --help)\n%s", command.c_str(), out.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    using namespace tracescope::cli;
    const std::map<std::string, std::function<int(const Args&)>> commands = {
        {"info", runInfo},
        {"stats", runStats},
        {"kernels", runKernels},
        {"overview", runOverview},
        {"input-pipeline", runInputPipeline},
        {"scopes", runScopes},
        {"torch-ops", runTorchOps},
        {"convert", runConvert},
        {"capture", runCapture},
        {"launch", runLaunch},
        {"tracks", runTracks},
        {"memory", runMemory},
        {"tfdata", runTfData},
        {"pod", runPod},
        {"diff", runDiff},
        {"cuda-api", runCudaApi},
        {"critical-path", runCriticalPath},
        {"launch-stats", runLaunchStats},
        {"queue", runQueue},
        {"gpu-util", runGpuUtil},
        {"hlo-ops", runHloOps},
        {"roofline", runRoofline},
        {"hlo-memory", runHloMemory},
        {"hlo-graph", runHloGraph},
        {"advice", runAdvice},
        {"flame", runFlame},
        {"query", runQuery},
        {"collectives", runCollectives},
        {"summarize", runSummarize},
    };
    if (argc < 2) {
        usage();
        return 2;
    }
    if (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    if (!std::strcmp(argv[1], "--commands")) {  // one per line: the shell completion asks
        for (const auto& [name, run] : commands) std::printf("%s\n", name.c_str());
        return 0;
    }
    if (!std::strcmp(argv[1], "--version") || !std::strcmp(argv[1], "-V")) {
        // The commit when built from a git checkout (with -dirty for uncommitted changes).
        const std::string commit = TRACESCOPE_COMMIT;
        std::printf("tracescope-cli %s%s\n", TRACESCOPE_VERSION, commit.empty() ? "" : (" (git " + commit + ")").c_str());
        return 0;
    }
    auto it = commands.find(argv[1]);
    if (it == commands.end()) {
        std::fprintf(stderr, "tracescope-cli: unknown command '%s'\n", argv[1]);
        usage();
        return 2;
    }
    Args args(argv + 2, argv + argc);
    // COMMAND --help: the command's own help where it has one, else its part of the usage.
    static const std::set<std::string> kOwnHelp = {"advice", "collectives", "critical-path", "cuda-api", "flame",
                                                   "gpu-util", "hlo-graph", "hlo-memory", "hlo-ops", "launch-stats", "query", "queue",
                                                   "roofline", "summarize"};
    for (const std::string& a : args) {
        if (a == "--") break;  // launch: the program's own arguments follow
        if ((a == "--help" || a == "-h") && !kOwnHelp.count(it->first)) {
            commandHelp(it->first);
            return 0;
        }
    }
    if (!takeRunOption(argv[1], args)) return 2;  // --run N: the run of a folder of runs to open
    return exitStatus(args, it->second(args));
}
