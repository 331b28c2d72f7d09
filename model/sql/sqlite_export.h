// `convert --to sqlite`: every table of a trace's database (the trace's own and the analyses
// added to it) written to an SQLite file as plain tables, with the views, for pandas and
// notebooks (like Nsight Systems' SQLite export: no indexes).
#pragma once

#include "model/sql/trace_database.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tracescope::sql {

struct SqliteExportTable {
    std::string name;
    uint64_t rows = 0;
    double seconds = 0;
};

struct SqliteExportResult {
    bool ok = false;
    std::string error;
    std::vector<SqliteExportTable> tables;
};

// Writes the tables to `path` (replaced when it exists). `progress` (may be empty) hears each
// table's name before it is written.
SqliteExportResult exportToSqlite(TraceDatabase& db, const std::string& path,
                                  const std::function<void(const std::string& table)>& progress = {});

}  // namespace tracescope::sql
