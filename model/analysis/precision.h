// Device compute precision (§7.5): is a kernel 16-bit?
#pragma once

#include <string_view>

namespace tracescope {

// XProf counts a GPU event as 16-bit when its name contains "half" or "fp16" (or its shape is
// half). We also accept bf16/f16 spellings used by cuBLAS/CUTLASS/XLA kernel names
// ("..._bf16_...", "f16f16_f32") and the HMMA TensorCore kernel prefixes h884/h1688/h16816.
bool isSixteenBitKernel(std::string_view kernelName);

}  // namespace tracescope
