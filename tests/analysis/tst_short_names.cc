// Short forms of C++ / kernel names: the issue's examples, names that must stay
// as they are, the namespace prefix kept where two kernels would collide, and
// every device slice name of every trace in ../shared/testdata: two different
// names may share a short form only when they differ in nothing but return
// type, namespaces and parameter list (checked with an independent regex
// normalisation, not with the code under test).
#include "model/analysis/short_name.h"
#include "model/import/import.h"

#include <QDirIterator>
#include <QtTest>

#include <map>
#include <regex>
#include <set>

using namespace tracescope;

namespace {

// The name without namespaces, return type, parameter list and spaces.
std::string reference(std::string s) {
    s = std::regex_replace(s, std::regex(R"(\(anonymous namespace\)::)"), "");
    s = std::regex_replace(s, std::regex(R"(\b[A-Za-z_][A-Za-z0-9_]*::)"), "");
    // A trailing parameter list (and " const" after it).
    s = std::regex_replace(s, std::regex(R"(\s*const$)"), "");
    if (!s.empty() && s.back() == ')') {
        int depth = 0;
        for (size_t i = s.size(); i-- > 0;) {
            if (s[i] == ')') ++depth;
            else if (s[i] == '(' && --depth == 0) {
                s.resize(i);
                break;
            }
        }
    }
    // A return type: up to the last space outside template arguments.
    int angle = 0;
    size_t cut = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '<') ++angle;
        else if (s[i] == '>') --angle;
        else if (s[i] == ' ' && angle == 0) cut = i + 1;
    }
    s = s.substr(cut);
    s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
    return s;
}

}  // namespace

class ShortNamesTest : public QObject {
    Q_OBJECT
private slots:
    void issueExamples() {
        QCOMPARE(shortName("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                           "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)"),
                 std::string("vectorized_elementwise_kernel<4, FillFunctor<float>, array<char*, 1ul>>"));
        QCOMPARE(shortName("void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>"
                           "(cutlass_80_simt_sgemm_256x128_8x4_nn_align1::Params)"),
                 std::string("Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>"));
        QCOMPARE(shortName("void at::native::(anonymous namespace)::distribution_elementwise_grid_stride_kernel<float, 4>"
                           "(long, at::PhiloxCudaState)"),
                 std::string("distribution_elementwise_grid_stride_kernel<float, 4>"));
        QCOMPARE(shortName("ns::Foo::~Foo()"), std::string("~Foo"));
        // Lambdas in template arguments keep their own name only.
        QCOMPARE(shortName("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
                           "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
                           "unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
                           "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
                           "unsigned int, float, 4, 4>)"),
                 std::string("reduce_kernel<512, 1, ReduceOp<float, func_wrapper_t<float, {lambda(float, float)#1}>, unsigned int, "
                             "float, 4, 4>>"));
        QCOMPARE(shortName("std::vector<int, std::allocator<int> >"), std::string("vector<int, allocator<int>>"));
    }

    void othersUnchanged() {
        for (const char* s : {"aten::mm", "cudaLaunchKernel", "Memcpy HtoD (Pageable -> Device)", "ProfilerStep#2",
                              "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize64x64x8_stage3_warpsize1x4x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas",
                              "torch/nn/modules/module.py(1501): _call_impl", "<built-in method mm of type object>",
                              "model/dense/MatMul", "fusion.12", "nn.Module: Linear_0", "a -> b", "x<y", "operator()(int)",
                              "Optimizer.step#AdamW.step", ""})
            QCOMPARE(shortName(s), std::string(s));
    }

    void collisionsKeepNamespaces() {
        const std::vector<std::string> names = {
            "void a::detail::kernel<float>(float*)", "void b::detail::kernel<float>(float*)",
            "void c::kernel<float>(float*)", "void other<int>(int)",
            "void a::detail::kernel<float>(float*, int)",  // same kernel, other parameters
        };
        const std::vector<std::string> s = shortNames(std::span<const std::string>(names));
        QCOMPARE(s[0], std::string("a::detail::kernel<float>"));
        QCOMPARE(s[1], std::string("b::detail::kernel<float>"));
        QCOMPARE(s[2], std::string("c::kernel<float>"));
        QCOMPARE(s[3], std::string("other<int>"));
        QCOMPARE(s[4], s[0]);
        // One namespace is enough when the inner ones differ.
        const std::vector<std::string> two = {"void x::p::run<1>()", "void x::q::run<1>()"};
        const auto t = shortNames(std::span<const std::string>(two));
        QCOMPARE(t[0], std::string("p::run<1>"));
        QCOMPARE(t[1], std::string("q::run<1>"));
        // Different only in the template arguments' namespaces: those stay.
        const std::vector<std::string> args = {"void k<a::T>()", "void k<b::T>()"};
        const auto u = shortNames(std::span<const std::string>(args));
        QVERIFY(u[0] != u[1]);
    }

    void everyTestdataTrace() {
        const QString root = QStringLiteral(TRACESCOPE_SHARED_DIR "/testdata");
        if (!QDir(root).exists()) QSKIP("no shared testdata");
        std::set<std::string> all;
        int traces = 0;
        QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            if (!path.endsWith(".json") && !path.endsWith(".json.gz") && !path.endsWith(".pb")) continue;
            ImportResult r = importTrace(path.toStdString());
            if (!r.ok()) continue;
            ++traces;
            const Trace& trace = *r.trace;
            for (const Track& track : trace.tracks) {
                const bool device = track.process < trace.processes.size() &&
                                    trace.processes[track.process].kind == ProcessKind::Device;
                for (size_t k = 0; k < track.slices.size(); ++k) {
                    const std::string_view name = trace.str(track.slices.name[k]);
                    // Kernel names: device slices, and C++ signatures wherever they are.
                    if (device || name.find('(') != std::string_view::npos) all.emplace(name);
                }
            }
        }
        QVERIFY(traces >= 20);
        const std::vector<std::string> names(all.begin(), all.end());
        const std::vector<std::string> shorts = shortNames(std::span<const std::string>(names));
        std::map<std::string, std::vector<size_t>> byShort;
        size_t changed = 0;
        for (size_t i = 0; i < names.size(); ++i) {
            byShort[shorts[i]].push_back(i);
            changed += shorts[i] != names[i];
            QVERIFY(!shorts[i].empty() || names[i].empty());
            QVERIFY(shorts[i].size() <= names[i].size());
        }
        for (const auto& [form, members] : byShort)
            for (size_t i : members)
                if (reference(names[i]) != reference(names[members[0]]))
                    QFAIL(qPrintable(QStringLiteral("'%1' and '%2' both become '%3'")
                                         .arg(QString::fromStdString(names[members[0]]), QString::fromStdString(names[i]),
                                              QString::fromStdString(form))));
        qInfo("%d traces, %zu distinct kernel names, %zu shortened, %zu short forms", traces, names.size(), changed,
              byShort.size());
        QVERIFY(changed > 50);
    }
};

QTEST_GUILESS_MAIN(ShortNamesTest)
#include "tst_short_names.moc"
