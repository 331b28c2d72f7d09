#include "model/analysis/hlo_cost.h"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>
#include <unordered_set>

namespace tracescope {

namespace {

// XLA's GPU cost model: clock cycles per element of an elementwise op it has not measured.
constexpr double kGpuDefaultCyclesPerElement = 3;

const std::unordered_set<std::string_view>& elementwiseOpcodes() {
    static const std::unordered_set<std::string_view> ops = {
        "abs", "add", "and", "atan2", "cbrt", "ceil", "clamp", "clz", "compare", "complex", "convert", "cosine",
        "divide", "erf", "exponential", "exponential-minus-one", "floor", "imag", "is-finite", "log",
        "log-plus-one", "logistic", "maximum", "minimum", "multiply", "negate", "not", "or", "popcnt", "power",
        "real", "reduce-precision", "remainder", "round-nearest-afz", "round-nearest-even", "rsqrt", "select",
        "shift-left", "shift-right-arithmetic", "shift-right-logical", "sign", "sine", "sqrt", "stochastic-convert",
        "subtract", "tan", "tanh", "xor"};
    return ops;
}

// Ops that move or arrange data, or only order the program: no FLOPs in XLA's cost analysis.
const std::unordered_set<std::string_view>& zeroFlopOpcodes() {
    static const std::unordered_set<std::string_view> ops = {
        "copy", "copy-start", "copy-done", "reshape", "dynamic-reshape", "broadcast", "iota", "pad", "concatenate",
        "reverse", "bitcast-convert", "infeed", "outfeed", "send", "send-done", "recv", "recv-done", "all-gather",
        "all-gather-start", "all-gather-done", "all-reduce-done", "reduce-scatter", "all-to-all", "ragged-all-to-all",
        "collective-permute", "collective-permute-start", "collective-permute-done", "collective-broadcast",
        "async-update", "async-done", "optimization-barrier", "get-dimension-size", "set-dimension-size",
        "partition-id", "replica-id", "rng-get-and-update-state", "batch-norm-training", "batch-norm-inference",
        "batch-norm-grad", "topk", "get-tuple-element", "tuple", "parameter", "constant", "bitcast"};
    return ops;
}

// XLA's HandleElementwiseOp: these count as transcendentals, not flops.
bool isTranscendental(std::string_view op) {
    static const std::unordered_set<std::string_view> ops = {
        "erf", "exponential", "log", "logistic", "power", "sqrt", "cbrt", "rsqrt", "tanh", "sine", "cosine",
        "exponential-minus-one", "log-plus-one", "atan2", "tan"};
    return ops.count(op) > 0;
}

int64_t dim(const xla::ShapeProto& s, int64_t d) { return d >= 0 && d < s.dimensions_size() ? s.dimensions(int(d)) : 1; }

// The array a tuple-shaped result leads with (custom calls return (result, workspace)).
const xla::ShapeProto& firstArray(const xla::ShapeProto& s) {
    return s.element_type() == xla::TUPLE && s.tuple_shapes_size() > 0 ? s.tuple_shapes(0) : s;
}

double dotFlops(const xla::ShapeProto& lhs, const xla::ShapeProto& result, const std::vector<int64_t>& lhsContracting) {
    double contracted = 1;
    for (int64_t d : lhsContracting) contracted *= double(dim(lhs, d));
    return 2.0 * double(elementCount(result)) * contracted;
}

// How many (kernel index, output index) pairs of one spatial dimension read an input element
// (not padding, not a hole of base dilation).
double validPositions(int64_t inputSize, int64_t kernelSize, int64_t outputSize, const xla::WindowDimension* w) {
    const int64_t stride = w && w->stride() > 0 ? w->stride() : 1;
    const int64_t padLow = w ? w->padding_low() : 0;
    const int64_t windowDilation = w && w->window_dilation() > 0 ? w->window_dilation() : 1;
    const int64_t baseDilation = w && w->base_dilation() > 0 ? w->base_dilation() : 1;
    // 128-bit arithmetic: a hostile proto's sizes must not overflow.
    using Wide = __int128;
    double count = 0;
    if (baseDilation == 1) {
        // Per kernel index k the valid outputs o satisfy 0 <= o*stride - padLow + k*dilation < input.
        const auto floorDiv = [](Wide a, Wide b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
        for (int64_t k = 0; k < kernelSize; ++k) {
            const Wide offset = Wide(k) * windowDilation - padLow;
            // o >= ceil(-offset / stride), o <= floor((input - 1 - offset) / stride)
            const Wide lo = std::max<Wide>(0, -floorDiv(offset, stride));
            const Wide hi = std::min<Wide>(Wide(outputSize) - 1, floorDiv(Wide(inputSize) - 1 - offset, stride));
            if (hi >= lo) count += double(hi - lo + 1);
        }
        return count;
    }
    for (int64_t k = 0; k < kernelSize; ++k)
        for (int64_t o = 0; o < outputSize; ++o) {
            const Wide undilated = Wide(o) * stride - padLow + Wide(k) * windowDilation;
            if (undilated % baseDilation == 0 && undilated >= 0 && undilated / baseDilation < inputSize) ++count;
        }
    return count;
}

double convolutionFlops(const xla::ShapeProto& lhs, const xla::ShapeProto& rhs, const xla::ShapeProto& result,
                        const xla::HloInstructionProto& i, bool* tooLarge) {
    const xla::ConvolutionDimensionNumbers& dn = i.convolution_dimension_numbers();
    const int64_t featureGroups = std::max<int64_t>(1, i.feature_group_count());
    const int64_t batchGroups = std::max<int64_t>(1, i.batch_group_count());
    double positions = 1;
    for (int s = 0; s < dn.input_spatial_dimensions_size(); ++s) {
        const int64_t in = dim(lhs, dn.input_spatial_dimensions(s));
        const int64_t k = s < dn.kernel_spatial_dimensions_size() ? dim(rhs, dn.kernel_spatial_dimensions(s)) : 1;
        const int64_t out = s < dn.output_spatial_dimensions_size() ? dim(result, dn.output_spatial_dimensions(s)) : 1;
        const xla::WindowDimension* w = s < i.window().dimensions_size() ? &i.window().dimensions(s) : nullptr;
        // Each kernel position is visited (every pair with base dilation): refuse sizes a hostile
        // proto could make endless. Real kernels are a few elements wide.
        if (k > 10'000'000 || (w && w->base_dilation() > 1 && double(k) * double(out) > 1e8)) {
            *tooLarge = true;
            return 0;
        }
        positions *= validPositions(in, k, out, w);
    }
    const double inputFeatures = double(dim(lhs, dn.input_feature_dimension())) / double(featureGroups);
    const double outputFeatures = double(dim(result, dn.output_feature_dimension()));
    const double batch = double(dim(lhs, dn.input_batch_dimension())) / double(batchGroups);
    return 2.0 * inputFeatures * outputFeatures * batch * positions;
}

// A transpose that only relabels dimensions (the physical order of elements is the same).
bool transposeIsBitcast(const xla::ShapeProto& in, const xla::ShapeProto& out, const xla::HloInstructionProto& i) {
    if (!in.has_layout() || !out.has_layout()) return false;
    const auto& inOrder = in.layout().minor_to_major();
    const auto& outOrder = out.layout().minor_to_major();
    if (inOrder.size() != outOrder.size() || i.dimensions_size() != outOrder.size()) return false;
    for (int k = 0; k < outOrder.size(); ++k) {
        const int64_t o = outOrder[k];
        if (o < 0 || o >= i.dimensions_size() || inOrder[k] != i.dimensions(int(o))) return false;
    }
    return true;
}

// gemm_backend_config.dot_dimension_numbers.lhs_contracting_dimensions of a cuBLAS call's
// backend config (JSON; numbers are written as strings).
bool gemmContracting(const std::string& backendConfig, std::vector<int64_t>& out) {
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    if (parser.parse(backendConfig).get(doc)) return false;
    simdjson::dom::array dims;
    if (doc["gemm_backend_config"]["dot_dimension_numbers"]["lhs_contracting_dimensions"].get(dims)) return false;
    for (simdjson::dom::element d : dims) {
        std::string_view text;
        int64_t v = 0;
        if (!d.get(text)) {
            try {
                v = std::stoll(std::string(text));
            } catch (...) {
                return false;
            }
        } else if (d.get(v)) {
            return false;
        }
        out.push_back(v);
    }
    return true;
}

class CostVisitor {
public:
    CostVisitor(const HloProgram& p, HloCostModel model, HloProgramCost& out)
        : p_(p), model_(model), out_(out), pointerBytes_(hloPointerBytes(model)) {}

    // The sum over a computation's instructions (each also recorded by id).
    HloCost computation(int64_t id) {
        if (const auto it = done_.find(id); it != done_.end()) return it->second;
        const xla::HloComputationProto* c = p_.computation(id);
        // Unknown, a cycle or a chain of calls deeper than any compiler makes (hostile protos):
        // not costed, and said so.
        if (!c || active_.size() >= 256) return HloCost{.unknownOps = 1};
        if (!active_.insert(id).second) return {};
        HloCost sum;
        for (const xla::HloInstructionProto& i : c->instructions()) {
            const HloCost cost = instruction(i);
            out_.byInstruction[i.id()] = cost;
            add(sum, cost);
        }
        active_.erase(id);
        done_.emplace(id, sum);
        return sum;
    }

private:
    const HloProgram& p_;
    HloCostModel model_;
    HloProgramCost& out_;
    std::unordered_map<int64_t, HloCost> done_;
    std::unordered_set<int64_t> active_;
    std::set<std::string> unknownTargets_;
    double pointerBytes_;

    double bytes(const xla::ShapeProto& s) const { return hloShapeBytes(s, pointerBytes_); }

    static void add(HloCost& a, const HloCost& b) {
        a.flops += b.flops;
        a.transcendentals += b.transcendentals;
        a.bytesAccessed += b.bytesAccessed;
        a.outputBytes += b.outputBytes;
        a.unknownOps += b.unknownOps;
    }

    const xla::ShapeProto& operandShape(const xla::HloInstructionProto& i, int k) const {
        static const xla::ShapeProto kNone;
        const xla::HloInstructionProto* o = p_.operand(i, k);
        return o ? o->shape() : kNone;
    }

    double operandBytes(const xla::HloInstructionProto& i) const {
        double b = 0;
        for (int k = 0; k < i.operand_ids_size(); ++k) b += bytes(operandShape(i, k));
        return b;
    }

    HloCost defaults(const xla::HloInstructionProto& i) const {
        HloCost c;
        c.outputBytes = bytes(i.shape());
        c.bytesAccessed = c.outputBytes + operandBytes(i);
        return c;
    }

    double elementwiseFlops(double elements) const {
        return model_ == HloCostModel::XlaGpu ? kGpuDefaultCyclesPerElement * elements : elements;
    }

    HloCost instruction(const xla::HloInstructionProto& i) {
        const std::string& op = i.opcode();
        HloCost c = defaults(i);
        if (op == "parameter" || op == "constant" || op == "get-tuple-element" || op == "bitcast" || op == "domain" ||
            op == "after-all" || op == "add-dependency") {
            return HloCost{};
        }
        if (op == "tuple") {
            c.bytesAccessed = c.outputBytes;  // its pointer table; the elements are not read
            return c;
        }
        if (isHloElementwise(op)) {
            const double n = double(elementCount(i.shape()));
            if (model_ == HloCostModel::Xla && isTranscendental(op)) c.transcendentals = n;
            else c.flops = elementwiseFlops(n);
            return c;
        }
        if (op == "dot") {
            const std::vector<int64_t> contracting(i.dot_dimension_numbers().lhs_contracting_dimensions().begin(),
                                                   i.dot_dimension_numbers().lhs_contracting_dimensions().end());
            c.flops = dotFlops(operandShape(i, 0), i.shape(), contracting);
            return c;
        }
        if (op == "convolution") {
            bool tooLarge = false;
            c.flops = convolutionFlops(operandShape(i, 0), operandShape(i, 1), i.shape(), i, &tooLarge);
            if (tooLarge) c.unknownOps = 1;
            return c;
        }
        if (op == "fusion") return fusion(i);
        if (op == "custom-call") return customCall(i);
        if (op == "reduce") {
            const HloCost sub = calledSum(i, 0);
            const double in = double(elementCount(operandShape(i, 0)));
            const double out = double(elementCount(firstArray(i.shape())));
            const double n = std::max(0.0, in - out);
            c.flops = sub.flops * n;
            c.transcendentals = sub.transcendentals * n;
            c.unknownOps = sub.unknownOps;
            return c;
        }
        if (op == "reduce-window") {
            const HloCost sub = calledSum(i, 0);
            double windowElements = 1;
            for (const xla::WindowDimension& w : i.window().dimensions()) windowElements *= double(w.size());
            const double out = double(elementCount(firstArray(i.shape())));
            const double n = (windowElements - 1) * out;
            c.flops = sub.flops * std::max(0.0, n);
            c.transcendentals = sub.transcendentals * std::max(0.0, n);
            c.unknownOps = sub.unknownOps;
            return c;
        }
        if (op == "map") {
            const HloCost sub = calledSum(i, 0);
            const double n = double(elementCount(i.shape()));
            c.flops = sub.flops * n;
            c.transcendentals = sub.transcendentals * n;
            c.unknownOps = sub.unknownOps;
            return c;
        }
        if (op == "select-and-scatter") {
            const HloCost select = calledSum(i, 0), scatter = calledSum(i, 1);
            double windowElements = 1;
            for (const xla::WindowDimension& w : i.window().dimensions()) windowElements *= double(w.size());
            const double source = double(elementCount(operandShape(i, 1)));
            c.flops = select.flops * source * (windowElements - 1) + scatter.flops * source;
            c.transcendentals = select.transcendentals * source * (windowElements - 1) + scatter.transcendentals * source;
            return c;
        }
        if (op == "sort") {
            const double n = double(elementCount(operandShape(i, 0)));
            c.flops = n > 1 ? n * std::ceil(std::log2(n)) : 0;
            return c;
        }
        if (op == "slice") {
            c.bytesAccessed = 2 * c.outputBytes;
            return c;
        }
        if (op == "dynamic-slice") {
            c.bytesAccessed = 2 * c.outputBytes + bytes(operandShape(i, 1));
            return c;
        }
        if (op == "dynamic-update-slice") {
            const double update = bytes(operandShape(i, 1));
            c.outputBytes = update;
            c.bytesAccessed = 2 * update + bytes(operandShape(i, 2));
            return c;
        }
        if (op == "gather") {
            c.bytesAccessed = 2 * c.outputBytes + bytes(operandShape(i, 1));
            return c;
        }
        if (op == "transpose") {
            if (transposeIsBitcast(operandShape(i, 0), i.shape(), i)) return HloCost{};
            return c;
        }
        if (op == "concatenate" && model_ == HloCostModel::XlaGpu) {
            // GpuHloCostAnalysis: 6 cycles per element; 400 when concatenating along a minor
            // dimension whose first operand's size is not a multiple of 32 (unaligned copies).
            const int64_t d = i.dimensions_size() > 0 ? i.dimensions(0) : 0;
            const bool unaligned = d > 0 && dim(operandShape(i, 0), d) % 32 != 0;
            c.flops = (unaligned ? 400.0 : 6.0) * double(elementCount(i.shape()));
            return c;
        }
        if (op == "while") {
            // One trip of the condition and the body: XLA does not know the trip count.
            HloCost sum;
            for (int64_t callee : i.called_computation_ids()) add(sum, computation(callee));
            return sum;
        }
        if (op == "conditional") {
            HloCost best;
            for (int64_t callee : i.called_computation_ids()) {
                const HloCost branch = computation(callee);
                best.flops = std::max(best.flops, branch.flops);
                best.transcendentals = std::max(best.transcendentals, branch.transcendentals);
                best.bytesAccessed = std::max(best.bytesAccessed, branch.bytesAccessed);
                best.outputBytes = std::max(best.outputBytes, branch.outputBytes);
                best.unknownOps = std::max(best.unknownOps, branch.unknownOps);
            }
            return best;
        }
        if (op == "call" || op == "async-start") {
            HloCost sum;
            for (int64_t callee : i.called_computation_ids()) add(sum, computation(callee));
            return sum;
        }
        if (op == "all-reduce" || op == "all-reduce-start") {
            c.flops = double(arrayLeafElements(i.shape()));
            return c;
        }
        if (op == "scatter") {
            // scatter(operands..., indices, updates...): the combiner once per update element.
            const int n = i.operand_ids_size() / 2;  // operands and updates pair up around the indices
            const HloCost sub = calledSum(i, 0);
            const double updates = double(elementCount(operandShape(i, n + 1)));
            c.flops = sub.flops * updates;
            c.transcendentals = sub.transcendentals * updates;
            double updateBytes = 0;
            for (int k = n + 1; k < i.operand_ids_size(); ++k) updateBytes += bytes(operandShape(i, k));
            c.bytesAccessed = 3 * updateBytes + bytes(operandShape(i, n));
            c.outputBytes = updateBytes;
            return c;
        }
        if (op == "rng") {
            c.transcendentals = double(elementCount(i.shape()));
            return c;
        }
        if (op == "rng-bit-generator") {
            c.transcendentals = double(arrayLeafElements(i.shape()));
            return c;
        }
        if (op == "fft") {
            double logs = 1;
            for (int64_t l : i.fft_length()) logs *= l > 0 ? std::floor(std::log2(double(l))) : 0;
            c.flops = 2 * 4 * logs * double(elementCount(firstArray(operandShape(i, 0))));
            return c;
        }
        if (op == "triangular-solve") {
            const xla::ShapeProto& a = operandShape(i, 0);
            c.flops = 2.0 * double(a.dimensions_size() ? a.dimensions(a.dimensions_size() - 1) : 0) *
                      double(elementCount(operandShape(i, 1)));
            c.bytesAccessed = c.outputBytes + bytes(a) / 2 + bytes(operandShape(i, 1));
            return c;
        }
        if (op == "cholesky") {
            const xla::ShapeProto& a = operandShape(i, 0);
            c.flops = double(a.dimensions_size() ? a.dimensions(a.dimensions_size() - 1) : 0) * double(elementCount(a)) / 3;
            c.bytesAccessed = bytes(a);
            return c;
        }
        if (zeroFlopOpcodes().count(op)) return c;  // data movement and bookkeeping: operands + output bytes
        // An opcode XLA's analysis does not list here (a newer XLA's): counted as unknown, not free.
        c.unknownOps = 1;
        return c;
    }

    static int64_t arrayLeafElements(const xla::ShapeProto& s) {
        if (s.element_type() != xla::TUPLE) return elementCount(s);
        int64_t n = 0;
        for (const xla::ShapeProto& t : s.tuple_shapes()) n += arrayLeafElements(t);
        return n;
    }

    // The summed cost of the k-th called computation (a reducer, a mapped function).
    HloCost calledSum(const xla::HloInstructionProto& i, int k) {
        return k < i.called_computation_ids_size() ? computation(i.called_computation_ids(k)) : HloCost{};
    }

    HloCost customCall(const xla::HloInstructionProto& i) {
        const std::string& target = i.custom_call_target();
        HloCost c;
        const xla::ShapeProto& result = firstArray(i.shape());
        c.outputBytes = bytes(result);  // the result, not the workspace beside it
        c.bytesAccessed = c.outputBytes + operandBytes(i);
        if (target == "__cublas$gemm" || target == "__cublas$lt$matmul" || target == "__cublas$lt$matmul$f8") {
            std::vector<int64_t> contracting;
            if (gemmContracting(i.backend_config(), contracting)) {
                c.flops = dotFlops(operandShape(i, 0), result, contracting);
                return c;
            }
        } else if (target.rfind("__cudnn$conv", 0) == 0) {
            bool tooLarge = false;
            c.flops = convolutionFlops(operandShape(i, 0), operandShape(i, 1), result, i, &tooLarge);
            if (!tooLarge) return c;
        }
        if (unknownTargets_.insert(target).second) out_.unknownTargets.push_back(target);
        c.unknownOps = 1;
        return c;
    }

    // The bytes a fusion parameter reads: a slice or dynamic slice reads what it keeps, a
    // dynamic update in place reads nothing of its buffer, a nested fusion what its own
    // parameter reads; any other use reads the whole parameter once.
    double parameterReadBytes(const HloProgram& p, const xla::HloInstructionProto& param, int depth = 0) const {
        double read = 0;
        bool wholeRead = false;
        for (const xla::HloInstructionProto* u : p.users(param.id())) {
            const std::string& op = u->opcode();
            if (op == "slice" || (op == "dynamic-slice" && u->operand_ids_size() > 0 && u->operand_ids(0) == param.id())) {
                read += bytes(u->shape());
            } else if (op == "dynamic-update-slice" && u->operand_ids_size() > 0 && u->operand_ids(0) == param.id()) {
                // aliased with the output
            } else if (op == "fusion" && u->called_computation_ids_size() > 0 && depth < 64) {  // a cycle stops
                const xla::HloComputationProto* inner = p.computation(u->called_computation_ids(0));
                bool found = false;
                for (int k = 0; inner && k < u->operand_ids_size(); ++k) {
                    if (u->operand_ids(k) != param.id()) continue;
                    for (const xla::HloInstructionProto& x : inner->instructions())
                        if (x.opcode() == "parameter" && x.parameter_number() == k) {
                            read += parameterReadBytes(p, x, depth + 1);
                            found = true;
                        }
                }
                if (!found) wholeRead = true;
            } else {
                wholeRead = true;
            }
        }
        // A parameter that is its computation's result is read whole.
        const xla::HloComputationProto* c = p.computationOf(param.id());
        if (c && c->root_id() == param.id()) wholeRead = true;
        return read + (wholeRead ? bytes(param.shape()) : 0);
    }

    // GpuHloCostAnalysis: how many times each fused instruction's output is used toward the
    // root (1 at the root; elementwise users pass their own use on, others per element of
    // their operand they read: a slice reads output/input elements of it).
    std::unordered_map<int64_t, double> fusedUtilization(const xla::HloComputationProto& c) const {
        std::unordered_map<int64_t, double> util;
        util[c.root_id()] = 1.0;
        for (int k = c.instructions_size() - 1; k >= 0; --k) {
            const xla::HloInstructionProto& i = c.instructions(k);
            const double u = util.count(i.id()) ? util[i.id()] : 0.0;
            if (u == 0) continue;
            for (int o = 0; o < i.operand_ids_size(); ++o) {
                double share = 1.0;
                if (i.opcode() == "slice" || i.opcode() == "dynamic-slice" || i.opcode() == "gather") {
                    const double in = double(elementCount(operandShape(i, o)));
                    if (o == 0 && in > 0) share = double(elementCount(i.shape())) / in;
                }
                util[i.operand_ids(o)] += u * share;
            }
        }
        return util;
    }

    HloCost fusion(const xla::HloInstructionProto& i) {
        HloCost c;
        if (i.called_computation_ids_size() == 0) return defaults(i);
        const int64_t calleeId = i.called_computation_ids(0);
        const xla::HloComputationProto* callee = p_.computation(calleeId);
        const HloCost inner = computation(calleeId);
        c.transcendentals = inner.transcendentals;
        c.unknownOps = inner.unknownOps;
        if (model_ == HloCostModel::XlaGpu && callee) {
            const std::unordered_map<int64_t, double> util = fusedUtilization(*callee);
            for (const xla::HloInstructionProto& x : callee->instructions()) {
                const HloCost* xc = out_.of(x.id());
                const auto u = util.find(x.id());
                if (xc && u != util.end()) c.flops += xc->flops * u->second;
            }
        } else {
            c.flops = inner.flops;
        }
        // Outputs: each array the fusion returns, an in-place dynamic update its update only.
        const xla::HloInstructionProto* root = callee ? p_.root(*callee) : nullptr;
        if (i.shape().element_type() == xla::TUPLE) {
            for (int k = 0; k < i.shape().tuple_shapes_size(); ++k) {
                const xla::HloInstructionProto* part =
                    root && root->opcode() == "tuple" && k < root->operand_ids_size() ? p_.instruction(root->operand_ids(k)) : nullptr;
                c.outputBytes += part && part->opcode() == "dynamic-update-slice"
                                     ? bytes(operandShape(*part, 1))
                                     : bytes(i.shape().tuple_shapes(k));
            }
        } else {
            c.outputBytes = root && root->opcode() == "dynamic-update-slice" ? bytes(operandShape(*root, 1))
                                                                               : bytes(i.shape());
        }
        c.bytesAccessed = c.outputBytes;
        if (!callee) return c;
        // The GPU model reads each parameter as far as the root uses it (nested fusions, such as
        // Triton's GEMM operands, pass their whole parameter on); XLA's common one by its users.
        std::unordered_map<int64_t, double> util;
        if (model_ == HloCostModel::XlaGpu) util = fusedUtilization(*callee);
        for (const xla::HloInstructionProto& x : callee->instructions()) {
            if (x.opcode() != "parameter") continue;
            if (model_ == HloCostModel::XlaGpu)
                c.bytesAccessed += std::round(bytes(x.shape()) * std::min(1.0, util.count(x.id()) ? util[x.id()] : 0.0));
            else
                c.bytesAccessed += parameterReadBytes(p_, x);
        }
        return c;
    }
};

}  // namespace

namespace {

// XLA's LayoutUtil::HasLayout: an array with a layout; a tuple whose every element has one.
bool hasLayout(const xla::ShapeProto& shape) {
    if (shape.element_type() != xla::TUPLE) return shape.has_layout() || shape.element_type() == xla::TOKEN;
    for (const xla::ShapeProto& s : shape.tuple_shapes())
        if (!hasLayout(s)) return false;
    return true;
}

}  // namespace

bool isHloElementwise(std::string_view opcode) { return elementwiseOpcodes().count(opcode) > 0; }

double hloPointerBytes(HloCostModel model) { return model == HloCostModel::Xla ? 4 : 8; }

double hloShapeBytes(const xla::ShapeProto& shape, double pointerBytes) {
    if (!hasLayout(shape)) return 0;
    if (shape.element_type() == xla::TUPLE) return pointerBytes * shape.tuple_shapes_size();
    if (shape.element_type() == xla::TOKEN) return 0;
    if (shape.element_type() == xla::OPAQUE_TYPE) return pointerBytes;
    const double elements = double(elementCount(shape));
    if (shape.layout().element_size_in_bits() > 0)
        return std::ceil(elements * double(shape.layout().element_size_in_bits()) / 8.0);
    return elements * double(primitiveTypeBytes(shape.element_type()));
}

HloProgramCost computeHloCost(const HloProgram& program, HloCostModel model) {
    HloProgramCost out;
    out.model = model;
    CostVisitor visitor(program, model, out);
    if (program.entry()) out.entry = visitor.computation(program.entry()->id());
    return out;
}

}  // namespace tracescope
