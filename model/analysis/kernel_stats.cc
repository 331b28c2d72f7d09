#include "model/analysis/kernel_stats.h"

#include "model/analysis/analysis_progress.h"
#include "model/analysis/kernel_config_table.h"
#include "model/analysis/producer_notes.h"
#include "model/analysis/tensor_core_rules.h"
#include "model/trace/import_warning.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <tuple>
#include <unordered_map>

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

bool kernelUsesTensorCore(std::string_view name) { return classifyTensorCore(name).usesTensorCore; }

namespace {
bool nameIsTensorCoreEligible(std::string_view op);
}  // namespace

bool opIsTensorCoreEligible(std::string_view op, std::string_view equation) {
    // §7.3 rules on TF/XLA op names; PyTorch aten:: ops by kind (see nameIsTensorCoreEligible). einsum "a,b->c"
    const size_t arrow = equation.find("->");
    if (arrow != std::string_view::npos && equation.substr(0, arrow).find(',') != std::string_view::npos) return true;
    if (nameIsTensorCoreEligible(op)) return true;
    // "scope/name:Type": the rules apply to the name, and to the type as if it were the last scope.
    const size_t colon = op.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || op[colon - 1] == ':') return false;
    const std::string type = "/" + std::string(op.substr(colon + 1));
    return nameIsTensorCoreEligible(op.substr(0, colon)) || nameIsTensorCoreEligible(type);
}

namespace {

bool nameIsTensorCoreEligible(std::string_view op) {
    // PyTorch ops (the reference's rules name only TF ops): matrix multiplies, convolutions,
    // einsum and attention are the ops cuBLAS/cuDNN can run on TensorCores.
    if (op.substr(0, 6) == "aten::") {
        for (std::string_view p : {"mm", "matmul", "linear", "conv", "einsum", "attention"})
            if (contains(op.substr(6), p)) return true;
        return false;
    }
    // TF op names may carry ":Type"; the rules look at the name part.
    static constexpr std::array<std::string_view, 12> kSuffixes = {"Conv2D",
                                                                   "Conv2DBackpropFilter",
                                                                   "Conv2DBackpropInput",
                                                                   "Conv3D",
                                                                   "DepthwiseConv2dNative",
                                                                   "DepthwiseConv2dNativeBackpropFilter",
                                                                   "DepthwiseConv2dNativeBackpropInput",
                                                                   "/MatMul",
                                                                   "FusedMatMul",
                                                                   "/CudnnRNN",
                                                                   "XlaDot",
                                                                   "XlaDotV2"};
    static constexpr std::array<std::string_view, 4> kInfixes = {"BatchMatMul", "CudnnRNNV", "CudnnRNNForward",
                                                                 "CudnnRNNBackprop"};
    for (auto s : kSuffixes)
        if (endsWith(op, s)) return true;
    for (auto s : kInfixes)
        if (contains(op, s)) return true;
    return false;
}

}  // namespace

namespace {

// Arg keys of kernel launch parameters, looked up once per trace.
struct ParamKeys {
    StringId kernelDetails, grid, block, registers, shared, occupancy;
    explicit ParamKeys(const Trace& t)
        : kernelDetails(t.strings.find("kernel_details")),
          grid(t.strings.find("grid")),
          block(t.strings.find("block")),
          registers(t.strings.find("registers per thread")),
          shared(t.strings.find("shared memory")),
          occupancy(t.strings.find("est. achieved occupancy %")) {}
};

// One pass over the slice's args: kernel_details (XSpace) or the Kineto kernel args.
KernelLaunchParams readParams(const Trace& trace, SliceRef s, const ParamKeys& k) {
    KernelLaunchParams p;
    const Track& tr = trace.tracks[s.track];
    const ArgsOffset off = tr.slices.args[s.index];
    if (off == kNoArgs) return p;
    ArgsReader r(tr.argsView(), off);
    Arg a;
    KernelLaunchParams fromArgs;
    bool details = false;
    while (r.next(a)) {
        const bool text = a.value.type == ArgValue::Type::String || a.value.type == ArgValue::Type::Json;
        int64_t v;
        if (a.key == k.kernelDetails && text) {
            details = parseKernelDetails(trace.str(a.value.s), p) || details;
        } else if (a.key == k.grid || a.key == k.block) {
            Dim3 d;
            if (text && parseDim3(trace.str(a.value.s), d)) (a.key == k.grid ? fromArgs.grid : fromArgs.block) = d;
        } else if (a.key == k.registers) {
            if (a.value.toInt64(v) && v >= 0 && v <= UINT32_MAX) fromArgs.registersPerThread = uint32_t(v);
        } else if (a.key == k.shared) {
            if (a.value.toInt64(v) && v >= 0) fromArgs.staticSharedBytes = uint64_t(v);
        } else if (a.key == k.occupancy) {
            if (a.value.isNumber()) fromArgs.occupancyPct = a.value.toDouble();
            else if (text) {
                double o;
                const std::string_view t = trace.str(a.value.s);
                if (parseDouble(t, o)) fromArgs.occupancyPct = o;
            }
        }
    }
    return details ? p : fromArgs;
}

}  // namespace

KernelLaunchParams kernelParamsOf(const Trace& trace, SliceRef s) { return readParams(trace, s, ParamKeys(trace)); }

namespace {

template <typename Visit>
void forEachKernel(const ClassifiedTrace& ct, Visit visit) {
    const Trace& t = *ct.trace;
    const ParamKeys keys(t);
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (ct.trackSkipped[ti]) continue;
        const SliceColumns& c = t.tracks[ti].slices;
        for (uint32_t i = 0; i < c.size(); ++i) {
            analysisTick();
            if (ct.roles[ti][i] != SliceRole::Kernel) continue;
            // XProf keeps kernels with duration > 0 only (§7.3).
            if (ct.isXSpace && c.duration[i] <= 0) continue;
            const SliceRef ref{ti, i};
            const KernelLaunchParams p = readParams(t, ref, keys);
            visit(ref,
                  KernelKey{fullNameView(ct, ref), deviceActivityOpView(ct, ref), p.grid, p.block, p.registersPerThread,
                            p.sharedMemBytes()},
                  p, c.duration[i]);
        }
    }
}

KernelKey keyOf(const KernelStatsRow& r) {
    return {r.name, r.op, r.grid, r.block, r.registersPerThread, r.sharedMemBytes};
}

bool keyLess(const KernelKey& a, const KernelKey& b) {
    return std::tie(a.name, a.op, a.grid, a.block, a.regs, a.shared) <
           std::tie(b.name, b.op, b.grid, b.block, b.regs, b.shared);
}

// The final row of a configuration: its strings are copied only now, for the rows kept.
KernelStatsRow rowOf(const KernelConfig& c) {
    KernelStatsRow r;
    r.name = std::string(c.name);
    r.op = std::string(c.op);
    r.grid = c.grid;
    r.block = c.block;
    r.registersPerThread = c.regs;
    r.sharedMemBytes = c.shared;
    if (c.hasOccupancy) r.occupancyPct = c.occupancyPct;
    const TensorCoreVerdict tc = classifyTensorCore(c.name);
    r.usesTensorCore = tc.usesTensorCore;
    r.tensorCoreRule = tc.rule;
    r.tensorCoreEligible = r.usesTensorCore || opIsTensorCoreEligible(c.op);
    r.occurrences = c.occurrences;
    r.totalNs = c.totalNs;
    r.minNs = c.minNs;
    r.maxNs = c.maxNs;
    r.avgNs = c.occurrences ? double(c.totalNs) / double(c.occurrences) : 0;
    return r;
}

// "The table is bounded at ...": what the rows leave out, for the page's notes.
std::string boundNote(const KernelStatsResult& r) {
    return "The table is bounded at " + formatWarningCount(r.maxRows) +
           " distinct kernel configurations (the first met in the trace) to fit in memory; " +
           formatWarningCount(r.unlistedCount) + " further launches (" + formatWarningDuration(r.unlistedNs) +
           ") are counted in the totals only.";
}

}  // namespace

KernelStatsResult computeKernelStats(const Trace& trace, const KernelStatsOptions& options) {
    return computeKernelStats(classifyTrace(trace), options);
}

KernelStatsResult computeKernelStats(const ClassifiedTrace& ct, const KernelStatsOptions& options) {
    KernelStatsResult res;
    res.maxRows = options.maxRows;
    KernelConfigTable table;
    forEachKernel(ct, [&](SliceRef, const KernelKey& key, const KernelLaunchParams& p, TimeNs dur) {
        ++res.kernelCount;
        addSat(res.totalKernelNs, dur);
        KernelConfig* c = table.find(key);
        if (!c && options.maxRows != 0 && table.size() >= options.maxRows) {
            // Past the bound: exact totals, no row.
            ++res.unlistedCount;
            addSat(res.unlistedNs, dur);
            if (kernelUsesTensorCore(key.name)) addSat(res.tensorCoreNs, dur);
            return;
        }
        if (!c) {
            c = &table.add(key);
            c->usesTensorCore = kernelUsesTensorCore(key.name);
            c->hasOccupancy = p.occupancyPct.has_value();
            c->occupancyPct = p.occupancyPct.value_or(0);
            c->minNs = c->maxNs = dur;
        }
        ++c->occurrences;
        addSat(c->totalNs, dur);
        c->minNs = std::min(c->minNs, dur);
        c->maxNs = std::max(c->maxNs, dur);
        if (c->usesTensorCore) addSat(res.tensorCoreNs, dur);
    });
    table.dropIndex();  // before the rows are made: it is not needed for them
    res.configurations = table.size();
    if (options.keepRows != 0 && table.size() > options.keepRows) {
        // The top rows only: the configurations are ranked through 4-byte row numbers and
        // just the kept ones become rows (with their strings).
        std::vector<uint32_t> order(table.size());
        for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
        auto more = [&](uint32_t a, uint32_t b) {
            const KernelConfig &x = table[a], &y = table[b];
            if (x.totalNs != y.totalNs) return x.totalNs > y.totalNs;
            return keyLess(x.key(), y.key());
        };
        const auto kept = order.begin() + ptrdiff_t(options.keepRows);
        std::nth_element(order.begin(), kept, order.end(), more);
        std::sort(order.begin(), kept, more);
        res.rows.reserve(options.keepRows);
        for (auto it = order.begin(); it != kept; ++it) res.rows.push_back(rowOf(table[*it]));
    } else {
        // Every configuration: each chunk of them is freed once its rows are made, then the
        // rows are sorted in place (a sorted copy would double the peak on millions of rows).
        res.rows.reserve(table.size());
        table.drain([&](const KernelConfig& c) { res.rows.push_back(rowOf(c)); });
        std::sort(res.rows.begin(), res.rows.end(), [](const KernelStatsRow& a, const KernelStatsRow& b) {
            if (a.totalNs != b.totalNs) return a.totalNs > b.totalNs;
            return keyLess(keyOf(a), keyOf(b));
        });
    }
    res.notes = kernelStatsNotes(ct, res);
    if (res.unlistedCount > 0) res.notes.push_back(boundNote(res));
    return res;
}

std::vector<SliceRef> occurrencesOf(const ClassifiedTrace& ct, const KernelStatsResult& result, size_t row) {
    std::vector<SliceRef> out;
    if (row >= result.rows.size()) return out;
    const KernelKey want = keyOf(result.rows[row]);
    forEachKernel(ct, [&](SliceRef ref, const KernelKey& key, const KernelLaunchParams&, TimeNs) {
        if (key == want) out.push_back(ref);
    });
    return out;
}

SliceRowIndex sliceRowIndexOf(const ClassifiedTrace& ct, const KernelStatsResult& result) {
    std::unordered_map<KernelKey, uint32_t, KernelKeyHash> rowOfKey;
    for (size_t i = 0; i < result.rows.size(); ++i) rowOfKey.emplace(keyOf(result.rows[i]), uint32_t(i));
    SliceRowIndex index;
    forEachKernel(ct, [&](SliceRef ref, const KernelKey& key, const KernelLaunchParams&, TimeNs) {
        auto it = rowOfKey.find(key);
        if (it != rowOfKey.end()) index.add(ref, it->second);
    });
    index.finish();
    return index;
}

std::vector<SliceRef> occurrencesOf(const Trace& trace, const KernelStatsResult& result, size_t row) {
    return occurrencesOf(classifyTrace(trace), result, row);
}
SliceRowIndex sliceRowIndexOf(const Trace& trace, const KernelStatsResult& result) {
    return sliceRowIndexOf(classifyTrace(trace), result);
}

}  // namespace tracescope
