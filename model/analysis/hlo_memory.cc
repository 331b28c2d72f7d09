#include "model/analysis/hlo_memory.h"

#include "model/trace/types.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace tracescope {

namespace {

// The instruction that defines a logical buffer (by id in recent protos, by name before).
const xla::HloInstructionProto* definingInstruction(const HloProgram& p, const xla::LogicalBufferProto& b) {
    const auto& at = b.defined_at();
    if (const xla::HloInstructionProto* i = at.instruction_id() != 0 ? p.instruction(at.instruction_id()) : nullptr) return i;
    return at.instruction_name().empty() ? nullptr : p.instruction(std::string_view(at.instruction_name()));
}

HloLiveBuffer describe(const HloProgram& p, const xla::LogicalBufferProto& b, HloBufferKind kind) {
    HloLiveBuffer out;
    out.logicalBufferId = b.id();
    out.bytes = b.size();
    out.kind = kind;
    const xla::HloInstructionProto* i = definingInstruction(p, b);
    if (!i) {
        out.instruction = b.defined_at().instruction_name();
        return out;
    }
    out.instruction = i->name();
    const xla::ShapeProto* shape = &i->shape();
    std::string index;
    for (int64_t k : b.defined_at().shape_index()) {
        index += (index.empty() ? "" : ",") + std::to_string(k);
        if (k >= 0 && k < shape->tuple_shapes_size()) shape = &shape->tuple_shapes(int(k));
    }
    if (!index.empty()) out.instruction += "{" + index + "}";
    out.shape = shapeText(*shape);
    out.opcode = i->opcode();
    out.frameworkOp = i->metadata().op_name();
    out.source = p.sourceOf(*i);
    return out;
}

}  // namespace

const char* hloBufferKindName(HloBufferKind k) {
    switch (k) {
    case HloBufferKind::Parameter: return "parameter";
    case HloBufferKind::Output: return "output";
    case HloBufferKind::Constant: return "constant";
    default: return "temporary";
    }
}

HloMemoryView computeHloMemoryView(const HloProgram& program) {
    HloMemoryView out;
    const xla::BufferAssignmentProto& ba = program.proto().buffer_assignment();
    if (ba.buffer_allocations_size() == 0) {
        out.notes.push_back("the program carries no buffer assignment in its HLO");
        return out;
    }
    out.available = true;
    std::unordered_map<int64_t, const xla::LogicalBufferProto*> buffers;
    for (const xla::LogicalBufferProto& b : ba.logical_buffers()) buffers.emplace(b.id(), &b);

    // Allocations that live for the whole run: not in the heap simulation.
    std::vector<HloLiveBuffer> wholeRun;
    for (const xla::BufferAllocationProto& a : ba.buffer_allocations()) {
        out.totalAllocationBytes = plusSat(out.totalAllocationBytes, a.size());
        if (a.is_thread_local()) continue;
        if (!a.is_entry_computation_parameter() && !a.maybe_live_out() && !a.is_constant()) continue;
        const HloBufferKind kind = a.is_entry_computation_parameter() ? HloBufferKind::Parameter
                                   : a.maybe_live_out()               ? HloBufferKind::Output
                                                                       : HloBufferKind::Constant;
        int64_t& sum = kind == HloBufferKind::Parameter ? out.parameterBytes
                       : kind == HloBufferKind::Output  ? out.liveOutBytes
                                                        : out.wholeRunBytes;
        sum = plusSat(sum, a.size());  // saturated: a hostile proto's sizes must not overflow
        if (a.size() == 0) continue;
        // Named after the largest logical buffer assigned to it (the first of equals), sized as
        // the allocation.
        const xla::LogicalBufferProto* largest = nullptr;
        for (const auto& assigned : a.assigned())
            if (const auto it = buffers.find(assigned.logical_buffer_id());
                it != buffers.end() && (!largest || it->second->size() > largest->size()))
                largest = it->second;
        HloLiveBuffer b = largest ? describe(program, *largest, kind) : HloLiveBuffer{};
        b.kind = kind;
        b.bytes = a.size();
        wholeRun.push_back(std::move(b));
    }
    out.wholeRunBytes = plusSat(out.wholeRunBytes, plusSat(out.parameterBytes, out.liveOutBytes));

    // The heap simulation: the trace with the highest peak when there are several (one per
    // computation when the module was not simulated whole).
    if (ba.heap_simulator_traces_size() > 1)
        out.notes.push_back(std::to_string(ba.heap_simulator_traces_size()) +
                            " heap simulations (per computation): the one with the highest peak is shown");
    // Replays a trace's first `events` events (all when -1): the heap after each and the
    // buffers live at the end. A buffer that shares a live buffer's memory (SHARE_WITH) keeps
    // that memory in use until the last of them is freed (XProf's memory viewer counts the same).
    const auto replay = [&](const xla::HeapSimulatorTrace& trace, size_t events, std::vector<int64_t>* heap,
                            std::unordered_set<int64_t>* live) {
        int64_t current = 0;
        std::unordered_map<int64_t, int64_t> canonicalOf;  // buffer -> the buffer whose memory it uses
        std::unordered_map<int64_t, int> users;            // canonical buffer -> buffers using its memory
        std::unordered_set<int64_t> allocated;              // every buffer the simulation allocated so far
        for (size_t k = 0; k < events && k < size_t(trace.events_size()); ++k) {
            const xla::HeapSimulatorTrace::Event& e = trace.events(int(k));
            const int64_t id = e.buffer_id();
            // Sharing the memory of a buffer this simulation already freed allocates memory of
            // its own; sharing one it never allocated (a whole-run buffer) takes none.
            const bool share = e.kind() == xla::HeapSimulatorTrace::Event::SHARE_WITH;
            const int64_t canonical = e.share_with_canonical_id();
            // The shared memory is in use while any buffer that shares it lives (its first owner
            // may be freed already).
            const bool sharesLive = share && users.count(canonical) > 0;
            const bool reallocates = share && !sharesLive && allocated.count(canonical) > 0;
            if (sharesLive) {
                if (canonicalOf.emplace(id, canonical).second) ++users[canonical];
            } else if (share && !reallocates) {
                // shares memory outside the simulation: nothing to count
            } else if (e.kind() == xla::HeapSimulatorTrace::Event::ALLOC || reallocates) {
                allocated.insert(id);
                if (canonicalOf.emplace(id, id).second) {
                    ++users[id];
                    const auto b = buffers.find(id);
                    current = plusSat(current, b == buffers.end() ? 0 : b->second->size());
                    live->insert(id);
                }
            } else if (e.kind() == xla::HeapSimulatorTrace::Event::FREE) {
                const auto it = canonicalOf.find(id);
                if (it != canonicalOf.end()) {
                    const int64_t canonical = it->second;
                    canonicalOf.erase(it);
                    if (--users[canonical] == 0) {
                        users.erase(canonical);
                        const auto b = buffers.find(canonical);
                        current = minusSat(current, b == buffers.end() ? 0 : b->second->size());
                        live->erase(canonical);
                    }
                }
            }
            if (heap) heap->push_back(plusSat(out.wholeRunBytes, current));
        }
    };
    const xla::HeapSimulatorTrace* best = nullptr;
    for (const xla::HeapSimulatorTrace& trace : ba.heap_simulator_traces()) {
        std::vector<int64_t> heap{out.wholeRunBytes};
        std::unordered_set<int64_t> live;
        replay(trace, size_t(trace.events_size()), &heap, &live);
        const auto peak = std::max_element(heap.begin(), heap.end());
        if (!best || minusSat(*peak, out.wholeRunBytes) > out.simulatedPeakBytes) {
            best = &trace;
            out.simulatedPeakBytes = minusSat(*peak, out.wholeRunBytes);
            out.peakEvent = size_t(peak - heap.begin());
            out.heapBytes = std::move(heap);
        }
    }
    if (!best) out.heapBytes = {out.wholeRunBytes};  // nothing simulated: the whole-run allocations only
    std::unordered_set<int64_t> peakLive;
    if (best) replay(*best, out.peakEvent, nullptr, &peakLive);
    std::vector<int64_t> bestLive(peakLive.begin(), peakLive.end());
    std::sort(bestLive.begin(), bestLive.end());
    out.peakBytes = plusSat(out.wholeRunBytes, out.simulatedPeakBytes);
    out.liveAtPeak = std::move(wholeRun);
    for (int64_t id : bestLive)
        if (const auto b = buffers.find(id); b != buffers.end())
            out.liveAtPeak.push_back(describe(program, *b->second, HloBufferKind::Temporary));
    std::stable_sort(out.liveAtPeak.begin(), out.liveAtPeak.end(),
                     [](const HloLiveBuffer& a, const HloLiveBuffer& b) { return a.bytes > b.bytes; });
    return out;
}

}  // namespace tracescope
