// tracescope-cli kernels FILE [--csv|--json] [--names short|full]
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/analysis/kernel_stats.h"
#include "model/analysis/short_name.h"

#include <cstdio>
#include <iostream>

namespace tracescope::cli {

namespace {
// The rule of tensor_core_rules.h that decided uses_tensor_core ("" when none matched).
std::string tensorCoreRuleText(const KernelStatsRow& r) {
    return r.tensorCoreRule ? std::string(r.tensorCoreRule->family) : std::string();
}

std::string dimText(const Dim3& d) {
    return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]);
}
}  // namespace

int runKernels(const Args& args) {
    const auto files = positionals(args, {"--names"});
    const std::string names = flagValue(args, "--names", "full");
    if (files.size() != 1 || (names != "short" && names != "full")) {
        std::fprintf(stderr, "usage: tracescope-cli kernels FILE [--csv|--json] [--names short|full]\n");
        return 2;
    }
    auto trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    KernelStatsResult res = computeKernelStats(*trace);
    // --names short: the short form in "name", the full one beside it.
    const bool shortNamesWanted = names == "short";
    std::vector<std::string> fullNames;
    if (shortNamesWanted) {
        for (auto& r : res.rows) fullNames.push_back(r.name);
        const std::vector<std::string> shorts = shortNames(std::span<const std::string>(fullNames));
        for (size_t i = 0; i < res.rows.size(); ++i) res.rows[i].name = shorts[i];
    }
    if (hasFlag(args, "--json")) {
        nlohmann::json head;
        head["kernel_count"] = res.kernelCount;
        head["total_kernel_ns"] = res.totalKernelNs;
        head["tensor_core_ns"] = res.tensorCoreNs;
        head["notes"] = res.notes;
        head["tensor_core_definition"] =
            "kernels whose name matches a tensor-core rule (FP32 SIMT kernels such as cuBLAS ..._ffma_... excluded)";
        printJsonWithRows(head, res.rows.size(), [&](size_t i) {
            const KernelStatsRow& r = res.rows[i];
            nlohmann::json row = {{"name", r.name},
                                  {"occurrences", r.occurrences},
                                  {"total_ns", r.totalNs},
                                  {"avg_ns", static_cast<long long>(r.avgNs + 0.5)},
                                  {"min_ns", r.minNs},
                                  {"max_ns", r.maxNs},
                                  {"grid", r.grid},
                                  {"block", r.block},
                                  {"registers", r.registersPerThread},
                                  {"shared_mem_bytes", r.sharedMemBytes},
                                  {"tensor_core_eligible", r.tensorCoreEligible},
                                  {"uses_tensor_core", r.usesTensorCore},
                                  {"tensor_core_rule", tensorCoreRuleText(r)},
                                  {"op", r.op}};
            row["occupancy_pct"] = r.occupancyPct ? nlohmann::json(*r.occupancyPct) : nlohmann::json(nullptr);
            if (shortNamesWanted) row["full_name"] = fullNames[i];
            return row;
        });
        return 0;
    }
    if (hasFlag(args, "--csv")) {
        std::cout << "name,occurrences,total_ns,avg_ns,min_ns,max_ns,grid,block,registers,shared_mem_bytes,"
                     "occupancy_pct,tensor_core_eligible,uses_tensor_core,tensor_core_rule,op"
                  << (shortNamesWanted ? ",full_name\n" : "\n");
        for (size_t i = 0; i < res.rows.size(); ++i) {
            const auto& r = res.rows[i];
            std::cout << csvField(r.name) << ',' << r.occurrences << ',' << r.totalNs << ','
                      << static_cast<long long>(r.avgNs + 0.5) << ',' << r.minNs << ',' << r.maxNs << ','
                      << csvField(dimText(r.grid)) << ',' << csvField(dimText(r.block)) << ','
                      << r.registersPerThread << ',' << r.sharedMemBytes << ','
                      << (r.occupancyPct ? std::to_string(*r.occupancyPct) : std::string()) << ','
                      << (r.tensorCoreEligible ? "true" : "false") << ',' << (r.usesTensorCore ? "true" : "false")
                      << ',' << csvField(tensorCoreRuleText(r)) << ',' << csvField(r.op);
            if (shortNamesWanted) std::cout << ',' << csvField(fullNames[i]);
            std::cout << '\n';
        }
        return 0;
    }
    std::printf("%llu kernels, %.3f ms total, %.1f%% in TensorCore kernels\n", (unsigned long long)res.kernelCount,
                double(res.totalKernelNs) / 1e6,
                res.totalKernelNs ? 100.0 * double(res.tensorCoreNs) / double(res.totalKernelNs) : 0.0);
    std::printf("%8s %12s %10s %14s %12s %4s %6s %3s  %s\n", "count", "total(us)", "avg(us)", "grid", "block", "regs",
                "shmem", "TC", "name [op]");
    for (const auto& r : res.rows)
        std::printf("%8llu %12.3f %10.3f %14s %12s %4u %6llu %3s  %s [%s]\n", (unsigned long long)r.occurrences,
                    double(r.totalNs) / 1e3, r.avgNs / 1e3, dimText(r.grid).c_str(), dimText(r.block).c_str(),
                    r.registersPerThread, (unsigned long long)r.sharedMemBytes, r.usesTensorCore ? "yes" : "no",
                    r.name.substr(0, 100).c_str(), r.op.c_str());
    for (const auto& n : res.notes) std::printf("Note: %s\n", n.c_str());
    return 0;
}

}  // namespace tracescope::cli
