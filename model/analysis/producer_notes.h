// What a producer's file does not carry, named for the page that would otherwise show a zero:
// e.g. XProf's trace JSON without kernel_details (no launch parameters), without
// MemoryAllocation events (no memory numbers), a TF1 step without the GPU tracer (no kernels).
// Plain sentences; the views and the CLI (`notes`) show them as they are.
#pragma once

#include "model/analysis/op_classify.h"

#include <string>
#include <vector>

namespace tracescope {

struct KernelStatsResult;
struct StepsResult;

std::vector<std::string> kernelStatsNotes(const ClassifiedTrace& ct, const KernelStatsResult& r);
// Without steps: why none was found. With steps: how the breakdown counts host events where that
// is not plain time-window classification or differs from XProf's definition.
std::vector<std::string> stepsNotes(const ClassifiedTrace& ct, const StepsResult& steps);
// Notes that hold for the whole file (e.g. memory events the producer leaves out).
std::vector<std::string> fileNotes(const ClassifiedTrace& ct);

// What tf.data's events in the file allow: iterator events, the *Produce/*Consume hand-off
// events that link an asynchronous iterator's call to the element its producer thread made,
// and whether any iterator is asynchronous (Prefetch, ParallelMap, ...: the ones with hand-offs).
struct TfDataEventFacts {
    size_t iteratorEvents = 0;
    size_t handOffEvents = 0;
    bool asyncIterators = false;
};
std::vector<std::string> tfDataNotes(const ClassifiedTrace& ct, const TfDataEventFacts& facts);

}  // namespace tracescope
