// tracescope-cli memory FILE [--json|--csv [--breakdown]] [--timeline-csv OUT.csv]
// The memory profile (model/analysis/memory_profile.h): per memory id the summary, the
// breakdown of the memory in use at the peak and the leak hints; --timeline-csv writes
// every event of the timeline (never sampled).
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/analysis/memory_profile.h"

#include <cstdio>
#include <fstream>
#include <iostream>

namespace tracescope::cli {

namespace {

nlohmann::json bytesOrNull(int64_t v) { return v >= 0 ? nlohmann::json(v) : nlohmann::json(nullptr); }

template <typename T>
nlohmann::json orNull(const std::optional<T>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json breakdownJson(const MemoryBreakdownRow& r) {
    return {{"op", r.op},
            {"allocation_bytes", r.allocationBytes},
            {"requested_bytes", bytesOrNull(r.requestedBytes)},
            {"occurrences", r.occurrences},
            {"region_type", r.regionType},
            {"data_type", r.dataType},
            {"shape", r.shape},
            {"special", r.special}};
}

nlohmann::json profileJson(const MemoryIdProfile& p) {
    nlohmann::json j = {{"memory_id", p.memoryId},
                        {"source", memorySourceName(p.source)},
                        {"events", p.timeline.size()},
                        {"allocations", p.allocations},
                        {"deallocations", p.deallocations},
                        {"peak_bytes", p.peakBytes},
                        {"peak_time_ns", p.peakTimeNs},
                        {"peak_step", orNull(p.peakStep)},
                        {"peak_reserved_bytes", orNull(p.peakReservedBytes)},
                        {"capacity_bytes", orNull(p.capacityBytes)},
                        {"stack_bytes_at_peak", p.stackAtPeak},
                        {"heap_bytes_at_peak", p.heapAtPeak},
                        {"free_bytes_at_peak", orNull(p.freeAtPeak)},
                        {"fragmentation_at_peak", orNull(p.fragmentationAtPeak)},
                        {"addresses", p.hasAddresses},
                        {"alive_at_end", p.hasAddresses ? nlohmann::json(p.aliveAtEnd) : nlohmann::json(nullptr)},
                        {"alive_at_end_bytes", p.hasAddresses ? nlohmann::json(p.aliveAtEndBytes) : nlohmann::json(nullptr)},
                        {"notes", p.notes}};
    if (p.lifetimePeakBytes) j["lifetime_peak_bytes"] = *p.lifetimePeakBytes;
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : p.breakdown) rows.push_back(breakdownJson(r));
    j["breakdown"] = std::move(rows);
    nlohmann::json leaks = nlohmann::json::array();
    for (const auto& h : p.leaks)
        leaks.push_back({{"op", h.op}, {"allocations", h.allocations}, {"bytes", h.bytes}, {"steps", h.steps}});
    j["leak_hints"] = std::move(leaks);
    return j;
}

std::string optText(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : std::string(); }

bool writeTimelineCsv(const Trace& trace, const MemoryProfileResult& res, const std::string& path) {
    std::ofstream out(path, std::ios::binary);
    if (!out) return false;
    out << "memory_id,time_ns,event,heap_bytes,stack_bytes,free_bytes,reserved_bytes,fragmentation,"
           "requested_bytes,allocation_bytes,address,op,step\n";
    for (const MemoryIdProfile& p : res.ids) {
        const std::string id = csvField(p.memoryId);
        for (const MemorySnapshot& s : p.timeline) {
            out << id << ',' << s.time << ',' << memoryEventKindName(s.kind) << ',' << s.heapBytes << ','
                << s.stackBytes << ',' << (s.freeBytes >= 0 ? std::to_string(s.freeBytes) : std::string()) << ','
                << (s.reservedBytes >= 0 ? std::to_string(s.reservedBytes) : std::string()) << ',';
            if (s.fragmentation >= 0) out << s.fragmentation;
            out << ',' << (s.requestedBytes >= 0 ? std::to_string(s.requestedBytes) : std::string()) << ','
                << s.allocationBytes << ',' << (s.address ? std::to_string(s.address) : std::string()) << ','
                << csvField(std::string(trace.str(s.op))) << ','
                << (s.step >= 0 ? std::to_string(s.step) : std::string()) << '\n';
        }
    }
    return bool(out.flush());
}

double mib(int64_t b) { return double(b) / (1024.0 * 1024.0); }

}  // namespace

int runMemory(const Args& args) {
    const auto files = positionals(args, {"--timeline-csv"});
    if (files.size() != 1) {
        std::fprintf(stderr, "usage: tracescope-cli memory FILE [--json|--csv [--breakdown]] [--timeline-csv OUT.csv]\n");
        return 2;
    }
    auto trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    const MemoryProfileResult res = computeMemoryProfile(*trace);
    const std::string timelineCsv = flagValue(args, "--timeline-csv");
    if (!timelineCsv.empty() && !writeTimelineCsv(*trace, res, timelineCsv)) {
        std::fprintf(stderr, "tracescope-cli: cannot write %s\n", timelineCsv.c_str());
        return 1;
    }
    if (hasFlag(args, "--json")) {
        nlohmann::json j;
        nlohmann::json ids = nlohmann::json::array();
        for (const auto& p : res.ids) ids.push_back(profileJson(p));
        j["memory_ids"] = std::move(ids);
        j["step_count"] = res.stepCount;
        j["how_to_record"] = res.howToRecord.empty() ? nlohmann::json(nullptr) : nlohmann::json(res.howToRecord);
        printJson(j);
        return 0;
    }
    if (hasFlag(args, "--csv") && hasFlag(args, "--breakdown")) {
        std::cout << "memory_id,op,allocation_bytes,requested_bytes,occurrences,region_type,data_type,shape\n";
        for (const auto& p : res.ids)
            for (const auto& r : p.breakdown)
                std::cout << csvField(p.memoryId) << ',' << csvField(r.op) << ',' << r.allocationBytes << ','
                          << (r.requestedBytes >= 0 ? std::to_string(r.requestedBytes) : std::string()) << ','
                          << r.occurrences << ',' << csvField(r.regionType) << ',' << csvField(r.dataType) << ','
                          << csvField(r.shape) << '\n';
        return 0;
    }
    if (hasFlag(args, "--csv")) {
        std::cout << "memory_id,source,allocations,deallocations,peak_bytes,peak_time_ns,peak_step,"
                     "peak_reserved_bytes,lifetime_peak_bytes,capacity_bytes,stack_bytes_at_peak,"
                     "heap_bytes_at_peak,free_bytes_at_peak,fragmentation_at_peak,alive_at_end,alive_at_end_bytes\n";
        for (const auto& p : res.ids) {
            std::cout << csvField(p.memoryId) << ',' << memorySourceName(p.source) << ',' << p.allocations << ','
                      << p.deallocations << ',' << p.peakBytes << ',' << p.peakTimeNs << ',' << optText(p.peakStep)
                      << ',' << optText(p.peakReservedBytes) << ',' << optText(p.lifetimePeakBytes) << ','
                      << optText(p.capacityBytes) << ',' << p.stackAtPeak << ',' << p.heapAtPeak << ','
                      << optText(p.freeAtPeak) << ',';
            if (p.fragmentationAtPeak) std::cout << *p.fragmentationAtPeak;
            std::cout << ',' << p.aliveAtEnd << ',' << p.aliveAtEndBytes << '\n';
        }
        return 0;
    }
    if (res.ids.empty()) {
        std::printf("%s\n", res.howToRecord.c_str());
        return 0;
    }
    for (const auto& p : res.ids) {
        std::printf("%s (%s): %llu allocations, %llu deallocations, peak %.2f MiB at %.6f ms", p.memoryId.c_str(),
                    memorySourceName(p.source), (unsigned long long)p.allocations,
                    (unsigned long long)p.deallocations, mib(p.peakBytes), double(p.peakTimeNs) / 1e6);
        if (p.peakReservedBytes) std::printf(", reserved peak %.2f MiB", mib(*p.peakReservedBytes));
        if (p.lifetimePeakBytes) std::printf(", lifetime peak %.2f MiB", mib(*p.lifetimePeakBytes));
        if (p.fragmentationAtPeak) std::printf(", fragmentation %.1f%%", 100.0 * *p.fragmentationAtPeak);
        std::printf("\n");
        for (size_t i = 0; i < p.breakdown.size() && i < 10; ++i) {
            const auto& r = p.breakdown[i];
            const std::string count = r.special ? std::string() : std::to_string(r.occurrences) + " x";
            std::printf("  %10.2f MiB %8s  %s %s %s %s\n", mib(r.allocationBytes), count.c_str(), r.op.c_str(), r.regionType.c_str(), r.dataType.c_str(),
                        r.shape.c_str());
        }
        if (p.breakdown.size() > 10) std::printf("  ... %zu more rows (--json)\n", p.breakdown.size() - 10);
        for (size_t i = 0; i < p.leaks.size() && i < 5; ++i)
            std::printf("  leak hint: %s: %llu allocations alive at the end, %.2f MiB, made in %llu steps\n",
                        p.leaks[i].op.c_str(), (unsigned long long)p.leaks[i].allocations, mib(p.leaks[i].bytes),
                        (unsigned long long)p.leaks[i].steps);
        for (const auto& n : p.notes) std::printf("  Note: %s\n", n.c_str());
    }
    return 0;
}

}  // namespace tracescope::cli
