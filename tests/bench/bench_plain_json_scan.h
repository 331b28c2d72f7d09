// The reference for bench_chrome_import: a plain simdjson On-Demand scan.
#pragma once

#include <cstdint>
#include <string>

struct PlainScanResult {
    bool ok = false;
    std::string error;
    uint64_t events = 0;
    double checksum = 0;  // keeps the compiler from skipping the work
    double seconds = 0;      // reading (and inflating) the file plus the scan
    double loadSeconds = 0;  // of which reading (and inflating) the file
};

// Loads the whole file (inflating gzip), then visits every event of the trace
// and reads its ph, ts, dur and name.
PlainScanResult plainJsonScan(const std::string& path);
