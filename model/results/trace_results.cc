#include "model/results/trace_results.h"

namespace tracescope {

namespace {
template <typename T>
uint64_t vectorBytes(const std::vector<T>& v) {
    return v.capacity() * sizeof(T);
}
}  // namespace

uint64_t resultBytes(const ClassifiedTrace& c) {
    uint64_t bytes = sizeof c + vectorBytes(c.trackSkipped) + vectorBytes(c.trackOnDevice) + vectorBytes(c.roles) +
                     vectorBytes(c.parents) + vectorBytes(c.runtimeByCorrelation);
    for (const auto& r : c.roles) bytes += vectorBytes(r);
    for (const auto& p : c.parents) bytes += vectorBytes(p);
    for (const auto& [key, op] : c.commandBufferOps) bytes += sizeof key + sizeof op + op.capacity() + 16;
    return bytes;
}

uint64_t resultBytes(const MemoryProfileResult& m) {
    uint64_t bytes = sizeof m + vectorBytes(m.ids) + m.howToRecord.capacity();
    for (const MemoryIdProfile& id : m.ids)
        bytes += vectorBytes(id.timeline) + vectorBytes(id.breakdown) + vectorBytes(id.leaks) +
                 (id.breakdown.size() + id.leaks.size()) * 64;  // their strings, roughly
    return bytes;
}

std::function<ClassifiedTrace()> classifyWith(ResultStore& store) {
    std::shared_ptr<const Trace> trace = store.sharedTrace();
    return [trace] { return classifyTrace(*trace); };
}

std::function<MemoryProfileResult()> memoryProfileWith(ResultStore& store) {
    std::weak_ptr<ResultStore> weak = store.weak_from_this();
    return [weak]() -> MemoryProfileResult {
        std::shared_ptr<ResultStore> s = weak.lock();
        if (!s) throw AnalysisCancelled();
        return computeMemoryProfile(*classificationOf(*s));
    };
}

std::shared_ptr<const ClassifiedTrace> classificationOf(ResultStore& store) {
    return store.get<ClassifiedTrace>(kClassificationKey, classifyWith(store));
}

std::shared_ptr<const MemoryProfileResult> memoryProfileOf(ResultStore& store) {
    return store.get<MemoryProfileResult>(kMemoryProfileKey, memoryProfileWith(store));
}

}  // namespace tracescope
