// Figures that misled users: Compilation in the step breakdown, TensorCore use of kernels,
// device IDLE, the run environment's hosts and the pies' "Other (N)". Hand-built cases
// carry their arithmetic in comments; the real files are checked against
// tests/tools/trusted_figures.py (stdlib Python over the raw JSON) -> data/trusted_figures.json.
#include "model/analysis/compile_activity.h"
#include "model/analysis/kernel_stats.h"
#include "model/analysis/op_stats.h"
#include "model/analysis/overview.h"
#include "model/analysis/steps.h"
#include "model/analysis/tensor_core_rules.h"
#include "model/import/import.h"
#include "model/trace/trace_builder.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <fstream>

using namespace tracescope;
using nlohmann::json;

namespace {

json reference() {
    std::ifstream in(std::string(TRACESCOPE_TEST_DATA_DIR) + "/trusted_figures.json");
    return json::parse(in);
}

std::unique_ptr<Trace> load(const std::string& relative) {
    ImportResult r = importTrace(std::string(TRACESCOPE_SHARED_DIR) + "/testdata/" + relative);
    if (!r.ok()) qWarning("import failed: %s", r.error.c_str());
    return std::move(r.trace);
}

std::string baseName(const std::string& path) { return path.substr(path.rfind('/') + 1); }

}  // namespace

class TestTrustedFigures : public QObject {
    Q_OBJECT

private slots:
    // One case per family of the rule table, with names as cuBLAS, CUTLASS, cuDNN, xFormers,
    // FlashAttention and PyTorch print them.
    void tensorCoreFamilies_data() {
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<bool>("tensorCore");
        const std::pair<const char*, bool> cases[] = {
            // FP32 on CUDA cores, although XProf's "xmma_gemm" pattern matches the first three.
            {"sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x64x8_stage3_warpsize1x4x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas", false},
            {"sm90_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x64x8_stage3_warpsize2x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas", false},
            {"sm100_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_execute_kernel__5x_cublas", false},
            {"void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nt_align1>(cutlass_80_simt_sgemm_256x128_8x4_nt_align1::Params)", false},
            {"fmha_cutlassF_f32_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<float, cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)", false},
            {"volta_sgemm_128x64_nn", false},
            {"ampere_sgemm_128x64_nn", false},
            {"volta_scudnn_winograd_128x128_ldg1_ldg4_relu_tile148t_nt_v1", false},
            {"void implicit_convolve_sgemm<float, float, 1024, 6, 7, 3, 3, 5, 1, false, true, true>(int, int)", false},
            {"void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>>", false},
            {"ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", false},
            // Tensor-core kernels: TF32, FP16, BF16, INT8, FP8 and FP64 (DMMA) GEMMs and convolutions.
            {"sm80_xmma_gemm_tf32f32_tf32f32_f32_tn_n_tilesize128x128x16_stage4_warpsize2x2x1_tensor16x8x8_execute_kernel__5x_cublas", true},
            {"sm90_xmma_gemm_f32f32_tf32f32_f32_nt_n_tilesize128x256x32_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas", true},
            {"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas", true},
            {"sm100_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_cluster2x1x1_execute_kernel__5x_cublas", true},
            {"sm80_xmma_gemm_f64f64_f64f64_f64_tn_n_tilesize64x64x16_stage4_warpsize2x2x1_dmma_execute_kernel__5x_cublas", true},
            {"sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_execute_kernel__5x_cudnn", true},
            {"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x64_32x6_nt_align1>(cutlass_80_tensorop_s1688gemm_128x64_32x6_nt_align1::Params)", true},
            {"void cutlass::device_kernel<cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x128x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_tma>(Params)", true},
            {"cutlass3x_sm100_tensorop_gemm_e4m3_e4m3_f32_bf16_bf16_256x128x128_2x1x1_0_tnn_align16_2sm", true},
            {"ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn", true},
            {"turing_fp16_s1688gemm_fp16_128x128_ldg8_f2f_nn", true},
            {"volta_h884gemm_64x64_ldg8_nn", true},
            {"ampere_int8_i16832gemm_int8_256x128_ldg16_stages_64x3_nt", true},
            {"nvjet_tst_192x192_64x4_2x1_v_bz_coopB_TNN", true},
            {"void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t>>(Flash_fwd_params)", true},
            {"fmha_cutlassF_bf16_aligned_64x128_rf_sm80(PyTorchMemEffAttention::AttentionKernel<cutlass::bfloat16_t>::Params)", true},
            {"volta_h884cudnn_256x64_ldg8_relu_exp_small_nhwc_tn_v1", true},
            {"void cudnn::detail::dgrad_1x1_stride_2x2_kernel<__half>", true},
        };
        for (const auto& [name, tc] : cases) QTest::newRow(name) << QString::fromLatin1(name) << tc;
    }
    void tensorCoreFamilies() {
        QFETCH(QString, kernel);
        QFETCH(bool, tensorCore);
        const std::string name = kernel.toStdString();
        const TensorCoreVerdict v = classifyTensorCore(name);
        QCOMPARE(v.usesTensorCore, tensorCore);
        QCOMPARE(kernelUsesTensorCore(name), tensorCore);
        if (tensorCore) QVERIFY(v.rule);  // a yes always names its rule
    }

    // Each rule names its family (shown in the Uses TC tooltip and the CLI's tensor_core_rule).
    void tensorCoreRulesHaveFamilies() {
        for (const TensorCoreRule& r : tensorCoreRules()) {
            QVERIFY(!r.family.empty());
            QVERIFY(!r.patterns[0].empty());
        }
    }

    void compileActivityNames() {
        // XLA / PJRT / JAX compile activity (names from a JAX 0.11 warm-up profile) and TF's XLA JIT.
        for (const char* yes : {"backend_compile_and_load", "backend_compile", "PJRT_Client_Compile",
                                "PjRtCApiClient::CompileAndLoad(jit__normal)", "PjRtStreamExecutorClient::CompileInternal",
                                "CompileToBackendResult", "CompileSingleModule", "CompileModuleToLlvmIr",
                                "Compiling IR:LLVMDialectModule", "cluster_0_1/xla_compile:_XlaCompile",
                                "_compile.compile_inner (dynamo_timed)", "OutputGraph.call_user_compiler (dynamo_timed)"})
            QVERIFY2(isCompileActivity(yes), yes);
        // Running what was compiled, and torch.compile's runtime wrappers, are compute.
        for (const char* no : {"CompiledFunction", "CompiledFunctionBackward", "Torch-Compiled Region: 0/0",
                               "TorchDynamo Cache Lookup", "CommonPjRtLoadedExecutable::Execute (jit_step)",
                               "PjitFunction(step)", "jit_step:XLA GPU module", "cluster_0_1/xla_run:_XlaRun",
                               "aten::mm", "ProfilerStep#3"})
            QVERIFY2(!isCompileActivity(no), no);
    }

    // One step [0,1000): a dynamo compile phase [0,300), the compiled graph's wrapper
    // CompiledFunction [400,600) and a kernel [650,750). By hand: Compilation 300,
    // Host compute 200 (the wrapper), Device compute 100, the rest (400) Other.
    void compilationOnlyFromCompilePhases() {
        TraceBuilder b("chrome-json");
        const auto host = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto dev = b.addProcess(ProcessKind::Device, 0, "GPU 0");
        const auto ht = b.addTrack(host, TrackKind::Thread, "main", 1);
        const auto st = b.addTrack(dev, TrackKind::Thread, "stream 7", 7);
        const StringId annotation = b.intern("user_annotation");
        b.addSlice(ht, 0, 1000, b.intern("ProfilerStep#1"), annotation);
        b.addSlice(ht, 0, 300, b.intern("_compile.compile_inner (dynamo_timed)"), annotation);
        b.addSlice(ht, 400, 200, b.intern("CompiledFunction"), b.intern("cpu_op"));
        b.addSlice(st, 650, 100, b.intern("triton_poi_fused_add_0"), b.intern("kernel"));
        auto trace = b.finish();
        const ClassifiedTrace ct = classifyTrace(*trace);
        const auto bd = breakdownSteps(ct, findSteps(ct));
        QCOMPARE(bd.size(), size_t(1));
        QCOMPARE(bd[0].at(StepCategory::Compilation), TimeNs(300));
        QCOMPARE(bd[0].at(StepCategory::HostCompute), TimeNs(200));
        QCOMPARE(bd[0].at(StepCategory::DeviceCompute), TimeNs(100));
        QCOMPARE(bd[0].at(StepCategory::Other), TimeNs(400));
    }

    // Host ops [0,1000); GPU 0 kernels [300,400) and [500,600); GPU 1 one kernel [900,950).
    // By hand: GPU 0 is active [300,600) = 300, busy 200, idle 100; GPU 1 active 50, idle 0.
    // The whole-trace measure would have said (1000-200) + (1000-50) = 1750.
    void deviceIdleWithinActiveWindow() {
        TraceBuilder b("chrome-json");
        const auto host = b.addProcess(ProcessKind::Host, 1, "python3");
        const auto gpu0 = b.addProcess(ProcessKind::Device, 0, "GPU 0");
        const auto gpu1 = b.addProcess(ProcessKind::Device, 1, "GPU 1");
        const auto ht = b.addTrack(host, TrackKind::Thread, "main", 1);
        const auto s0 = b.addTrack(gpu0, TrackKind::Thread, "stream 7", 7);
        const auto s1 = b.addTrack(gpu1, TrackKind::Thread, "stream 7", 7);
        const StringId kernel = b.intern("kernel");
        b.addSlice(ht, 0, 1000, b.intern("aten::linear"), b.intern("cpu_op"));
        b.addSlice(s0, 300, 100, b.intern("k1"), kernel);
        b.addSlice(s0, 500, 100, b.intern("k2"), kernel);
        b.addSlice(s1, 900, 50, b.intern("k3"), kernel);
        auto trace = b.finish();
        const OpStatsResult r = computeOpStats(*trace);
        QCOMPARE(r.deviceCount, size_t(2));
        QCOMPARE(r.deviceIdleNs, TimeNs(100));
    }

    void pieOtherCountsEveryFoldedEntry() {
        // 5 values, top 2 kept: "other" stands for 3 entries.
        const auto pie = makePie({{"a", 50}, {"b", 30}, {"c", 15}, {"d", 4}, {"e", 1}}, 2);
        QCOMPARE(pie.size(), size_t(3));
        QCOMPARE(pie[2].label, std::string("other"));
        QCOMPARE(pie[2].foldedCount, size_t(3));
        QCOMPARE(pie[0].foldedCount, size_t(0));
    }

    // Real Kineto traces against the stdlib script's numbers.
    void realFiles_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"gpu/torch_mlp_memory_h100.json", "gpu/torch2.11_cu130_h100_kineto_trace.json.gz",
                              "public/hta/df_index_resolver.json.gz", "public/hta/sampled_rank-0.json.gz",
                              "public/hta/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
                              "public/kineto/worker0.1623143089861.pt.trace.json.gz"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }
    void realFiles() {
        QFETCH(QString, file);
        const json ref = reference()[baseName(file.toStdString())];
        QVERIFY(!ref.is_null());
        auto trace = load(file.toStdString());
        QVERIFY(trace);
        const ClassifiedTrace ct = classifyTrace(*trace);

        // Device idle within each device's active window. Kineto times are decimal microseconds,
        // read exactly by the script; allow 1 ns per device activity boundary for rounding.
        const OpStatsResult ops = computeOpStats(ct);
        QCOMPARE(ops.deviceCount, ref["devices"].get<size_t>());
        QVERIFY2(std::llabs(ops.deviceIdleNs - ref["device_idle_ns"].get<TimeNs>()) <= 1000,
                 (std::to_string(ops.deviceIdleNs) + " vs " + ref["device_idle_ns"].dump()).c_str());

        // TensorCore kernel time: FP32 (ffma / SIMT / sgemm) GEMMs are not TensorCore kernels.
        const KernelStatsResult k = computeKernelStats(ct);
        QCOMPARE(k.totalKernelNs, ref["kernel_total_ns"].get<TimeNs>());
        QCOMPARE(k.tensorCoreNs, ref["tensor_core_kernel_ns"].get<TimeNs>());

        // Compilation is only compile phases: none of these files has one, so every step has 0,
        // even where torch.compile's runtime wrappers run (df_index_resolver).
        const Overview o = computeOverview(ct);
        QCOMPARE(ref["dynamo_timed_spans"]["count"].get<int>(), 0);
        for (const StepBreakdown& s : o.breakdown) QCOMPARE(s.at(StepCategory::Compilation), TimeNs(0));

        // One file is one host, named when the file records host_name.
        QCOMPARE(o.environment.hostCount, size_t(1));
        if (ref["host_name"].is_string()) {
            QCOMPARE(o.environment.hosts, std::vector<std::string>{ref["host_name"].get<std::string>()});
            QCOMPARE(o.environment.filesWithoutHostName, size_t(0));
        } else {
            QVERIFY(o.environment.hosts.empty());
            QCOMPARE(o.environment.filesWithoutHostName, size_t(1));
            QCOMPARE(hostsText(o.environment), std::string("1 host, name unknown (not recorded in the file)"));
        }
    }

    // The file whose "Compilation" was 28 % is the one with torch.compile wrappers: make sure
    // the script saw them, so the zero above is not vacuous.
    void compiledWrappersArePresent() {
        QVERIFY(reference()["df_index_resolver.json.gz"]["compiled_wrapper_spans"].get<int>() > 0);
    }
};

QTEST_APPLESS_MAIN(TestTrustedFigures)
#include "tst_trusted_figures.moc"
