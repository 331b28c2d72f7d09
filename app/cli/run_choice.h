// Folders of several profile runs on the command line: `--run N` picks the run a command
// opens (a TensorBoard logdir's run, a PyTorch profiler folder's cycle; the newest without it),
// and `info --list-runs DIR` lists them.
#pragma once

#include "model/import/import.h"
#include "model/import/logdir.h"

#include <string>
#include <vector>

namespace tracescope::cli {

// Takes `--run N` out of the arguments of `command` (those that open traces; capture and launch
// keep theirs) and remembers it for openCliPath and runFilesOf. False, with the usage printed,
// when --run has no value.
bool takeRunOption(const std::string& command, std::vector<std::string>& args);

// Opens `path` as the commands do: a file or stream as is, a folder of runs at the run --run
// names (else its newest). `opened` receives that run when there is one.
ImportResult openCliPath(const std::string& path, const ImportOptions& options, RunInfo* opened = nullptr);

// The paths to open as workers: with --run, each folder becomes the chosen run's files. False,
// with the reason in `error`, when a path is no folder of runs or has no such run.
bool runFilesOf(const std::vector<std::string>& paths, std::vector<std::string>& out, std::string& error);

// tracescope-cli info --list-runs DIR [--json]: the folder's runs, numbered as --run reads them.
int listRunsCommand(const std::string& dir, bool json);

}  // namespace tracescope::cli
