// Is a host slice compilation (the "Compilation" part of the step-time breakdown)?
//
// Only real compiler work counts, never the execution of something already compiled. The
// names are specific to their producer, so every format is checked against all of them (a
// JAX trace exported as Chrome JSON carries the XSpace names):
//  * TF/JAX/XLA: JAX's `backend_compile*` annotations, PJRT compile entry points
//    (`PJRT_Client_Compile`, `PjRtCApiClient::CompileAndLoad(...)`,
//    `PjRtStreamExecutorClient::CompileInternal`, any `...::Compile...` method), XLA's GPU
//    compiler phases (`CompileToBackendResult`, `CompileSingleModule`,
//    `CompileModuleToLlvmIr`, `Compiling IR...`) and TF's XLA JIT compile op (`XlaCompile`,
//    type `_XlaCompile`).
//  * PyTorch (Kineto): the compile phases torch._dynamo records with `dynamo_timed`, whose
//    record_function names end in " (dynamo_timed)" (e.g. `_compile.compile_inner
//    (dynamo_timed)`). The runtime wrappers of compiled graphs (`CompiledFunction`,
//    `CompiledFunctionBackward`, `Torch-Compiled Region`, `TorchDynamo Cache Lookup`) run
//    already-compiled code: they are compute.
// XProf's own step breakdown has no name rule for HOST_COMPILE on GPU hosts.
#pragma once

#include <string_view>

namespace tracescope {

bool isCompileActivity(std::string_view name);

// What the breakdown's Compilation measures, for the UI and the CLI's JSON.
inline constexpr const char* kCompilationDefinition =
    "step time in compile phases: XLA/PJRT/JAX compilation, TF's _XlaCompile, torch._dynamo's \"(dynamo_timed)\" "
    "spans; running already-compiled code (CompiledFunction, Torch-Compiled Region) is compute";

}  // namespace tracescope
