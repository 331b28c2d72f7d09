// Export of any Trace as Chrome Trace Event Format JSON (object form), the
// format Perfetto UI, chrome://tracing and our own importer read.
//
// Mapping: processes -> pid + process_name/labels/sort_index metadata; thread
// tracks -> tid + thread_name/sort_index (an overflow lane writes on its
// track's tid, so a reader spills the same slices again); slices -> X (B for
// an unfinished slice); thread instants -> i (s:"t"), process markers -> i
// (s:"p"); counters -> C; async spans -> b/e with unique ids; flows -> s/f
// with bp:"e" at a time inside each end slice; trace metadata -> top-level
// keys. Times are written relative to the trace origin as exact decimal µs;
// the origin's Unix time goes to "baseTimeNanoseconds".
#pragma once

#include "model/trace/trace.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tracescope {

// Marks written over the trace: extra args on chosen slices and extra flows (the critical path's
// overlay, written as HTA writes its own: args "critical": 1 and flows along the path).
struct ChromeJsonOverlay {
    // Extra members of a thread slice's args as JSON text ("\"critical\":1"); "" for none.
    std::function<std::string(SliceRef)> sliceArgs;
    struct Flow {
        SliceRef from, to;
        bool fromEnd = false, toEnd = false;  // bind at the slice's end instead of its start
        std::string name, category;
        std::string args;  // JSON object text, or ""
    };
    std::vector<Flow> flows;
};

struct ChromeJsonWriteOptions {
    const std::atomic<bool>* cancel = nullptr;
    const ChromeJsonOverlay* overlay = nullptr;
    // (events written, events total); may be empty.
    std::function<void(uint64_t done, uint64_t total)> progress;
    // Compress with gzip; by default when the path ends with ".gz".
    enum class Gzip { ByName, Yes, No } gzip = Gzip::ByName;
};

struct ChromeJsonWriteResult {
    bool ok = false;
    bool cancelled = false;
    std::string error;
    uint64_t events = 0;  // trace events written (metadata events included)
    // Events of the trace that Chrome JSON cannot hold and were left out.
    uint64_t droppedFlows = 0;           // flows with an end on a non-thread track
    uint64_t droppedCounterSamples = 0;  // NaN / infinite values
    uint64_t droppedSlices = 0;          // slices on marker tracks
    // What could not be represented (e.g. NaN counter values, flows on async spans).
    std::vector<std::string> warnings;
};

ChromeJsonWriteResult writeChromeJson(const Trace& trace, const std::string& path,
                                      const ChromeJsonWriteOptions& options = {});

// The same JSON as a string (for tests and small traces).
std::string chromeJsonString(const Trace& trace, ChromeJsonWriteResult* result = nullptr);

}  // namespace tracescope
