// The results every page shares, as results of the trace's store: the classification of its
// slices (op_classify.h) and its memory profile (memory_profile.h; the Memory page and the
// timeline's memory tracks). Asked with get() from a computation or the CLI, or requested by a
// page; the key names are those the store counts (ResultStore::computations).
#pragma once

#include "model/analysis/memory_profile.h"
#include "model/analysis/op_classify.h"
#include "model/results/result_store.h"

namespace tracescope {

inline const ResultKey kClassificationKey{"classification", ""};
inline const ResultKey kMemoryProfileKey{"memory-profile", ""};

uint64_t resultBytes(const ClassifiedTrace& classified);
uint64_t resultBytes(const MemoryProfileResult& profile);

// Blocking: computed on this thread when nobody has yet.
std::shared_ptr<const ClassifiedTrace> classificationOf(ResultStore& store);
std::shared_ptr<const MemoryProfileResult> memoryProfileOf(ResultStore& store);

// The computations themselves, for request() (the memory profile asks for the classification).
std::function<ClassifiedTrace()> classifyWith(ResultStore& store);
std::function<MemoryProfileResult()> memoryProfileWith(ResultStore& store);

}  // namespace tracescope
