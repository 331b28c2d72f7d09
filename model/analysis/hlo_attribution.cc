#include "model/analysis/hlo_attribution.h"

#include "model/analysis/analysis_progress.h"
#include "model/analysis/op_classify.h"

#include <algorithm>
#include <unordered_set>
#include <vector>

namespace tracescope {

namespace {

// Follows one stream's kernels through a program's schedule inside XLA command buffers, where
// every activity carries the buffer as its hlo_op. XLA names a fusion's kernel after the fusion,
// but gives identical fusions one kernel (so "fusion_34" may run fusion.33 too), and library
// kernels carry the library's names: each kernel is the next launch of the schedule it can be
// (the fusion of its name, a fusion with no kernel of its own and the same result shape, or
// for an unnamed kernel a cuBLAS/cuDNN call), starting over at the schedule's start when none
// is left (the next execution).
class CommandBufferAligner {
public:
    CommandBufferAligner(const HloProgram& p, const std::unordered_set<std::string>& kernelsSeen)
        : p_(p), seen_(kernelsSeen) {}

    const xla::HloInstructionProto* attribute(std::string_view kernel) {
        const auto& steps = p_.launches();
        const xla::HloInstructionProto* named = p_.instructionOfKernel(kernel);
        const std::string namedShape = named ? shapeText(named->shape()) : std::string();
        const auto fits = [&](const xla::HloInstructionProto& s) {
            if (!named) return HloProgram::isLibraryCall(s);
            if (&s == named) return true;
            return s.opcode() == "fusion" && !seen_.count(kernelNameOf(s.name())) && shapeText(s.shape()) == namedShape;
        };
        for (size_t k = next_; k < steps.size(); ++k)
            if (fits(*steps[k])) return take(k);
        for (size_t k = 0; k < next_ && k < steps.size(); ++k)
            if (fits(*steps[k])) return take(k);
        return named;  // not in the schedule: the instruction of its name, if any
    }

private:
    const HloProgram& p_;
    const std::unordered_set<std::string>& seen_;
    size_t next_ = 0;

    const xla::HloInstructionProto* take(size_t k) {
        next_ = k + 1;
        return p_.launches()[k];
    }
};

}  // namespace

const HloProgram* programOfActivity(const ClassifiedTrace& ct, const HloProgramIndex& index, SliceRef s) {
    const Trace& t = *ct.trace;
    const std::string& host = t.processes[t.tracks[s.track].process].host;
    int64_t programId = 0;
    const HloProgram* program = sliceArgInt(t, s, "program_id", programId) ? index.byId(programId, host) : nullptr;
    return program ? program : index.byModule(sliceArgView(t, s, t.strings.find("hlo_module")), host);
}

bool hasCommandBufferActivity(const ClassifiedTrace& ct) {
    const Trace& t = *ct.trace;
    if (!ct.isXSpace || t.xlaPrograms.empty() || ct.keys.hloOp == kNoIndex) return false;
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (ct.trackSkipped[ti] || !ct.trackOnDevice[ti]) continue;
        for (uint32_t i = 0; i < t.tracks[ti].slices.size(); ++i)
            if (ct.roles[ti][i] == SliceRole::Kernel &&
                sliceArgView(t, {ti, i}, ct.keys.hloOp).substr(0, 15) == "command_buffer_")
                return true;
    }
    return false;
}

std::unordered_map<uint64_t, std::string> attributeCommandBuffers(const ClassifiedTrace& ct, const HloProgramIndex& index) {
    std::unordered_map<uint64_t, std::string> out;
    const Trace& t = *ct.trace;
    if (index.programs.empty() || ct.keys.hloOp == kNoIndex) return out;
    // Kernels in command buffers, per stream (a track with its overflow lanes), in time order;
    // and the kernel names seen there per program: a fusion whose own kernel name is not among
    // them ran as another fusion's kernel.
    std::unordered_map<TrackIndex, std::vector<SliceRef>> streams;
    std::unordered_map<uint64_t, const HloProgram*> programOf;
    std::unordered_map<const HloProgram*, std::unordered_set<std::string>> kernelsSeen;
    for (TrackIndex ti = 0; ti < t.tracks.size(); ++ti) {
        if (ct.trackSkipped[ti] || !ct.trackOnDevice[ti]) continue;
        TrackIndex base = ti;
        for (int hops = 0; t.tracks[base].overflowOf != kNoIndex && hops < 64; ++hops) base = t.tracks[base].overflowOf;
        for (uint32_t i = 0; i < t.tracks[ti].slices.size(); ++i) {
            analysisTick();
            const SliceRef s{ti, i};
            if (ct.roles[ti][i] != SliceRole::Kernel) continue;
            const std::string_view hlo = sliceArgView(t, s, ct.keys.hloOp);
            if (hlo.empty()) continue;
            const HloProgram* program = programOfActivity(ct, index, s);
            if (!program || program->instruction(hlo)) continue;
            programOf.emplace(activityKey(s), program);
            kernelsSeen[program].emplace(fullNameView(ct, s));
            streams[base].push_back(s);
        }
    }
    for (auto& [base, kernels] : streams) {
        std::stable_sort(kernels.begin(), kernels.end(), [&](SliceRef a, SliceRef b) {
            return t.tracks[a.track].slices.start[a.index] < t.tracks[b.track].slices.start[b.index];
        });
        std::unordered_map<const HloProgram*, CommandBufferAligner> aligners;
        for (SliceRef s : kernels) {
            const HloProgram* program = programOf.at(activityKey(s));
            auto aligner = aligners.try_emplace(program, *program, kernelsSeen[program]).first;
            if (const xla::HloInstructionProto* op = aligner->second.attribute(fullNameView(ct, s)))
                out.emplace(activityKey(s), op->name());
        }
    }
    return out;
}

}  // namespace tracescope
