// CUDA API, copy, memset, kernel and synchronisation summaries, as Nsight Systems' `nsys stats`
// reports them (cuda_api_sum, cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum, cuda_gpu_kern_sum):
// per API name, copy kind or kernel name the count, total, mean, median, min, max and standard
// deviation of the durations (and of the bytes, for copies and memsets).
//
// Definitions (nsys stats' own, where it has one):
//  * median: the middle value; for an even count the mean of the two middle values;
//  * std: the sample standard deviation (divided by n - 1; 0 for a single value), as the SQLite
//    `stdev` nsys uses;
//  * mean, median and std are rounded to the nearest integer ns (or byte), halves away from
//    zero, computed exactly (no floating point): the CLI's JSON keeps integer ns;
//  * bytes per second of a copy kind: its total bytes over its total time.
// Copies are grouped by direction (HtoD, DtoH, DtoD, PtoP, HtoH, unknown), as nsys groups them;
// memsets form one row. Synchronisation: Kineto's `cuda_sync` records (Event Sync, Stream Sync,
// Context Sync = device sync, Stream Wait Event) joined to their runtime call by correlation;
// the time the host was blocked is the runtime call's duration. A trace without sync records
// still has the sync calls themselves (cudaStreamSynchronize...): they count by their name.
#pragma once

#include "model/analysis/op_classify.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tracescope {

// Summary statistics of a set of non-negative integer values (ns or bytes).
struct ValueStats {
    uint64_t count = 0;
    int64_t total = 0;
    int64_t mean = 0;    // rounded, see above
    int64_t median = 0;  // rounded
    int64_t min = 0;
    int64_t max = 0;
    int64_t std = 0;  // sample standard deviation, rounded
};
// The statistics of `values` (sorted in place). All zero when empty.
ValueStats valueStatsOf(std::vector<int64_t>& values);
// The value at fraction num/den of `sorted` by linear interpolation between the closest ranks
// (numpy's default percentile method), rounded to the nearest integer, halves up; 0 when empty.
int64_t linearQuantile(const std::vector<int64_t>& sorted, int num, int den);

// One row of the API or kernel table: the durations of the calls (kernels) of one name.
struct DurationRow {
    std::string name;
    ValueStats time;
    double timePercent = 0;  // of the table's total time
};

// One copy kind (or the memsets): durations and sizes.
struct CopyRow {
    std::string kind;  // "HtoD", "DtoH", "DtoD", "PtoP", "HtoH", "unknown"; "memset"
    ValueStats time;
    ValueStats bytes;  // over the events that record their size
    double timePercent = 0;
    int64_t bytesPerS = -1;     // total bytes / total time of the events with a size; -1 when unknown
    uint64_t withoutBytes = 0;  // events that record no size (left out of bytes and bytes per second)
};

// One synchronisation kind and API.
struct SyncRow {
    std::string kind;          // "Context Sync", "Stream Sync", "Event Sync", "Stream Wait Event", "Unknown Sync"
    std::string api;           // the runtime call (cudaStreamSynchronize...); "" when the record has none
    bool blocksHost = true;    // false for Stream Wait Event (the device waits, not the host)
    uint64_t occurrences = 0;  // sync records (or, without records, sync calls)
    uint64_t records = 0;      // of which cuda_sync records
    uint64_t withoutCall = 0;  // records whose runtime call is not in the trace
    ValueStats hostBlocked;    // the runtime calls' durations
};

struct CudaApiSummary {
    std::vector<DurationRow> api;      // by total time, then name
    std::vector<CopyRow> memcpy;       // by total time, then kind
    std::vector<CopyRow> memset;       // one row when the trace has memsets
    std::vector<DurationRow> kernels;  // by total time, then name
    std::vector<SyncRow> sync;         // by host-blocked time, then kind, then api
    uint64_t apiCalls = 0, kernelCount = 0, memcpyCount = 0, memsetCount = 0, syncRecords = 0;
    // What the trace lacks, counted: runtime calls XSpace names after their kernel, copies and
    // memsets without a size, sync records without their runtime call.
    uint64_t launchCallsNamedByKernel = 0;
    std::vector<std::string> notes;
};

CudaApiSummary computeCudaApiSummary(const ClassifiedTrace& ct);

// The sync kind a runtime call by this name makes ("" when it does not synchronise):
// cudaDeviceSynchronize / cuCtxSynchronize / hipDeviceSynchronize -> "Context Sync", ...
std::string_view syncKindOfCall(std::string_view apiName);

}  // namespace tracescope
