// The subcommands of tracescope-cli. Each returns the process exit status.
#pragma once

#include <string>
#include <vector>

namespace tracescope::cli {

using Args = std::vector<std::string>;

int runInfo(const Args& args);
int runStats(const Args& args);
int runKernels(const Args& args);
int runOverview(const Args& args);
int runInputPipeline(const Args& args);
int runScopes(const Args& args);
int runTorchOps(const Args& args);
int runConvert(const Args& args);
int runCapture(const Args& args);
int runLaunch(const Args& args);
int runTracks(const Args& args);
int runMemory(const Args& args);
int runTfData(const Args& args);
int runPod(const Args& args);
int runDiff(const Args& args);
int runCudaApi(const Args& args);
int runCriticalPath(const Args& args);
int runLaunchStats(const Args& args);
int runQueue(const Args& args);
int runAdvice(const Args& args);
int runGpuUtil(const Args& args);
int runHloOps(const Args& args);
int runRoofline(const Args& args);
int runHloMemory(const Args& args);
int runHloGraph(const Args& args);
int runFlame(const Args& args);
int runQuery(const Args& args);
int runCollectives(const Args& args);
int runSummarize(const Args& args);

// Helpers shared by commands.
bool hasFlag(const Args& args, const std::string& flag);
// The value after `flag` (e.g. --by name), or `fallback`.
std::string flagValue(const Args& args, const std::string& flag, const std::string& fallback = {});
// Arguments that are not flags or flag values, in order.
std::vector<std::string> positionals(const Args& args, const std::vector<std::string>& flagsWithValue = {});
// Peak resident set size of this process so far.
long long peakRssBytes();

}  // namespace tracescope::cli
