// XLA programs: HLO read from its wire form, FLOPs and bytes per instruction (XLA's cost
// analysis definitions) on hand-built programs whose costs are worked out by hand in the
// comments, hostile protos, and the op profile of a real JAX-on-ROCm capture (whose gemm fusion
// costs are checked against its shapes).
#include "model/analysis/hlo_cost.h"
#include "model/analysis/hlo_graph.h"
#include "model/analysis/hlo_op_profile.h"
#include "model/analysis/hlo_program.h"
#include "model/analysis/hlo_roofline.h"
#include "model/import/import.h"

#include <QtTest>

#include <initializer_list>
#include <set>

using namespace tracescope;

namespace {

xla::ShapeProto shape(xla::PrimitiveType type, std::initializer_list<int64_t> dims) {
    xla::ShapeProto s;
    s.set_element_type(type);
    for (int64_t d : dims) s.add_dimensions(d);
    // Row-major layout, as XLA's compiled HLO carries (a scalar's is empty, but present).
    s.mutable_layout();
    for (int64_t k = int64_t(dims.size()) - 1; k >= 0; --k) s.mutable_layout()->add_minor_to_major(k);
    return s;
}

xla::ShapeProto tuple(std::initializer_list<xla::ShapeProto> parts) {
    xla::ShapeProto s;
    s.set_element_type(xla::TUPLE);
    for (const auto& p : parts) *s.add_tuple_shapes() = p;
    return s;
}

// Builds a module instruction by instruction; ids are unique across the module, as XLA's.
class Builder {
public:
    xla::HloComputationProto* computation(const std::string& name) {
        xla::HloComputationProto* c = proto_.mutable_hlo_module()->add_computations();
        c->set_name(name);
        c->set_id(nextId_++);
        return c;
    }
    xla::HloInstructionProto* add(xla::HloComputationProto* c, const std::string& name, const std::string& opcode,
                                  const xla::ShapeProto& s, std::initializer_list<int64_t> operands = {}) {
        xla::HloInstructionProto* i = c->add_instructions();
        i->set_name(name);
        i->set_opcode(opcode);
        *i->mutable_shape() = s;
        i->set_id(nextId_++);
        for (int64_t o : operands) i->add_operand_ids(o);
        c->set_root_id(i->id());
        return i;
    }
    xla::HloInstructionProto* param(xla::HloComputationProto* c, int n, const xla::ShapeProto& s) {
        xla::HloInstructionProto* i = add(c, "p" + std::to_string(n), "parameter", s);
        i->set_parameter_number(n);
        return i;
    }
    std::shared_ptr<const HloProgram> program(xla::HloComputationProto* entry) {
        proto_.mutable_hlo_module()->set_name("m");
        proto_.mutable_hlo_module()->set_entry_computation_id(entry->id());
        XlaProgramBlob blob;
        blob.programId = 7;
        blob.name = "m(7)";
        blob.hloProto = proto_.SerializeAsString();
        std::string error;
        auto p = HloProgram::parse(blob, &error);
        if (!p) qWarning("%s", error.c_str());
        return p;
    }

private:
    xla::HloProto proto_;
    int64_t nextId_ = 1;
};

// A reducer (f32, f32) -> f32 add.
xla::HloComputationProto* addReducer(Builder& b) {
    xla::HloComputationProto* r = b.computation("add");
    auto* x = b.param(r, 0, shape(xla::F32, {}));
    auto* y = b.param(r, 1, shape(xla::F32, {}));
    b.add(r, "sum", "add", shape(xla::F32, {}), {x->id(), y->id()});
    return r;
}

}  // namespace

class HloCostTest : public QObject {
    Q_OBJECT

private slots:
    // dot f32[64,128] x f32[128,32]: 2 x (64 x 32) outputs x 128 = 524,288 FLOPs;
    // bytes (64x128 + 128x32 + 64x32) x 4 = 57,344. Parameters cost nothing.
    void dot() {
        Builder b;
        auto* e = b.computation("main");
        auto* x = b.param(e, 0, shape(xla::F32, {64, 128}));
        auto* y = b.param(e, 1, shape(xla::F32, {128, 32}));
        auto* d = b.add(e, "dot", "dot", shape(xla::F32, {64, 32}), {x->id(), y->id()});
        d->mutable_dot_dimension_numbers()->add_lhs_contracting_dimensions(1);
        d->mutable_dot_dimension_numbers()->add_rhs_contracting_dimensions(0);
        auto p = b.program(e);
        QVERIFY(p);
        for (HloCostModel m : {HloCostModel::Xla, HloCostModel::XlaGpu}) {
            const HloProgramCost c = computeHloCost(*p, m);
            QCOMPARE(c.of(d->id())->flops, 524288.0);
            QCOMPARE(c.of(d->id())->bytesAccessed, 57344.0);
            QCOMPARE(c.of(x->id())->bytesAccessed, 0.0);
            QCOMPARE(c.entry.flops, 524288.0);
            QVERIFY(c.entry.known());
        }
        // A batched dot: [8,16,32] x [8,32,4] -> [8,16,4]: 2 x 512 x 32 = 32,768.
        Builder b2;
        auto* e2 = b2.computation("main");
        auto* bx = b2.param(e2, 0, shape(xla::BF16, {8, 16, 32}));
        auto* by = b2.param(e2, 1, shape(xla::BF16, {8, 32, 4}));
        auto* bd = b2.add(e2, "bdot", "dot", shape(xla::BF16, {8, 16, 4}), {bx->id(), by->id()});
        bd->mutable_dot_dimension_numbers()->add_lhs_contracting_dimensions(2);
        bd->mutable_dot_dimension_numbers()->add_lhs_batch_dimensions(0);
        auto p2 = b2.program(e2);
        QCOMPARE(computeHloCost(*p2, HloCostModel::Xla).of(bd->id())->flops, 32768.0);
        // bf16: (4096 + 1024 + 512) x 2 bytes
        QCOMPARE(computeHloCost(*p2, HloCostModel::Xla).of(bd->id())->bytesAccessed, 11264.0);
    }

    // add f32[1000]: 1,000 FLOPs (XLA), 3,000 (the GPU model's 3 cycles per element); bytes 12,000.
    // exp: a transcendental for XLA (1,000, no FLOPs), 3,000 FLOPs for the GPU model; bytes 8,000.
    void elementwise() {
        Builder b;
        auto* e = b.computation("main");
        auto* x = b.param(e, 0, shape(xla::F32, {1000}));
        auto* y = b.param(e, 1, shape(xla::F32, {1000}));
        auto* sum = b.add(e, "sum", "add", shape(xla::F32, {1000}), {x->id(), y->id()});
        auto* ex = b.add(e, "ex", "exponential", shape(xla::F32, {1000}), {sum->id()});
        auto p = b.program(e);
        const HloProgramCost cpu = computeHloCost(*p, HloCostModel::Xla);
        QCOMPARE(cpu.of(sum->id())->flops, 1000.0);
        QCOMPARE(cpu.of(sum->id())->bytesAccessed, 12000.0);
        QCOMPARE(cpu.of(ex->id())->flops, 0.0);
        QCOMPARE(cpu.of(ex->id())->transcendentals, 1000.0);
        QCOMPARE(cpu.of(ex->id())->bytesAccessed, 8000.0);
        QCOMPARE(cpu.entry.flops, 1000.0);
        const HloProgramCost gpu = computeHloCost(*p, HloCostModel::XlaGpu);
        QCOMPARE(gpu.of(sum->id())->flops, 3000.0);
        QCOMPARE(gpu.of(ex->id())->flops, 3000.0);
        QCOMPARE(gpu.entry.flops, 6000.0);
    }

    // 2-D convolution, input [N=2, C=3, 5, 5], kernel [O=4, I=3, 3, 3], output [2, 4, 5, 5],
    // padding 1 on both sides, stride 1. Per spatial dimension the valid (kernel, output)
    // pairs: kernel index 0 reads inputs o-1 (valid for o = 1..4: 4), index 1 reads o (5),
    // index 2 reads o+1 (o = 0..3: 4) = 13; both dimensions 169. FLOPs = 2 x 3 x 4 x 2 x 169
    // = 8,112. With stride 2 and no padding (output [2,4,2,2]) every pair is valid: 3 x 2 = 6
    // per dimension, 36 in all: 2 x 3 x 4 x 2 x 36 = 1,728. With 4 input channels in two feature
    // groups each output reads 2 of them: 2 x (4/2) x 4 x 2 x 36 = 1,152.
    void convolution() {
        const auto conv = [](int64_t channels, int64_t outSize, int64_t stride, int64_t pad, int64_t groups) {
            Builder b;
            auto* e = b.computation("main");
            auto* in = b.param(e, 0, shape(xla::F32, {2, channels, 5, 5}));
            auto* k = b.param(e, 1, shape(xla::F32, {4, channels / groups, 3, 3}));
            auto* c = b.add(e, "conv", "convolution", shape(xla::F32, {2, 4, outSize, outSize}), {in->id(), k->id()});
            xla::ConvolutionDimensionNumbers* dn = c->mutable_convolution_dimension_numbers();
            dn->set_input_batch_dimension(0);
            dn->set_input_feature_dimension(1);
            dn->add_input_spatial_dimensions(2);
            dn->add_input_spatial_dimensions(3);
            dn->set_kernel_output_feature_dimension(0);
            dn->set_kernel_input_feature_dimension(1);
            dn->add_kernel_spatial_dimensions(2);
            dn->add_kernel_spatial_dimensions(3);
            dn->set_output_batch_dimension(0);
            dn->set_output_feature_dimension(1);
            dn->add_output_spatial_dimensions(2);
            dn->add_output_spatial_dimensions(3);
            for (int s = 0; s < 2; ++s) {
                xla::WindowDimension* w = c->mutable_window()->add_dimensions();
                w->set_size(3);
                w->set_stride(stride);
                w->set_padding_low(pad);
                w->set_padding_high(pad);
                w->set_window_dilation(1);
                w->set_base_dilation(1);
            }
            c->set_feature_group_count(groups);
            auto p = b.program(e);
            return computeHloCost(*p, HloCostModel::XlaGpu).of(c->id())->flops;
        };
        QCOMPARE(conv(3, 5, 1, 1, 1), 8112.0);
        // A hostile kernel of 2^40 positions is not walked: its cost is unknown, at once.
        {
            Builder b;
            auto* e = b.computation("main");
            auto* in = b.param(e, 0, shape(xla::F32, {1, 1, 8}));
            auto* k = b.param(e, 1, shape(xla::F32, {1, 1, int64_t(1) << 40}));
            auto* c = b.add(e, "conv", "convolution", shape(xla::F32, {1, 1, 8}), {in->id(), k->id()});
            c->mutable_convolution_dimension_numbers()->add_input_spatial_dimensions(2);
            c->mutable_convolution_dimension_numbers()->add_kernel_spatial_dimensions(2);
            c->mutable_convolution_dimension_numbers()->add_output_spatial_dimensions(2);
            c->mutable_window()->add_dimensions()->set_padding_low(INT64_MAX);
            auto p = b.program(e);
            QVERIFY(!computeHloCost(*p, HloCostModel::Xla).of(c->id())->known());
        }
        QCOMPARE(conv(3, 2, 2, 0, 1), 1728.0);
        QCOMPARE(conv(4, 2, 2, 0, 2), 1152.0);
    }

    // reduce f32[100,10] -> f32[100] by add: 1,000 - 100 = 900 reductions of one add: 900 FLOPs
    // (XLA), 2,700 (GPU: the add costs 3). Bytes: 4,000 in + 4 init + 400 out = 4,404.
    void reduce() {
        Builder b;
        auto* r = addReducer(b);
        auto* e = b.computation("main");
        auto* x = b.param(e, 0, shape(xla::F32, {100, 10}));
        auto* zero = b.add(e, "zero", "constant", shape(xla::F32, {}));
        auto* red = b.add(e, "red", "reduce", shape(xla::F32, {100}), {x->id(), zero->id()});
        red->add_dimensions(1);
        red->add_called_computation_ids(r->id());
        auto p = b.program(e);
        QCOMPARE(computeHloCost(*p, HloCostModel::Xla).of(red->id())->flops, 900.0);
        QCOMPARE(computeHloCost(*p, HloCostModel::XlaGpu).of(red->id())->flops, 2700.0);
        QCOMPARE(computeHloCost(*p, HloCostModel::Xla).of(red->id())->bytesAccessed, 4404.0);
        // The reducer's own instructions are costed too (once, as a computation).
        QVERIFY(computeHloCost(*p, HloCostModel::Xla).of(r->root_id()));
    }

    // A loop fusion of p0, p1: f32[1000]: s = p0 + p1, m = s * p0 (root). FLOPs 2,000 (XLA);
    // bytes: the output 4,000 + p0 read once 4,000 + p1 4,000 = 12,000 (s stays on chip).
    // A second fusion reads only a slice f32[100] of its parameter f32[1000]: 400 + the
    // output 400 = 800 bytes.
    void fusion() {
        Builder b;
        auto* f = b.computation("fused");
        auto* p0 = b.param(f, 0, shape(xla::F32, {1000}));
        auto* p1 = b.param(f, 1, shape(xla::F32, {1000}));
        auto* s = b.add(f, "s", "add", shape(xla::F32, {1000}), {p0->id(), p1->id()});
        b.add(f, "m", "multiply", shape(xla::F32, {1000}), {s->id(), p0->id()});
        auto* g = b.computation("sliced");
        auto* q0 = b.param(g, 0, shape(xla::F32, {1000}));
        auto* sl = b.add(g, "sl", "slice", shape(xla::F32, {100}), {q0->id()});
        b.add(g, "neg", "negate", shape(xla::F32, {100}), {sl->id()});
        auto* e = b.computation("main");
        auto* x = b.param(e, 0, shape(xla::F32, {1000}));
        auto* y = b.param(e, 1, shape(xla::F32, {1000}));
        auto* fu = b.add(e, "fusion", "fusion", shape(xla::F32, {1000}), {x->id(), y->id()});
        fu->set_fusion_kind("kLoop");
        fu->add_called_computation_ids(f->id());
        auto* fs = b.add(e, "fusion.1", "fusion", shape(xla::F32, {100}), {fu->id()});
        fs->set_fusion_kind("kLoop");
        fs->add_called_computation_ids(g->id());
        auto p = b.program(e);
        const HloProgramCost c = computeHloCost(*p, HloCostModel::Xla);
        QCOMPARE(c.of(fu->id())->flops, 2000.0);
        QCOMPARE(c.of(fu->id())->bytesAccessed, 12000.0);
        QCOMPARE(c.of(fs->id())->bytesAccessed, 800.0);
        QCOMPARE(c.of(fs->id())->flops, 100.0);
        QCOMPARE(c.entry.flops, 2100.0);  // the entry counts each fusion once, not its insides again
        QCOMPARE(hloCategory(*fu), std::string("loop fusion"));
        // GPU: both adds weigh 3 per element; everything fused is used once.
        QCOMPARE(computeHloCost(*p, HloCostModel::XlaGpu).of(fu->id())->flops, 6000.0);
    }

    // Custom calls: a cuBLAS GEMM is its dot (bf16[4096,6144] x bf16[2048,6144] contracting
    // dimension 1 of both: 2 x 4096 x 2048 x 6144 = 103,079,215,104 FLOPs; bytes: 50,331,648
    // + 25,165,824 in + 16,777,216 result, the workspace not counted); an unknown target is
    // counted as unknown (never as free), and so is the program it is in.
    void customCalls() {
        Builder b;
        auto* e = b.computation("main");
        auto* x = b.param(e, 0, shape(xla::BF16, {4096, 6144}));
        auto* y = b.param(e, 1, shape(xla::BF16, {2048, 6144}));
        auto* g = b.add(e, "gemm", "custom-call", tuple({shape(xla::BF16, {4096, 2048}), shape(xla::S8, {67108864})}),
                        {x->id(), y->id()});
        g->set_custom_call_target("__cublas$gemm");
        g->set_backend_config(
            "{\"gemm_backend_config\":{\"alpha_real\":1,\"dot_dimension_numbers\":{\"lhs_contracting_dimensions\":"
            "[\"1\"],\"rhs_contracting_dimensions\":[\"1\"],\"lhs_batch_dimensions\":[],\"rhs_batch_dimensions\":[]}}}");
        auto* u = b.add(e, "attn", "custom-call", shape(xla::BF16, {16}), {x->id()});
        u->set_custom_call_target("te_fused_attn_forward_ffi");
        auto* bad = b.add(e, "gemm.bad", "custom-call", shape(xla::BF16, {4096, 2048}), {x->id(), y->id()});
        bad->set_custom_call_target("__cublas$gemm");
        bad->set_backend_config("{not json");
        auto p = b.program(e);
        const HloProgramCost c = computeHloCost(*p, HloCostModel::XlaGpu);
        QCOMPARE(c.of(g->id())->flops, 103079215104.0);
        QCOMPARE(c.of(g->id())->bytesAccessed, 50331648.0 + 25165824.0 + 16777216.0);
        QVERIFY(c.of(g->id())->known());
        QVERIFY(!c.of(u->id())->known());
        QVERIFY(!c.of(bad->id())->known());  // a GEMM whose dimensions cannot be read is not free either
        QCOMPARE(c.entry.unknownOps, 2u);
        QCOMPARE(c.unknownTargets.size(), size_t(2));
    }

    // The graph around an instruction: a chain p0 -> a -> b -> c and a side branch p1 -> d -> c.
    // Radius 1 around b: a, b, c; radius 2: p0, a, b, c, d. With device time a 5, b 1, d 2, c 1 the
    // critical chain (most time along operands) is a -> b -> c (7 against d's 3). DOT names every
    // node and marks the chain.
    void graph() {
        Builder b;
        auto* e = b.computation("main");
        auto* p0 = b.param(e, 0, shape(xla::F32, {4}));
        auto* p1 = b.param(e, 1, shape(xla::F32, {4}));
        auto* a = b.add(e, "a", "negate", shape(xla::F32, {4}), {p0->id()});
        auto* bb = b.add(e, "b", "negate", shape(xla::F32, {4}), {a->id()});
        auto* d = b.add(e, "d", "negate", shape(xla::F32, {4}), {p1->id()});
        auto* c = b.add(e, "c", "add", shape(xla::F32, {4}), {bb->id(), d->id()});
        auto p = b.program(e);
        const std::unordered_map<std::string, TimeNs> time = {{"a", 5}, {"b", 1}, {"d", 2}, {"c", 1}};
        const auto names = [](const HloGraph& g) {
            std::set<std::string> out;
            for (const HloGraphNode& n : g.nodes) out.insert(n.op->name());
            return out;
        };
        const HloGraph one = hloNeighbourhood(*p, *p->instruction(bb->id()), 1, time);
        QCOMPARE(names(one), (std::set<std::string>{"a", "b", "c"}));
        const HloGraph two = hloNeighbourhood(*p, *p->instruction(bb->id()), 2, time);
        QCOMPARE(names(two), (std::set<std::string>{"p0", "a", "b", "c", "d"}));
        std::set<std::string> critical;
        for (const HloGraphNode& n : two.nodes)
            if (n.critical) critical.insert(n.op->name());
        QCOMPARE(critical, (std::set<std::string>{"a", "b", "c"}));
        QCOMPARE(hloNeighbourhood(*p, *p->instruction(bb->id()), -1, time).nodes.size(), size_t(6));
        const std::string dot = hloGraphDot(two, "m");
        QVERIFY(dot.rfind("digraph \"m\" {", 0) == 0);
        for (const char* n : {"p0\\nparameter f32[4]", "a\\nnegate f32[4]\\n0.005 us", "d\\nnegate"})
            QVERIFY2(dot.find(n) != std::string::npos, n);
        QCOMPARE(size_t(std::count(dot.begin(), dot.end(), '>')), two.edges.size());
    }

    // A neighbourhood larger than the graph view draws stops at kHloGraphMaxNodes (500): a chain of
    // 1,200 negates seen whole from its middle keeps the 500 nearest, nodes at the cut marked.
    void graphCap() {
        Builder b;
        auto* e = b.computation("main");
        int64_t previous = b.param(e, 0, shape(xla::F32, {4}))->id();
        int64_t middle = 0;
        for (int k = 0; k < 1200; ++k) {
            previous = b.add(e, "n" + std::to_string(k), "negate", shape(xla::F32, {4}), {previous})->id();
            if (k == 600) middle = previous;
        }
        auto p = b.program(e);
        const HloGraph g = hloNeighbourhood(*p, *p->instruction(middle), -1, {});
        QVERIFY(g.capped);
        QCOMPARE(g.nodes.size(), size_t(500));
        QCOMPARE(kHloGraphMaxNodes, size_t(500));
        size_t truncated = 0;
        for (const HloGraphNode& n : g.nodes) truncated += n.truncated;
        QVERIFY(truncated >= 1);
        const HloGraph small = hloNeighbourhood(*p, *p->instruction(middle), 10, {});
        QVERIFY(!small.capped);
        QCOMPARE(small.nodes.size(), size_t(21));
    }

    // while: one trip of condition and body (XLA does not know the trip count); conditional: the
    // costlier branch.
    void controlFlow() {
        Builder b;
        auto* body = b.computation("body");
        auto* bp = b.param(body, 0, shape(xla::F32, {10}));
        b.add(body, "inc", "add", shape(xla::F32, {10}), {bp->id(), bp->id()});
        auto* cond = b.computation("cond");
        auto* cp = b.param(cond, 0, shape(xla::F32, {10}));
        b.add(cond, "lt", "compare", shape(xla::PRED, {}), {cp->id(), cp->id()});
        auto* cheap = b.computation("cheap");
        auto* hp = b.param(cheap, 0, shape(xla::F32, {10}));
        b.add(cheap, "n", "negate", shape(xla::F32, {10}), {hp->id()});
        auto* e = b.computation("main");
        auto* x = b.param(e, 0, shape(xla::F32, {10}));
        auto* w = b.add(e, "loop", "while", shape(xla::F32, {10}), {x->id()});
        w->add_called_computation_ids(cond->id());
        w->add_called_computation_ids(body->id());
        auto* pred = b.param(e, 1, shape(xla::PRED, {}));
        auto* k = b.add(e, "branch", "conditional", shape(xla::F32, {10}), {pred->id(), x->id(), x->id()});
        k->add_called_computation_ids(cheap->id());
        k->add_called_computation_ids(body->id());
        auto p = b.program(e);
        const HloProgramCost c = computeHloCost(*p, HloCostModel::Xla);
        QCOMPARE(c.of(w->id())->flops, 11.0);  // 10 adds + 1 compare
        QCOMPARE(c.of(k->id())->flops, 10.0);  // max(10 negates, 10 adds)
    }

    // Hostile programs: garbage bytes, a module without computations, a computation that calls
    // itself, a fusion of its own computation, dimensions whose product overflows, ids that name
    // nothing: an error or a finite answer, never a crash or a hang.
    void hostile() {
        std::string error;
        XlaProgramBlob garbage;
        garbage.hloProto = std::string("\x0a\xff\xff\xff\xff\x0f", 6);
        QVERIFY(!HloProgram::parse(garbage, &error));
        QVERIFY(error.find("not an xla.HloProto") != std::string::npos);
        XlaProgramBlob empty;
        xla::HloProto onlyName;
        onlyName.mutable_hlo_module()->set_name("x");
        empty.hloProto = onlyName.SerializeAsString();
        QVERIFY(!HloProgram::parse(empty, &error));

        Builder b;
        auto* e = b.computation("main");
        auto* x = b.param(e, 0, shape(xla::F32, {INT64_MAX, INT64_MAX}));
        auto* self = b.add(e, "self", "call", shape(xla::F32, {1}), {x->id(), 999999});
        self->add_called_computation_ids(e->id());
        auto* loop = b.add(e, "loop", "while", shape(xla::F32, {1}), {});
        loop->add_called_computation_ids(424242);
        auto* d = b.add(e, "dot", "dot", shape(xla::F32, {INT64_MAX}), {x->id(), x->id()});
        d->mutable_dot_dimension_numbers()->add_lhs_contracting_dimensions(5);  // out of range
        // A fusion whose computation holds a fusion of itself.
        auto* f = b.computation("selfish");
        auto* fp = b.param(f, 0, shape(xla::F32, {4}));
        auto* inner = b.add(f, "inner", "fusion", shape(xla::F32, {4}), {fp->id()});
        inner->add_called_computation_ids(f->id());
        auto* outer = b.add(e, "outer", "fusion", shape(xla::F32, {4}), {x->id()});
        outer->add_called_computation_ids(f->id());
        auto p = b.program(e);
        QVERIFY(p);
        const HloProgramCost c = computeHloCost(*p, HloCostModel::XlaGpu);
        QVERIFY(c.of(outer->id()));
        QVERIFY(std::isfinite(computeHloCost(*p, HloCostModel::Xla).of(outer->id())->bytesAccessed));
        QVERIFY(c.of(d->id()));
        QVERIFY(std::isfinite(c.of(d->id())->flops));
        QCOMPARE(elementCount(x->shape()), INT64_MAX);  // saturated
        QCOMPARE(shapeText(tuple({shape(xla::F32, {2}), shape(xla::S32, {})})), std::string("(f32[2], s32[])"));
    }

    // A trace without XLA programs says so; one whose programs were all unreadable says that none
    // could be read (the index's problems say why), not that there are none.
    void noProgramNotes() {
        const std::string path = std::string(TRACESCOPE_SHARED_DIR) + "/testdata/gpu/torch_mlp_memory_h100.json";
        ImportResult r = importTrace(path);
        QVERIFY2(r.trace, r.error.c_str());
        const ClassifiedTrace ct = classifyTrace(*r.trace);
        HloProgramIndex index = indexHloPrograms(*r.trace);
        QVERIFY(index.programs.empty() && index.problems.empty());
        auto has = [](const HloOpProfile& p, const std::string& note) {
            return std::find(p.notes.begin(), p.notes.end(), note) != p.notes.end();
        };
        const HloOpProfile none = computeHloOpProfile(ct, index);
        QVERIFY(has(none, "the trace holds no XLA program (HLO)"));
        index.problems.push_back("program 3 (jit_huge): its HLO (2.0 GB) is larger than protobuf reads (2 GiB): not read");
        const HloOpProfile unread = computeHloOpProfile(ct, index);
        QVERIFY(has(unread, "no XLA program (HLO) of the trace could be read"));
        QVERIFY(!has(unread, "the trace holds no XLA program (HLO)"));
    }

    // A real capture: JAX on an AMD MI355 (gfx950), whose program jit_loss_fn(17) ran 5 times.
    // Its Triton GEMM gemm_fusion_dot computes f32[2,4096,6144] from bf16[4096,2,1024] and
    // bf16[2,1024,6144] contracting 1024: 2 x 2 x 4096 x 6144 x 1024 = 103,079,215,104 FLOPs per
    // execution; bytes 16,777,216 + 25,165,824 + 201,326,592 = 243,269,632. The device's peak:
    // 256 CUs x 2.4 GHz x 4096 dense FLOPs per CU and cycle = 2,516,582.4 GFLOP/s; its
    // memory_bandwidth stat 4.096e12 B/s.
    void realCapture() {
        const std::string path = std::string(TRACESCOPE_SHARED_DIR) + "/testdata/public/tracelens/934987a2fc2f.xplane.pb";
        ImportResult r = importTrace(path);
        QVERIFY2(r.trace, r.error.c_str());
        QCOMPARE(r.trace->xlaPrograms.size(), size_t(9));
        const HloProgramIndex index = indexHloPrograms(*r.trace);
        QVERIFY(index.problems.empty());
        const HloProgram* loss = index.byId(17);
        QVERIFY(loss);
        QCOMPARE(loss->moduleName(), std::string("jit_loss_fn"));
        QCOMPARE(loss->displayName(), std::string("jit_loss_fn(17)"));
        QCOMPARE(index.byModule("jit_loss_fn"), loss);
        const xla::HloInstructionProto* gemm = loss->instruction(std::string_view("gemm_fusion_dot"));
        QVERIFY(gemm);
        const HloProgramCost cost = computeHloCost(*loss, HloCostModel::XlaGpu);
        QCOMPARE(cost.of(gemm->id())->flops, 103079215104.0);
        QCOMPARE(cost.of(gemm->id())->bytesAccessed, 243269632.0);
        QCOMPARE(hloCategory(*gemm), std::string("custom fusion"));

        const ClassifiedTrace ct = classifyTrace(*r.trace);
        const HloOpProfile profile = computeHloOpProfile(ct, index);
        QCOMPARE(profile.peaks.peakFlopsPerSecond, 256 * 2.4e9 * 4096);
        QCOMPARE(profile.peaks.peakHbmBytesPerSecond, 4.096e12);
        const auto row = std::find_if(profile.ops.begin(), profile.ops.end(),
                                      [](const HloOpRow& x) { return x.name == "gemm_fusion_dot"; });
        QVERIFY(row != profile.ops.end());
        QCOMPARE(row->metrics.occurrences, uint64_t(5));
        QCOMPARE(row->metrics.flops, 5 * 103079215104.0);
        // Every program is listed; the one that ran on the device first, with its 150 activities
        // (the hlo_op-carrying events of the file: 5 steps x 30 kernels).
        QCOMPARE(profile.programs.size(), size_t(9));
        QCOMPARE(profile.programs[0].name, std::string("jit_loss_fn(17)"));
        QCOMPARE(profile.programs[0].metrics.occurrences, uint64_t(150));
        QCOMPARE(profile.programs[1].metrics.occurrences, uint64_t(0));

        // The roofline: the ridge at 2,516,582.4e9 / 4.096e12 = 614.4 FLOP/byte. gemm_fusion_dot
        // (103,079,215,104 / 243,269,632 = 423.72 FLOP/byte) sits on the memory side, its ceiling
        // 423.72 x 4.096e12 FLOP/s; the attention calls have no known cost.
        const RooflineResult roof = computeRoofline(profile);
        QCOMPARE(roof.peaks.ridgePoint(), 614.4);
        const auto point = [&](const char* name) {
            return *std::find_if(roof.ops.begin(), roof.ops.end(), [&](const RooflinePoint& p) { return p.name == name; });
        };
        const RooflinePoint gemmPoint = point("gemm_fusion_dot");
        QCOMPARE(gemmPoint.region, RooflineRegion::Memory);
        QCOMPARE(gemmPoint.intensity, 103079215104.0 / 243269632.0);
        QCOMPARE(gemmPoint.attainable, gemmPoint.intensity * 4.096e12);
        QCOMPARE(gemmPoint.efficiency, gemmPoint.flopsPerSecond / gemmPoint.attainable);
        QCOMPARE(point("te_fused_attn_forward_ffi.10").region, RooflineRegion::Unknown);
        QCOMPARE(roof.memoryRegionNs + roof.computeRegionNs + roof.unknownNs, profile.totalNs - profile.idleNs);
    }

    // JAX on 8 AMD MI300X (gfx942): jit_forward_3d_conv(15) ran 5 times per GPU; its cuDNN-style
    // convolution runs as two kernels (Im3d2Col, then a GEMM) back to back: 80 kernels, one
    // without hlo_op, so 79 activities (XProf's occurrences) in 40 executions, and a note says
    // that their per-kernel cost overstates the op (its FLOPs are checked against XProf's in
    // peers_xprof_hlo_tw003).
    void multiKernelOps() {
        const std::string path = std::string(TRACESCOPE_SHARED_DIR) + "/testdata/public/tracelens/tw003.xplane.pb";
        ImportResult r = importTrace(path);
        QVERIFY2(r.trace, r.error.c_str());
        const HloProgramIndex index = indexHloPrograms(*r.trace);
        const HloOpProfile profile = computeHloOpProfile(classifyTrace(*r.trace), index);
        const auto conv = std::find_if(profile.ops.begin(), profile.ops.end(),
                                       [](const HloOpRow& x) { return x.name == "cudnn-conv.1"; });
        QVERIFY(conv != profile.ops.end());
        QCOMPARE(conv->metrics.occurrences, uint64_t(79));
        QCOMPARE(conv->metrics.executions, uint64_t(40));
        QVERIFY(std::any_of(profile.notes.begin(), profile.notes.end(),
                            [](const std::string& n) { return n.find("cudnn-conv.1 (79 activities in 40 runs)") != std::string::npos; }));
        QCOMPARE(profile.peaks.peakFlopsPerSecond, 304 * 2.1e9 * 2048);  // 304 CUs x 2.1 GHz x 2048
    }

    // JAX 0.11.2 on an H100 with XLA command buffers (the default): every device activity of the
    // 10 training steps carries hlo_op "command_buffer_1". The program's schedule launches 30
    // kernels per step (22 fusions, 8 cuBLAS-LT GEMMs); XLA gives identical fusions one kernel
    // (fusion_34 runs fusion.34, .33 and .32) and cuBLAS kernels their own names. Attributed,
    // each of the 30 launches has exactly 10 activities (one per step), inside the buffer, and the
    // classification every page uses names each activity by its op; what stays with the buffer is
    // its 10 memsets.
    void commandBuffers() {
        const std::string path = std::string(TRACESCOPE_SHARED_DIR) + "/testdata/gpu/jax_mlp_h100.xplane.pb";
        ImportResult r = importTrace(path);
        QVERIFY2(r.trace, r.error.c_str());
        const HloProgramIndex index = indexHloPrograms(*r.trace);
        const ClassifiedTrace ct = classifyTrace(*r.trace);
        const HloOpProfile profile = computeHloOpProfile(ct, index);
        QCOMPARE(profile.ops.size(), size_t(31));
        int gemms = 0;
        for (const HloOpRow& row : profile.ops) {
            QCOMPARE(row.metrics.occurrences, uint64_t(10));
            if (!row.op) {
                QCOMPARE(row.name, std::string("command_buffer_1"));
                for (SliceRef s : row.activities) QCOMPARE(ct.role(s), SliceRole::Memset);
                continue;
            }
            QCOMPARE(row.parent, std::string("command_buffer_1"));
            // Every page names the activity by that op (op stats, overview), not by the buffer.
            for (SliceRef s : row.activities) QCOMPARE(deviceActivityOp(ct, s), row.name);
            if (row.op->custom_call_target() == "__cublas$lt$matmul") {
                ++gemms;
                QVERIFY(row.costPerExecution.known());  // costed as its dot
                for (SliceRef s : row.activities) QVERIFY(fullNameOf(*r.trace, s).rfind("sm90_xmma_gemm", 0) == 0);
            }
        }
        QCOMPARE(gemms, 8);
    }
};

QTEST_GUILESS_MAIN(HloCostTest)
#include "tst_hlo_cost.moc"
