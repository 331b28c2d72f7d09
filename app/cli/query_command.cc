// tracescope-cli query FILE 'SQL' [--json|--csv] [--file QUERY.sql] [--timeout S] [--max-rows N]
// tracescope-cli query FILE --schema [--json]
// SQL over a trace (model/sql/trace_database.h): the trace's tables and the analyses' tables.
#include "app/cli/analysis_cli.h"
#include "app/cli/commands.h"

#include "model/results/result_store.h"
#include "model/results/sql_result_tables.h"
#include "model/sql/trace_database.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

namespace tracescope::cli {

namespace {

const char* kUsage =
    "usage: tracescope-cli query FILE 'SQL' [--json|--csv] [--timeout S] [--max-rows N]\n"
    "       tracescope-cli query FILE --file QUERY.sql [--json|--csv] [--timeout S] [--max-rows N]\n"
    "       tracescope-cli query FILE --schema [--json]\n"
    "  SQL (SQLite's dialect) over the trace. Tables: slice, instant, counter, track, thread, process,\n"
    "  flow, args, metadata; views thread_track, thread_slice; the analyses op_stats, kernel_stats,\n"
    "  steps, call_tree, torch_ops, step_breakdown, tf_data_calls, memory_events, memory_peaks,\n"
    "  gpu_idle_gaps, launches, collectives (computed when a query reads them; --schema lists them\n"
    "  all with their columns). extract_arg(arg_set_id, 'key') gives one\n"
    "  arg (its name as in the file; nested keys joined with dots). Times (ts, dur) are integer ns on\n"
    "  the trace's clock, as every other command's --json gives them. Several statements separated by\n"
    "  ';' run in turn; the rows of the last are the result.\n"
    "  --schema       every table and view, its columns and what they mean\n"
    "  --json         {\"columns\": [...], \"rows\": [{column: value}, ...]} (and the import warnings); a\n"
    "                 column name met again is given as name:1, name:2...\n"
    "  --csv          a header line, then one line per row\n"
    "  (neither)      an aligned table of the first --max-rows rows (default 200)\n"
    "  --timeout S    stop the query after S seconds (exit status 4)\n";

nlohmann::json cellJson(const sql::SqlRow& row, int i) {
    switch (row.type(i)) {
    case SQLITE_INTEGER: return row.integer(i);
    case SQLITE_FLOAT: {
        const double d = row.real(i);
        return std::isfinite(d) ? nlohmann::json(d) : nlohmann::json(nullptr);
    }
    case SQLITE_NULL: return nullptr;
    default: return std::string(row.text(i));
    }
}

std::string cellText(const sql::SqlRow& row, int i) {
    switch (row.type(i)) {
    case SQLITE_INTEGER: return std::to_string(row.integer(i));
    case SQLITE_FLOAT: {
        char text[40];
        std::snprintf(text, sizeof text, "%.17g", row.real(i));
        return text;
    }
    case SQLITE_NULL: return "";
    default: return std::string(row.text(i));
    }
}

// JSON rows are objects keyed by column: a name met again gets ":1", ":2"... (as SQLite names
// the columns of CREATE TABLE ... AS SELECT), so no column is lost.
std::vector<std::string> uniqueNames(const std::vector<std::string>& columns) {
    std::vector<std::string> out;
    for (const std::string& c : columns) {
        std::string name = c;
        for (int n = 1; std::find(out.begin(), out.end(), name) != out.end(); ++n) name = c + ":" + std::to_string(n);
        out.push_back(name);
    }
    return out;
}

int printSchema(const sql::TraceDatabase& db, bool json) {
    const std::vector<sql::SqlTableSchema> schema = db.schema();
    if (json) {
        nlohmann::json tables = nlohmann::json::array();
        for (const sql::SqlTableSchema& t : schema) {
            nlohmann::json columns = nlohmann::json::array();
            for (const sql::SqlColumn& c : t.columns)
                columns.push_back({{"name", c.name}, {"type", c.type}, {"meaning", c.meaning}});
            tables.push_back({{"name", t.name}, {"kind", t.kind}, {"meaning", t.meaning}, {"columns", columns}});
        }
        printJson({{"tables", tables}});
        return 0;
    }
    for (const sql::SqlTableSchema& t : schema) {
        std::printf("%s %s: %s\n", t.kind.c_str(), t.name.c_str(), t.meaning.c_str());
        for (const sql::SqlColumn& c : t.columns)
            std::printf("  %-22s %-8s %s\n", c.name.c_str(), c.type.c_str(), c.meaning.c_str());
        std::printf("\n");
    }
    return 0;
}

}  // namespace

int runQuery(const Args& args) {
    if (hasFlag(args, "--help")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const auto files = positionals(args, {"--file", "--timeout", "--max-rows"});
    const bool schemaWanted = hasFlag(args, "--schema");
    std::string sqlText;
    if (hasFlag(args, "--file")) {
        std::ifstream in(flagValue(args, "--file"), std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "tracescope-cli query: cannot read %s\n", flagValue(args, "--file").c_str());
            return 1;
        }
        std::ostringstream s;
        s << in.rdbuf();
        sqlText = s.str();
    } else if (files.size() == 2) {
        sqlText = files[1];
    }
    const size_t wantedFiles = hasFlag(args, "--file") || schemaWanted ? 1 : 2;
    if (files.size() != wantedFiles || (!schemaWanted && sqlText.empty())) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    sql::QueryOptions options;
    if (hasFlag(args, "--timeout")) {
        char* end = nullptr;
        const std::string text = flagValue(args, "--timeout");
        const double seconds = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end || !(seconds > 0) || seconds > 1e6) {
            std::fprintf(stderr, "tracescope-cli query: --timeout takes seconds > 0, not '%s'\n", text.c_str());
            return 2;
        }
        options.timeout = std::chrono::milliseconds(int64_t(std::ceil(seconds * 1000)));
    }
    size_t maxRows = 200;
    if (hasFlag(args, "--max-rows")) {
        const std::string text = flagValue(args, "--max-rows");
        char* end = nullptr;
        const unsigned long long n = std::strtoull(text.c_str(), &end, 10);
        if (end == text.c_str() || *end || text[0] == '-') {
            std::fprintf(stderr, "tracescope-cli query: --max-rows takes a count, not '%s'\n", text.c_str());
            return 2;
        }
        maxRows = size_t(n);
    }

    std::shared_ptr<const Trace> trace = loadTraceOrReport(files[0]);
    if (!trace) return 1;
    const std::shared_ptr<ResultStore> store = ResultStore::of(trace);
    sql::TraceDatabase db(trace);
    addAnalysisTables(db, *store);
    if (schemaWanted) return printSchema(db, hasFlag(args, "--json"));

    const bool json = hasFlag(args, "--json"), csv = hasFlag(args, "--csv");
    std::vector<std::string> names;
    JsonRowsWriter writer;
    bool begun = false;
    // Without --json or --csv: the first rows, aligned.
    std::vector<std::vector<std::string>> table;
    uint64_t more = 0;
    const sql::QueryOutcome outcome = db.run(
        sqlText,
        [&](const std::vector<std::string>& columns) {
            names = uniqueNames(columns);
            if (json) {
                writer.begin({{"columns", names}});
                begun = true;
            } else if (csv) {
                for (size_t i = 0; i < names.size(); ++i) std::cout << (i ? "," : "") << csvField(names[i]);
                std::cout << '\n';
            }
        },
        [&](const sql::SqlRow& row) {
            if (json) {
                nlohmann::json r = nlohmann::json::object();
                for (int i = 0; i < row.size(); ++i) r[names[size_t(i)]] = cellJson(row, i);
                writer.row(r);
            } else if (csv) {
                for (int i = 0; i < row.size(); ++i) std::cout << (i ? "," : "") << csvField(cellText(row, i));
                std::cout << '\n';
            } else if (table.size() < maxRows) {
                std::vector<std::string> cells;
                for (int i = 0; i < row.size(); ++i) cells.push_back(cellText(row, i));
                table.push_back(std::move(cells));
            } else {
                ++more;
            }
            return true;
        },
        options);
    if (json) {
        if (!begun && outcome.ok) writer.begin({{"columns", nlohmann::json::array()}});
        if (begun || outcome.ok) writer.end();
    } else if (!csv && !names.empty()) {
        std::vector<size_t> width(names.size());
        for (size_t i = 0; i < names.size(); ++i) width[i] = names[i].size();
        for (const auto& r : table)
            for (size_t i = 0; i < r.size(); ++i) width[i] = std::min<size_t>(std::max(width[i], r[i].size()), 60);
        auto line = [&](const std::vector<std::string>& cells) {
            std::string out;
            for (size_t i = 0; i < cells.size(); ++i) {
                std::string c = cells[i];
                if (c.size() > 60) {
                    c.resize(57);
                    c.append("...");
                }
                out += (i ? "  " : "") + c + (i + 1 < cells.size() ? std::string(width[i] - std::min(width[i], c.size()), ' ') : "");
            }
            std::printf("%s\n", out.c_str());
        };
        line(names);
        for (const auto& r : table) line(r);
        std::printf("(%llu row%s%s)\n", (unsigned long long)outcome.rows, outcome.rows == 1 ? "" : "s",
                    more ? ("; the first " + std::to_string(table.size()) + " shown, --csv or --json for all").c_str()
                         : "");
    }
    std::cout.flush();
    if (!outcome.ok) {
        std::fprintf(stderr, "tracescope-cli query: %s\n", outcome.error.c_str());
        return outcome.interrupted ? 4 : 1;
    }
    return 0;
}

}  // namespace tracescope::cli
