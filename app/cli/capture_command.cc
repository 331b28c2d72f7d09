// tracescope-cli capture ADDR[,ADDR...] --duration-ms N --logdir DIR [--retries N]
//     [--host-level N] [--device-level N] [--python-level N] [--delay-ms N]
// Captures from TensorFlow / JAX profiler servers. Prints each file written (one per line)
// on stdout; notes, retries and per-server failures on stderr. Exits 0 only if every
// server's capture was saved. Ctrl+C once stops the capture early (the data so far is
// saved), twice cancels it (nothing is saved).
#include "app/cli/commands.h"

#include "model/capture/capture_session.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <thread>

namespace tracescope::cli {
namespace {

using namespace tracescope::capture;

std::atomic<int> interrupts{0};
void onInterrupt(int) { interrupts.fetch_add(1); }

const char* kUsage =
    "usage: tracescope-cli capture ADDR[,ADDR...] --duration-ms N --logdir DIR [--retries N]\n"
    "           [--host-level N] [--device-level N] [--python-level N] [--delay-ms N]\n";

// A non-negative integer flag; false (with a message) when present but not a number.
bool unsignedFlag(const Args& args, const std::string& flag, uint64_t& out) {
    const std::string text = flagValue(args, flag);
    if (text.empty()) {
        if (hasFlag(args, flag)) {
            std::fprintf(stderr, "tracescope-cli: %s needs a value\n", flag.c_str());
            return false;
        }
        return true;
    }
    uint64_t value = 0;
    for (char c : text) {
        if (c < '0' || c > '9' || value > (UINT64_MAX - 9) / 10) {
            std::fprintf(stderr, "tracescope-cli: %s expects a non-negative integer, got '%s'\n", flag.c_str(),
                         text.c_str());
            return false;
        }
        value = value * 10 + uint64_t(c - '0');
    }
    out = value;
    return true;
}

}  // namespace

int runCapture(const Args& args) {
    const std::vector<std::string> flagsWithValue = {"--duration-ms",  "--logdir",       "--retries", "--host-level",
                                                     "--device-level", "--python-level", "--delay-ms"};
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.size() > 1 && a[0] == '-') {
            if (std::find(flagsWithValue.begin(), flagsWithValue.end(), a) == flagsWithValue.end()) {
                std::fprintf(stderr, "tracescope-cli: unknown option '%s'\n%s", a.c_str(), kUsage);
                return 2;
            }
            ++i;
        }
    }
    const std::vector<std::string> addresses = positionals(args, flagsWithValue);
    if (addresses.empty() || !hasFlag(args, "--duration-ms") || !hasFlag(args, "--logdir")) {
        std::fprintf(stderr, "%s", kUsage);
        return 2;
    }

    CaptureOptions options;
    std::string list, error;
    for (const std::string& a : addresses) list += (list.empty() ? "" : ",") + a;
    if (!parseServerAddresses(list, options.servers, error)) {
        std::fprintf(stderr, "tracescope-cli: %s\n", error.c_str());
        return 2;
    }
    if (options.servers.empty()) {
        std::fprintf(stderr, "tracescope-cli: no server address given\n%s", kUsage);
        return 2;
    }
    uint64_t duration = 0, retries = uint64_t(options.retries), host = options.hostTracerLevel,
             device = options.deviceTracerLevel, python = options.pythonTracerLevel, delay = options.delayMs;
    if (!unsignedFlag(args, "--duration-ms", duration) || !unsignedFlag(args, "--retries", retries) ||
        !unsignedFlag(args, "--host-level", host) || !unsignedFlag(args, "--device-level", device) ||
        !unsignedFlag(args, "--python-level", python) || !unsignedFlag(args, "--delay-ms", delay))
        return 2;
    if (duration == 0) {
        std::fprintf(stderr, "tracescope-cli: --duration-ms must be at least 1\n");
        return 2;
    }
    if (retries > 100 || host > 3 || device > 3 || python > 1) {
        std::fprintf(stderr, "tracescope-cli: out of range (--retries 0-100, --host-level 0-3, --device-level 0-3, "
                             "--python-level 0-1)\n");
        return 2;
    }
    options.durationMs = duration;
    options.retries = int(retries);
    options.hostTracerLevel = uint32_t(host);
    options.deviceTracerLevel = uint32_t(device);
    options.pythonTracerLevel = uint32_t(python);
    options.delayMs = delay;
    options.logdir = flagValue(args, "--logdir");
    if (options.logdir.empty()) {
        std::fprintf(stderr, "tracescope-cli: --logdir needs a folder\n");
        return 2;
    }

    // Retries are worth seeing while they happen; the rest is summarized at the end.
    CaptureSession session(options, [](size_t, const WorkerStatus& s) {
        if (s.state == WorkerState::Connecting && !s.message.empty())
            std::fprintf(stderr, "%s: %s\n", s.server.target().c_str(), s.message.c_str());
    });

    interrupts = 0;
    auto previous = std::signal(SIGINT, onInterrupt);
    std::atomic<bool> done{false};
    std::thread watcher([&] {
        int handled = 0;
        while (!done) {
            const int seen = interrupts.load();
            if (seen > handled) {
                handled = seen;
                if (seen == 1) {
                    std::fprintf(stderr, "stopping: the servers end tracing and send what they have (Ctrl+C again to cancel)\n");
                    session.stop();
                } else {
                    session.cancel();
                }
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    });
    const CaptureResult result = session.run();
    done = true;
    watcher.join();
    std::signal(SIGINT, previous);

    std::string failed;
    size_t failures = 0;
    for (const WorkerStatus& w : result.workers) {
        const std::string address = w.server.target();
        if (w.state == WorkerState::Saved) {
            std::printf("%s\n", w.savedPath.c_str());
            if (!w.message.empty()) std::fprintf(stderr, "note: %s: %s\n", address.c_str(), w.message.c_str());
        } else {
            const bool plain = w.message.empty() || w.message == workerStateName(w.state);
            std::fprintf(stderr, "%s: %s%s%s\n", address.c_str(), workerStateName(w.state), plain ? "" : ": ",
                         plain ? "" : w.message.c_str());
            failed += (failed.empty() ? "" : ", ") + address;
            ++failures;
        }
    }
    std::fflush(stdout);
    if (failures == 0) return 0;
    std::fprintf(stderr, "tracescope-cli: capture failed on %zu of %zu server(s): %s\n", failures,
                 result.workers.size(), failed.c_str());
    return 1;
}

}  // namespace tracescope::cli
