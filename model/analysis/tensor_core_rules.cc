#include "model/analysis/tensor_core_rules.h"

#include <array>

namespace tracescope {

namespace {

// Order matters: the FP32 exclusions come before the broad patterns they would otherwise hit.
constexpr std::array<TensorCoreRule, 34> kRules = {{
    // Plain FP32 math on CUDA cores, whatever library template the kernel comes from.
    {"cuBLAS FP32 SIMT (ffma)", {"ffma", ""}, false},
    {"CUTLASS SIMT (CUDA cores)", {"simt", ""}, false},
    {"xmma with FP32 operands", {"_f32f32_f32f32_f32", ""}, false},
    {"FP32 memory-efficient attention", {"fmha_cutlass", "_f32_"}, false},
    // Tensor-core kernel families.
    {"CUTLASS tensor-op", {"tensorop", ""}, true},
    {"cuBLAS/cuDNN xmma", {"xmma_", ""}, true},
    {"cuBLASLt nvjet GEMM", {"nvjet", ""}, true},
    {"Hopper warpgroup MMA", {"wgmma", ""}, true},
    {"Hopper GMMA", {"gmma_", ""}, true},
    {"Blackwell tcgen05 MMA", {"tcgen05", ""}, true},
    {"Blackwell UMMA", {"_umma", ""}, true},
    {"FlashAttention", {"flash_fwd", ""}, true},
    {"FlashAttention", {"flash_bwd", ""}, true},
    {"FlashAttention", {"FlashAttn", ""}, true},
    {"FP16/BF16 memory-efficient attention", {"fmha_cutlass", ""}, true},
    {"TF32 kernel", {"tf32", ""}, true},
    // XProf's list (kernel_stats_utils.cc): MMA shapes and cuDNN tensor-core kernels.
    {"MMA shape 16816", {"16816", ""}, true},
    {"MMA shape 1688 (TF32)", {"s1688", ""}, true},
    {"MMA shape 1688", {"c1688", ""}, true},
    {"MMA shape 1688 (FP16)", {"h1688", ""}, true},
    {"MMA shape 884 (FP16)", {"h884", ""}, true},
    {"MMA shape 884", {"s884", ""}, true},
    {"INT8 MMA 16832", {"i16832", ""}, true},
    {"INT8 MMA 8816", {"i8816", ""}, true},
    {"HMMA", {"hmma", ""}, true},
    {"cuDNN conv1x1", {"conv1x1", ""}, true},
    {"cuDNN conv2d_c1_k1", {"conv2d_c1_k1", ""}, true},
    {"cuDNN dgrad 1x1 stride 2", {"dgrad_1x1_stride_2x2", ""}, true},
    {"cuDNN grouped conv", {"direct_group", ""}, true},
    {"cuDNN first-layer wgrad", {"first_layer_wgrad_kernel", ""}, true},
    // Named for the tooltip only: these never match a tensor-core rule above.
    {"FP32 SGEMM (CUDA cores)", {"sgemm", ""}, false},
    {"FP64 DGEMM (CUDA cores)", {"dgemm", ""}, false},
    {"FP32 cuDNN (CUDA cores)", {"scudnn", ""}, false},
    {"FP32 implicit GEMM (CUDA cores)", {"implicit_convolve", ""}, false},
}};

bool matches(const TensorCoreRule& r, std::string_view name) {
    for (std::string_view p : r.patterns)
        if (!p.empty() && name.find(p) == std::string_view::npos) return false;
    return true;
}

}  // namespace

std::span<const TensorCoreRule> tensorCoreRules() { return kRules; }

TensorCoreVerdict classifyTensorCore(std::string_view kernelName) {
    for (const TensorCoreRule& r : kRules)
        if (matches(r, kernelName)) return {r.usesTensorCore, &r};
    return {};
}

}  // namespace tracescope
