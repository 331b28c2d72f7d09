#include "tests/fuzz/fuzz_support.h"

#include "model/analysis/input_pipeline.h"
#include "model/analysis/kernel_stats.h"
#include "model/analysis/memory_downsample.h"
#include "model/analysis/memory_profile.h"
#include "model/analysis/memory_tracks.h"
#include "model/analysis/op_classify.h"
#include "model/analysis/op_stats.h"
#include "model/analysis/overview.h"
#include "model/analysis/scope_tree.h"
#include "model/analysis/tf_data.h"
#include "model/analysis/torch_ops.h"
#include "model/export/chrome_json_writer.h"

#include <unistd.h>

#include <filesystem>

namespace tracescope::fuzz {

std::string scratchDir() {
    if (const char* d = std::getenv("TRACESCOPE_FUZZ_TMP"); d && *d) return d;
    std::error_code ec;
    if (std::filesystem::is_directory("/dev/shm", ec)) return "/dev/shm";
    if (const char* d = std::getenv("TMPDIR"); d && *d) return d;
    return "/tmp";
}

std::string writeScratchFile(const uint8_t* data, size_t size, const std::string& suffix) {
    const std::string path = scratchDir() + "/tracescope-fuzz-" + std::to_string(getpid()) + suffix;
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) {
        std::perror(path.c_str());
        std::abort();
    }
    if (size && std::fwrite(data, 1, size, f) != size) std::abort();
    std::fclose(f);
    return path;
}

ImportOptions fuzzImportOptions() {
    ImportOptions o;
    o.threads = 1;
    return o;
}

void runAllAnalyses(const Trace& trace) {
    const ClassifiedTrace ct = classifyTrace(trace);
    for (OpGrouping g : {OpGrouping::ByName, OpGrouping::ByType}) {
        OpStatsOptions o;
        o.grouping = g;
        (void)computeOpStats(ct, o);
    }
    (void)computeKernelStats(ct);
    (void)computeOverview(ct);
    (void)computeInputPipeline(ct);
    (void)computeScopeTree(ct);
    (void)computeTfData(ct);
    TorchOpsOptions to;
    (void)computeTorchOps(ct, to);
    to.groupByInputShapes = true;
    (void)computeTorchOps(ct, to);
    to.groupByInputShapes = false;
    to.groupByStackFrames = 3;
    (void)computeTorchOps(ct, to);
    const MemoryProfileResult memory = computeMemoryProfile(trace);
    (void)memoryCounterTracks(memory);
    for (size_t i = 0; i < memory.ids.size(); ++i) {
        const MemoryIdProfile& m = memory.ids[i];
        if (m.timeline.empty()) continue;
        (void)memoryPointsToDraw(m, m.timeline.front().time, m.timeline.back().time, 100);
        for (size_t s = 0; s < m.timeline.size(); s += 1 + m.timeline.size() / 8) (void)memoryEventInfo(trace, m, s);
    }

    // The export must always be readable again.
    ChromeJsonWriteResult written;
    const std::string json = chromeJsonString(trace, &written);
    if (!written.ok) return;
    const std::string path = writeScratchFile(reinterpret_cast<const uint8_t*>(json.data()), json.size(), ".export.json");
    ImportResult again = importTrace(path, fuzzImportOptions());
    if (!again.ok()) {
        std::fprintf(stderr, "exported JSON does not import again: %s\n", again.error.c_str());
        std::abort();
    }
}

}  // namespace tracescope::fuzz
