#include "model/analysis/kernel_stats.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <tuple>

namespace tracescope {

namespace {

bool endsWith(std::string_view s, std::string_view p) {
    return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}
bool contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

template <typename T>
bool parseUnsigned(std::string_view s, T& out) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    if (s.empty()) return false;
    T v{};
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) return false;
    out = v;
    return true;
}

bool parseDouble(std::string_view s, double& out) {
    if (s.empty()) return false;
    double v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) return false;
    out = v;
    return true;
}

}  // namespace

bool parseDim3(std::string_view text, Dim3& out) {
    while (!text.empty() && (text.front() == '[' || text.front() == ' ')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ']' || text.back() == ' ')) text.remove_suffix(1);
    if (text.empty()) return false;
    Dim3 d{1, 1, 1};
    size_t n = 0;
    while (!text.empty()) {
        const size_t comma = text.find(',');
        const std::string_view part = text.substr(0, comma);
        if (n >= 3 || !parseUnsigned(part, d[n])) return false;
        ++n;
        if (comma == std::string_view::npos) break;
        text.remove_prefix(comma + 1);
    }
    out = d;
    return true;
}

bool parseKernelDetails(std::string_view text, KernelLaunchParams& out) {
    bool any = false;
    while (!text.empty()) {
        const size_t b = text.find_first_not_of(" \t\n");
        if (b == std::string_view::npos) break;
        text.remove_prefix(b);
        const size_t e = text.find_first_of(" \t\n");
        const std::string_view tok = text.substr(0, e);
        text.remove_prefix(e == std::string_view::npos ? text.size() : e);
        const size_t colon = tok.find(':');
        if (colon == std::string_view::npos) continue;
        const std::string_view key = tok.substr(0, colon), val = tok.substr(colon + 1);
        bool ok = false;
        if (key == "regs") ok = parseUnsigned(val, out.registersPerThread);
        else if (key == "static_shared" || key == "shm") ok = parseUnsigned(val, out.staticSharedBytes);
        else if (key == "dynamic_shared") ok = parseUnsigned(val, out.dynamicSharedBytes);
        else if (key == "group_mem") ok = parseUnsigned(val, out.staticSharedBytes);  // ROCm LDS
        else if (key == "private_mem") ok = parseUnsigned(val, out.privateMemBytes);
        else if (key == "grid") ok = parseDim3(val, out.grid);
        else if (key == "block") ok = parseDim3(val, out.block);
        else if (key == "occ_pct") {
            double d;
            if ((ok = parseDouble(val, d))) out.occupancyPct = d;
        }
        any = any || ok;
    }
    return any;
}

bool kernelUsesTensorCore(std::string_view name) {
    static constexpr std::array<std::string_view, 19> kPatterns = {
        "16816", "c1688", "conv1x1", "conv2d_c1_k1", "dgrad_1x1_stride_2x2", "direct_group",
        "first_layer_wgrad_kernel", "h1688", "h884", "hmma", "i16832", "i8816", "s884", "s1688",
        "xmma_gemm", "xmma_implicit_gemm", "xmma_sparse_conv", "xmma_sparse_gemm",
        "xmma_warp_specialized_implicit_gemm"};
    for (auto p : kPatterns)
        if (contains(name, p)) return true;
    return false;
}

bool opIsTensorCoreEligible(std::string_view op, std::string_view equation) {
    // TF op names may carry ":Type"; the rules look at the name part.
    static constexpr std::array<std::string_view, 12> kSuffixes = {
        "Conv2D", "Conv2DBackpropFilter", "Conv2DBackpropInput", "Conv3D", "DepthwiseConv2dNative",
        "DepthwiseConv2dNativeBackpropFilter", "DepthwiseConv2dNativeBackpropInput", "/MatMul", "FusedMatMul",
        "/CudnnRNN", "XlaDot", "XlaDotV2"};
    static constexpr std::array<std::string_view, 4> kInfixes = {"BatchMatMul", "CudnnRNNV", "CudnnRNNForward",
                                                                 "CudnnRNNBackprop"};
    for (auto s : kSuffixes)
        if (endsWith(op, s)) return true;
    for (auto s : kInfixes)
        if (contains(op, s)) return true;
    // einsum "a,b->c"
    const size_t arrow = equation.find("->");
    return arrow != std::string_view::npos && equation.substr(0, arrow).find(',') != std::string_view::npos;
}

KernelLaunchParams kernelParamsOf(const Trace& trace, SliceRef s) {
    KernelLaunchParams p;
    const std::string details = sliceArgText(trace, s, "kernel_details");
    if (!details.empty()) {
        parseKernelDetails(details, p);
        return p;
    }
    // Kineto kernel args.
    Dim3 d;
    if (parseDim3(sliceArgText(trace, s, "grid"), d)) p.grid = d;
    if (parseDim3(sliceArgText(trace, s, "block"), d)) p.block = d;
    int64_t v;
    if (sliceArgInt(trace, s, "registers per thread", v) && v >= 0) p.registersPerThread = static_cast<uint32_t>(v);
    if (sliceArgInt(trace, s, "shared memory", v) && v >= 0) p.staticSharedBytes = static_cast<uint64_t>(v);
    const std::string occ = sliceArgText(trace, s, "est. achieved occupancy %");
    double o;
    if (parseDouble(occ, o)) p.occupancyPct = o;
    return p;
}

namespace {

using KernelKey = std::tuple<std::string, Dim3, Dim3, uint32_t, uint64_t, std::string>;

template <typename Visit>
void forEachKernel(const ClassifiedTrace& ct, Visit visit) {
    const Trace& t = *ct.trace;
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (ct.trackSkipped[ti]) continue;
        const SliceColumns& c = t.tracks[ti].slices;
        for (uint32_t i = 0; i < c.size(); ++i) {
            if (ct.roles[ti][i] != SliceRole::Kernel) continue;
            // XProf keeps kernels with duration > 0 only (§7.3).
            if (ct.isXSpace && c.duration[i] <= 0) continue;
            const SliceRef ref{ti, i};
            const KernelLaunchParams p = kernelParamsOf(t, ref);
            std::string name = fullNameOf(t, ref);
            std::string op = deviceActivityOp(ct, ref);
            visit(ref, KernelKey{std::move(name), p.grid, p.block, p.registersPerThread, p.sharedMemBytes(),
                                 std::move(op)},
                  p, c.duration[i]);
        }
    }
}

KernelKey keyOf(const KernelStatsRow& r) {
    return {r.name, r.grid, r.block, r.registersPerThread, r.sharedMemBytes, r.op};
}

}  // namespace

KernelStatsResult computeKernelStats(const Trace& trace) { return computeKernelStats(classifyTrace(trace)); }

KernelStatsResult computeKernelStats(const ClassifiedTrace& ct) {
    KernelStatsResult res;
    std::map<KernelKey, size_t> index;
    forEachKernel(ct, [&](SliceRef, KernelKey&& key, const KernelLaunchParams& p, TimeNs dur) {
        auto [it, inserted] = index.try_emplace(key, res.rows.size());
        if (inserted) {
            KernelStatsRow r;
            r.name = std::get<0>(key);
            r.grid = p.grid;
            r.block = p.block;
            r.registersPerThread = p.registersPerThread;
            r.sharedMemBytes = p.sharedMemBytes();
            r.op = std::get<5>(key);
            r.occupancyPct = p.occupancyPct;
            r.usesTensorCore = kernelUsesTensorCore(r.name);
            r.tensorCoreEligible = r.usesTensorCore || opIsTensorCoreEligible(r.op);
            r.minNs = r.maxNs = dur;
            res.rows.push_back(std::move(r));
        }
        KernelStatsRow& r = res.rows[it->second];
        ++r.occurrences;
        r.totalNs += dur;
        r.minNs = std::min(r.minNs, dur);
        r.maxNs = std::max(r.maxNs, dur);
        ++res.kernelCount;
        res.totalKernelNs += dur;
        if (r.usesTensorCore) res.tensorCoreNs += dur;
    });
    for (auto& r : res.rows) r.avgNs = r.occurrences ? double(r.totalNs) / double(r.occurrences) : 0;
    std::sort(res.rows.begin(), res.rows.end(), [](const KernelStatsRow& a, const KernelStatsRow& b) {
        if (a.totalNs != b.totalNs) return a.totalNs > b.totalNs;
        return keyOf(a) < keyOf(b);
    });
    return res;
}

std::vector<SliceRef> occurrencesOf(const Trace& trace, const KernelStatsResult& result, size_t row) {
    std::vector<SliceRef> out;
    if (row >= result.rows.size()) return out;
    const KernelKey want = keyOf(result.rows[row]);
    const ClassifiedTrace ct = classifyTrace(trace);
    forEachKernel(ct, [&](SliceRef ref, KernelKey&& key, const KernelLaunchParams&, TimeNs) {
        if (key == want) out.push_back(ref);
    });
    return out;
}

SliceRowIndex sliceRowIndexOf(const Trace& trace, const KernelStatsResult& result) {
    std::map<KernelKey, uint32_t> rowOfKey;
    for (size_t i = 0; i < result.rows.size(); ++i) rowOfKey.emplace(keyOf(result.rows[i]), uint32_t(i));
    SliceRowIndex index;
    const ClassifiedTrace ct = classifyTrace(trace);
    forEachKernel(ct, [&](SliceRef ref, KernelKey&& key, const KernelLaunchParams&, TimeNs) {
        auto it = rowOfKey.find(key);
        if (it != rowOfKey.end()) index.add({ref}, it->second);
    });
    index.finish();
    return index;
}

}  // namespace tracescope
