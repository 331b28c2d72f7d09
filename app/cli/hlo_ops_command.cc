// tracescope-cli hlo-ops FILE [--program NAME] [--json|--csv] [--sort time|wasted|utilization]
// The HLO op profile (model/analysis/hlo_op_profile.h) asked of the trace's result store: per
// XLA program and HLO op, device time, FLOPs and bytes from XLA's cost analysis, rates,
// utilisation of the device's peaks and the bound, as XProf's op_profile and hlo_stats.
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/results/hlo_results.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace tracescope::cli {

namespace {

const char* kUsage =
    "usage: tracescope-cli hlo-ops FILE [--program NAME] [--json|--csv] [--sort time|wasted|utilization]\n"
    "  The HLO op profile of an XSpace's XLA programs (XProf's op_profile and hlo_stats): per program and\n"
    "  HLO op, the device activities that carry its hlo_op (occurrences, time), its FLOPs and bytes accessed\n"
    "  from XLA's cost analysis (GpuHloCostAnalysis's definitions; per execution x occurrences), FLOP rate,\n"
    "  memory bandwidth, operational intensity (FLOPs/byte), utilisation of the device's peak FLOP rate and\n"
    "  memory bandwidth, and the bound (the higher utilisation: Compute or HBM; Unknown without cost).\n"
    "  Ops whose cost XLA does not know (custom calls of other targets) say so: cost_known false.\n"
    "  Inside XLA command buffers (device activities whose hlo_op is command_buffer_N) each kernel is\n"
    "  attributed to the op it runs (XLA names a fusion's kernel after it; a cuBLAS/cuDNN kernel is the\n"
    "  next library call of the program's schedule); command_buffer names the buffer.\n"
    "  executions: runs of the op's activities back to back on a stream (an op run as several kernels\n"
    "  executes once per run; XProf, and occurrences, count each kernel with the op's whole cost).\n"
    "  Percentages are of the profile's time: per device, first to last activity, summed (idle included).\n"
    "  --program NAME  one program: its module name or \"module(id)\"\n"
    "  --sort          time (default), wasted (time x (1 - max utilisation), XProf's wasted time) or\n"
    "                  utilization (highest first)\n"
    "  Every program is listed with its cost per execution (flops, transcendentals, bytes), also in CPU-only\n"
    "  captures, where no device activity carries an HLO op; there XLA's own cost analysis is used (what\n"
    "  JAX's compiled.cost_analysis() reports), for GPUs XLA's GPU model (3 FLOPs per element of an\n"
    "  elementwise op).\n"
    "  --json   programs, ops (op, program, category, occurrences, executions, total_time_ns, flops,\n"
    "           bytes_accessed, flop_rate (FLOP/s), memory_bw_bytes_per_s, bound_by, ...), device (peaks,\n"
    "           ridge point), total_ns, idle_ns, cost_model, notes, warnings\n"
    "  --csv    a row per op\n";

nlohmann::json sourceOf(const HloOpRow& r) {
    const std::string source = r.op ? r.program->sourceOf(*r.op) : std::string();
    return source.empty() ? nlohmann::json() : nlohmann::json(source);
}

nlohmann::json opJson(const HloOpRow& r) {
    const HloOpMetrics& m = r.metrics;
    return {{"program", r.program->displayName()},
            {"program_id", r.program->programId()},
            {"category", r.category},
            {"op", r.name},
            {"shape", r.op ? shapeText(r.op->shape()) : std::string()},
            {"framework_op", r.op ? r.op->metadata().op_name() : std::string()},
            {"command_buffer", r.parent.empty() ? nlohmann::json() : nlohmann::json(r.parent)},
            {"source", sourceOf(r)},
            {"occurrences", m.occurrences},
            {"executions", m.executions},
            {"total_time_ns", m.timeNs},
            {"avg_time_ns", m.occurrences ? std::llround(double(m.timeNs) / double(m.occurrences)) : 0},
            {"time_percent", 100.0 * r.timeFraction},
            {"flops", m.flops},
            {"flops_per_execution", r.costPerExecution.flops},
            {"bytes_accessed", m.bytesAccessed},
            {"bytes_per_execution", r.costPerExecution.bytesAccessed},
            {"transcendentals_per_execution", r.costPerExecution.transcendentals},
            {"cost_known", r.costPerExecution.known()},
            {"flop_rate", m.flopsPerSecond()},
            {"memory_bw_bytes_per_s", m.bytesPerSecond()},
            {"gflops_per_second", m.flopsPerSecond() / 1e9},
            {"memory_gib_per_second", m.bytesPerSecond() / double(1ull << 30)},
            {"operational_intensity", m.operationalIntensity()},
            {"flops_utilization", r.flopsUtilization},
            {"hbm_utilization", r.hbmUtilization},
            {"bound_by", hloBoundName(r.bound)},
            {"wasted_time_percent", 100.0 * r.wastedTimeFraction}};
}

bool matchesProgram(const HloProgram& p, const std::string& name) {
    return name.empty() || p.moduleName() == name || p.displayName() == name;
}

}  // namespace

int runHloOps(const Args& args) {
    if (hasFlag(args, "--help") || hasFlag(args, "-h")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const auto files = positionals(args, {"--program", "--sort"});
    const std::string sort = flagValue(args, "--sort", "time");
    if (files.size() != 1 || (sort != "time" && sort != "wasted" && sort != "utilization")) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    std::shared_ptr<const Trace> trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    const std::shared_ptr<const HloOpProfileResult> result = hloOpProfileOf(*ResultStore::of(trace));
    const HloOpProfile& p = result->profile;
    const std::string program = flagValue(args, "--program");
    if (!program.empty() &&
        std::none_of(result->programs->programs.begin(), result->programs->programs.end(),
                     [&](const auto& x) { return matchesProgram(*x, program); })) {
        std::fprintf(stderr, "hlo-ops: no XLA program named '%s' in %s\n", program.c_str(), files[0].c_str());
        return 1;
    }
    std::vector<const HloOpRow*> rows;
    for (const HloOpRow& r : p.ops)
        if (matchesProgram(*r.program, program)) rows.push_back(&r);
    if (sort == "wasted")
        std::stable_sort(rows.begin(), rows.end(),
                         [](const HloOpRow* a, const HloOpRow* b) { return a->wastedTimeFraction > b->wastedTimeFraction; });
    else if (sort == "utilization")
        std::stable_sort(rows.begin(), rows.end(), [](const HloOpRow* a, const HloOpRow* b) {
            return std::max(a->flopsUtilization, a->hbmUtilization) > std::max(b->flopsUtilization, b->hbmUtilization);
        });

    if (hasFlag(args, "--json")) {
        nlohmann::json j;
        nlohmann::json programs = nlohmann::json::array();
        for (const HloProgramRow& r : p.programs) {
            if (!matchesProgram(*r.program, program)) continue;
            programs.push_back({{"program", r.name},
                                {"program_id", r.program->programId()},
                                {"module", r.program->moduleName()},
                                {"occurrences", r.metrics.occurrences},
                                {"executions", r.metrics.executions},
                                {"total_time_ns", r.metrics.timeNs},
                                {"time_percent", 100.0 * r.timeFraction},
                                {"flops", r.metrics.flops},
                                {"bytes_accessed", r.metrics.bytesAccessed},
                                {"ops_with_unknown_cost", r.metrics.unknownCost},
                                {"flops_per_execution", r.costPerExecution.flops},
                                {"bytes_per_execution", r.costPerExecution.bytesAccessed},
                                {"transcendentals_per_execution", r.costPerExecution.transcendentals},
                                {"cost_known", r.costPerExecution.known()},
                                {"gflops_per_second", r.metrics.flopsPerSecond() / 1e9},
                                {"memory_gib_per_second", r.metrics.bytesPerSecond() / double(1ull << 30)},
                                {"operational_intensity", r.metrics.operationalIntensity()}});
        }
        j["programs"] = std::move(programs);
        nlohmann::json ops = nlohmann::json::array();
        for (const HloOpRow* r : rows) ops.push_back(opJson(*r));
        j["ops"] = std::move(ops);
        j["device"] = {{"name", p.peaks.device},
                       {"peak_gflops_per_second", p.peaks.peakFlopsPerSecond / 1e9},
                       {"peak_hbm_gib_per_second", p.peaks.peakHbmBytesPerSecond / double(1ull << 30)},
                       {"ridge_point", p.peaks.ridgePoint()}};
        j["total_ns"] = p.totalNs;
        j["idle_ns"] = p.idleNs;
        j["cost_model"] = p.model == HloCostModel::XlaGpu ? "xla-gpu" : "xla";
        nlohmann::json notes = p.notes;
        for (const std::string& s : result->programs->problems) notes.push_back(s);
        j["notes"] = std::move(notes);
        printJson(j);
        return exitStatus(args, 0);
    }
    if (hasFlag(args, "--csv")) {
        std::cout << "program,category,op,occurrences,total_time_ns,time_percent,flops,bytes_accessed,cost_known,"
                     "gflops_per_second,memory_gib_per_second,operational_intensity,flops_utilization,"
                     "hbm_utilization,bound_by,wasted_time_percent,framework_op,source\n";
        for (const HloOpRow* r : rows) {
            const nlohmann::json j = opJson(*r);
            std::cout << csvField(j["program"].get<std::string>()) << ',' << csvField(r->category) << ','
                      << csvField(r->name) << ',' << r->metrics.occurrences << ',' << r->metrics.timeNs << ','
                      << j["time_percent"].dump() << ',' << j["flops"].dump() << ',' << j["bytes_accessed"].dump() << ','
                      << (r->costPerExecution.known() ? "true" : "false") << ',' << j["gflops_per_second"].dump() << ','
                      << j["memory_gib_per_second"].dump() << ',' << j["operational_intensity"].dump() << ','
                      << j["flops_utilization"].dump() << ',' << j["hbm_utilization"].dump() << ','
                      << hloBoundName(r->bound) << ',' << j["wasted_time_percent"].dump() << ','
                      << csvField(j["framework_op"].get<std::string>()) << ','
                      << (j["source"].is_null() ? std::string() : csvField(j["source"].get<std::string>())) << '\n';
        }
        return exitStatus(args, 0);
    }
    std::printf("Device: %s  peak %.0f GFLOP/s, %.1f GiB/s, ridge point %.1f FLOP/byte\n", p.peaks.device.c_str(),
                p.peaks.peakFlopsPerSecond / 1e9, p.peaks.peakHbmBytesPerSecond / double(1ull << 30),
                p.peaks.ridgePoint());
    std::printf("Profile time %.3f ms, idle %.3f ms\n\n", double(p.totalNs) / 1e6, double(p.idleNs) / 1e6);
    std::printf("%-24s %-16s %-34s %6s %12s %7s %12s %10s %8s %-8s\n", "program", "category", "op", "occ", "time(us)",
                "time%", "GFLOP/s", "GiB/s", "FLOP/B", "bound");
    for (const HloOpRow* r : rows) {
        const HloOpMetrics& m = r->metrics;
        std::printf("%-24s %-16s %-34s %6llu %12.3f %6.2f%% %12s %10.1f %8.2f %-8s\n",
                    r->program->displayName().c_str(), r->category.c_str(), r->name.c_str(),
                    (unsigned long long)m.occurrences, double(m.timeNs) / 1e3, 100.0 * r->timeFraction,
                    r->costPerExecution.known() ? std::to_string(llround(m.flopsPerSecond() / 1e9)).c_str() : "unknown",
                    m.bytesPerSecond() / double(1ull << 30), m.operationalIntensity(), hloBoundName(r->bound));
    }
    for (const std::string& n : p.notes) std::printf("Note: %s\n", n.c_str());
    for (const std::string& n : result->programs->problems) std::printf("Note: %s\n", n.c_str());
    return exitStatus(args, 0);
}

}  // namespace tracescope::cli
