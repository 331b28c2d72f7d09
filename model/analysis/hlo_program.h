// XLA programs of a trace: each XlaProgramBlob's serialized xla.HloProto parsed (our own
// wire-compatible model/proto/hlo.proto) and indexed by computation and instruction id, and the
// programs of a trace found by module name and program id, as XProf's hlo_proto_map does.
#pragma once

#include "model/proto/hlo.pb.h"
#include "model/trace/trace.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tracescope {

class HloProgram {
public:
    // Parses `blob`; null with `error` when its bytes are not an HloProto with a module.
    static std::shared_ptr<const HloProgram> parse(const XlaProgramBlob& blob, std::string* error);

    const std::string& host() const { return host_; }
    int64_t programId() const { return programId_; }
    const std::string& moduleName() const { return proto_.hlo_module().name(); }
    // XProf's name for a program: "<module>(<program id>)".
    std::string displayName() const;
    const xla::HloProto& proto() const { return proto_; }
    const xla::HloModuleProto& module() const { return proto_.hlo_module(); }

    const xla::HloComputationProto* entry() const { return entry_; }
    const xla::HloComputationProto* computation(int64_t id) const;
    const xla::HloInstructionProto* instruction(int64_t id) const;
    const xla::HloInstructionProto* instruction(std::string_view name) const;
    // The computation an instruction belongs to.
    const xla::HloComputationProto* computationOf(int64_t instructionId) const;
    const xla::HloInstructionProto* operand(const xla::HloInstructionProto& i, int k) const {
        return k < i.operand_ids_size() ? instruction(i.operand_ids(k)) : nullptr;
    }
    const xla::HloInstructionProto* root(const xla::HloComputationProto& c) const { return instruction(c.root_id()); }
    // Instructions that use `id` as an operand, in computation order.
    const std::vector<const xla::HloInstructionProto*>& users(int64_t id) const;
    // Where an instruction comes from, "file:line": its metadata's source file, else the
    // innermost frame of its stack (recent JAX records stacks in the module's frame index).
    // "" when neither is known. sourceStack lists every frame, innermost first, one per line.
    std::string sourceOf(const xla::HloInstructionProto& i) const;
    std::string sourceStack(const xla::HloInstructionProto& i) const;
    size_t instructionCount() const { return instructions_.size(); }

    // The instruction a kernel of XLA's runs: XLA names the kernel of a fusion after it, with
    // every character other than a letter, digit or '_' made '_' ("loop_add_fusion.3" ->
    // "loop_add_fusion_3"). Null when none is so named.
    const xla::HloInstructionProto* instructionOfKernel(std::string_view kernelName) const;
    // The entry computation's instructions in the order they run (the module's schedule, else
    // the computation's order), and an instruction's place in it (-1 when not in the entry).
    int scheduleIndex(int64_t instructionId) const;
    // The entry's instructions that launch device work, in schedule order: fusions and calls
    // into libraries (cuBLAS GEMMs, cuDNN convolutions: custom calls whose kernels carry the
    // library's names, not the instruction's).
    const std::vector<const xla::HloInstructionProto*>& launches() const { return launches_; }
    static bool isLibraryCall(const xla::HloInstructionProto& i);

private:
    void indexKernelsAndSchedule();

    std::string host_;
    int64_t programId_ = 0;
    xla::HloProto proto_;
    const xla::HloComputationProto* entry_ = nullptr;
    std::unordered_map<int64_t, const xla::HloComputationProto*> computations_;
    std::unordered_map<int64_t, std::pair<const xla::HloInstructionProto*, const xla::HloComputationProto*>>
        instructions_;
    std::unordered_map<std::string_view, const xla::HloInstructionProto*> byName_;
    std::unordered_map<int64_t, std::vector<const xla::HloInstructionProto*>> users_;
    std::unordered_map<std::string, const xla::HloInstructionProto*> byKernelName_;
    std::unordered_map<int64_t, int> scheduleIndex_;
    std::vector<const xla::HloInstructionProto*> launches_;
};

struct HloProgramIndex {
    std::vector<std::shared_ptr<const HloProgram>> programs;  // in the trace's order
    std::vector<std::string> problems;                        // programs that could not be read, and why

    // By program id, preferring the program of the process's host (a merged run's programs are
    // "worker/host"), else null.
    const HloProgram* byId(int64_t programId, std::string_view host = {}) const;
    // By module name, the same way; when several programs share it (recompilations), the one
    // with the lowest id. Null when none.
    const HloProgram* byModule(std::string_view moduleName, std::string_view host = {}) const;
};

HloProgramIndex indexHloPrograms(const Trace& trace);

// Bytes of one element of `type` (sub-byte types count a whole byte, as XLA's ByteWidth);
// 0 for TUPLE, TOKEN and the invalid type.
int64_t primitiveTypeBytes(int type);
// The name XLA gives the kernel of an instruction (see HloProgram::instructionOfKernel).
std::string kernelNameOf(std::string_view instructionName);
// XLA's lower-case name of a primitive type ("f32", "bf16", "pred"...).
std::string primitiveTypeName(int type);
// The number of elements of an array shape (1 for a scalar); 0 for a tuple or token.
int64_t elementCount(const xla::ShapeProto& shape);
// "f32[2,4096]" / "(f32[2], s32[])": XLA's short form of a shape, without layouts.
std::string shapeText(const xla::ShapeProto& shape);

}  // namespace tracescope
