#include "model/analysis/cuda_api_summary.h"

#include "model/analysis/analysis_progress.h"

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_set>
#include <utility>

namespace tracescope {

namespace {

using Wide = __int128;

int64_t saturate(Wide x) {
    if (x > Wide(INT64_MAX)) return INT64_MAX;
    if (x < Wide(INT64_MIN)) return INT64_MIN;
    return static_cast<int64_t>(x);
}

// num / den rounded to the nearest integer, halves away from zero (den > 0), saturated.
int64_t roundDiv(Wide num, Wide den) {
    const bool negative = num < 0;
    const Wide a = negative ? -num : num;
    const Wide q = (2 * a + den) / (2 * den);
    return saturate(negative ? -q : q);
}

// round(sqrt(num / den)) for num >= 0, den > 0, exactly: the r with
// (2r - 1)^2 den <= 4 num < (2r + 1)^2 den.
int64_t roundSqrtRatio(Wide num, Wide den) {
    if (num <= 0) return 0;
    int64_t r =
        static_cast<int64_t>(std::llround(std::sqrt(static_cast<long double>(num) / static_cast<long double>(den))));
    auto below = [&](int64_t x) { return Wide(2 * Wide(x) - 1) * (2 * Wide(x) - 1) * den <= 4 * num; };
    while (r > 0 && !below(r)) --r;
    while (below(r + 1)) ++r;
    return r;
}

// One arg by key id; false when absent.
bool argOf(const Track& track, ArgsOffset off, StringId key, ArgValue& out) {
    if (off == kNoArgs || key == kNoIndex) return false;
    ArgsReader r(track.argsView(), off);
    Arg a;
    while (r.next(a))
        if (a.key == key) {
            out = a.value;
            return true;
        }
    return false;
}

uint64_t absOf(int64_t x) { return x < 0 ? uint64_t(0) - uint64_t(x) : uint64_t(x); }

uint64_t refKey(SliceRef s) { return (uint64_t(s.track) << 32) | s.index; }

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// "kind_src:pinned kind_dst:device size:4 dest:0 async:1" -> the integer after `key` ("size:").
bool detailInt(std::string_view details, std::string_view key, int64_t& out) {
    size_t at = details.find(key);
    while (at != std::string_view::npos && at > 0 && details[at - 1] != ' ') at = details.find(key, at + 1);
    if (at == std::string_view::npos) return false;
    size_t i = at + key.size();
    if (i >= details.size() || details[i] < '0' || details[i] > '9') return false;
    int64_t v = 0;
    for (; i < details.size() && details[i] >= '0' && details[i] <= '9'; ++i) {
        if (v > (INT64_MAX - 9) / 10) return false;
        v = v * 10 + (details[i] - '0');
    }
    out = v;
    return true;
}

// Durations and sizes of one group while scanning.
struct CopyAccumulator {
    std::vector<int64_t> durations, bytes;
    Wide timeWithBytes = 0;
    uint64_t withoutBytes = 0;
};

struct SyncAccumulator {
    bool blocksHost = true;
    uint64_t occurrences = 0, records = 0, withoutCall = 0;
    std::vector<int64_t> blocked;
};

template <typename Row>
void fillPercents(std::vector<Row>& rows) {
    double total = 0;  // sums of saturated totals: no overflow
    for (const Row& r : rows) total += double(r.time.total);
    for (Row& r : rows) r.timePercent = total > 0 ? 100.0 * double(r.time.total) / total : 0.0;
}

template <typename Row>
void sortByTotal(std::vector<Row>& rows, auto key) {
    std::sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
        if (a.time.total != b.time.total) return a.time.total > b.time.total;
        return key(a) < key(b);
    });
}

CopyRow copyRowOf(std::string kind, CopyAccumulator& acc) {
    CopyRow row;
    row.kind = std::move(kind);
    row.time = valueStatsOf(acc.durations);
    row.bytes = valueStatsOf(acc.bytes);
    row.withoutBytes = acc.withoutBytes;
    if (!acc.bytes.empty() && acc.timeWithBytes > 0)
        row.bytesPerS = roundDiv(Wide(row.bytes.total) * 1000000000, acc.timeWithBytes);
    return row;
}

std::vector<DurationRow> durationRows(std::map<std::string, std::vector<int64_t>, std::less<>>& groups) {
    std::vector<DurationRow> rows;
    rows.reserve(groups.size());
    for (auto& [name, values] : groups) rows.push_back({name, valueStatsOf(values), 0.0});
    fillPercents(rows);
    sortByTotal(rows, [](const DurationRow& r) -> const std::string& { return r.name; });
    return rows;
}

// XLA's CUPTI tracer names the API event of a kernel launch after the kernel (the call's own
// name, cuLaunchKernel or cuLaunchKernelEx, is not kept); other calls keep the API's name
// ("cuGraphLaunch (CudaGraph:18)" is the API cuGraphLaunch), copies and memsets are "MemcpyH2D",
// "Memset"; our CUPTI agent's captures keep every API's name (cudaLaunchKernel, "cbid 123").
// An API name is cu, cuda or hip and an upper-case letter (cutlass_* and cublas* kernels are
// not); "" for a launch named after its kernel.
std::string_view xspaceApiName(std::string_view name) {
    auto upperAfter = [&](std::string_view prefix) {
        return name.size() > prefix.size() && startsWith(name, prefix) && name[prefix.size()] >= 'A' &&
               name[prefix.size()] <= 'Z';
    };
    if (upperAfter("cu") || upperAfter("cuda") || upperAfter("hip")) {
        if (const size_t paren = name.find(" ("); paren != std::string_view::npos) return name.substr(0, paren);
        return name;
    }
    for (std::string_view kept : {"Memcpy", "Memset", "MEMCPY", "cbid "})
        if (startsWith(name, kept)) return name;
    return {};
}

}  // namespace

int64_t linearQuantile(const std::vector<int64_t>& sorted, int num, int den) {
    if (sorted.empty()) return 0;
    const __int128 pos = __int128(sorted.size() - 1) * num;  // position * den
    const size_t lo = size_t(pos / den);
    const __int128 frac = pos % den;
    if (frac == 0 || lo + 1 >= sorted.size()) return sorted[lo];
    // lo + (hi - lo) * frac / den, rounded.
    const __int128 diff = __int128(sorted[lo + 1]) - sorted[lo];
    const __int128 scaled = diff * frac;
    const __int128 q = scaled >= 0 ? (2 * scaled + den) / (2 * den) : -((-2 * scaled + den) / (2 * den));
    return int64_t(sorted[lo] + q);
}

ValueStats valueStatsOf(std::vector<int64_t>& v) {
    ValueStats s;
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    s.count = n;
    s.min = v.front();
    s.max = v.back();
    s.median = n % 2 ? v[n / 2] : roundDiv(Wide(v[n / 2 - 1]) + v[n / 2], 2);
    // The exact sums (n * sum(x^2), (2r + 1)^2 n (n - 1)) stay within 124 bits when
    // 2 (bits(n) + bits(max |x|)) + 2 does: e.g. under 2^24 calls of one name, each under
    // 2^37 ns = 137 s. Beyond that the std is computed in long double (its last digits may differ).
    const uint64_t largest = std::max(absOf(s.min), absOf(s.max));
    const bool exact = 2 * (std::bit_width(uint64_t(n)) + std::bit_width(largest)) + 2 <= 124;
    Wide sum = 0;
    for (int64_t x : v) sum += x;  // |sum| < 2^64 * 2^63: fits
    s.total = saturate(sum);
    s.mean = roundDiv(sum, Wide(n));
    if (n < 2) return s;
    if (exact) {
        Wide sumSquares = 0;
        for (int64_t x : v) sumSquares += Wide(x) * x;
        // Sample variance = (n * sum(x^2) - sum(x)^2) / (n (n - 1)).
        s.std = roundSqrtRatio(Wide(n) * sumSquares - sum * sum, Wide(n) * Wide(n - 1));
    } else {
        // Offsets from the minimum (below 2^64: exact in a long double's 64-bit mantissa).
        const long double mean = static_cast<long double>(sum - Wide(n) * s.min) / static_cast<long double>(n);
        long double squares = 0;
        for (int64_t x : v) {
            const long double d = static_cast<long double>(uint64_t(x) - uint64_t(s.min)) - mean;
            squares += d * d;
        }
        s.std = static_cast<int64_t>(std::min<long double>(std::sqrt(squares / (n - 1)) + 0.5L, 9.2e18L));
    }
    return s;
}

std::string_view syncKindOfCall(std::string_view api) {
    struct Entry {
        std::string_view suffix, kind;
    };
    // cuda*, cu* (driver) and hip* spell the same calls.
    static constexpr std::array<Entry, 8> kCalls = {{{"DeviceSynchronize", "Context Sync"},
                                                     {"CtxSynchronize", "Context Sync"},
                                                     {"StreamSynchronize", "Stream Sync"},
                                                     {"EventSynchronize", "Event Sync"},
                                                     {"StreamWaitEvent", "Stream Wait Event"},
                                                     {"StreamWaitEvent_ptsz", "Stream Wait Event"},
                                                     {"StreamSynchronize_ptsz", "Stream Sync"},
                                                     {"CtxSynchronize_v2", "Context Sync"}}};
    std::string_view rest;
    if (startsWith(api, "cuda")) rest = api.substr(4);
    else if (startsWith(api, "hip")) rest = api.substr(3);
    else if (startsWith(api, "cu")) rest = api.substr(2);
    else return {};
    for (const Entry& e : kCalls)
        if (rest == e.suffix) return e.kind;
    return {};
}

CudaApiSummary computeCudaApiSummary(const ClassifiedTrace& ct) {
    const Trace& t = *ct.trace;
    CudaApiSummary out;
    const StringId syncCategory = t.strings.find("cuda_sync");
    const StringId bytesKey = t.strings.find("bytes");
    const StringId memcpyDetailsKey = t.strings.find("memcpy_details");
    // XSpace names the stat "Memset_details"; the lowercase spelling is taken too, as the importer does.
    const std::array<StringId, 2> memsetDetailsKeys = {t.strings.find("Memset_details"),
                                                       t.strings.find("memset_details")};
    const StringId syncKindKey = t.strings.find("cuda_sync_kind");

    std::map<std::string, std::vector<int64_t>, std::less<>> kernels, api;
    std::map<std::string, CopyAccumulator, std::less<>> copies;
    CopyAccumulator memsets;
    std::map<std::pair<std::string, std::string>, SyncAccumulator> syncs;
    std::unordered_set<uint64_t> syncCallsWithRecord;  // runtime calls a cuda_sync record names

    auto bytesOf = [&](SliceRef s, SliceRole role, int64_t& out) {
        const Track& tr = t.tracks[s.track];
        ArgValue v;
        if (argOf(tr, tr.slices.args[s.index], bytesKey, v) && v.toInt64(out)) return true;
        if (role == SliceRole::Memcpy) return detailInt(sliceArgView(t, s, memcpyDetailsKey), "size:", out);
        for (StringId key : memsetDetailsKeys)
            if (detailInt(sliceArgView(t, s, key), "num_bytes:", out)) return true;
        return false;
    };

    // Pass 1: device activity and sync records.
    for (size_t ti = 0; ti < t.tracks.size(); ++ti) {
        const Track& tr = t.tracks[ti];
        if (ct.trackSkipped[ti] || tr.kind == TrackKind::Counter) continue;
        const SliceColumns& c = tr.slices;
        for (uint32_t i = 0; i < c.size(); ++i) {
            analysisTick();
            const SliceRef s{static_cast<TrackIndex>(ti), i};
            const SliceRole role = ct.roles[ti][i];
            const int64_t dur = c.duration[i];
            if (role == SliceRole::Kernel) {
                const std::string_view name = fullNameView(ct, s);
                auto it = kernels.find(name);
                if (it == kernels.end()) it = kernels.emplace(std::string(name), std::vector<int64_t>{}).first;
                it->second.push_back(dur);
                ++out.kernelCount;
            } else if (role == SliceRole::Memcpy || role == SliceRole::Memset) {
                CopyAccumulator& acc = role == SliceRole::Memset ? memsets : copies[copyKindName(copyKindOf(t, s))];
                acc.durations.push_back(dur);
                int64_t bytes = 0;
                if (bytesOf(s, role, bytes) && bytes >= 0) {
                    acc.bytes.push_back(bytes);
                    acc.timeWithBytes += dur;
                } else {
                    ++acc.withoutBytes;
                }
                ++(role == SliceRole::Memset ? out.memsetCount : out.memcpyCount);
            } else if (syncCategory != kNoIndex && c.category[i] == syncCategory) {
                std::string_view kind = sliceArgView(t, s, syncKindKey);
                if (kind.empty()) kind = t.str(c.name[i]);
                const SliceRef call = launchOf(ct, s);
                std::string callName;
                if (call.valid()) {
                    callName = std::string(t.str(t.tracks[call.track].slices.name[call.index]));
                    syncCallsWithRecord.insert(refKey(call));
                }
                SyncAccumulator& acc = syncs[{std::string(kind), callName}];
                acc.blocksHost = kind != "Stream Wait Event";
                ++acc.occurrences;
                ++acc.records;
                ++out.syncRecords;
                if (call.valid()) acc.blocked.push_back(t.tracks[call.track].slices.duration[call.index]);
                else ++acc.withoutCall;
            }
        }
    }

    // Pass 2: runtime and driver calls; sync calls without a record count by their name.
    for (size_t ti = 0; ti < t.tracks.size(); ++ti) {
        const Track& tr = t.tracks[ti];
        if (ct.trackSkipped[ti] || tr.kind == TrackKind::Counter) continue;
        const SliceColumns& c = tr.slices;
        for (uint32_t i = 0; i < c.size(); ++i) {
            analysisTick();
            if (ct.roles[ti][i] != SliceRole::Runtime) continue;
            const SliceRef s{static_cast<TrackIndex>(ti), i};
            std::string_view name = t.str(c.name[i]);
            if (ct.isXSpace) {
                name = xspaceApiName(name);
                if (name.empty()) {
                    name = "kernel launch";
                    ++out.launchCallsNamedByKernel;
                }
            }
            auto it = api.find(name);
            if (it == api.end()) it = api.emplace(std::string(name), std::vector<int64_t>{}).first;
            it->second.push_back(c.duration[i]);
            ++out.apiCalls;
            const std::string_view kind = syncKindOfCall(name);
            if (kind.empty() || syncCallsWithRecord.count(refKey(s))) continue;
            SyncAccumulator& acc = syncs[{std::string(kind), std::string(name)}];
            acc.blocksHost = kind != "Stream Wait Event";
            ++acc.occurrences;
            acc.blocked.push_back(c.duration[i]);
        }
    }

    out.api = durationRows(api);
    out.kernels = durationRows(kernels);
    for (auto& [kind, acc] : copies) out.memcpy.push_back(copyRowOf(kind, acc));
    fillPercents(out.memcpy);
    sortByTotal(out.memcpy, [](const CopyRow& r) -> const std::string& { return r.kind; });
    if (!memsets.durations.empty()) {
        out.memset.push_back(copyRowOf("memset", memsets));
        out.memset.back().timePercent = 100.0;
    }
    uint64_t withoutCall = 0, bytesMissing = 0;
    for (auto& [key, acc] : syncs) {
        SyncRow row;
        row.kind = key.first;
        row.api = key.second;
        row.blocksHost = acc.blocksHost;
        row.occurrences = acc.occurrences;
        row.records = acc.records;
        row.withoutCall = acc.withoutCall;
        row.hostBlocked = valueStatsOf(acc.blocked);
        withoutCall += acc.withoutCall;
        out.sync.push_back(std::move(row));
    }
    std::sort(out.sync.begin(), out.sync.end(), [](const SyncRow& a, const SyncRow& b) {
        if (a.hostBlocked.total != b.hostBlocked.total) return a.hostBlocked.total > b.hostBlocked.total;
        return std::tie(a.kind, a.api) < std::tie(b.kind, b.api);
    });
    for (const CopyRow& r : out.memcpy) bytesMissing += r.withoutBytes;
    for (const CopyRow& r : out.memset) bytesMissing += r.withoutBytes;

    if (out.apiCalls == 0)
        out.notes.push_back("no CUDA runtime or driver calls in this trace: the api and sync tables are empty");
    if (out.kernelCount + out.memcpyCount + out.memsetCount == 0)
        out.notes.push_back("no kernels, copies or memsets in this trace: the device tables are empty");
    if (out.launchCallsNamedByKernel)
        out.notes.push_back(std::to_string(out.launchCallsNamedByKernel) +
                            " launch calls are named after their kernel in this XSpace (the API's name is not "
                            "recorded): counted as \"kernel launch\"");
    if (bytesMissing)
        out.notes.push_back(std::to_string(bytesMissing) +
                            " copies or memsets record no size: left out of bytes and bytes per second");
    if (withoutCall)
        out.notes.push_back(std::to_string(withoutCall) +
                            " sync records have no runtime call in the trace: their host-blocked time is unknown "
                            "(left out of host_blocked)");
    if (out.syncRecords == 0 && !out.sync.empty())
        out.notes.push_back(ct.isXSpace ? "no cuda_sync records in this trace: sync calls are counted by name"
                                        : "no cuda_sync records in this trace (PyTorch records them with "
                                          "experimental_config enable_cuda_sync_events=True): sync calls are "
                                          "counted by name");
    if (out.sync.empty() && out.apiCalls > 0)
        out.notes.push_back("no synchronisation calls or records in this trace: the sync table is empty");
    return out;
}

}  // namespace tracescope
