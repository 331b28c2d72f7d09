#include "model/analysis/hlo_program.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace tracescope {

std::shared_ptr<const HloProgram> HloProgram::parse(const XlaProgramBlob& blob, std::string* error) {
    auto p = std::make_shared<HloProgram>();
    p->host_ = blob.host;
    p->programId_ = blob.programId;
    if (blob.hloProto.size() > size_t(std::numeric_limits<int>::max())) {
        if (error) *error = "the HLO of program " + std::to_string(blob.programId) + " (" + blob.name + ") is larger than protobuf reads (2 GiB)";
        return nullptr;
    }
    // ParseFromString rejects malformed wire data (cut varints, lengths past the end) and
    // stops at nothing else; an HloProto without a module is no program either.
    if (!p->proto_.ParseFromString(blob.hloProto) || !p->proto_.has_hlo_module()) {
        if (error) *error = "the HLO of program " + std::to_string(blob.programId) + " (" + blob.name + ") is not an xla.HloProto";
        return nullptr;
    }
    const xla::HloModuleProto& m = p->proto_.hlo_module();
    for (const xla::HloComputationProto& c : m.computations()) {
        p->computations_.emplace(c.id(), &c);
        for (const xla::HloInstructionProto& i : c.instructions()) {
            p->instructions_.emplace(i.id(), std::make_pair(&i, &c));
            p->byName_.emplace(i.name(), &i);
            for (int64_t operand : i.operand_ids()) {
                std::vector<const xla::HloInstructionProto*>& u = p->users_[operand];
                if (u.empty() || u.back() != &i) u.push_back(&i);  // an operand used twice is one user
            }
        }
    }
    p->entry_ = p->computation(m.entry_computation_id());
    if (!p->entry_)
        for (const xla::HloComputationProto& c : m.computations())
            if (c.name() == m.entry_computation_name()) p->entry_ = &c;
    // Computations come callees first, so the entry is the last one when nothing names it.
    if (!p->entry_ && m.computations_size() > 0) p->entry_ = &m.computations(m.computations_size() - 1);
    if (!p->entry_) {
        if (error) *error = "the HLO of program " + std::to_string(blob.programId) + " (" + blob.name + ") has no computation";
        return nullptr;
    }
    p->indexKernelsAndSchedule();
    return p;
}

std::string kernelNameOf(std::string_view instructionName) {
    std::string out(instructionName);
    for (char& ch : out)
        if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') ch = '_';
    return out;
}

void HloProgram::indexKernelsAndSchedule() {
    for (const auto& [id, entry] : instructions_) byKernelName_.emplace(kernelNameOf(entry.first->name()), entry.first);
    std::vector<int64_t> order;
    const auto& sequences = proto_.hlo_module().schedule().sequences();
    if (const auto it = sequences.find(entry_->id()); it != sequences.end())
        order.assign(it->second.instruction_ids().begin(), it->second.instruction_ids().end());
    else
        for (const xla::HloInstructionProto& i : entry_->instructions()) order.push_back(i.id());
    for (int64_t id : order) {
        const xla::HloInstructionProto* i = instruction(id);
        if (!i || computationOf(id) != entry_ || scheduleIndex_.count(id)) continue;
        scheduleIndex_.emplace(id, int(scheduleIndex_.size()));
        if (i->opcode() == "fusion" || isLibraryCall(*i)) launches_.push_back(i);
    }
}

bool HloProgram::isLibraryCall(const xla::HloInstructionProto& i) {
    const std::string& target = i.custom_call_target();
    return i.opcode() == "custom-call" && (target.rfind("__cublas", 0) == 0 || target.rfind("__cudnn", 0) == 0);
}

const xla::HloInstructionProto* HloProgram::instructionOfKernel(std::string_view kernelName) const {
    const auto it = byKernelName_.find(std::string(kernelName));
    return it == byKernelName_.end() ? nullptr : it->second;
}

int HloProgram::scheduleIndex(int64_t instructionId) const {
    const auto it = scheduleIndex_.find(instructionId);
    return it == scheduleIndex_.end() ? -1 : it->second;
}

std::string HloProgram::displayName() const { return moduleName() + "(" + std::to_string(programId_) + ")"; }

const xla::HloComputationProto* HloProgram::computation(int64_t id) const {
    const auto it = computations_.find(id);
    return it == computations_.end() ? nullptr : it->second;
}

const xla::HloInstructionProto* HloProgram::instruction(int64_t id) const {
    const auto it = instructions_.find(id);
    return it == instructions_.end() ? nullptr : it->second.first;
}

const xla::HloInstructionProto* HloProgram::instruction(std::string_view name) const {
    const auto it = byName_.find(name);
    return it == byName_.end() ? nullptr : it->second;
}

const xla::HloComputationProto* HloProgram::computationOf(int64_t instructionId) const {
    const auto it = instructions_.find(instructionId);
    return it == instructions_.end() ? nullptr : it->second.second;
}

const std::vector<const xla::HloInstructionProto*>& HloProgram::users(int64_t id) const {
    static const std::vector<const xla::HloInstructionProto*> kNone;
    const auto it = users_.find(id);
    return it == users_.end() ? kNone : it->second;
}

namespace {

// How well a program's host matches a process's: 2 the same, 1 the same below a worker's name
// ("worker/host", as merged runs name them), 0 not at all.
int hostMatch(std::string_view programHost, std::string_view host) {
    if (programHost == host) return 2;
    if (programHost.size() > host.size() && programHost.substr(programHost.size() - host.size()) == host &&
        programHost[programHost.size() - host.size() - 1] == '/')
        return 1;
    return 0;
}

// The best-matching program among those `accept` takes (ties: the lowest program id); with no
// host match at all, the lowest id regardless of host.
template <typename Accept>
const HloProgram* bestProgram(const std::vector<std::shared_ptr<const HloProgram>>& programs, std::string_view host,
                              Accept accept) {
    const HloProgram* best = nullptr;
    int bestScore = -1;
    for (const auto& p : programs) {
        if (!accept(*p)) continue;
        const int score = hostMatch(p->host(), host);
        if (score > bestScore || (score == bestScore && p->programId() < best->programId())) {
            best = p.get();
            bestScore = score;
        }
    }
    return best;
}

}  // namespace

namespace {

// "file:line" of a 1-based frame of the module's stack frame index; "" when out of range.
std::string frameText(const xla::StackFrameIndexProto& index, int frameId) {
    if (frameId <= 0 || frameId > index.stack_frames_size()) return {};
    const int location = index.stack_frames(frameId - 1).file_location_id();
    if (location <= 0 || location > index.file_locations_size()) return {};
    const auto& l = index.file_locations(location - 1);
    if (l.file_name_id() <= 0 || l.file_name_id() > index.file_names_size()) return {};
    return index.file_names(l.file_name_id() - 1) + ":" + std::to_string(l.line());
}

}  // namespace

std::string HloProgram::sourceOf(const xla::HloInstructionProto& i) const {
    const xla::OpMetadata& m = i.metadata();
    if (!m.source_file().empty()) return m.source_file() + ":" + std::to_string(m.source_line());
    return frameText(module().stack_frame_index(), m.stack_frame_id());
}

std::string HloProgram::sourceStack(const xla::HloInstructionProto& i) const {
    const xla::StackFrameIndexProto& index = module().stack_frame_index();
    std::string out;
    int frame = i.metadata().stack_frame_id();
    // Parents are earlier frames; a hostile index could loop, so the walk is bounded.
    for (int depth = 0; frame > 0 && frame <= index.stack_frames_size() && depth < 256; ++depth) {
        const std::string text = frameText(index, frame);
        if (!text.empty()) out += (out.empty() ? "" : "\n") + text;
        const int parent = index.stack_frames(frame - 1).parent_frame_id();
        if (parent == frame) break;
        frame = parent;
    }
    return out.empty() ? sourceOf(i) : out;
}

const HloProgram* HloProgramIndex::byId(int64_t programId, std::string_view host) const {
    return bestProgram(programs, host, [&](const HloProgram& p) { return p.programId() == programId; });
}

const HloProgram* HloProgramIndex::byModule(std::string_view moduleName, std::string_view host) const {
    return bestProgram(programs, host, [&](const HloProgram& p) { return p.moduleName() == moduleName; });
}

HloProgramIndex indexHloPrograms(const Trace& trace) {
    HloProgramIndex index;
    for (const XlaProgramBlob& blob : trace.xlaPrograms) {
        if (!blob.problem.empty()) {
            index.problems.push_back("program " + std::to_string(blob.programId) + " (" + blob.name + "): " + blob.problem);
            continue;
        }
        std::string error;
        if (auto p = HloProgram::parse(blob, &error)) index.programs.push_back(std::move(p));
        else index.problems.push_back(error);
    }
    return index;
}

int64_t primitiveTypeBytes(int type) {
    switch (type) {
    case xla::PRED: case xla::S8: case xla::U8: case xla::S4: case xla::U4: case xla::S2: case xla::U2:
    case xla::S1: case xla::U1: case xla::F4E2M1FN: case xla::F8E5M2: case xla::F8E4M3FN: case xla::F8E4M3B11FNUZ:
    case xla::F8E5M2FNUZ: case xla::F8E4M3FNUZ: case xla::F8E4M3: case xla::F8E3M4: case xla::F8E8M0FNU:
        return 1;
    case xla::S16: case xla::U16: case xla::F16: case xla::BF16: return 2;
    case xla::S32: case xla::U32: case xla::F32: return 4;
    case xla::S64: case xla::U64: case xla::F64: case xla::C64: return 8;
    case xla::C128: return 16;
    default: return 0;
    }
}

std::string primitiveTypeName(int type) {
    if (type == xla::OPAQUE_TYPE) return "opaque";
    if (!xla::PrimitiveType_IsValid(type)) return "type" + std::to_string(type);
    std::string name = xla::PrimitiveType_Name(xla::PrimitiveType(type));
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return name;
}

int64_t elementCount(const xla::ShapeProto& shape) {
    if (shape.element_type() == xla::TUPLE || shape.element_type() == xla::TOKEN) return 0;
    int64_t n = 1;
    // Saturated: a hostile proto's dimensions must not overflow.
    for (int64_t d : shape.dimensions())
        if (__builtin_mul_overflow(n, std::max<int64_t>(d, 0), &n)) return std::numeric_limits<int64_t>::max();
    return n;
}

std::string shapeText(const xla::ShapeProto& shape) {
    if (shape.element_type() == xla::TUPLE) {
        std::string out = "(";
        for (int k = 0; k < shape.tuple_shapes_size(); ++k) out += (k ? ", " : "") + shapeText(shape.tuple_shapes(k));
        return out + ")";
    }
    std::string out = primitiveTypeName(shape.element_type()) + "[";
    for (int k = 0; k < shape.dimensions_size(); ++k) out += (k ? "," : "") + std::to_string(shape.dimensions(k));
    return out + "]";
}

}  // namespace tracescope
