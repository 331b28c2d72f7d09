// tracescope-cli convert FILE --to chrome-json OUT.json[.gz]
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/export/chrome_json_writer.h"
#include "model/import/import.h"

#include <cstdio>

namespace tracescope::cli {

int runConvert(const Args& args) {
    const auto files = positionals(args, {"--to"});
    const std::string to = flagValue(args, "--to");
    if (files.size() != 2 || to.empty()) {
        std::fprintf(stderr, "usage: tracescope-cli convert FILE --to chrome-json OUT.json[.gz]\n");
        return 2;
    }
    if (to != "chrome-json") {
        std::fprintf(stderr, "tracescope-cli: unknown output format '%s' (supported: chrome-json)\n", to.c_str());
        return 2;
    }
    std::unique_ptr<Trace> trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    const ChromeJsonWriteResult written = writeChromeJson(*trace, files[1]);
    for (const auto& w : written.warnings) std::fprintf(stderr, "warning (export): %s\n", w.c_str());
    if (!written.ok) {
        std::fprintf(stderr, "tracescope-cli: %s\n", written.error.c_str());
        return 1;
    }
    std::printf("wrote %llu events to %s\n", static_cast<unsigned long long>(written.events), files[1].c_str());
    return 0;
}

}  // namespace tracescope::cli
