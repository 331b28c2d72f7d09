// Small hand-built traces for the view tests, with the slices' final positions
// written out so tests can name the exact SliceRefs they expect.
#pragma once

#include "model/trace/trace.h"

#include <memory>

namespace tracescope::testing {

// A PyTorch/Kineto-style training run (format "chrome-json"), times in ns:
//
// host process "python" (pid 1), thread "main" (track kHostTrack), in sorted order:
//   0 ProfilerStep#1            [0, 1000)     user_annotation
//   1 enumerate(DataLoader)#... [10, 40)      user_annotation  (input op, 30 ns)
//   2 nn.Module: Linear_0       [50, 450)     python_function
//   3 aten::mm                  [100, 400)    cpu_op
//   4 cudaLaunchKernel          [150, 170)    cuda_runtime  correlation 1
//   5 aten::relu                [500, 600)    cpu_op
//   6 cudaLaunchKernel          [520, 530)    cuda_runtime  correlation 2
//   7 ProfilerStep#2            [1000, 2000)  user_annotation
//   8 aten::mm                  [1100, 1300)  cpu_op
//   9 cudaLaunchKernel          [1150, 1160)  cuda_runtime  correlation 3
// device process "GPU 0" (pid 0), stream 7 (track kGpuTrack):
//   0 volta_sgemm_128x64_nn     [200, 350)    kernel  correlation 1, grid [64,1,1], block [128,1,1],
//                                                      64 registers, 4096 B shared memory
//   1 relu_kernel               [540, 560)    kernel  correlation 2, grid [8,1,1], block [256,1,1]
//   2 volta_sgemm_128x64_nn     [1200, 1300)  kernel  correlation 3, same launch as 0
inline constexpr TrackIndex kHostTrack = 0;
inline constexpr TrackIndex kGpuTrack = 1;
std::shared_ptr<const Trace> makeKinetoTrainingTrace();

}  // namespace tracescope::testing
