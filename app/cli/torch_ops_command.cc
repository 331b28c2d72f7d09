// tracescope-cli torch-ops FILE [--json|--csv] [--group-by-shape] [--group-by-stack N] [--sort KEY] [--names short|full]
// PyTorch's key_averages() table (see model/analysis/torch_ops.h); counts are "calls" as
// torch.profiler names them.
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/analysis/short_name.h"
#include "model/analysis/torch_ops.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace tracescope::cli {

namespace {

// `shortName`: the row's short name under --names short ("" otherwise: the full name only).
nlohmann::json rowJson(const TorchOpRow& r, const TorchOpsOptions& o, const std::string& shortName) {
    nlohmann::json j = {{"name", shortName.empty() ? r.name : shortName},
                        {"on_device", r.onDevice},
                        {"calls", r.calls},
                        {"self_cpu_ns", r.selfCpuNs},
                        {"self_cpu_percent", r.selfCpuPercent},
                        {"cpu_total_ns", r.cpuTotalNs},
                        {"cpu_total_percent", r.cpuTotalPercent},
                        {"cpu_avg_ns", static_cast<long long>(r.cpuAvgNs() + 0.5)},
                        {"self_cuda_ns", r.selfCudaNs},
                        {"self_cuda_percent", r.selfCudaPercent},
                        {"cuda_total_ns", r.cudaTotalNs},
                        {"cuda_total_percent", r.cudaTotalPercent},
                        {"cuda_avg_ns", static_cast<long long>(r.cudaAvgNs() + 0.5)}};
    if (!shortName.empty()) j["full_name"] = r.name;
    if (o.groupByInputShapes) j["input_shapes"] = r.inputShapes;
    if (o.groupByStackFrames > 0) j["stack"] = r.stack;
    return j;
}

const char* const kUsage =
    "usage: tracescope-cli torch-ops FILE [--json|--csv] [--group-by-shape] [--group-by-stack N] [--sort KEY]\n"
    "                               [--names short|full]\n";

std::string microseconds(TimeNs ns) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3fus", double(ns) / 1e3);
    return buf;
}

}  // namespace

int runTorchOps(const Args& args) {
    const auto files = positionals(args, {"--group-by-stack", "--sort", "--names"});
    const std::string names = flagValue(args, "--names", "full");
    if (files.size() != 1 || (names != "short" && names != "full")) {
        std::fprintf(stderr, "%s", kUsage);
        return 2;
    }
    TorchOpsOptions opt;
    opt.groupByInputShapes = hasFlag(args, "--group-by-shape");
    const std::string stackN = flagValue(args, "--group-by-stack", "0");
    char* end = nullptr;
    const long n = std::strtol(stackN.c_str(), &end, 10);
    if (end == stackN.c_str() || *end != '\0' || n < 0) {
        std::fprintf(stderr, "tracescope-cli torch-ops: --group-by-stack takes a frame count, not '%s'\n", stackN.c_str());
        return 2;
    }
    opt.groupByStackFrames = size_t(n);
    auto trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    const TorchOpsResult res = computeTorchOps(*trace, opt);
    if (!res.unavailable.empty()) {
        // Not a torch.profiler trace: say why instead of a table of other producers' events.
        const std::string why = "no torch.profiler key_averages() table for " + files[0] + ": it is " + res.unavailable;
        if (hasFlag(args, "--json")) {
            nlohmann::json head;
            head["convention"] = "torch.profiler key_averages";
            head["unavailable"] = "it is " + res.unavailable;
            printJsonWithRows(head, 0, [](size_t) { return nlohmann::json(); });
        } else {
            std::fprintf(stderr, "tracescope-cli torch-ops: %s\n", why.c_str());
        }
        return 0;
    }

    // --names short: the short form in "name" (kernel rows are C++ names), the full one beside it.
    std::vector<std::string> shorts(res.rows.size());
    if (names == "short") {
        std::vector<std::string> full;
        for (const TorchOpRow& r : res.rows) full.push_back(r.name);
        shorts = shortNames(std::span<const std::string>(full));
    }
    std::vector<nlohmann::json> rows;
    rows.reserve(res.rows.size());
    for (size_t i = 0; i < res.rows.size(); ++i) rows.push_back(rowJson(res.rows[i], opt, shorts[i]));
    const std::string sortKey = flagValue(args, "--sort");
    if (!sortKey.empty()) {
        if (!rows.empty() && !rows.front().contains(sortKey)) {
            std::fprintf(stderr, "tracescope-cli torch-ops: --sort takes a column key of the JSON rows, not '%s'\n",
                         sortKey.c_str());
            return 2;
        }
        // Numbers largest first (as torch's sort_by), text in alphabetical order.
        std::stable_sort(rows.begin(), rows.end(), [&](const nlohmann::json& a, const nlohmann::json& b) {
            const auto &x = a[sortKey], &y = b[sortKey];
            return x.is_string() ? x < y : y < x;
        });
    }

    if (hasFlag(args, "--json")) {
        nlohmann::json head;
        head["convention"] = "torch.profiler key_averages";
        head["self_cpu_total_ns"] = res.totalSelfCpuNs;
        head["self_cuda_total_ns"] = res.totalSelfCudaNs;
        head["has_input_shapes"] = res.hasInputShapes;
        head["has_stacks"] = res.hasStacks;
        printJsonWithRows(head, rows.size(), [&](size_t i) { return rows[i]; });
        return 0;
    }
    static const char* const kColumns[] = {"name",           "on_device",          "calls",        "self_cpu_ns",
                                           "self_cpu_percent", "cpu_total_ns",     "cpu_total_percent",
                                           "cpu_avg_ns",     "self_cuda_ns",       "self_cuda_percent",
                                           "cuda_total_ns",  "cuda_total_percent", "cuda_avg_ns"};
    if (hasFlag(args, "--csv")) {
        std::string header;
        for (const char* c : kColumns) header += std::string(header.empty() ? "" : ",") + c;
        if (opt.groupByInputShapes) header += ",input_shapes";
        if (opt.groupByStackFrames > 0) header += ",stack";
        if (names == "short") header += ",full_name";
        std::cout << header << '\n';
        for (const auto& r : rows) {
            std::string line;
            for (const char* c : kColumns) {
                const auto& v = r[c];
                line += line.empty() ? "" : ",";
                line += v.is_string() ? csvField(v.get<std::string>()) : v.dump();
            }
            if (opt.groupByInputShapes) line += "," + csvField(r["input_shapes"].get<std::string>());
            if (opt.groupByStackFrames > 0) line += "," + csvField(r["stack"].get<std::string>());
            if (names == "short") line += "," + csvField(r["full_name"].get<std::string>());
            std::cout << line << '\n';
        }
        return 0;
    }
    // The layout of torch.profiler's table().
    std::printf("%-60s %9s %12s %9s %12s %12s %12s %9s %12s %12s %8s\n", "Name", "Self CPU %", "Self CPU",
                "CPU tot %", "CPU total", "CPU avg", "Self CUDA", "Self CUDA%", "CUDA total", "CUDA avg", "# Calls");
    for (const auto& r : rows) {
        std::string name = r["name"].get<std::string>();
        if (name.size() > 60) name = name.substr(0, 57) + "...";
        std::printf("%-60s %8.2f%% %12s %8.2f%% %12s %12s %12s %8.2f%% %12s %12s %8llu\n", name.c_str(),
                    r["self_cpu_percent"].get<double>(), microseconds(r["self_cpu_ns"].get<TimeNs>()).c_str(),
                    r["cpu_total_percent"].get<double>(), microseconds(r["cpu_total_ns"].get<TimeNs>()).c_str(),
                    microseconds(r["cpu_avg_ns"].get<TimeNs>()).c_str(),
                    microseconds(r["self_cuda_ns"].get<TimeNs>()).c_str(), r["self_cuda_percent"].get<double>(),
                    microseconds(r["cuda_total_ns"].get<TimeNs>()).c_str(),
                    microseconds(r["cuda_avg_ns"].get<TimeNs>()).c_str(), r["calls"].get<unsigned long long>());
    }
    std::printf("Self CPU time total: %s\nSelf CUDA time total: %s\n", microseconds(res.totalSelfCpuNs).c_str(),
                microseconds(res.totalSelfCudaNs).c_str());
    return 0;
}

}  // namespace tracescope::cli
