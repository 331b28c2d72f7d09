#include "model/capture/launch_session.h"

#include "model/capture/agent/agent_records.h"
#include "model/capture/profile_request.h"
#include "model/capture/save_profile.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace tracescope::capture {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

int64_t realtimeNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

bool isExecutableFile(const std::string& path) {
    struct stat st{};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

std::string describeStatus(const agent::StatusEntry& s) {
    return s.detail.empty() ? s.message : s.message + ": " + s.detail;
}

}  // namespace

bool LaunchResult::captureOk() const {
    for (const LaunchedProcess& p : processes)
        if (!p.savedPath.empty()) return true;
    return false;
}

std::vector<std::string> LaunchResult::savedFiles() const {
    std::vector<std::string> out;
    for (const LaunchedProcess& p : processes)
        if (!p.savedPath.empty()) out.push_back(p.savedPath);
    return out;
}

bool libraryFindable(const std::string& name, const std::string& ldLibraryPath, const std::string& cacheFile,
                     const std::vector<std::string>& defaultDirs) {
    std::error_code ec;
    const auto isFile = [&ec](const fs::path& p) { return fs::is_regular_file(p, ec); };  // follows links
    for (size_t at = 0; at <= ldLibraryPath.size();) {
        const size_t end = std::min(ldLibraryPath.find(':', at), ldLibraryPath.size());
        // An empty entry is the current folder, as ld.so reads it.
        const std::string dir = ldLibraryPath.substr(at, end - at);
        if (!ldLibraryPath.empty() && isFile(fs::path(dir.empty() ? "." : dir) / name)) return true;
        at = end + 1;
    }
    // ldconfig's cache keeps every library's full path as a NUL-terminated string; one that ends
    // in "/<name>" and still exists is what the loader would take.
    if (std::ifstream cache{cacheFile, std::ios::binary}) {
        const std::string bytes{std::istreambuf_iterator<char>(cache), std::istreambuf_iterator<char>()};
        const std::string tail = "/" + name + std::string(1, '\0');
        for (size_t hit = bytes.find(tail); hit != std::string::npos; hit = bytes.find(tail, hit + 1)) {
            const size_t begin = bytes.rfind('\0', hit);
            const std::string path = bytes.substr(begin == std::string::npos ? 0 : begin + 1,
                                                  hit + tail.size() - 1 - (begin == std::string::npos ? 0 : begin + 1));
            if (!path.empty() && path[0] == '/' && isFile(path)) return true;
        }
    }
    for (const std::string& dir : defaultDirs)
        if (isFile(fs::path(dir) / name)) return true;
    return false;
}

#ifndef TRACESCOPE_LIB_TRIPLET
#define TRACESCOPE_LIB_TRIPLET ""
#endif

bool cuptiOnLibraryPath() {
    const char* env = std::getenv("LD_LIBRARY_PATH");
    return libraryFindable("libcupti.so.13", env ? env : "", "/etc/ld.so.cache",
                           {"/lib/" TRACESCOPE_LIB_TRIPLET, "/usr/lib/" TRACESCOPE_LIB_TRIPLET, "/lib64", "/usr/lib64",
                            "/lib", "/usr/lib"});
}

std::string findAgentLibrary(const std::string& executable) {
    static constexpr const char* kName = "libtracescope_cupti.so";
    if (const char* env = std::getenv("TRACESCOPE_CUPTI_AGENT"); env && *env) return env;
    std::error_code ec;
    fs::path exe = fs::canonical(executable.empty() ? "/proc/self/exe" : executable, ec);
    if (ec) exe = executable;
    const fs::path dir = exe.parent_path();
#ifndef TRACESCOPE_AGENT_LIBDIR
#define TRACESCOPE_AGENT_LIBDIR "lib/tracescope"
#endif
    // Beside the program, a build tree's folders, then where the package installs it.
    for (const fs::path& candidate :
         {dir / kName, dir / "cupti_agent" / kName, dir / ".." / "app" / "cupti_agent" / kName,
          dir / ".." / TRACESCOPE_AGENT_LIBDIR / kName, dir / ".." / "lib" / "tracescope" / kName, dir / ".." / "lib" / kName})
        if (fs::is_regular_file(candidate, ec)) return fs::absolute(candidate, ec).lexically_normal().string();
    return {};
}

std::string resolveProgram(const std::string& program, std::string& error) {
    if (program.empty()) {
        error = "no program given";
        return {};
    }
    if (program.find('/') != std::string::npos) {
        if (!fs::exists(program)) {
            error = "program not found: " + program;
            return {};
        }
        if (!isExecutableFile(program)) {
            error = "not an executable file: " + program;
            return {};
        }
        std::error_code ec;
        return fs::absolute(program, ec).lexically_normal().string();
    }
    const char* pathEnv = std::getenv("PATH");
    std::string path = pathEnv ? pathEnv : "/usr/local/bin:/usr/bin:/bin";
    size_t at = 0;
    while (at <= path.size()) {
        const size_t end = std::min(path.find(':', at), path.size());
        const std::string dir = end > at ? path.substr(at, end - at) : ".";
        const std::string candidate = dir + "/" + program;
        if (isExecutableFile(candidate)) return candidate;
        at = end + 1;
    }
    error = "program not found on PATH: " + program;
    return {};
}

LaunchProgress LaunchSession::progress() const {
    std::lock_guard<std::mutex> lock(mutex_);
    LaunchProgress p = progress_;
    if (listener_) {
        p.records = listener_->totalRecords();
        p.processes = listener_->connections();
    }
    return p;
}

LaunchResult LaunchSession::run() {
    LaunchResult result;
    const std::string program = resolveProgram(options_.command.empty() ? "" : options_.command[0], result.startError);
    if (program.empty()) return result;
    std::string agentPath = options_.agentPath.empty() ? findAgentLibrary({}) : options_.agentPath;
    if (agentPath.empty() || !fs::is_regular_file(agentPath)) {
        result.startError = "the CUPTI agent library (libtracescope_cupti.so) was not found" +
                            (agentPath.empty() ? std::string() : ": " + agentPath) +
                            "; set TRACESCOPE_CUPTI_AGENT or --agent";
        return result;
    }
    std::error_code ec;
    agentPath = fs::absolute(agentPath, ec).lexically_normal().string();
    result.agentPath = agentPath;
    if (!options_.workingDir.empty() && !fs::is_directory(options_.workingDir, ec)) {
        result.startError = "working folder not found: " + options_.workingDir;
        return result;
    }
    if (options_.logdir.empty()) {
        result.startError = "no log folder given";
        return result;
    }
    result.runDir = (fs::path(repositoryRoot(options_.logdir)) / makeSessionId(std::chrono::system_clock::now())).string();
    fs::create_directories(result.runDir, ec);
    if (ec) {
        result.startError = "cannot create " + result.runDir + ": " + ec.message();
        return result;
    }

    agent::AgentListener listener;
    if (!listener.start({}, result.startError)) return result;

    // The environment: ours, the caller's additions, then the agent's.
    std::map<std::string, std::string> env;
    for (char** e = environ; e && *e; ++e) {
        const char* eq = std::strchr(*e, '=');
        if (eq) env[std::string(*e, size_t(eq - *e))] = eq + 1;
    }
    for (const auto& [k, v] : options_.environment) env[k] = v;
    env["CUDA_INJECTION64_PATH"] = agentPath;
    // NVTX (v3) picks its tool once, at the program's first NVTX call, from this variable; a
    // first call before cuInit (before the agent could set it) left NVTX off for the whole run
    // (seen on an H200 with CUDA 13). Named from the start, as Nsight Systems does, the agent
    // starts at that first call (InitializeInjectionNvtx2). A tool the caller named stays.
    if (!env.count("NVTX_INJECTION64_PATH")) env["NVTX_INJECTION64_PATH"] = agentPath;
    if (options_.earlyNvtx) {
        env["NVTX_INJECTION64_PATH"] = agentPath;
        const auto preload = env.find("LD_PRELOAD");
        env["LD_PRELOAD"] = preload == env.end() || preload->second.empty() ? agentPath
                                                                             : agentPath + ":" + preload->second;
    }
    env[TS_AGENT_ENV_SOCKET] = listener.path();
    env[TS_AGENT_ENV_FALLBACK] = result.runDir;
    env[TS_AGENT_ENV_FLUSH_MS] = std::to_string(options_.flushMs);
    if (!options_.kinds.empty()) env[TS_AGENT_ENV_KINDS] = options_.kinds;
    std::vector<std::string> envStrings;
    for (const auto& [k, v] : env) envStrings.push_back(k + "=" + v);
    std::vector<char*> envp, argv;
    for (std::string& s : envStrings) envp.push_back(s.data());
    envp.push_back(nullptr);
    std::vector<std::string> args = options_.command;
    for (std::string& s : args) argv.push_back(s.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (!options_.workingDir.empty()) posix_spawn_file_actions_addchdir_np(&actions, options_.workingDir.c_str());
    if (options_.captureOutput) {
        if (!output_.open(result.startError)) {
            posix_spawn_file_actions_destroy(&actions);
            listener.stop();
            removeDirIfEmpty(result.runDir);
            return result;
        }
        posix_spawn_file_actions_adddup2(&actions, output_.childFd(), STDOUT_FILENO);
        posix_spawn_file_actions_adddup2(&actions, output_.childFd(), STDERR_FILENO);
    }
    pid_t pid = 0;
    int64_t windowStart = realtimeNs();
    const int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    output_.closeChildEnd();
    if (rc != 0) {
        result.startError = "cannot start " + program + ": " + std::strerror(rc);
        listener.stop();
        removeDirIfEmpty(result.runDir);
        return result;
    }
    result.started = true;
    result.pid = pid;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        listener_ = &listener;
        progress_.running = true;
        progress_.pid = pid;
    }

    const auto t0 = Clock::now();
    auto windowT0 = t0;
    // Agents that cannot reach the socket write their fallback files here, whichever window.
    const std::string fallbackDir = result.runDir;
    // The agents answer Stop within a flush period; one that does not (stuck, or gone) is
    // waited for this long before the capture is saved without its last records.
    const auto stopAnswerLimit = std::chrono::milliseconds(2 * options_.flushMs + 500);
    bool saved = false, termSent = false;
    Clock::time_point windowEndAt{}, termAt{};
    int64_t windowEnd = std::numeric_limits<int64_t>::max();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        progress_.windowOpen = true;
    }
    for (;;) {
        output_.pump(options_.onOutput);
        int status = 0;
        const pid_t w = ::waitpid(pid, &status, WNOHANG);
        const auto now = Clock::now();
        {
            std::lock_guard<std::mutex> lock(mutex_);
            progress_.elapsedMs = uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(now - t0).count());
        }
        if (w == pid) {
            result.exited = true;
            if (WIFEXITED(status)) result.exitStatus = WEXITSTATUS(status);
            else if (WIFSIGNALED(status)) {
                result.termSignal = WTERMSIG(status);
                result.exitStatus = 128 + result.termSignal;
            }
            break;
        }
        if (terminateRequested_ && !termSent) {
            ::kill(pid, SIGTERM);
            termSent = true;
            termAt = now;
        } else if (termSent && now - termAt > std::chrono::seconds(2)) {
            ::kill(pid, SIGKILL);
        }
        // Start after a saved window: the agents collect again, into a new run folder.
        if (restartRequested_.exchange(false) && saved && !terminateRequested_) {
            for (const agent::CollectedProcess& late : listener.take())
                for (LaunchedProcess& p : result.processes)
                    if (late.progress.pid == p.pid) p.recordsAfterWindow += late.records.activityCount();
            listener.sendControl(agent::kControlStart);
            // Run folders are named by the second (YYYY_MM_DD_HH_MM_SS, which run lists sort
            // by): a window restarted within the same second takes the next free one.
            std::string runDir;
            for (int ahead = 0; runDir.empty() || fs::exists(runDir, ec); ++ahead)
                runDir = (fs::path(repositoryRoot(options_.logdir)) /
                          makeSessionId(std::chrono::system_clock::now() + std::chrono::seconds(ahead)))
                             .string();
            fs::create_directories(runDir, ec);
            result.runDir = runDir;
            result.processes.clear();
            result.problems.clear();
            windowStart = realtimeNs();
            windowT0 = now;
            windowEndAt = {};
            windowEnd = std::numeric_limits<int64_t>::max();
            saved = false;
            std::lock_guard<std::mutex> lock(mutex_);
            progress_.windowOpen = true;
            progress_.saved = false;
        }
        const bool windowOver =
            stopRequested_ || (options_.durationMs && now - windowT0 >= std::chrono::milliseconds(options_.durationMs));
        if (windowOver && windowEndAt == Clock::time_point{}) {
            windowEndAt = now;
            windowEnd = realtimeNs();
            listener.sendControl(agent::kControlStop);
            std::lock_guard<std::mutex> lock(mutex_);
            progress_.windowOpen = false;
        }
        // Every agent answered Stop (its window's records are in), or waited long enough.
        if (!saved && windowEndAt != Clock::time_point{} &&
            (listener.awaitingStop() == 0 || now - windowEndAt >= stopAnswerLimit) && !terminateRequested_) {
            save(result, listener.take(), fallbackDir, windowStart, windowEnd);
            saveOutput(result);
            saved = true;
            {
                std::lock_guard<std::mutex> lock(mutex_);
                progress_.saved = true;
            }
            if (options_.onCaptureSaved) options_.onCaptureSaved(result);
            if (!options_.waitForExit) break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (result.exited) {
        // The agents' atexit flush and Bye: wait for every connection to close.
        const auto deadline = Clock::now() + std::chrono::seconds(3);
        while (listener.openConnections() > 0 && Clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    listener.stop();
    // What the program wrote last (children that keep the pipe open are not waited for).
    output_.pump(options_.onOutput);
    if (result.exited && !saved) {
        save(result, listener.take(), fallbackDir, windowStart, windowEnd);
        saveOutput(result);
    } else if (result.exited) {
        saveOutput(result);  // the whole output, beside the last saved window
        // After the window: what agents still sent is counted, never saved.
        for (const agent::CollectedProcess& late : listener.take())
            for (LaunchedProcess& p : result.processes)
                if (late.progress.pid == p.pid) p.recordsAfterWindow += late.records.activityCount();
        for (const auto& entry : fs::directory_iterator(fallbackDir, ec))
            if (entry.path().extension() == TS_AGENT_FALLBACK_SUFFIX) fs::remove(entry.path(), ec);
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        progress_.running = !result.exited;
        progress_.windowOpen = false;
        progress_.records = listener.totalRecords();
        progress_.processes = result.processes.size();
        listener_ = nullptr;
    }
    removeDirIfEmpty(fallbackDir);
    removeDirIfEmpty(result.runDir);
    return result;
}

void LaunchSession::saveOutput(LaunchResult& result) {
    if (!options_.captureOutput || !result.captureOk()) return;
    const std::string path = (fs::path(result.runDir) / "program_output.txt").string();
    std::string error;
    if (output_.saveTo(path, error)) result.outputPath = path;
    else result.problems.push_back(error);
}

void LaunchSession::save(LaunchResult& result, std::vector<agent::CollectedProcess> collected,
                         const std::string& fallbackDir, int64_t windowStartNs, int64_t windowEndNs) {
    // Agents that could not reach the socket wrote <host>.<pid>.tscupti files here.
    std::error_code ec;
    std::vector<fs::path> fallbacks;
    for (const auto& entry : fs::directory_iterator(fallbackDir, ec))
        if (entry.path().extension() == TS_AGENT_FALLBACK_SUFFIX) fallbacks.push_back(entry.path());
    for (const fs::path& f : fallbacks) {
        std::string bytes, error;
        if (!readWholeFile(f.string(), bytes, error)) continue;
        agent::DecodeResult d = agent::decodeRecordStream(bytes);
        agent::CollectedProcess p;
        p.records = std::move(d.records);
        p.truncatedBytes = d.truncatedBytes;
        p.progress.pid = p.records.hello.pid;
        p.progress.executable = p.records.executable;
        p.progress.records = p.records.activityCount();
        p.progress.bye = p.records.hasBye;
        if (!d.error.empty()) p.progress.error = d.error + " (at byte " + std::to_string(d.errorOffset) + ")";
        // A process whose socket stream broke off keeps the longer of its two streams.
        bool merged = false;
        for (agent::CollectedProcess& other : collected)
            if (other.records.hasHello && other.records.hello.pid == p.records.hello.pid) {
                if (p.records.activityCount() > other.records.activityCount()) other = std::move(p);
                merged = true;
                break;
            }
        if (!merged) collected.push_back(std::move(p));
        fs::remove(f, ec);
    }

    for (agent::CollectedProcess& c : collected) {
        LaunchedProcess out;
        out.pid = c.records.hello.pid;
        out.executable = c.records.executable;
        out.records = c.records.activityCount();
        for (const agent::StatusEntry& s : c.records.statuses)
            if (s.r.code != agent::kStatusNote) out.problems.push_back(describeStatus(s));
        if (!c.progress.error.empty()) out.problems.push_back("malformed record stream: " + c.progress.error);
        if (!c.records.hasHello) {
            out.problems.push_back("a connection sent no records");
            result.processes.push_back(std::move(out));
            continue;
        }
        if (!c.records.hasBye && !c.records.endedByStop())
            out.problems.push_back("process " + std::to_string(out.pid) +
                                   " ended without the agent's final flush (crashed or killed): its last flush "
                                   "interval is missing");
        agent::ConvertOptions options;
        options.windowStartNs = windowStartNs;
        options.windowEndNs = windowEndNs;
        if (out.records > 0) {
            std::string bytes = agent::recordsToXSpaceBytes(c.records, options, &out.stats);
            const std::string host = c.records.hostname.empty() ? "localhost" : c.records.hostname;
            const std::string path = profileFilePath(result.runDir, host + "." + std::to_string(out.pid));
            std::string error;
            if (saveProfileFile(path, bytes, {}, error)) out.savedPath = path;
            else out.problems.push_back("cannot save " + path + ": " + error);
        } else if (out.problems.empty()) {
            out.problems.push_back("process " + std::to_string(out.pid) + " (" + out.executable +
                                   ") recorded no GPU activity");
        }
        result.processes.push_back(std::move(out));
    }
    if (collected.empty()) {
        result.problems.push_back(
            "the CUPTI agent was never loaded: the CUDA driver loads it (CUDA_INJECTION64_PATH) when the program "
            "initializes CUDA, so either the program made no CUDA call or no NVIDIA driver / GPU is available here");
        // The agent needs CUPTI, which is the user's CUDA installation's, not ours: when this
        // process cannot find it either, that is the likelier cause.
        if (!cuptiOnLibraryPath())
            result.problems.push_back(
                "libcupti.so.13 (CUPTI, part of the CUDA toolkit) is not on the library path, so the agent cannot "
                "load: add its folder (e.g. /usr/local/cuda/extras/CUPTI/lib64) to LD_LIBRARY_PATH");
    }
    else if (!result.captureOk()) {
        for (const LaunchedProcess& p : result.processes)
            for (const std::string& problem : p.problems) result.problems.push_back(problem);
        if (result.problems.empty()) result.problems.push_back("no GPU activity was recorded");
    }
}

}  // namespace tracescope::capture
