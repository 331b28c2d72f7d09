#include "model/results/hlo_results.h"

#include "model/results/trace_results.h"

namespace tracescope {

uint64_t resultBytes(const HloProgramIndex& index) {
    uint64_t bytes = sizeof index;
    // A parsed HLO takes about what its wire form does, plus the id maps.
    for (const auto& p : index.programs) bytes += sizeof *p + p->proto().ByteSizeLong() + p->instructionCount() * 96;
    for (const std::string& s : index.problems) bytes += sizeof s + s.capacity();
    return bytes;
}

uint64_t resultBytes(const HloOpProfileResult& r) {
    uint64_t bytes = sizeof r;
    for (const HloOpRow& row : r.profile.ops)
        bytes += sizeof row + row.name.capacity() + row.category.capacity() + row.activities.capacity() * sizeof(SliceRef);
    for (const HloProgramRow& row : r.profile.programs) bytes += sizeof row + row.name.capacity();
    for (const std::string& n : r.profile.notes) bytes += sizeof n + n.capacity();
    return bytes;  // the programs are the store's own result
}

uint64_t resultBytes(const HloMemoryResult& r) {
    uint64_t bytes = sizeof r + r.view.heapBytes.capacity() * sizeof(int64_t);
    for (const HloLiveBuffer& b : r.view.liveAtPeak)
        bytes += sizeof b + b.instruction.capacity() + b.shape.capacity() + b.opcode.capacity() + b.frameworkOp.capacity() +
                 b.source.capacity();
    return bytes;
}

std::shared_ptr<const HloMemoryResult> hloMemoryOf(ResultStore& store, const HloProgram& program) {
    std::weak_ptr<ResultStore> weak = store.weak_from_this();
    const std::string host = program.host();
    const int64_t id = program.programId();
    return store.get<HloMemoryResult>({"hlo-memory", host + "/" + std::to_string(id)}, [weak, host, id]() -> HloMemoryResult {
        std::shared_ptr<ResultStore> s = weak.lock();
        if (!s) throw AnalysisCancelled();
        HloMemoryResult r;
        r.programs = hloProgramsOf(*s);  // the store's programs (the caller's may have been dropped since)
        r.program = r.programs->byId(id, host);
        if (r.program) r.view = computeHloMemoryView(*r.program);
        return r;
    });
}

std::shared_ptr<const HloProgramIndex> hloProgramsOf(ResultStore& store) {
    std::shared_ptr<const Trace> trace = store.sharedTrace();
    return store.get<HloProgramIndex>(kHloProgramsKey, [trace] { return indexHloPrograms(*trace); });
}

std::function<HloOpProfileResult()> hloOpProfileWith(ResultStore& store) {
    std::weak_ptr<ResultStore> weak = store.weak_from_this();
    return [weak]() -> HloOpProfileResult {
        std::shared_ptr<ResultStore> s = weak.lock();
        if (!s) throw AnalysisCancelled();
        HloOpProfileResult r;
        r.programs = hloProgramsOf(*s);
        r.profile = computeHloOpProfile(*classificationOf(*s), *r.programs);
        return r;
    };
}

std::shared_ptr<const HloOpProfileResult> hloOpProfileOf(ResultStore& store) {
    return store.get<HloOpProfileResult>(kHloOpProfileKey, hloOpProfileWith(store));
}

}  // namespace tracescope
