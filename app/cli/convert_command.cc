// tracescope-cli convert FILE --to chrome-json OUT.json[.gz]
// tracescope-cli convert FILE --to sqlite OUT.db
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/export/chrome_json_writer.h"
#include "model/import/import.h"
#include "model/results/result_store.h"
#include "model/results/sql_result_tables.h"
#include "model/sql/sqlite_export.h"

#include <cstdio>

namespace tracescope::cli {

namespace {

// The tables of `query` (the trace's and the analyses'), written as plain SQLite tables.
int writeSqlite(const std::shared_ptr<const Trace>& trace, const std::string& path) {
    const std::shared_ptr<ResultStore> store = ResultStore::of(trace);
    sql::TraceDatabase db(trace);
    addAnalysisTables(db, *store);
    const sql::SqliteExportResult written = sql::exportToSqlite(db, path);
    if (!written.ok) {
        std::fprintf(stderr, "tracescope-cli: %s\n", written.error.c_str());
        return 1;
    }
    for (const sql::SqliteExportTable& t : written.tables)
        std::printf("%-14s %12llu rows  %8.3f s\n", t.name.c_str(), (unsigned long long)t.rows, t.seconds);
    std::printf("wrote %s\n", path.c_str());
    return 0;
}

}  // namespace

int runConvert(const Args& args) {
    const auto files = positionals(args, {"--to"});
    const std::string to = flagValue(args, "--to");
    if (files.size() != 2 || to.empty()) {
        std::fprintf(stderr, "usage: tracescope-cli convert FILE --to chrome-json OUT.json[.gz]\n"
                             "       tracescope-cli convert FILE --to sqlite OUT.db\n");
        return 2;
    }
    if (to != "chrome-json" && to != "sqlite") {
        std::fprintf(stderr, "tracescope-cli: unknown output format '%s' (supported: chrome-json, sqlite)\n",
                     to.c_str());
        return 2;
    }
    std::shared_ptr<const Trace> trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    if (to == "sqlite") return writeSqlite(trace, files[1]);
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
