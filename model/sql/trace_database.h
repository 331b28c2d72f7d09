// SQL over one trace (SQLite, in memory): the trace's tables (trace_tables.h), views that join
// them (thread_track, thread_slice), extract_arg(arg_set_id, key), and whatever tables a caller
// adds (the analyses: model/results/sql_result_tables.h). Queries run on the caller's thread;
// interrupt() from any thread stops the one running (Cancel), as does a timeout.
#pragma once

#include "model/sql/sql_table.h"
#include "model/sql/trace_tables.h"
#include "model/trace/trace.h"

#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tracescope::sql {

// One row of a result, read in place (valid during the row callback).
class SqlRow {
public:
    explicit SqlRow(sqlite3_stmt* stmt) : stmt_(stmt) {}
    int size() const { return sqlite3_column_count(stmt_); }
    // SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB or SQLITE_NULL.
    int type(int i) const { return sqlite3_column_type(stmt_, i); }
    int64_t integer(int i) const { return sqlite3_column_int64(stmt_, i); }
    double real(int i) const { return sqlite3_column_double(stmt_, i); }
    // Text (a blob's bytes as they are).
    std::string_view text(int i) const;

private:
    sqlite3_stmt* stmt_;
};

struct QueryOptions {
    std::optional<std::chrono::milliseconds> timeout;
};

struct QueryOutcome {
    bool ok = false;
    bool interrupted = false;  // cancelled or timed out
    std::string error;         // with the position of a syntax error ("line 1, column 8")
    int64_t errorByte = -1;    // that position as a byte offset into the SQL text; -1 when none
    uint64_t rows = 0;         // rows given to the row callback
};

struct SqlTableSchema {
    std::string name;
    std::string kind;  // "table" or "view"
    std::string meaning;
    std::vector<SqlColumn> columns;
};

class TraceDatabase {
public:
    explicit TraceDatabase(std::shared_ptr<const Trace> trace);
    ~TraceDatabase();
    TraceDatabase(const TraceDatabase&) = delete;
    TraceDatabase& operator=(const TraceDatabase&) = delete;

    // Adds a table (before the queries that use it).
    void addTable(SqlTableDef def);

    using ColumnsCallback = std::function<void(const std::vector<std::string>& names)>;
    // Returns false to stop reading rows (the query ends without error).
    using RowCallback = std::function<bool(const SqlRow& row)>;
    // Runs `sql`: one statement or several separated by ';' (each runs; the rows of the last
    // are the result: `columns` once, then `row` per row).
    QueryOutcome run(std::string_view sql, const ColumnsCallback& columns, const RowCallback& row,
                     const QueryOptions& options = {});
    // Stops the query running now (from any thread); it ends with interrupted set.
    void interrupt();

    // Rows the trace's tables produced since the database was made (a time window on one
    // track reads only the window: a test counts them).
    uint64_t rowsProduced() const { return scan_.rowsProduced; }
    std::vector<SqlTableSchema> schema() const;
    const Trace& trace() const { return *trace_; }
    const TraceRowIds& ids() const { return ids_; }
    sqlite3* handle() const { return db_; }

private:
    std::shared_ptr<const Trace> trace_;
    TraceRowIds ids_;
    SqlScanState scan_;
    std::deque<SqlTableDef> defs_;  // stable addresses: SQLite holds pointers to them
    sqlite3* db_ = nullptr;
    std::chrono::steady_clock::time_point deadline_{};
    bool timedOut_ = false;

    static int progress(void* self);
};

// The message of a failed SQLite call on `sql`, with the line and column of the error where
// SQLite tells its offset.
std::string sqlErrorWithPosition(sqlite3* db, std::string_view sql, size_t statementOffset,
                                 int64_t* byteOffset = nullptr);

}  // namespace tracescope::sql
