// XLA programs as results of the trace's store: the parsed HLO of every program (hlo_program.h)
// and the HLO op profile (hlo_op_profile.h), each computed once.
#pragma once

#include "model/analysis/hlo_memory.h"
#include "model/analysis/hlo_op_profile.h"
#include "model/analysis/hlo_program.h"
#include "model/results/result_store.h"

#include <functional>
#include <memory>

namespace tracescope {

inline const ResultKey kHloProgramsKey{"hlo-programs", ""};
inline const ResultKey kHloOpProfileKey{"hlo-op-profile", ""};

// The op profile with the programs its rows point into (kept alive with it).
struct HloOpProfileResult {
    std::shared_ptr<const HloProgramIndex> programs;
    HloOpProfile profile;
};

// The memory view of one program (hlo_memory.h), keyed by its host and program id.
struct HloMemoryResult {
    std::shared_ptr<const HloProgramIndex> programs;  // keeps `program` alive
    const HloProgram* program = nullptr;
    HloMemoryView view;
};

uint64_t resultBytes(const HloProgramIndex& index);
uint64_t resultBytes(const HloMemoryResult& result);
uint64_t resultBytes(const HloOpProfileResult& result);

// Blocking: computed on this thread when nobody has yet.
std::shared_ptr<const HloProgramIndex> hloProgramsOf(ResultStore& store);
std::shared_ptr<const HloOpProfileResult> hloOpProfileOf(ResultStore& store);
// The computation itself, for request().
std::function<HloOpProfileResult()> hloOpProfileWith(ResultStore& store);
// The memory view of `program` (one of hloProgramsOf's).
std::shared_ptr<const HloMemoryResult> hloMemoryOf(ResultStore& store, const HloProgram& program);

}  // namespace tracescope
