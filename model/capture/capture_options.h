// What one capture asks of the profiler servers, and how long the client waits.
#pragma once

#include "model/capture/server_address.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tracescope::capture {

struct CaptureOptions {
    std::vector<ServerAddress> servers;
    uint64_t durationMs = 1000;
    int retries = 3;  // attempts = retries + 1 (TensorBoard's dialog default)
    uint32_t hostTracerLevel = 2;
    uint32_t deviceTracerLevel = 1;
    uint32_t pythonTracerLevel = 0;
    uint64_t delayMs = 0;
    bool includeDatasetOps = true;
    std::string logdir;  // the run goes to <logdir>/plugins/profile/<session id>/

    // Client-side waits. The defaults are what users need; tests shorten them.
    // How long to wait for a connection before saying nothing is listening.
    uint64_t connectTimeoutMs = 3000;
    // Each attempt's deadline is delay + max(minDeadlineMs, 2 x duration): the server
    // serializes the data after tracing, which takes seconds on large captures.
    uint64_t minDeadlineMs = 60000;
    // Pause between attempts (a server that is starting or busy gets a moment).
    uint64_t retryPauseMs = 500;
};

}  // namespace tracescope::capture
