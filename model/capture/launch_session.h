// Launch & Capture: runs any program under our CUPTI agent (libtracescope_cupti.so through
// CUDA_INJECTION64_PATH), collects the records its processes stream to a Unix socket
// (agent/agent_listener.h), and saves one XSpace per process in the TensorBoard layout
// <logdir>/plugins/profile/<YYYY_MM_DD_HH_MM_SS>/<host>.<pid>.xplane.pb. Agents that could
// not reach the socket leave fallback files (<host>.<pid>.tscupti) in the run folder; they
// are converted too. When the capture window ends before the program does (a duration, or
// stop()), the agents are told to stop collecting over the same socket; the capture is saved
// at once and the program runs on to its own exit. POSIX only, no Qt.
#pragma once

#include "model/capture/agent/agent_listener.h"
#include "model/capture/agent/records_to_xspace.h"
#include "model/capture/program_output.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tracescope::capture {

struct LaunchResult;

struct LaunchOptions {
    std::vector<std::string> command;  // program and its arguments
    std::string workingDir;            // empty: ours
    std::vector<std::pair<std::string, std::string>> environment;  // added to ours
    std::string kinds;                 // agent kinds ("kernel,memcpy,..."), empty: the agent's default
    uint64_t durationMs = 0;           // capture window from the start; 0: until the program exits
    int flushMs = 200;                 // the agent's flush period (100-250)
    std::string logdir;                // TensorBoard log folder
    std::string agentPath;             // libtracescope_cupti.so; empty: findAgentLibrary()
    bool waitForExit = true;           // false: return once the capture is saved
    // NVTX ranges pushed before CUDA initializes: NVTX_INJECTION64_PATH names the agent (its
    // InitializeInjectionNvtx2 starts it at the first NVTX call) and LD_PRELOAD loads it,
    // with its libcupti, before the program's own libraries.
    bool earlyNvtx = false;
    // Called on the session's thread once the capture is saved while the program still runs
    // (the window ended first); the final result comes from run() at the program's exit.
    std::function<void(const LaunchResult&)> onCaptureSaved;
    // The program's stdout and stderr go to one pipe we read (else they are ours, as in a
    // terminal): each piece is passed to onOutput on the session's thread, and the output is
    // saved beside a saved capture as <run>/program_output.txt.
    bool captureOutput = false;
    std::function<void(std::string_view)> onOutput;
};

// Where the program stands (for live displays).
struct LaunchProgress {
    bool running = false;
    int64_t pid = 0;
    uint64_t records = 0;
    size_t processes = 0;
    uint64_t elapsedMs = 0;
    bool windowOpen = false;  // records are being collected
    bool saved = false;       // the capture window ended and its files are written
};

struct LaunchedProcess {
    int64_t pid = 0;
    std::string executable;
    std::string savedPath;  // empty when nothing was saved for it
    uint64_t records = 0;
    agent::ConvertStats stats;
    std::vector<std::string> problems;  // the agent's errors, a crash, a malformed stream
    // Activity records the agent still sent after the window closed (0 when Stop took
    // effect in the agent; such records are never saved).
    uint64_t recordsAfterWindow = 0;
};

struct LaunchResult {
    bool started = false;
    std::string startError;   // program not found, not executable, ...
    bool exited = false;      // the program ended (else it is still running: waitForExit false)
    int exitStatus = 0;       // its exit code, or 128 + signal
    int termSignal = 0;
    int64_t pid = 0;
    std::string agentPath;    // the CUPTI agent injected (absolute)
    std::string runDir;       // the (last) capture window's run folder
    std::string outputPath;   // the program's saved output (captureOutput), else empty
    std::vector<LaunchedProcess> processes;
    std::vector<std::string> problems;  // why the capture failed or is incomplete
    bool captureOk() const;             // at least one XSpace saved with activity records
    std::vector<std::string> savedFiles() const;
};

// libtracescope_cupti.so: $TRACESCOPE_CUPTI_AGENT, else beside `executable` (the CLI or the
// GUI), in cupti_agent/ beside it (a build tree), or where the package installs it
// (../lib/<triplet>/tracescope/, or ../lib/tracescope/). Empty if none.
std::string findAgentLibrary(const std::string& executable);
// True when the dynamic loader would find libcupti.so.13 (the agent needs it; it comes from the
// user's CUDA installation). Looked up as ld.so(8) does, without loading it: loading CUPTI runs
// its initialisers in this process.
bool cuptiOnLibraryPath();
// Whether a file `name` is in a folder of `ldLibraryPath` (colon-separated), among the paths of
// ldconfig's cache `cacheFile`, or in one of `defaultDirs`: ld.so(8)'s search order, less the
// program's own RPATH/RUNPATH.
bool libraryFindable(const std::string& name, const std::string& ldLibraryPath, const std::string& cacheFile,
                     const std::vector<std::string>& defaultDirs);

// The absolute path of `program` as exec would find it on PATH, or "" with `error`.
std::string resolveProgram(const std::string& program, std::string& error);

class LaunchSession {
public:
    explicit LaunchSession(LaunchOptions options) : options_(std::move(options)) {}
    // Runs the program and the capture; blocks until the program exits (or, with
    // waitForExit false, until the capture is saved).
    LaunchResult run();
    // Ends the capture window now: the agents stop collecting, the capture is saved, and
    // the program keeps running. Any thread.
    void stop() { stopRequested_ = true; }
    // After a stop() whose capture was saved, while the program runs: the agents collect
    // again and the next window is saved in a run folder of its own (onCaptureSaved again).
    void restart() {
        stopRequested_ = false;  // a stop() after this ends the new window
        restartRequested_ = true;
    }
    // Also terminates the program (SIGTERM, then SIGKILL after 2 s). Any thread.
    void terminate() { terminateRequested_ = true; stopRequested_ = true; }
    LaunchProgress progress() const;

private:
    void save(LaunchResult& result, std::vector<agent::CollectedProcess> collected, const std::string& fallbackDir,
              int64_t windowStartNs, int64_t windowEndNs);
    // The output so far, into the run folder of a saved capture.
    void saveOutput(LaunchResult& result);

    LaunchOptions options_;
    std::atomic<bool> stopRequested_{false}, terminateRequested_{false}, restartRequested_{false};
    mutable std::mutex mutex_;
    agent::AgentListener* listener_ = nullptr;  // while running
    LaunchProgress progress_;
    ProgramOutput output_;
};

}  // namespace tracescope::capture
