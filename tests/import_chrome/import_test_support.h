// Helpers shared by the Chrome import tests: a time-bounded import (a hang
// is a test failure, not a stuck CI job), peak-memory probes and slice lookup.
#pragma once

#include "model/import/import.h"
#include "model/trace/trace.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace tracescope::testsupport {

inline std::string sharedTestData(const std::string& rel) {
    return std::string(TRACESCOPE_SHARED_DIR) + "/testdata/" + rel;
}

inline std::string repoTestData(const std::string& rel) {
    return std::string(TRACESCOPE_SOURCE_DIR) + "/tests/data/" + rel;
}

// Imports `path` on a worker thread. If it has not returned after `seconds`,
// the cancel flag is raised; if it still has not returned 5 s later the whole
// test process exits with status 3 (QtTest cannot abandon a running thread).
inline ImportResult importWithDeadline(const std::string& path, double seconds = 30) {
    struct State {
        std::mutex m;
        std::condition_variable cv;
        bool done = false;
        ImportResult result;
        std::atomic<bool> cancel{false};
    };
    auto st = std::make_shared<State>();
    std::thread worker([st, path] {
        ImportOptions options;
        options.cancel = &st->cancel;
        ImportResult r = importTrace(path, options);
        std::lock_guard<std::mutex> lock(st->m);
        st->result = std::move(r);
        st->done = true;
        st->cv.notify_all();
    });
    bool timedOut = false;
    {
        std::unique_lock<std::mutex> lock(st->m);
        const auto limit = std::chrono::duration<double>(seconds);
        if (!st->cv.wait_for(lock, limit, [&] { return st->done; })) {
            timedOut = true;
            st->cancel = true;
            if (!st->cv.wait_for(lock, std::chrono::seconds(5), [&] { return st->done; })) {
                std::fprintf(stderr, "FATAL: import of %s still running after %.0f s (hang)\n", path.c_str(),
                             seconds + 5);
                std::fflush(stderr);
                std::_Exit(3);
            }
        }
    }
    worker.join();
    if (timedOut) {
        ImportResult r = ImportResult::failure("test deadline of " + std::to_string(int(seconds)) +
                                               " s exceeded (import was cancelled)");
        return r;
    }
    return std::move(st->result);
}

// Peak resident set size (VmHWM) of this process, in bytes; -1 if unknown.
inline long long peakRssBytes() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::atoll(line.c_str() + 6) * 1024;
    return -1;
}

inline long long currentRssBytes() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::atoll(line.c_str() + 6) * 1024;
    return -1;
}

// Memory bounds mean nothing under AddressSanitizer (shadow memory, quarantined frees).
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitizedBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitizedBuild = true;
#else
inline constexpr bool kSanitizedBuild = false;
#endif
#else
inline constexpr bool kSanitizedBuild = false;
#endif

// Resets VmHWM to the current RSS (Linux >= 4.0); false when not possible (or meaningless:
// in a sanitizer build).
inline bool resetPeakRss() {
    if (kSanitizedBuild) return false;
    std::ofstream out("/proc/self/clear_refs");
    if (!out) return false;
    out << "5";
    out.flush();
    return bool(out);
}

inline bool containsNoCase(const std::string& haystack, const std::string& needle) {
    auto it = std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(),
                          [](char a, char b) { return std::tolower((unsigned char)a) == std::tolower((unsigned char)b); });
    return it != haystack.end();
}

inline bool anyWarningContains(const Trace& trace, const std::string& needle) {
    for (const auto& w : trace.warnings)
        if (containsNoCase(warningText(w), needle)) return true;
    return false;
}

inline std::string joinWarnings(const Trace& trace) {
    std::string out;
    for (const auto& w : trace.warnings) out += (out.empty() ? "" : " | ") + warningText(w);
    return out;
}

// All slices on thread tracks (overflow lanes included) with the given name.
inline std::vector<SliceRef> findSlices(const Trace& trace, std::string_view name, TrackKind kind = TrackKind::Thread) {
    std::vector<SliceRef> out;
    const StringId id = trace.strings.find(name);
    if (id == kNoIndex) return out;
    for (TrackIndex t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        if (track.kind != kind) continue;
        for (uint32_t i = 0; i < track.slices.size(); ++i)
            if (track.slices.name[i] == id) out.push_back({t, i});
    }
    return out;
}

// Number of slices on a thread track plus its overflow lanes.
inline size_t slicesWithOverflow(const Trace& trace, TrackIndex t) {
    size_t n = trace.tracks[t].slices.size();
    for (const Track& o : trace.tracks)
        if (o.overflowOf == t) n += o.slices.size();
    return n;
}

}  // namespace tracescope::testsupport
