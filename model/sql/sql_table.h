// A read-only SQLite virtual table over data we already hold (SQLite's virtual-table API, as
// Perfetto's trace_processor exposes its own columns): no row is copied into SQLite. A table
// says which of its columns it can narrow a scan by (SQLite hands those constraints down through
// xBestIndex) and whether it can produce rows ordered by time; a cursor does the rest.
#pragma once

#include <sqlite3.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tracescope::sql {

struct SqlColumn {
    std::string name;
    std::string type;     // SQLite's declared type: INTEGER, REAL, TEXT
    std::string meaning;  // one line for `query --schema`
};

// A constraint SQLite handed down: `column op value`, op one of SQLITE_INDEX_CONSTRAINT_*.
struct SqlConstraint {
    int column = 0;
    int op = 0;
    sqlite3_value* value = nullptr;
};

// What a scan may use. SQLite checks every constraint again on the rows it gets (none is
// "omitted"), so a cursor may narrow a scan by them or not: a constraint it cannot use on a
// value (a text compared with a time) costs nothing but the narrowing.
class SqlCursor {
public:
    virtual ~SqlCursor() = default;
    // Starts a scan; `orderedByTime`: the rows must come in ascending time order.
    virtual void filter(const std::vector<SqlConstraint>& constraints, bool orderedByTime) = 0;
    virtual bool eof() const = 0;
    virtual void next() = 0;
    virtual void column(sqlite3_context* ctx, int column) = 0;
    virtual int64_t rowid() const = 0;
};

struct SqlTableDef {
    std::string name;
    std::string meaning;
    std::vector<SqlColumn> columns;
    // Columns a scan is narrowed by with =, <, <=, >, >= (ranges) or = alone (keys).
    std::vector<int> rangeColumns;
    std::vector<int> keyColumns;
    // The column whose ascending order the cursor can produce (-1: none).
    int timeColumn = -1;
    // Rows in the whole table (for SQLite's planner; an estimate is fine).
    std::function<int64_t()> rowCount;
    std::function<std::unique_ptr<SqlCursor>()> open;
};

// Counts the rows every table of one database produced (a test checks that a time window reads
// only the window) and tells long scans to stop (the query was cancelled or timed out).
struct SqlScanState {
    std::atomic<uint64_t> rowsProduced{0};
    std::atomic<bool> stop{false};
};

// Registers `def` as an eponymous virtual table (its name is the table; no CREATE needed) of
// `db`. `def` and `scan` must outlive the connection. Returns SQLite's status.
int registerSqlTable(sqlite3* db, const SqlTableDef* def, SqlScanState* scan);

// Helpers for cursors: a constraint's value as an integer bound of `column op value`, false
// when the value is not a number (the constraint is then not used to narrow).
bool lowerBoundOf(const SqlConstraint& c, int64_t& bound);  // ts >= bound for >, >=, =
bool upperBoundOf(const SqlConstraint& c, int64_t& bound);  // ts <= bound for <, <=, =
bool integerKeyOf(const SqlConstraint& c, int64_t& key);    // exact integer for =

}  // namespace tracescope::sql
