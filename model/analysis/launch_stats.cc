#include "model/analysis/launch_stats.h"

#include "model/analysis/analysis_progress.h"

#include <algorithm>
#include <array>
#include <bit>

namespace tracescope {

namespace {

// HTA 0.5.0's launch statistics (CudaKernelAnalysis.cuda_kernel_launch_stats).
constexpr std::array<std::string_view, 5> kHtaLaunchStatsCalls = {"cudaLaunchKernel", "cudaLaunchKernelExC",
                                                                  "cudaMemcpyAsync", "cudaMemsetAsync",
                                                                  "runFunction - job_prep_and_submit_for_execution"};
// The rest of HTA 0.5.0's runtime launch events (TraceSymbolTable.get_runtime_launch_events_query,
// which its queue length uses), and cuLaunchKernelEx.
constexpr std::array<std::string_view, 7> kOtherLaunchCalls = {
    "cuLaunchKernel", "cuLaunchKernelEx", "hipLaunchKernel",    "hipExtModuleLaunchKernel",
    "hipMemcpyAsync", "hipMemsetAsync",   "hipMemcpyWithStream"};

bool isDeviceActivity(SliceRole r) {
    return r == SliceRole::Kernel || r == SliceRole::Memcpy || r == SliceRole::Memset;
}

LaunchDistribution distributionOf(std::vector<int64_t>& values) {
    LaunchDistribution d;
    d.stats = valueStatsOf(values);  // sorts
    d.p95 = linearQuantile(values, 95, 100);
    for (int64_t v : values) {
        const size_t bin = v <= 0 ? 0 : size_t(std::bit_width(uint64_t(v)));
        if (d.log2Bins.size() <= bin) d.log2Bins.resize(bin + 1, 0);
        ++d.log2Bins[bin];
    }
    return d;
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// A CUDA graph launch starts many kernels: no launch of one kernel (HTA leaves it out too).
bool isGraphLaunch(std::string_view name) {
    return startsWith(name, "cudaGraphLaunch") || startsWith(name, "cuGraphLaunch") ||
           startsWith(name, "hipGraphLaunch");
}

// The call's name for by_call: XLA's CUPTI tracer names a kernel launch after its kernel (the
// API's own name is not kept) and a driver call "cuLaunchKernel (…)"; other traces as they are.
std::string callLabel(const ClassifiedTrace& ct, std::string_view name) {
    if (!ct.isXSpace) return std::string(name);
    const bool driverApi = name.size() > 2 && startsWith(name, "cu") && name[2] >= 'A' && name[2] <= 'Z';
    if (driverApi) return std::string(name.substr(0, name.find(" (")));
    if (startsWith(name, "Memcpy") || startsWith(name, "Memset")) return std::string(name);
    return "kernel launch";
}

}  // namespace

std::string LaunchStatsOptions::key() const {
    return "runtime=" + std::to_string(runtimeCutoffNs) + " delay=" + std::to_string(delayCutoffNs) +
           (htaCallsOnly ? " calls=hta" : " calls=all");
}

bool isCountedLaunchCall(std::string_view name, bool htaCallsOnly) {
    for (std::string_view n : kHtaLaunchStatsCalls)
        if (name == n) return true;
    if (htaCallsOnly) return false;
    for (std::string_view n : kOtherLaunchCalls)
        if (name == n) return true;
    return false;
}

LaunchPairs launchPairsOf(const ClassifiedTrace& ct, bool htaCallsOnly) {
    const Trace& t = *ct.trace;
    LaunchPairs out;
    // The verdict per call name id, computed once per name.
    std::vector<int8_t> counted(t.strings.size(), -1);
    for (size_t ti = 0; ti < t.tracks.size(); ++ti) {
        if (ct.trackSkipped[ti] || !ct.trackOnDevice[ti]) continue;
        const SliceColumns& c = t.tracks[ti].slices;
        for (uint32_t i = 0; i < c.size(); ++i) {
            analysisTick();
            if (!isDeviceActivity(ct.roles[ti][i])) continue;
            ++out.activities;
            const SliceRef activity{static_cast<TrackIndex>(ti), i};
            const SliceRef call = launchOf(ct, activity);
            if (!call.valid()) {
                ++out.withoutCall;
                continue;
            }
            const StringId name = t.tracks[call.track].slices.name[call.index];
            int8_t& verdict = counted[name];
            // XSpace: every launch call counts (named after the kernel, or cuLaunchKernel...).
            if (verdict < 0) {
                const std::string_view text = t.str(name);
                verdict = ct.isXSpace ? !isGraphLaunch(text) : isCountedLaunchCall(text, htaCallsOnly);
            }
            if (verdict) out.pairs.push_back({call, activity});
            else ++out.otherCalls[callLabel(ct, t.str(name))];
        }
    }
    return out;
}

LaunchStats computeLaunchStats(const ClassifiedTrace& ct, const LaunchStatsOptions& options) {
    const Trace& t = *ct.trace;
    LaunchStats out;
    out.options = options;
    LaunchPairs pairs = launchPairsOf(ct, options.htaCallsOnly);
    out.activities = pairs.activities;
    out.withoutCall = pairs.withoutCall;
    out.otherCalls = std::move(pairs.otherCalls);
    std::vector<int64_t> delays, runtimes, kernels;
    out.rows.reserve(pairs.pairs.size());
    delays.reserve(pairs.pairs.size());
    runtimes.reserve(pairs.pairs.size());
    kernels.reserve(pairs.pairs.size());
    std::map<StringId, uint64_t> byCallId;
    for (const LaunchPair& p : pairs.pairs) {
        const SliceColumns& cc = t.tracks[p.call.track].slices;
        const SliceColumns& ac = t.tracks[p.activity.track].slices;
        LaunchRow r;
        r.call = p.call;
        r.activity = p.activity;
        r.cpuDurationNs = cc.duration[p.call.index];
        r.gpuDurationNs = ac.duration[p.activity.index];
        const int64_t callStart = cc.start[p.call.index];
        const int64_t start = ac.start[p.activity.index];
        const int64_t delay = start - (callStart + r.cpuDurationNs);
        if (delay < 0) ++out.startedBeforeCallEnd;
        if (start < callStart) ++out.startedBeforeCall;
        r.launchDelayNs = std::max<int64_t>(delay, 0);
        if (r.cpuDurationNs <= options.runtimeCutoffNs && r.gpuDurationNs < r.cpuDurationNs) {
            r.outliers |= kShortKernel;
            ++out.shortKernels;
        }
        if (r.cpuDurationNs > options.runtimeCutoffNs) {
            r.outliers |= kLongRuntime;
            ++out.longRuntime;
        }
        if (r.launchDelayNs > options.delayCutoffNs) {
            r.outliers |= kLongLaunchDelay;
            ++out.longLaunchDelay;
        }
        ++byCallId[cc.name[p.call.index]];
        delays.push_back(r.launchDelayNs);
        runtimes.push_back(r.cpuDurationNs);
        kernels.push_back(r.gpuDurationNs);
        out.rows.push_back(r);
    }
    out.rows.shrink_to_fit();  // kept as a result: no growth room
    for (const auto& [id, n] : byCallId) out.byCall[callLabel(ct, t.str(id))] += n;
    out.launchDelay = distributionOf(delays);
    out.runtime = distributionOf(runtimes);
    out.kernel = distributionOf(kernels);

    if (out.activities == 0) out.notes.push_back("no kernels, copies or memsets in this trace: no launches to measure");
    else if (out.rows.empty() && out.withoutCall == out.activities)
        out.notes.push_back(
            "no device activity is joined to a launch call (no flows or correlation ids): "
            "launch statistics need the runtime call of each kernel");
    if (out.withoutCall)
        out.notes.push_back(std::to_string(out.withoutCall) + " of " + std::to_string(out.activities) +
                            " device activities have no runtime call in the trace (no flow or correlation "
                            "match): left out");
    uint64_t other = 0;
    for (const auto& [name, n] : out.otherCalls) other += n;
    if (other)
        out.notes.push_back(std::to_string(other) + " device activities were launched by other calls (" +
                            std::string(options.htaCallsOnly ? "HTA's launch statistics take only "
                                                               "cudaLaunchKernel[ExC], cudaMemcpyAsync, "
                                                               "cudaMemsetAsync; "
                                                             : "") +
                            "see other_calls; a CUDA graph launch starts many kernels): left out");
    if (out.startedBeforeCall)
        out.notes.push_back(std::to_string(out.startedBeforeCall) +
                            " device activities start before their runtime call begins (clock skew between host "
                            "and device): their launch delay is taken as 0");
    return out;
}

}  // namespace tracescope
