#include "model/analysis/producer_notes.h"

#include "model/analysis/kernel_stats.h"
#include "model/analysis/steps.h"

namespace tracescope {

namespace {

bool anyDeviceTrack(const ClassifiedTrace& ct) {
    for (uint8_t d : ct.trackOnDevice)
        if (d) return true;
    return false;
}

bool isJson(const ClassifiedTrace& ct) { return ct.trace->format == "chrome-json"; }

}  // namespace

std::vector<std::string> kernelStatsNotes(const ClassifiedTrace& ct, const KernelStatsResult& r) {
    std::vector<std::string> notes;
    if (r.kernelCount == 0) {
        switch (ct.producer) {
        case Producer::XProf:
            if (!anyDeviceTrack(ct))
                notes.push_back("No /device: plane in this profile: it recorded host activity only (a CPU run, or "
                                "the GPU tracer was off), so there are no kernels.");
            break;
        case Producer::Tf1:
            if (!anyDeviceTrack(ct))
                notes.push_back("TF1 step stats without the GPU tracer's devices (\u2026/stream:all, \u2026/memcpy): "
                                "the run recorded no kernels (a CPU device, or a trace level below FULL_TRACE).");
            break;
        case Producer::Generic:
            notes.push_back("Not a Kineto, XProf or TF1 trace: no event is known to be a GPU kernel in this file.");
            break;
        case Producer::Kineto:
            notes.push_back("No kernel events in this PyTorch trace (a CPU-only profile, or CUDA activities were "
                            "not recorded).");
            break;
        }
        return notes;
    }
    bool anyParams = false;
    for (const KernelStatsRow& row : r.rows)
        if (row.grid != Dim3{1, 1, 1} || row.block != Dim3{1, 1, 1} || row.registersPerThread != 0 ||
            row.sharedMemBytes != 0) {
            anyParams = true;
            break;
        }
    if (!anyParams) {
        if (ct.producer == Producer::XProf && isJson(ct))
            notes.push_back("This trace JSON carries no kernel_details: grid, block, registers and shared memory "
                            "are unknown (the .xplane.pb of the run has them).");
        else if (ct.producer == Producer::Tf1)
            notes.push_back("TF1's GPU tracer records no launch parameters: grid, block, registers and shared "
                            "memory are unknown.");
        else
            notes.push_back("The kernels carry no launch parameters in this file: grid, block, registers and "
                            "shared memory are unknown.");
    }
    return notes;
}

std::vector<std::string> stepsNotes(const ClassifiedTrace& ct, const StepsResult& steps) {
    std::vector<std::string> notes;
    if (!steps.steps.empty()) {
        // How the step breakdown is made where XProf makes it otherwise, or alike but not by time.
        if (ct.isXSpace && anyDeviceTrack(ct))
            notes.push_back("Host compute, Kernel launch and Input of a step count the host events in the step's "
                            "time window; XProf (2.24) makes a GPU profile's step breakdown from device events "
                            "only, so its host categories are 0 there.");
        else if (steps.hostGroups)
            notes.push_back("A step's host events are those XProf groups with its step annotation (nested in it, "
                            "or linked to it by producer/consumer stats), not every event in its time window.");
        return notes;
    }
    switch (ct.producer) {
    case Producer::XProf:
        notes.push_back("No step in this profile: no device Steps line and no step annotation (an event with "
                        "step_num, e.g. jax.profiler.StepTraceAnnotation or tf.profiler.experimental.Trace).");
        break;
    case Producer::Tf1:
        notes.push_back("TF1 step stats describe one Session.run and carry no step marker: no step breakdown.");
        break;
    case Producer::Kineto:
        break;  // the recommendations say how to add ProfilerStep markers
    case Producer::Generic:
        notes.push_back("Not a Kineto, XProf or TF1 trace: no event is known to mark a step in this file.");
        break;
    }
    return notes;
}

std::vector<std::string> fileNotes(const ClassifiedTrace& ct) {
    std::vector<std::string> notes;
    if (ct.producer == Producer::XProf && isJson(ct) && ct.trace->strings.find("MemoryAllocation") == kNoIndex)
        notes.push_back("XProf's trace JSON leaves out the allocator events (MemoryAllocation/MemoryDeallocation) "
                        "and the TraceMe producer/consumer events (*Produce/*Consume): memory numbers and tf.data's "
                        "producer/consumer links need the .xplane.pb.");
    if (ct.producer == Producer::XProf && isJson(ct) && !anyDeviceTrack(ct))
        notes.push_back("XProf's trace JSON drops the stats XProf groups host events into steps by (_r, _p, _c): "
                        "the step breakdown counts the host events in each step's time window; the .xplane.pb "
                        "gives XProf's grouping.");
    if (ct.producer == Producer::Tf1 && isJson(ct))
        notes.push_back("TF1's timeline JSON has whole microseconds and no allocator series unless written with "
                        "show_memory=True: the RunMetadata .pb has ns times and the memory records.");
    return notes;
}

std::vector<std::string> tfDataNotes(const ClassifiedTrace& ct, const TfDataEventFacts& facts) {
    std::vector<std::string> notes;
    // XProf's trace JSON exporter treats the TraceMe producer/consumer events as internal and
    // leaves them out (the XSpace keeps them): an asynchronous iterator's call is then not linked
    // to the work its producer thread did for the element, the critical path stops at it, and the
    // bottleneck is that iterator (e.g. Prefetch) rather than what fed it (e.g. Map).
    if (ct.producer == Producer::XProf && isJson(ct) && facts.iteratorEvents > 0 && facts.handOffEvents == 0 &&
        facts.asyncIterators)
        notes.push_back("This trace JSON has no tf.data producer/consumer hand-off events (*Produce/*Consume, which "
                        "XProf's JSON export leaves out): the critical path and bottleneck are computed without "
                        "cross-thread hand-offs, so they stop at the asynchronous iterators (Prefetch, ParallelMap, "
                        "...) and miss the work their producer threads did. Open the run's .xplane.pb for the "
                        "full critical path.");
    return notes;
}

}  // namespace tracescope
