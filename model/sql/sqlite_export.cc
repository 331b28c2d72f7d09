#include "model/sql/sqlite_export.h"

#include <chrono>
#include <cerrno>
#include <cstdio>

namespace tracescope::sql {

namespace {

// Runs one statement of the export (`bound`: the text bound to ?1, if any); "" or the error.
std::string exec(sqlite3* db, const std::string& sql, const std::string* bound = nullptr) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) return sqlite3_errmsg(db);
    if (bound) sqlite3_bind_text(stmt, 1, bound->data(), int(bound->size()), SQLITE_TRANSIENT);
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    }
    std::string error = rc == SQLITE_DONE ? "" : sqlite3_errmsg(db);
    sqlite3_finalize(stmt);
    return error;
}

std::string quoted(const std::string& name) { return "\"" + name + "\""; }

}  // namespace

SqliteExportResult exportToSqlite(TraceDatabase& db, const std::string& path,
                                  const std::function<void(const std::string&)>& progress) {
    SqliteExportResult out;
    sqlite3* h = db.handle();
    if (std::remove(path.c_str()) != 0 && errno != ENOENT) {
        out.error = "cannot replace " + path;
        return out;
    }
    if (std::string e = exec(h, "ATTACH DATABASE ?1 AS export_db", &path); !e.empty()) {
        out.error = "cannot write " + path + ": " + e;
        return out;
    }
    // A new file written once: no journal, no syncs until the end.
    std::string error = exec(h, "PRAGMA export_db.journal_mode = OFF");
    if (error.empty()) error = exec(h, "PRAGMA export_db.synchronous = OFF");
    if (error.empty()) error = exec(h, "BEGIN");
    const std::vector<SqlTableSchema> schema = db.schema();
    for (const SqlTableSchema& t : schema) {
        if (!error.empty()) break;
        if (t.kind != "table") continue;
        if (progress) progress(t.name);
        const auto t0 = std::chrono::steady_clock::now();
        // The columns with their declared types, then the rows in one INSERT ... SELECT.
        std::string ddl = "CREATE TABLE export_db." + quoted(t.name) + " (";
        for (size_t i = 0; i < t.columns.size(); ++i)
            ddl += (i ? ", " : "") + quoted(t.columns[i].name) + " " + t.columns[i].type;
        ddl += ")";
        error = exec(h, ddl);
        if (error.empty())
            error = exec(h, "INSERT INTO export_db." + quoted(t.name) + " SELECT * FROM main." + quoted(t.name));
        if (!error.empty()) {
            error = t.name + ": " + error;
            break;
        }
        out.tables.push_back({t.name, uint64_t(sqlite3_changes64(h)),
                              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()});
    }
    // The views, over the file's own tables.
    for (const SqlTableSchema& t : schema) {
        if (!error.empty()) break;
        if (t.kind != "view") continue;
        sqlite3_stmt* stmt = nullptr;
        std::string select;
        if (sqlite3_prepare_v2(h, "SELECT sql FROM main.sqlite_schema WHERE type = 'view' AND name = ?1", -1, &stmt,
                               nullptr) == SQLITE_OK) {
            sqlite3_bind_text(stmt, 1, t.name.c_str(), -1, SQLITE_TRANSIENT);
            if (sqlite3_step(stmt) == SQLITE_ROW) select = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
            sqlite3_finalize(stmt);
        }
        const std::string prefix = "CREATE VIEW " + t.name + " AS ";
        if (select.rfind(prefix, 0) == 0)
            error = exec(h, "CREATE VIEW export_db." + quoted(t.name) + " AS " + select.substr(prefix.size()));
    }
    const std::string commit = exec(h, error.empty() ? "COMMIT" : "ROLLBACK");
    if (error.empty()) error = commit;
    exec(h, "DETACH DATABASE export_db");
    if (!error.empty()) {
        out.error = "cannot write " + path + ": " + error;
        std::remove(path.c_str());
        return out;
    }
    out.ok = true;
    return out;
}

}  // namespace tracescope::sql
