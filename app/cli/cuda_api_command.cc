// tracescope-cli cuda-api FILE [--json|--csv]
// The CUDA API, copy, memset, kernel and synchronisation summaries as `nsys stats` reports them
// (model/analysis/cuda_api_summary.h), asked of the trace's result store.
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/results/cuda_api_results.h"

#include <cstdio>
#include <iostream>

namespace tracescope::cli {

namespace {

const char* kUsage =
    "usage: tracescope-cli cuda-api FILE [--json|--csv]\n"
    "  CUDA API, memcpy, memset, kernel and synchronisation summaries, as nsys stats reports them\n"
    "  (cuda_api_sum, cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum, cuda_gpu_kern_sum):\n"
    "  sections api (per runtime/driver call name), memcpy (per copy kind: HtoD, DtoH, DtoD, PtoP,\n"
    "  HtoH, unknown; time and size), memset, kernels (per kernel name) and sync (per sync kind and\n"
    "  call: Context Sync = device, Stream Sync, Event Sync, Stream Wait Event; the time the host\n"
    "  was blocked is the runtime call's duration, joined to Kineto's cuda_sync records by\n"
    "  correlation; without records, sync calls count by name).\n"
    "  Per row: occurrences, total, mean, median (even counts: the mean of the two middle values),\n"
    "  min, max, std (sample standard deviation, n - 1), in integer ns (bytes for sizes); mean,\n"
    "  median and std rounded to the nearest integer, halves up; time_percent of the section's time;\n"
    "  bandwidth_bytes_per_s = total bytes / total time of the copies that record their size.\n"
    "  --json   one object: api, memcpy, memset, kernels, sync (arrays), counts, notes, warnings\n"
    "  --csv    one table, a row per entry, its section in the first column\n";

nlohmann::json statsJson(const ValueStats& s, const char* unit) {
    const std::string u = unit;
    return {{"total_" + u, s.total}, {"mean_" + u, s.mean}, {"median_" + u, s.median},
            {"min_" + u, s.min},     {"max_" + u, s.max},   {"std_" + u, s.std}};
}

nlohmann::json durationJson(const DurationRow& r) {
    nlohmann::json j = {{"name", r.name}, {"occurrences", r.time.count}};
    j.update(statsJson(r.time, "ns"));
    j["time_percent"] = r.timePercent;
    return j;
}

nlohmann::json copyJson(const CopyRow& r) {
    nlohmann::json j = {{"kind", r.kind}, {"occurrences", r.time.count}};
    j.update(statsJson(r.time, "ns"));
    j["time_percent"] = r.timePercent;
    j["with_bytes"] = r.bytes.count;
    j.update(statsJson(r.bytes, "bytes"));
    j["bandwidth_bytes_per_s"] = r.bytesPerS >= 0 ? nlohmann::json(r.bytesPerS) : nlohmann::json(nullptr);
    j["without_bytes"] = r.withoutBytes;
    return j;
}

nlohmann::json syncJson(const SyncRow& r) {
    nlohmann::json j = {{"kind", r.kind},
                        {"api", r.api},
                        {"blocks_host", r.blocksHost},
                        {"occurrences", r.occurrences},
                        {"records", r.records},
                        {"without_call", r.withoutCall},
                        {"with_call", r.hostBlocked.count}};
    nlohmann::json blocked = statsJson(r.hostBlocked, "ns");
    for (auto& [key, value] : blocked.items()) j["host_blocked_" + key] = value;
    return j;
}

template <typename Row, typename F>
nlohmann::json arrayOf(const std::vector<Row>& rows, F toJson) {
    nlohmann::json a = nlohmann::json::array();
    for (const Row& r : rows) a.push_back(toJson(r));
    return a;
}

void printCsv(const CudaApiSummary& s) {
    std::cout << "section,name,api,occurrences,total_ns,mean_ns,median_ns,min_ns,max_ns,std_ns,time_percent,"
                 "total_bytes,mean_bytes,median_bytes,min_bytes,max_bytes,std_bytes,bandwidth_bytes_per_s,"
                 "without_bytes,records,without_call\n";
    auto times = [](const ValueStats& v) {
        return std::to_string(v.total) + ',' + std::to_string(v.mean) + ',' + std::to_string(v.median) + ',' +
               std::to_string(v.min) + ',' + std::to_string(v.max) + ',' + std::to_string(v.std);
    };
    auto percent = [](double p) {
        char b[32];
        std::snprintf(b, sizeof b, "%.6g", p);
        return std::string(b);
    };
    for (const auto* table : {&s.api, &s.kernels})
        for (const DurationRow& r : *table)
            std::cout << (table == &s.api ? "api" : "kernels") << ',' << csvField(r.name) << ",," << r.time.count << ','
                      << times(r.time) << ',' << percent(r.timePercent) << ",,,,,,,,,,\n";
    for (const auto* table : {&s.memcpy, &s.memset})
        for (const CopyRow& r : *table)
            std::cout << (table == &s.memcpy ? "memcpy" : "memset") << ',' << r.kind << ",," << r.time.count << ','
                      << times(r.time) << ',' << percent(r.timePercent) << ','
                      << (r.bytes.count ? times(r.bytes) : std::string(",,,,,")) << ','
                      << (r.bytesPerS >= 0 ? std::to_string(r.bytesPerS) : std::string()) << ',' << r.withoutBytes
                      << ",,\n";
    for (const SyncRow& r : s.sync)
        std::cout << "sync," << csvField(r.kind) << ',' << csvField(r.api) << ',' << r.occurrences << ','
                  << times(r.hostBlocked) << ",,,,,,,,,," << r.records << ',' << r.withoutCall << '\n';
}

void printText(const CudaApiSummary& s) {
    auto table = [](const char* title, const std::vector<DurationRow>& rows) {
        std::printf("%s\n%8s %7s %14s %12s %12s %12s %12s %12s  %s\n", title, "time(%)", "count", "total(ns)",
                    "mean(ns)", "median(ns)", "min(ns)", "max(ns)", "std(ns)", "name");
        for (const DurationRow& r : rows)
            std::printf("%8.1f %7llu %14lld %12lld %12lld %12lld %12lld %12lld  %s\n", r.timePercent,
                        (unsigned long long)r.time.count, (long long)r.time.total, (long long)r.time.mean,
                        (long long)r.time.median, (long long)r.time.min, (long long)r.time.max, (long long)r.time.std,
                        r.name.substr(0, 100).c_str());
        std::printf("\n");
    };
    table("CUDA API", s.api);
    std::printf("Memory operations\n%8s %7s %14s %12s %12s %14s %14s  %s\n", "time(%)", "count", "total(ns)",
                "mean(ns)", "median(ns)", "total(bytes)", "GB/s", "kind");
    for (const auto* rows : {&s.memcpy, &s.memset})
        for (const CopyRow& r : *rows) {
            char bw[32] = "-";
            if (r.bytesPerS >= 0) std::snprintf(bw, sizeof bw, "%.3f", double(r.bytesPerS) / 1e9);
            std::printf("%8.1f %7llu %14lld %12lld %12lld %14lld %14s  %s\n", r.timePercent,
                        (unsigned long long)r.time.count, (long long)r.time.total, (long long)r.time.mean,
                        (long long)r.time.median, (long long)r.bytes.total, bw, r.kind.c_str());
        }
    std::printf("\n");
    table("GPU kernels", s.kernels);
    std::printf("Synchronisation (host blocked)\n%7s %7s %14s %12s %12s  %s\n", "count", "records", "total(ns)",
                "mean(ns)", "max(ns)", "kind [call]");
    for (const SyncRow& r : s.sync)
        std::printf("%7llu %7llu %14lld %12lld %12lld  %s [%s]%s\n", (unsigned long long)r.occurrences,
                    (unsigned long long)r.records, (long long)r.hostBlocked.total, (long long)r.hostBlocked.mean,
                    (long long)r.hostBlocked.max, r.kind.c_str(), r.api.empty() ? "no call" : r.api.c_str(),
                    r.blocksHost ? "" : " (device waits, not the host)");
    for (const std::string& n : s.notes) std::printf("Note: %s\n", n.c_str());
}

}  // namespace

int runCudaApi(const Args& args) {
    if (hasFlag(args, "--help") || hasFlag(args, "-h")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const auto files = positionals(args);
    if (files.size() != 1) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    std::shared_ptr<const Trace> trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    const std::shared_ptr<const CudaApiSummary> summary = cudaApiSummaryOf(*ResultStore::of(trace));
    const CudaApiSummary& s = *summary;
    if (hasFlag(args, "--json")) {
        nlohmann::json j;
        j["api"] = arrayOf(s.api, durationJson);
        j["memcpy"] = arrayOf(s.memcpy, copyJson);
        j["memset"] = arrayOf(s.memset, copyJson);
        j["kernels"] = arrayOf(s.kernels, durationJson);
        j["sync"] = arrayOf(s.sync, syncJson);
        j["counts"] = {{"api_calls", s.apiCalls},       {"kernels", s.kernelCount},
                       {"memcpy", s.memcpyCount},       {"memset", s.memsetCount},
                       {"sync_records", s.syncRecords}, {"launch_calls_named_by_kernel", s.launchCallsNamedByKernel}};
        j["definitions"] = {{"median", "middle value; even counts: the mean of the two middle values"},
                            {"std", "sample standard deviation (n - 1); 0 for one value"},
                            {"rounding", "mean, median and std to the nearest integer, halves up"},
                            {"host_blocked", "the duration of the sync's runtime call"}};
        j["notes"] = s.notes;
        printJson(j);
        return 0;
    }
    if (hasFlag(args, "--csv")) {
        printCsv(s);
        return 0;
    }
    printText(s);
    return 0;
}

}  // namespace tracescope::cli
