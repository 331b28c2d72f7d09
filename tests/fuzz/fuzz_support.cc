#include "tests/fuzz/fuzz_support.h"

#include "model/analysis/call_tree.h"
#include "model/analysis/collective_stragglers.h"
#include "model/analysis/critical_path.h"
#include "model/analysis/cuda_api_summary.h"
#include "model/analysis/gpu_advice.h"
#include "model/analysis/gpu_utilization.h"
#include "model/analysis/input_pipeline.h"
#include "model/analysis/kernel_stats.h"
#include "model/analysis/memory_downsample.h"
#include "model/analysis/memory_profile.h"
#include "model/analysis/memory_tracks.h"
#include "model/analysis/op_classify.h"
#include "model/analysis/op_stats.h"
#include "model/analysis/overview.h"
#include "model/analysis/pod.h"
#include "model/analysis/run_diff.h"
#include "model/analysis/scope_tree.h"
#include "model/analysis/tf_data.h"
#include "model/analysis/torch_ops.h"
#include "model/export/call_stack_export.h"
#include "model/export/chrome_json_writer.h"
#include "model/import/workers.h"
#include "model/query/flame_layout.h"
#include "model/trace/merge_workers.h"
#include "model/trace/trace_builder.h"

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
    (void)computeKernelStats(ct, {.maxRows = 2, .keepRows = 1});  // the bounded, cut paths
    (void)computeCudaApiSummary(ct);
    // Why the GPU waits: HTA's breakdowns, launches, queues, the critical path and the advice.
    (void)computeGpuUtilization(ct);
    {
        const StepsResult steps = findSteps(ct);
        const LaunchStats launches = computeLaunchStats(ct);
        const QueueLengthResult queues = computeQueueLength(ct);
        (void)computeCriticalPaths(ct, steps);
        (void)computeGpuAdvice(ct, steps, launches, queues, {.gapThresholdNs = 1});
    }
    // Collectives: calls, sizes, bandwidths, overlap; the trace matched against itself as two ranks.
    {
        auto collectives = std::make_shared<const CollectivesResult>(computeCollectives(ct));
        (void)matchCollectives({{"a", 0, 0, collectives}, {"b", 1, 7, collectives}});
    }
    // Call stacks: the whole trace by thread and a range over its middle, inverted, pivoted on
    // the first frame, laid out, and written as folded stacks and a pprof profile.
    {
        CallTreeOptions o;
        o.byThread = true;
        const CallTree whole = computeCallTree(ct, o);
        o.byThread = false;
        o.range = std::make_pair(trace.startNs + trace.spanNs() / 4, trace.startNs + trace.spanNs() / 2);
        const CallTree part = computeCallTree(ct, o);
        for (const CallTree* t : {&whole, &part}) {
            const CallTree up = invertCallTree(*t);
            (void)frameTable(*t);
            (void)foldedStacks(*t, CallMetric::Self);
            (void)foldedStacks(up, CallMetric::Device, true);
            (void)pprofProfileBytes(*t);
            (void)layoutFlame(up, {.width = 640, .search = "a"});
            if (t->nodes.size() > 1) {
                const uint32_t first = t->root().children.front();
                (void)pivotCallTree(*t, t->nodes[first].name);
                (void)slicesOfCallNode(ct, *t, first, 10);
                FlameLayoutOptions layout;
                layout.metric = CallMetric::Count;
                layout.focus = first;
                layout.width = 640;
                (void)layoutFlame(*t, layout);
            }
        }
    }
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
        std::vector<MemoryQuantity> quantities = memoryChartLayers(m, true);
        quantities.push_back(MemoryQuantity::Fragmentation);
        (void)memoryRuns(m, quantities, m.timeline.front().time, m.timeline.back().time, 100);
        for (size_t s = 0; s < m.timeline.size(); s += 1 + m.timeline.size() / 8) (void)memoryEventInfo(trace, m, s);
    }

    // The export must always be readable again.
    ChromeJsonWriteResult written;
    const std::string json = chromeJsonString(trace, &written);
    if (!written.ok) return;
    const std::string path =
        writeScratchFile(reinterpret_cast<const uint8_t*>(json.data()), json.size(), ".export.json");
    ImportResult again = importTrace(path, fuzzImportOptions());
    if (!again.ok()) {
        std::fprintf(stderr, "exported JSON does not import again: %s\n", again.error.c_str());
        std::abort();
    }
}

namespace {

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "%s\n", what);
    std::abort();
}

// One step, a host op, a compute kernel and an NCCL kernel (Kineto's JSON as PyTorch writes it).
const Trace& smallKinetoTrace() {
    static const std::unique_ptr<Trace> t = [] {
        const std::string json = R"({"traceEvents":[
{"ph":"M","name":"process_name","pid":0,"args":{"name":"GPU 0"}},
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":100,"tid":1,"ts":0,"dur":100},
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":100,"tid":1,"ts":5,"dur":20},
{"ph":"X","cat":"kernel","name":"gemm_kernel","pid":0,"tid":7,"ts":10,"dur":50,"args":{"device":0,"stream":7}},
{"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce_Sum_f32_RING_LL","pid":0,"tid":8,"ts":40,"dur":30,"args":{"device":0,"stream":8}}]})";
        const std::string path =
            writeScratchFile(reinterpret_cast<const uint8_t*>(json.data()), json.size(), ".small.json");
        ImportResult r = importTrace(path, fuzzImportOptions());
        if (!r.ok()) fail("the small Kineto trace does not import");
        return std::move(r.trace);
    }();
    return *t;
}

const Trace& emptyTrace() {
    static const std::unique_ptr<Trace> t = TraceBuilder("empty").finish(nullptr, 1);
    return *t;
}

// A run compared with itself: no new or vanished rows, every delta 0.
void checkSelfDiff(const RunDiff& d) {
    if (d.newOps || d.vanishedOps || d.newKernels || d.vanishedKernels || d.aSteps != d.bSteps)
        fail("a run diffed with itself has new or vanished rows");
    for (const auto* rows : {&d.steps, &d.ops, &d.kernels})
        for (const DiffRow& r : *rows)
            if (r.deltaNs != 0 || r.deltaPerStepNs != 0 || r.status != DiffStatus::Both)
                fail("a run diffed with itself has a delta");
}

// Two workers loaded from one file: every step on both, no straggler.
void checkTwinPod(const PodResult& pod) {
    if (pod.workers.size() != 2) fail("a two-worker run has not two workers");
    for (const PodStep& ps : pod.steps)
        if (ps.workerCount != 2 || ps.lagNs != 0 || ps.slowestNs != ps.fastestNs)
            fail("two workers of one file differ in a step");
}

}  // namespace

void runRunAnalyses(const std::string& path, const Trace& trace) {
    // pod (the CLI's path): importWorkers, then computePod on the workers' own traces.
    WorkerImportOptions wo;
    wo.base = fuzzImportOptions();
    {
        MultiWorkerResult one = importWorkers({path}, wo);
        if (one.ok()) (void)computePod(one.run);
    }
    const std::string copy = path + ".twin";
    {
        std::error_code ec;
        std::filesystem::copy_file(path, copy, std::filesystem::copy_options::overwrite_existing, ec);
        if (ec) fail("cannot copy the scratch file");
    }
    MultiWorkerResult two = importWorkers({path, copy}, wo);
    if (two.ok() && two.run.loadedCount() == 2) {
        const PodResult own = computePod(two.run);
        checkTwinPod(own);
        // The GUI's path: aligned on first steps, merged, the pod over the merged view; the same steps.
        alignWorkersOnFirstStep(two.run);
        const std::shared_ptr<const Trace> view = mergeWorkers(two.run);
        const PodResult merged = computePod(two.run, {}, view.get());
        checkTwinPod(merged);
        if (merged.steps.size() != own.steps.size()) fail("the pod over the merged view has other steps");
        // An offset set by hand (the pod page's clock editor): a new view from the old.
        std::vector<TimeNs> offsets = {two.run.workers[0].offsetNs, two.run.workers[1].offsetNs + 1'000'000};
        const std::shared_ptr<const Trace> moved = remergeWorkers(*view, two.run, offsets);
        (void)computePod(two.run, {}, moved.get());
    }

    // diff: with itself, an empty trace and a small Kineto trace, both ways.
    checkSelfDiff(diffRuns(trace, trace));
    for (const Trace* other : {&emptyTrace(), &smallKinetoTrace()}) {
        (void)diffRuns(trace, *other);
        (void)diffRuns(*other, trace);
    }
}

}  // namespace tracescope::fuzz
