// tracescope-cli hlo-memory FILE [--program NAME] [--json|--csv]
// The compiler's memory view of the trace's XLA programs (model/analysis/hlo_memory.h), as
// XProf's memory viewer: peak heap from the buffer assignment and the buffers live at the peak.
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/results/hlo_results.h"

#include <cstdio>
#include <iostream>

namespace tracescope::cli {

namespace {

const char* kUsage =
    "usage: tracescope-cli hlo-memory FILE [--program NAME] [--json|--csv]\n"
    "  The compiler's memory view of an XSpace's XLA programs (XProf's memory viewer), from each program's\n"
    "  buffer assignment: peak heap = the peak of XLA's heap simulation over the HLO sequence + the\n"
    "  allocations that live for the whole run (entry parameters, results that may live out, constants);\n"
    "  with --program, the buffers live at the peak, largest first: size, kind, shape, HLO instruction,\n"
    "  framework op and source line.\n"
    "  --program NAME  one program: its module name or \"module(id)\"\n"
    "  --json   programs (peak_bytes, simulated_peak_bytes, parameter_bytes, live_out_bytes, ...) and, with\n"
    "           --program, live_at_peak and heap_bytes (the heap after each event of the simulation)\n"
    "  --csv    a row per program, or with --program a row per buffer live at the peak\n";

nlohmann::json bufferJson(const HloLiveBuffer& b) {
    return {{"logical_buffer", b.logicalBufferId}, {"bytes", b.bytes},         {"kind", hloBufferKindName(b.kind)},
            {"instruction", b.instruction},       {"shape", b.shape},         {"opcode", b.opcode},
            {"framework_op", b.frameworkOp},      {"source", b.source.empty() ? nlohmann::json() : nlohmann::json(b.source)}};
}

nlohmann::json viewJson(const HloProgram& p, const HloMemoryView& v) {
    return {{"program", p.displayName()},
            {"module", p.moduleName()},
            {"program_id", p.programId()},
            {"available", v.available},
            {"peak_bytes", v.peakBytes},
            {"simulated_peak_bytes", v.simulatedPeakBytes},
            {"whole_run_bytes", v.wholeRunBytes},
            {"parameter_bytes", v.parameterBytes},
            {"live_out_bytes", v.liveOutBytes},
            {"total_allocation_bytes", v.totalAllocationBytes},
            {"notes", v.notes}};
}

}  // namespace

int runHloMemory(const Args& args) {
    if (hasFlag(args, "--help") || hasFlag(args, "-h")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const auto files = positionals(args, {"--program"});
    if (files.size() != 1) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    std::shared_ptr<const Trace> trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    std::shared_ptr<ResultStore> store = ResultStore::of(trace);
    const std::shared_ptr<const HloProgramIndex> programs = hloProgramsOf(*store);
    const std::string wanted = flagValue(args, "--program");
    std::vector<const HloProgram*> chosen;
    for (const auto& p : programs->programs)
        if (wanted.empty() || p->moduleName() == wanted || p->displayName() == wanted) chosen.push_back(p.get());
    if (!wanted.empty() && chosen.empty()) {
        std::fprintf(stderr, "hlo-memory: no XLA program named '%s' in %s\n", wanted.c_str(), files[0].c_str());
        return 1;
    }
    if (programs->programs.empty() && programs->problems.empty())
        std::fprintf(stderr, "hlo-memory: %s holds no XLA program (HLO)\n", files[0].c_str());
    else if (programs->programs.empty())
        std::fprintf(stderr, "hlo-memory: no XLA program (HLO) of %s could be read\n", files[0].c_str());
    const bool one = !wanted.empty() && chosen.size() == 1;
    if (hasFlag(args, "--json")) {
        nlohmann::json list = nlohmann::json::array();
        for (const HloProgram* p : chosen) {
            const std::shared_ptr<const HloMemoryResult> m = hloMemoryOf(*store, *p);
            nlohmann::json j = viewJson(*p, m->view);
            if (one) {
                nlohmann::json live = nlohmann::json::array();
                for (const HloLiveBuffer& b : m->view.liveAtPeak) live.push_back(bufferJson(b));
                j["live_at_peak"] = std::move(live);
                j["heap_bytes"] = m->view.heapBytes;
                j["peak_event"] = m->view.peakEvent;
            }
            list.push_back(std::move(j));
        }
        printJson({{"programs", std::move(list)}, {"notes", programs->problems}});
        return exitStatus(args, 0);
    }
    if (hasFlag(args, "--csv")) {
        if (one) {
            std::cout << "logical_buffer,bytes,kind,instruction,shape,opcode,framework_op,source\n";
            for (const HloLiveBuffer& b : hloMemoryOf(*store, *chosen[0])->view.liveAtPeak)
                std::cout << b.logicalBufferId << ',' << b.bytes << ',' << hloBufferKindName(b.kind) << ','
                          << csvField(b.instruction) << ',' << csvField(b.shape) << ',' << csvField(b.opcode) << ','
                          << csvField(b.frameworkOp) << ',' << csvField(b.source) << '\n';
        } else {
            std::cout << "program,peak_bytes,simulated_peak_bytes,parameter_bytes,live_out_bytes,total_allocation_bytes\n";
            for (const HloProgram* p : chosen) {
                const HloMemoryView& v = hloMemoryOf(*store, *p)->view;
                std::cout << csvField(p->displayName()) << ',' << v.peakBytes << ',' << v.simulatedPeakBytes << ','
                          << v.parameterBytes << ',' << v.liveOutBytes << ',' << v.totalAllocationBytes << '\n';
            }
        }
        return exitStatus(args, 0);
    }
    std::printf("%-32s %14s %14s %14s %14s\n", "program", "peak heap", "simulated", "parameters", "live out");
    for (const HloProgram* p : chosen) {
        const HloMemoryView& v = hloMemoryOf(*store, *p)->view;
        std::printf("%-32s %11.2f MiB %10.2f MiB %10.2f MiB %10.2f MiB\n", p->displayName().c_str(),
                    double(v.peakBytes) / 1048576, double(v.simulatedPeakBytes) / 1048576,
                    double(v.parameterBytes) / 1048576, double(v.liveOutBytes) / 1048576);
    }
    if (one) {
        std::printf("\nLive at the peak:\n%12s  %-10s %-40s %-28s %s\n", "MiB", "kind", "instruction", "shape", "framework op");
        for (const HloLiveBuffer& b : hloMemoryOf(*store, *chosen[0])->view.liveAtPeak)
            std::printf("%12.3f  %-10s %-40s %-28s %s\n", double(b.bytes) / 1048576, hloBufferKindName(b.kind),
                        b.instruction.c_str(), b.shape.c_str(), b.frameworkOp.c_str());
    }
    for (const std::string& n : programs->problems) std::printf("Note: %s\n", n.c_str());
    return exitStatus(args, 0);
}

}  // namespace tracescope::cli
