// tracescope-cli roofline FILE [--json|--csv]
// The roofline model of the trace's XLA programs (model/analysis/hlo_roofline.h): per op and per
// program, operational intensity and attained FLOP rate under the device's ceilings.
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/analysis/hlo_roofline.h"
#include "model/results/hlo_results.h"

#include <cstdio>
#include <iostream>

namespace tracescope::cli {

namespace {

const char* kUsage =
    "usage: tracescope-cli roofline FILE [--json|--csv]\n"
    "  The roofline model of an XSpace's XLA programs (XProf's roofline_model): per HLO op and per program,\n"
    "  operational intensity (FLOPs per byte accessed, XLA's cost analysis) and the attained FLOP rate, under\n"
    "  the device's ceilings: peak FLOP rate and memory bandwidth x intensity (peaks from the device's stats,\n"
    "  else derived as XProf does from SMs/CUs, clock and per-architecture rates). The ridge point (peak /\n"
    "  bandwidth) splits ops into the memory and the compute region; efficiency = attained / attainable.\n"
    "  Ops without a known cost are in region unknown. Time per region sums the ops' device time.\n"
    "  --json   device (peaks, ridge point), ops, programs, time_by_region_ns, warnings\n"
    "  --csv    a row per op, then a row per program (kind column)\n";

nlohmann::json pointJson(const RooflinePoint& p) {
    return {{"name", p.name},
            {"program", p.program},
            {"category", p.category},
            {"time_ns", p.timeNs},
            {"operational_intensity", p.intensity},
            {"gflops_per_second", p.flopsPerSecond / 1e9},
            {"attainable_gflops_per_second", p.attainable / 1e9},
            {"efficiency", p.efficiency},
            {"region", rooflineRegionName(p.region)}};
}

}  // namespace

int runRoofline(const Args& args) {
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
    const std::shared_ptr<const HloOpProfileResult> profile = hloOpProfileOf(*ResultStore::of(trace));
    const RooflineResult r = computeRoofline(profile->profile);
    if (hasFlag(args, "--json")) {
        nlohmann::json j;
        j["device"] = {{"name", r.peaks.device},
                       {"peak_gflops_per_second", r.peaks.peakFlopsPerSecond / 1e9},
                       {"peak_hbm_gib_per_second", r.peaks.peakHbmBytesPerSecond / double(1ull << 30)},
                       {"ridge_point", r.peaks.ridgePoint()}};
        nlohmann::json ops = nlohmann::json::array(), programs = nlohmann::json::array();
        for (const RooflinePoint& p : r.ops) ops.push_back(pointJson(p));
        for (const RooflinePoint& p : r.programs) programs.push_back(pointJson(p));
        j["ops"] = std::move(ops);
        j["programs"] = std::move(programs);
        j["time_by_region_ns"] = {{"memory", r.memoryRegionNs}, {"compute", r.computeRegionNs}, {"unknown", r.unknownNs}};
        j["notes"] = profile->profile.notes;
        printJson(j);
        return exitStatus(args, 0);
    }
    if (hasFlag(args, "--csv")) {
        std::cout << "kind,program,category,name,time_ns,operational_intensity,gflops_per_second,"
                     "attainable_gflops_per_second,efficiency,region\n";
        auto row = [](const char* kind, const RooflinePoint& p) {
            const nlohmann::json j = pointJson(p);
            std::cout << kind << ',' << csvField(p.program) << ',' << csvField(p.category) << ',' << csvField(p.name)
                      << ',' << p.timeNs << ',' << j["operational_intensity"].dump() << ','
                      << j["gflops_per_second"].dump() << ',' << j["attainable_gflops_per_second"].dump() << ','
                      << j["efficiency"].dump() << ',' << rooflineRegionName(p.region) << '\n';
        };
        for (const RooflinePoint& p : r.ops) row("op", p);
        for (const RooflinePoint& p : r.programs) row("program", p);
        return exitStatus(args, 0);
    }
    std::printf("Device: %s  peak %.0f GFLOP/s, %.1f GiB/s, ridge point %.1f FLOP/byte\n", r.peaks.device.c_str(),
                r.peaks.peakFlopsPerSecond / 1e9, r.peaks.peakHbmBytesPerSecond / double(1ull << 30),
                r.peaks.ridgePoint());
    const double total = double(r.memoryRegionNs + r.computeRegionNs + r.unknownNs);
    if (total > 0)
        std::printf("Op time: %.1f%% memory region, %.1f%% compute region, %.1f%% unknown cost\n\n",
                    100.0 * double(r.memoryRegionNs) / total, 100.0 * double(r.computeRegionNs) / total,
                    100.0 * double(r.unknownNs) / total);
    std::printf("%-8s %-24s %-34s %12s %10s %12s %12s %7s %-8s\n", "kind", "program", "name", "time(us)", "FLOP/B",
                "GFLOP/s", "attainable", "eff.", "region");
    auto line = [](const char* kind, const RooflinePoint& p) {
        std::printf("%-8s %-24s %-34s %12.3f %10.2f %12.0f %12.0f %6.1f%% %-8s\n", kind, p.program.c_str(),
                    p.name.c_str(), double(p.timeNs) / 1e3, p.intensity, p.flopsPerSecond / 1e9, p.attainable / 1e9,
                    100.0 * p.efficiency, rooflineRegionName(p.region));
    };
    for (const RooflinePoint& p : r.programs) line("program", p);
    for (const RooflinePoint& p : r.ops) line("op", p);
    for (const std::string& n : profile->profile.notes) std::printf("Note: %s\n", n.c_str());
    return exitStatus(args, 0);
}

}  // namespace tracescope::cli
