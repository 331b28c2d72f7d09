#include "model/sql/trace_database.h"

#include "model/sql/arg_rows.h"

#include <cstdio>
#include <stdexcept>

namespace tracescope::sql {

namespace {

struct ViewDef {
    const char* name;
    const char* meaning;
    const char* select;
};

// Views that join the tables as Perfetto's users expect to find them.
const ViewDef kViews[] = {
    {"thread_track", "the thread tracks (overflow lanes included): id, name, utid",
     "SELECT id, name, utid FROM track WHERE kind = 'thread'"},
    {"thread_slice",
     "slices of thread tracks with their thread and process: every slice column, then utid, tid, thread_name, "
     "upid, pid, process_name",
     "SELECT s.id, s.ts, s.dur, s.track_id, s.depth, s.parent_id, s.name, s.category, s.arg_set_id, "
     "t.utid, th.tid, th.name AS thread_name, p.upid, p.pid, p.name AS process_name "
     "FROM slice s JOIN track t ON t.id = s.track_id JOIN thread th ON th.utid = t.utid "
     "LEFT JOIN process p ON p.upid = t.upid"},
};

// extract_arg(arg_set_id, key): the value of one arg (its key as in the file; nested keys joined
// with dots), NULL when the set has no such key.
void extractArg(sqlite3_context* ctx, int, sqlite3_value** argv) {
    const auto* trace = static_cast<const Trace*>(sqlite3_user_data(ctx));
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
    TrackIndex track = 0;
    ArgsOffset offset = 0;
    if (!argSetOf(*trace, sqlite3_value_int64(argv[0]), track, offset)) return sqlite3_result_null(ctx);
    const auto* keyText = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
    const std::string_view key(keyText ? keyText : "", size_t(sqlite3_value_bytes(argv[1])));
    std::vector<ArgRow> rows;
    try {
        appendArgRows(*trace, trace->tracks[track], offset, rows);
    } catch (const std::bad_alloc&) {
        return sqlite3_result_error_nomem(ctx);
    }
    for (const ArgRow& r : rows) {
        if (r.key != key) continue;
        switch (r.type) {
        case ArgRow::Type::Null: return sqlite3_result_null(ctx);
        case ArgRow::Type::Bool:
        case ArgRow::Type::Int: return sqlite3_result_int64(ctx, r.intValue);
        case ArgRow::Type::UInt:
            if (r.stringValue.empty()) return sqlite3_result_int64(ctx, r.intValue);
            return sqlite3_result_text(ctx, r.stringValue.data(), int(r.stringValue.size()), SQLITE_TRANSIENT);
        case ArgRow::Type::Real: return sqlite3_result_double(ctx, r.realValue);
        case ArgRow::Type::String:
        case ArgRow::Type::Json:
            return sqlite3_result_text(ctx, r.stringValue.data(), int(r.stringValue.size()), SQLITE_TRANSIENT);
        }
    }
    sqlite3_result_null(ctx);
}

// The offset just past whitespace and comments from `at`.
size_t skipSpaceAndComments(std::string_view sql, size_t at) {
    while (at < sql.size()) {
        const char c = sql[at];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == ';') {
            ++at;
        } else if (sql.substr(at, 2) == "--") {
            const size_t end = sql.find('\n', at);
            at = end == std::string_view::npos ? sql.size() : end + 1;
        } else if (sql.substr(at, 2) == "/*") {
            const size_t end = sql.find("*/", at + 2);
            at = end == std::string_view::npos ? sql.size() : end + 2;
        } else {
            break;
        }
    }
    return at;
}

}  // namespace

std::string_view SqlRow::text(int i) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, i));
    return p ? std::string_view(p, size_t(sqlite3_column_bytes(stmt_, i))) : std::string_view();
}

std::string sqlErrorWithPosition(sqlite3* db, std::string_view sql, size_t statementOffset, int64_t* byteOffset) {
    std::string message = sqlite3_errmsg(db);
    const int offset = sqlite3_error_offset(db);
    if (offset < 0) return message;
    const size_t at = std::min(sql.size(), statementOffset + size_t(offset));
    if (byteOffset) *byteOffset = int64_t(at);
    size_t line = 1, column = 1;
    for (size_t i = 0; i < at; ++i) {
        if (sql[i] == '\n') {
            ++line;
            column = 1;
        } else if ((static_cast<unsigned char>(sql[i]) & 0xC0) != 0x80) {  // characters, not UTF-8 bytes
            ++column;
        }
    }
    return message + " (line " + std::to_string(line) + ", column " + std::to_string(column) + ")";
}

TraceDatabase::TraceDatabase(std::shared_ptr<const Trace> trace) : trace_(std::move(trace)), ids_(*trace_) {
    if (sqlite3_open_v2(":memory:", &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK) {
        const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        throw std::runtime_error("cannot open an SQLite database: " + why);
    }
    for (SqlTableDef& def : traceTableDefs(*trace_, ids_, scan_)) addTable(std::move(def));
    sqlite3_create_function_v2(db_, "extract_arg", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                               const_cast<Trace*>(trace_.get()), extractArg, nullptr, nullptr, nullptr);
    for (const ViewDef& v : kViews) {
        const std::string ddl = std::string("CREATE VIEW ") + v.name + " AS " + v.select;
        sqlite3_exec(db_, ddl.c_str(), nullptr, nullptr, nullptr);
    }
    sqlite3_progress_handler(db_, 4096, &TraceDatabase::progress, this);
}

TraceDatabase::~TraceDatabase() { sqlite3_close_v2(db_); }

void TraceDatabase::addTable(SqlTableDef def) {
    defs_.push_back(std::move(def));
    registerSqlTable(db_, &defs_.back(), &scan_);
}

int TraceDatabase::progress(void* self) {
    auto* d = static_cast<TraceDatabase*>(self);
    if (d->scan_.stop) return 1;
    if (d->deadline_ != std::chrono::steady_clock::time_point{} && std::chrono::steady_clock::now() > d->deadline_) {
        d->timedOut_ = true;
        d->scan_.stop = true;
        return 1;
    }
    return 0;
}

void TraceDatabase::interrupt() {
    scan_.stop = true;
    sqlite3_interrupt(db_);
}

QueryOutcome TraceDatabase::run(std::string_view sql, const ColumnsCallback& columns, const RowCallback& row,
                                const QueryOptions& options) {
    QueryOutcome out;
    scan_.stop = false;
    timedOut_ = false;
    deadline_ = options.timeout ? std::chrono::steady_clock::now() + *options.timeout
                                : std::chrono::steady_clock::time_point{};
    auto interrupted = [&] {
        out.interrupted = true;
        char seconds[32] = "";
        if (options.timeout) std::snprintf(seconds, sizeof seconds, "%g", double(options.timeout->count()) / 1000.0);
        out.error = timedOut_ ? std::string("the query ran past its timeout of ") + seconds + " s"
                              : "the query was cancelled";
        return out;
    };
    // SQLite reads a statement only up to a NUL: the rest would be ignored unseen.
    if (const size_t nul = sql.find('\0'); nul != std::string_view::npos) {
        out.error = "the query holds a NUL character (at byte " + std::to_string(nul) + ")";
        return out;
    }
    size_t at = skipSpaceAndComments(sql, 0);
    if (at == sql.size()) {
        out.error = "no SQL statement to run";
        return out;
    }
    while (at < sql.size()) {
        sqlite3_stmt* stmt = nullptr;
        const char* tail = nullptr;
        const int rc = sqlite3_prepare_v2(db_, sql.data() + at, int(sql.size() - at), &stmt, &tail);
        if (rc != SQLITE_OK) {
            if (scan_.stop) return interrupted();
            out.error = sqlErrorWithPosition(db_, sql, at, &out.errorByte);
            return out;
        }
        const size_t next = skipSpaceAndComments(sql, size_t(tail - sql.data()));
        if (!stmt && next <= at) {  // no progress (cannot happen without a NUL; never loop on it)
            out.error = "cannot read the query past byte " + std::to_string(at);
            return out;
        }
        if (!stmt) {  // only a comment was left
            at = next;
            continue;
        }
        const bool last = next >= sql.size();
        const int n = sqlite3_column_count(stmt);
        if (last && n > 0 && columns) {
            std::vector<std::string> names;
            for (int i = 0; i < n; ++i) names.emplace_back(sqlite3_column_name(stmt, i) ? sqlite3_column_name(stmt, i) : "");
            columns(names);
        }
        int step = SQLITE_ROW;
        bool wanted = true;
        while (wanted && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
            if (!last || n == 0) continue;
            ++out.rows;
            wanted = !row || row(SqlRow(stmt));
        }
        if (step != SQLITE_ROW && step != SQLITE_DONE) {
            const bool stopped = scan_.stop || step == SQLITE_INTERRUPT;
            int64_t byte = -1;
            const std::string message = sqlErrorWithPosition(db_, sql, at, &byte);
            sqlite3_finalize(stmt);
            if (stopped) return interrupted();
            out.error = message;
            out.errorByte = byte;
            return out;
        }
        sqlite3_finalize(stmt);
        at = next;
    }
    out.ok = true;
    return out;
}

std::vector<SqlTableSchema> TraceDatabase::schema() const {
    std::vector<SqlTableSchema> out;
    for (const SqlTableDef& d : defs_) out.push_back({d.name, "table", d.meaning, d.columns});
    for (const ViewDef& v : kViews) {
        SqlTableSchema s{v.name, "view", v.meaning, {}};
        // The columns as SQLite sees them.
        sqlite3_stmt* stmt = nullptr;
        const std::string q = std::string("SELECT * FROM ") + v.name + " LIMIT 0";
        if (sqlite3_prepare_v2(db_, q.c_str(), -1, &stmt, nullptr) == SQLITE_OK) {
            for (int i = 0; i < sqlite3_column_count(stmt); ++i) s.columns.push_back({sqlite3_column_name(stmt, i), "", ""});
            sqlite3_finalize(stmt);
        }
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace tracescope::sql
