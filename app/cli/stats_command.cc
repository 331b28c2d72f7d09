// tracescope-cli stats FILE [--by name|type] [--side host|device|all] [--csv|--json] [--names short|full]
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/analysis/op_stats.h"
#include "model/analysis/short_name.h"

#include <cstdio>
#include <iostream>

namespace tracescope::cli {

int runStats(const Args& args) {
    const auto files = positionals(args, {"--by", "--side", "--names"});
    const std::string by = flagValue(args, "--by", "name");
    const std::string side = flagValue(args, "--side", "all");
    const std::string names = flagValue(args, "--names", "full");
    if (files.size() != 1 || (by != "name" && by != "type") ||
        (side != "host" && side != "device" && side != "all") || (names != "short" && names != "full")) {
        std::fprintf(stderr, "usage: tracescope-cli stats FILE [--by name|type] [--side host|device|all] [--csv|--json] "
                             "[--names short|full]\n");
        return 2;
    }
    auto trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    OpStatsOptions opt;
    opt.grouping = by == "type" ? OpGrouping::ByType : OpGrouping::ByName;
    opt.includeIdle = !hasFlag(args, "--no-idle");
    OpStatsResult res = computeOpStats(*trace, opt);
    // --names short: the short form in "name", the full one beside it (full_name).
    const bool shortNamesWanted = names == "short";
    std::vector<std::string> fullNames;
    for (auto& r : res.rows) fullNames.push_back(r.name);
    if (shortNamesWanted) {
        const std::vector<std::string> shorts = shortNames(std::span<const std::string>(fullNames));
        for (size_t i = 0; i < res.rows.size(); ++i) res.rows[i].name = shorts[i];
    }
    auto fullNameOf = [&](const OpStatsRow& r) -> const std::string& { return fullNames[size_t(&r - res.rows.data())]; };
    auto wanted = [&](const OpStatsRow& r) { return side == "all" || side == opSideName(r.side); };

    if (hasFlag(args, "--json")) {
        nlohmann::json head;
        head["grouping"] = by;
        head["host_total_self_ns"] = res.hostTotalSelfNs;
        head["device_total_self_ns"] = res.deviceTotalSelfNs;
        head["host_idle_ns"] = res.hostIdleNs;
        head["device_idle_ns"] = res.deviceIdleNs;
        head["device_count"] = res.deviceCount;  // devices with activity, over which device idle is summed
        head["host_idle_definition"] = kHostIdleDefinition;
        head["device_idle_definition"] = kDeviceIdleDefinition;
        head["notes"] = res.notes;  // e.g. what XProf's op-name rule left out
        std::vector<const OpStatsRow*> rows;
        for (const auto& r : res.rows)
            if (wanted(r)) rows.push_back(&r);
        printJsonWithRows(head, rows.size(), [&](size_t i) {
            const OpStatsRow& r = *rows[i];
            nlohmann::json row = nlohmann::json{{"side", opSideName(r.side)},
                                  {"name", r.name},
                                  {"type", r.type},
                                  {"is_idle", r.isIdle},
                                  {"occurrences", r.occurrences},
                                  {"total_ns", r.totalNs},
                                  {"avg_ns", static_cast<long long>(r.avgNs + 0.5)},
                                  {"min_ns", r.minNs},
                                  {"max_ns", r.maxNs},
                                  {"self_ns", r.selfNs},
                                  {"avg_self_ns", static_cast<long long>(r.avgSelfNs + 0.5)},
                                  {"self_percent", r.selfPercent},
                                  {"cumulative_self_percent", r.cumulativeSelfPercent}};
            if (shortNamesWanted) row["full_name"] = fullNameOf(r);
            return row;
        });
        return 0;
    }
    if (hasFlag(args, "--csv")) {
        std::cout << "side,name,type,occurrences,total_ns,avg_ns,min_ns,max_ns,self_ns,avg_self_ns,self_percent,"
                     "cumulative_self_percent"
                  << (shortNamesWanted ? ",full_name\n" : "\n");
        std::cout.flush();
        for (const auto& r : res.rows) {
            if (!wanted(r)) continue;
            std::printf("%s,%s,%s,%llu,%lld,%.0f,%lld,%lld,%lld,%.0f,%.3f,%.3f", opSideName(r.side),
                        csvField(r.name).c_str(), csvField(r.type).c_str(), (unsigned long long)r.occurrences,
                        (long long)r.totalNs, r.avgNs, (long long)r.minNs, (long long)r.maxNs, (long long)r.selfNs,
                        r.avgSelfNs, r.selfPercent, r.cumulativeSelfPercent);
            if (shortNamesWanted) std::printf(",%s", csvField(fullNameOf(r)).c_str());
            std::printf("\n");
        }
        return 0;
    }
    std::printf("%-6s %8s %12s %12s %7s %7s  %s\n", "side", "count", "total(us)", "self(us)", "self%", "cum%",
                "name [type]");
    for (const auto& r : res.rows) {
        if (!wanted(r)) continue;
        std::printf("%-6s %8llu %12.3f %12.3f %6.2f%% %6.2f%%  %s [%s]\n", opSideName(r.side),
                    (unsigned long long)r.occurrences, double(r.totalNs) / 1e3, double(r.selfNs) / 1e3, r.selfPercent,
                    r.cumulativeSelfPercent, r.name.c_str(), r.type.c_str());
    }
    for (const auto& n : res.notes) std::printf("Note: %s\n", n.c_str());
    return 0;
}

}  // namespace tracescope::cli
