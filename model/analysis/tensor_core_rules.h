// Does a GPU kernel run on TensorCores? Decided from the kernel's name alone (no trace
// records the instruction mix), by one ordered rule table: the first rule whose patterns
// all occur in the name decides.
//
// The table starts from XProf's list (kernel_stats_utils.cc: "16816", "h884", "hmma",
// "xmma_gemm", ...) and corrects it where the name says the math is plain FP32 on CUDA cores:
//
//   family                          example                                          TC
//   cuBLAS FP32 SIMT ("ffma")       sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_..._ffma_..   no
//   xmma with FP32 operands         sm90_xmma_gemm_f32f32_f32f32_f32_nn_n_..._cublas    no
//   CUTLASS SIMT                    cutlass_80_simt_sgemm_256x128_8x4_nt_align1         no
//   FP32 attention (xFormers/ATen)  fmha_cutlassF_f32_aligned_64x64_rf_sm80             no
//   SGEMM/DGEMM, FP32 cuDNN         volta_sgemm_128x64_nn, volta_scudnn_128x64_relu..   no
//   cuBLAS xmma (TF32/FP16/BF16/    sm80_xmma_gemm_tf32f32_tf32f32_f32_..,              yes
//     INT8/FP8/FP64 DMMA)           sm90_xmma_gemm_bf16bf16_bf16f32_f32_..
//   CUTLASS tensor-op               cutlass_80_tensorop_s1688gemm_.., cutlass3x_sm90_    yes
//                                   tensorop_gemm_bf16.., cutlass3x_sm100_tensorop_..
//   MMA shapes in the name          ..s16816gemm.., h1688, h884, i16832, i8816, hmma    yes
//   Hopper/Blackwell MMA            ..wgmma.., ..tcgen05.., nvjet_tst_.. (cuBLASLt)      yes
//   FlashAttention, FP16 fmha       flash_fwd_kernel.., fmha_cutlassF_bf16_..           yes
//   XProf's cuDNN names             conv1x1, dgrad_1x1_stride_2x2, first_layer_wgrad.   yes
//   anything else                   at::native::vectorized_elementwise_kernel<..>       no
//
// XProf flags the FP32 kernels of the first rows as TensorCore kernels (its pattern
// "xmma_gemm" matches them); on FP32 models that makes its TensorCore share wrong.
#pragma once

#include <span>
#include <string_view>

namespace tracescope {

struct TensorCoreRule {
    std::string_view family;       // what the rule recognises, for users ("cuBLAS FP32 SIMT (ffma)")
    std::string_view patterns[2];  // all non-empty patterns must occur in the name
    bool usesTensorCore = false;
};

struct TensorCoreVerdict {
    bool usesTensorCore = false;
    const TensorCoreRule* rule = nullptr;  // the deciding rule; null when none matched (no TC)
};

// The rule table, in the order it is applied.
std::span<const TensorCoreRule> tensorCoreRules();

TensorCoreVerdict classifyTensorCore(std::string_view kernelName);

}  // namespace tracescope
