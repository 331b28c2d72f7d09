// Speed of the XLA Ops page on a large program: the HLO op profile and roofline of a program with
// 10^5 HLO instructions and 10^6 device events (target: at most 2 s), and the Graph tab's layout
// of a 500-node neighbourhood (target: at most 1 s). Prints each time and its ratio to the target.
//
//   bench_hlo [--instructions N] [--events N] [--graph-nodes N] [--keep FILE]
//
// The program is synthetic but shaped as XLA's GPU programs are: an entry computation of loop
// fusions (elementwise) and output fusions (a dot), each with its fused computation, chained with
// residual connections, and a schedule; the XSpace holds it as /host:metadata's hlo_proto stat and
// a GPU plane whose kernels carry hlo_op, hlo_module and program_id as XLA's profiler writes them.
// The file is written to the temp dir and opened with the importer, as the viewer does.
#include "model/analysis/hlo_graph.h"
#include "model/analysis/hlo_op_profile.h"
#include "model/analysis/hlo_roofline.h"
#include "model/analysis/op_classify.h"
#include "model/import/import.h"
#include "model/proto/hlo.pb.h"
#include "model/proto/xplane.pb.h"
#include "views/pipeline/pipeline_graph_view.h"

#include <QApplication>
#include <QElapsedTimer>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <unordered_map>
#include <vector>

using namespace tracescope;
namespace pb = tensorflow::profiler;
using Clock = std::chrono::steady_clock;

namespace {

double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

void setShape(xla::ShapeProto* s, std::initializer_list<int64_t> dims) {
    s->set_element_type(xla::F32);
    for (int64_t d : dims) s->add_dimensions(d);
    for (int k = int(dims.size()) - 1; k >= 0; --k) s->mutable_layout()->add_minor_to_major(k);
}

xla::HloInstructionProto* addInstruction(xla::HloComputationProto* c, int64_t& nextId, const std::string& name,
                                         const std::string& opcode) {
    xla::HloInstructionProto* i = c->add_instructions();
    i->set_id(nextId++);
    i->set_name(name);
    i->set_opcode(opcode);
    setShape(i->mutable_shape(), {256, 256});
    return i;
}

// Layers of five fusions, each layer with its own weight (a parameter of the entry): fusion k
// reads fusion k-1, its layer's weight and, every fourth, fusion k-4 (a residual). Each fusion's
// computation holds two parameters, a multiply (loop fusions) or a dot (output fusions, the last
// of a layer) and an add: 26 instructions per layer.
xla::HloProto makeProgram(size_t instructions, std::vector<std::string>& launchNames) {
    xla::HloProto proto;
    xla::HloModuleProto* m = proto.mutable_hlo_module();
    m->set_name("jit_bench_step");
    m->set_id(7);
    int64_t nextId = 1;
    const size_t layers = instructions / 26, fusions = layers * 5;
    std::vector<int64_t> computationOf(fusions);
    for (size_t k = 0; k < fusions; ++k) {
        const bool output = k % 5 == 4;
        xla::HloComputationProto* c = m->add_computations();
        c->set_id(int64_t(1'000'000 + k));
        c->set_name("fused_computation." + std::to_string(k));
        c->set_is_fusion_computation(true);
        auto* p0 = addInstruction(c, nextId, "param_0." + std::to_string(k), "parameter");
        auto* p1 = addInstruction(c, nextId, "param_1." + std::to_string(k), "parameter");
        p1->set_parameter_number(1);
        auto* mid = addInstruction(c, nextId, (output ? "dot." : "multiply.") + std::to_string(k), output ? "dot" : "multiply");
        mid->add_operand_ids(p0->id());
        mid->add_operand_ids(p1->id());
        if (output) {
            mid->mutable_dot_dimension_numbers()->add_lhs_contracting_dimensions(1);
            mid->mutable_dot_dimension_numbers()->add_rhs_contracting_dimensions(0);
        }
        auto* root = addInstruction(c, nextId, "add." + std::to_string(k), "add");
        root->add_operand_ids(mid->id());
        root->add_operand_ids(p1->id());
        c->set_root_id(root->id());
        computationOf[k] = c->id();
    }
    xla::HloComputationProto* entry = m->add_computations();
    entry->set_id(1);
    entry->set_name("main");
    std::vector<int64_t> weights, fusionIds;
    for (size_t l = 0; l < layers; ++l) {
        auto* i = addInstruction(entry, nextId, "weight." + std::to_string(l), "parameter");
        i->set_parameter_number(int64_t(l));
        weights.push_back(i->id());
    }
    auto* seq = &(*m->mutable_schedule()->mutable_sequences())[1];
    for (size_t k = 0; k < fusions; ++k) {
        const bool output = k % 5 == 4;
        const std::string name = (output ? "output_fusion." : "loop_fusion.") + std::to_string(k);
        auto* f = addInstruction(entry, nextId, name, "fusion");
        f->set_fusion_kind(output ? "kOutput" : "kLoop");
        f->add_called_computation_ids(computationOf[k]);
        f->add_operand_ids(k ? fusionIds.back() : weights[0]);
        f->add_operand_ids(weights[k / 5]);
        if (k % 4 == 3 && k >= 4) f->add_operand_ids(fusionIds[k - 4]);
        f->mutable_metadata()->set_op_name("jit(step)/layer_" + std::to_string(k / 5));
        f->mutable_metadata()->set_source_file("model.py");
        f->mutable_metadata()->set_source_line(int(10 + k % 200));
        fusionIds.push_back(f->id());
        launchNames.push_back(name);
    }
    entry->set_root_id(fusionIds.back());
    for (const auto& i : entry->instructions()) seq->add_instruction_ids(i.id());
    m->set_entry_computation_name("main");
    m->set_entry_computation_id(1);
    return proto;
}

// /host:metadata with the program, and one GPU whose `events` kernels run the program's launches
// over and over on two streams.
pb::XSpace makeSpace(const xla::HloProto& program, const std::vector<std::string>& launches, size_t events) {
    pb::XSpace space;
    space.add_hostnames("bench");
    pb::XPlane* meta = space.add_planes();
    meta->set_id(1);
    meta->set_name("/host:metadata");
    (*meta->mutable_stat_metadata())[1].set_name("hlo_proto");
    (*meta->mutable_stat_metadata())[1].set_id(1);
    pb::XEventMetadata& md = (*meta->mutable_event_metadata())[7];
    md.set_id(7);
    md.set_name(program.hlo_module().name());
    pb::XStat* blob = md.add_stats();
    blob->set_metadata_id(1);
    blob->set_bytes_value(program.SerializeAsString());

    pb::XPlane* gpu = space.add_planes();
    gpu->set_id(2);
    gpu->set_name("/device:GPU:0");
    auto statMeta = [&](int64_t id, const std::string& name) {
        pb::XStatMetadata& s = (*gpu->mutable_stat_metadata())[id];
        s.set_id(id);
        s.set_name(name);
    };
    statMeta(1, "hlo_op");
    statMeta(2, "hlo_module");
    statMeta(3, "program_id");
    statMeta(4, "peak_teraflops_per_second");
    statMeta(5, "peak_hbm_bw_gigabytes_per_second");
    statMeta(6, program.hlo_module().name());
    for (auto [id, value] : {std::pair{4, 989.0}, std::pair{5, 3352.0}}) {
        pb::XStat* s = gpu->add_stats();
        s->set_metadata_id(id);
        s->set_double_value(value);
    }
    // One event metadata (kernel) and one stat metadata (its hlo_op, referenced) per launch.
    for (size_t k = 0; k < launches.size(); ++k) {
        pb::XEventMetadata& e = (*gpu->mutable_event_metadata())[int64_t(k + 1)];
        e.set_id(int64_t(k + 1));
        e.set_name(kernelNameOf(launches[k]));
        statMeta(int64_t(100 + k), launches[k]);
    }
    pb::XLine* streams[2];
    for (int s = 0; s < 2; ++s) {
        streams[s] = gpu->add_lines();
        streams[s]->set_id(7 + s);
        streams[s]->set_name("Stream #" + std::to_string(7 + s) + "(Compute)");
        streams[s]->set_timestamp_ns(1'000'000);
    }
    int64_t clockPs[2] = {0, 0};
    for (size_t n = 0; n < events; ++n) {
        const size_t k = n % launches.size();
        const int s = int(n % 2);
        pb::XEvent* e = streams[s]->add_events();
        e->set_metadata_id(int64_t(k + 1));
        e->set_offset_ps(clockPs[s]);
        const int64_t durationPs = (k % 5 == 4 ? 40'000'000 : 8'000'000) + int64_t(k % 97) * 10'000;
        e->set_duration_ps(durationPs);
        clockPs[s] += durationPs + 1'000'000;
        pb::XStat* op = e->add_stats();
        op->set_metadata_id(1);
        op->set_ref_value(uint64_t(100 + k));
        pb::XStat* module = e->add_stats();
        module->set_metadata_id(2);
        module->set_ref_value(6);
        pb::XStat* id = e->add_stats();
        id->set_metadata_id(3);
        id->set_int64_value(7);
    }
    return space;
}

void report(const char* what, double seconds, double target) {
    std::printf("%-58s %8.3f s   %.2fx the %.0f s target\n", what, seconds, seconds / target, target);
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    size_t instructions = 100'000, events = 1'000'000, graphNodes = 500;
    std::string keep;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--instructions")) instructions = std::strtoull(argv[i + 1], nullptr, 10);
        else if (!std::strcmp(argv[i], "--events")) events = std::strtoull(argv[i + 1], nullptr, 10);
        else if (!std::strcmp(argv[i], "--graph-nodes")) graphNodes = std::strtoull(argv[i + 1], nullptr, 10);
        else if (!std::strcmp(argv[i], "--keep")) keep = argv[i + 1];
    }
    if (instructions < 26 || events < 1) {
        std::fprintf(stderr, "usage: bench_hlo [--instructions N>=26] [--events N] [--graph-nodes N] [--keep FILE]\n");
        return 2;
    }
    std::vector<std::string> launches;
    const xla::HloProto program = makeProgram(instructions, launches);
    const std::string path =
        keep.empty() ? (std::filesystem::temp_directory_path() / "bench_hlo.xplane.pb").string() : keep;
    {
        const pb::XSpace space = makeSpace(program, launches, events);
        std::ofstream out(path, std::ios::binary);
        space.SerializeToOstream(&out);
    }
    size_t made = 0;
    for (const auto& c : program.hlo_module().computations()) made += size_t(c.instructions_size());
    std::printf("program: %zu HLO instructions (%zu launches), %zu device events; %s, %.0f MB\n", made,
                launches.size(), events, path.c_str(), double(std::filesystem::file_size(path)) / 1e6);

    auto t = Clock::now();
    ImportResult r = importTrace(path);
    if (!r.ok()) {
        std::fprintf(stderr, "cannot load %s: %s\n", path.c_str(), r.error.c_str());
        return 1;
    }
    const double importS = secondsSince(t);
    std::printf("%-58s %8.3f s   (for scale: not part of the target)\n", "import", importS);

    t = Clock::now();
    const ClassifiedTrace ct = classifyTrace(*r.trace);
    const double classifyS = secondsSince(t);
    t = Clock::now();
    const HloProgramIndex index = indexHloPrograms(*r.trace);
    const double parseS = secondsSince(t);
    t = Clock::now();
    const HloOpProfile profile = computeHloOpProfile(ct, index);
    const double profileS = secondsSince(t);
    t = Clock::now();
    const RooflineResult roofline = computeRoofline(profile);
    const double rooflineS = secondsSince(t);
    uint64_t occurrences = 0;
    for (const HloOpRow& row : profile.ops) occurrences += row.metrics.occurrences;
    std::printf("  %zu op rows, %llu occurrences, %zu roofline points, %zu notes\n", profile.ops.size(),
                (unsigned long long)occurrences, roofline.ops.size(), profile.notes.size());
    std::printf("  classification %.3f s, HLO parse and index %.3f s, op profile %.3f s, roofline %.3f s\n", classifyS,
                parseS, profileS, rooflineS);
    report("op profile + roofline (HLO parse, profile, roofline)", parseS + profileS + rooflineS, 2);
    report("  the same with the classification every page shares", classifyS + parseS + profileS + rooflineS, 2);
    if (occurrences != events) std::printf("  WARNING: %llu of %zu events attributed\n", (unsigned long long)occurrences, events);

    // The Graph tab: the neighbourhood of a fusion in the middle of the program, as many hops as it
    // takes to reach `graphNodes` instructions, laid out by Graphviz and drawn into a scene.
    const HloProgram& p = *index.programs.front();
    const xla::HloInstructionProto* center = p.instruction(launches[launches.size() / 2]);
    std::unordered_map<std::string, TimeNs> timeOf;
    for (const HloOpRow& row : profile.ops) timeOf[row.name] = row.metrics.timeNs;
    t = Clock::now();
    HloGraph g;
    for (int radius = 1; radius < 100'000; ++radius) {
        g = hloNeighbourhood(p, *center, radius, timeOf);
        if (g.nodes.size() >= graphNodes || g.capped) break;
    }
    const double neighbourhoodS = secondsSince(t);
    std::vector<PipelineGraphNode> nodes;
    for (const HloGraphNode& n : g.nodes) {
        PipelineGraphNode v;
        v.title = QString::fromStdString(n.op->name());
        v.lines << QString::fromStdString(n.op->opcode() + " " + shapeText(n.op->shape()));
        if (n.timeNs > 0) v.lines << QStringLiteral("device time %1 us").arg(double(n.timeNs) / 1e3);
        nodes.push_back(std::move(v));
    }
    std::vector<PipelineGraphEdge> edges;
    for (size_t e = 0; e < g.edges.size(); ++e) edges.push_back({g.edges[e].second, g.edges[e].first, g.criticalEdge[e] != 0});
    PipelineGraphView view;
    view.resize(1280, 700);
    QElapsedTimer layout;
    layout.start();
    view.setGraph(std::move(nodes), std::move(edges));
    const double layoutS = double(layout.nsecsElapsed()) * 1e-9;
    std::printf("graph: %zu nodes, %zu edges%s, neighbourhood %.3f s, layout and scene %.3f s (%s)\n", g.nodes.size(),
                g.edges.size(), g.capped ? " (capped)" : "", neighbourhoodS, layoutS,
                view.laidOutByGraphviz() ? "Graphviz dot" : "fallback layered layout");
    report("graph view: neighbourhood + layout", neighbourhoodS + layoutS, 1);
    if (keep.empty()) std::filesystem::remove(path);
    return 0;
}
