#include "model/sql/sql_table.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <new>

namespace tracescope::sql {

namespace {

struct Table : sqlite3_vtab {
    const SqlTableDef* def = nullptr;
    SqlScanState* scan = nullptr;
};

struct Cursor : sqlite3_vtab_cursor {
    std::unique_ptr<SqlCursor> impl;
};

const Table& tableOf(sqlite3_vtab* v) { return *static_cast<Table*>(v); }

bool supports(const std::vector<int>& columns, int column) {
    return std::find(columns.begin(), columns.end(), column) != columns.end();
}

bool isRangeOp(int op) {
    return op == SQLITE_INDEX_CONSTRAINT_EQ || op == SQLITE_INDEX_CONSTRAINT_GT || op == SQLITE_INDEX_CONSTRAINT_GE ||
           op == SQLITE_INDEX_CONSTRAINT_LT || op == SQLITE_INDEX_CONSTRAINT_LE;
}

int connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char** err) {
    const auto* def = static_cast<const std::pair<const SqlTableDef*, SqlScanState*>*>(aux);
    std::string ddl = "CREATE TABLE x(";
    for (size_t i = 0; i < def->first->columns.size(); ++i) {
        if (i) ddl += ", ";
        ddl += "\"" + def->first->columns[i].name + "\" " + def->first->columns[i].type;
    }
    ddl += ")";
    if (int rc = sqlite3_declare_vtab(db, ddl.c_str()); rc != SQLITE_OK) {
        *err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
        return rc;
    }
    sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);  // read-only: safe in views
    auto* t = new (std::nothrow) Table();
    if (!t) return SQLITE_NOMEM;
    t->def = def->first;
    t->scan = def->second;
    *out = t;
    return SQLITE_OK;
}

int disconnect(sqlite3_vtab* v) {
    delete static_cast<Table*>(v);
    return SQLITE_OK;
}

// Hands down the constraints the table can narrow by: idxStr holds (column, op) pairs as
// bytes, in the order of the arguments xFilter gets; idxNum is 1 when rows come in time order.
int bestIndex(sqlite3_vtab* v, sqlite3_index_info* info) {
    const SqlTableDef& def = *tableOf(v).def;
    double rows = def.rowCount ? double(std::max<int64_t>(def.rowCount(), 1)) : 1e6;
    std::string plan;
    int argument = 0;
    bool key = false, range = false;
    for (int i = 0; i < info->nConstraint; ++i) {
        const auto& c = info->aConstraint[i];
        if (!c.usable || c.iColumn < 0 || plan.size() >= 250) continue;
        const bool asKey = c.op == SQLITE_INDEX_CONSTRAINT_EQ && supports(def.keyColumns, c.iColumn);
        const bool asRange = isRangeOp(c.op) && supports(def.rangeColumns, c.iColumn);
        if (!asKey && !asRange) continue;
        info->aConstraintUsage[i].argvIndex = ++argument;
        info->aConstraintUsage[i].omit = 0;  // SQLite checks again: the cursor may narrow loosely
        plan += char(c.iColumn + 1);
        plan += char(c.op);
        key = key || asKey || (c.op == SQLITE_INDEX_CONSTRAINT_EQ && asRange);
        range = range || asRange;
    }
    if (key) rows = std::max(1.0, rows / 1000);
    if (range) rows = std::max(1.0, rows / 10);
    bool ordered = false;
    if (info->nOrderBy == 1 && info->aOrderBy[0].iColumn == def.timeColumn && !info->aOrderBy[0].desc &&
        def.timeColumn >= 0) {
        info->orderByConsumed = 1;
        ordered = true;
    }
    info->idxNum = ordered ? 1 : 0;
    if (!plan.empty()) {
        info->idxStr = sqlite3_mprintf("%s", plan.c_str());
        info->needToFreeIdxStr = 1;
    }
    info->estimatedRows = sqlite3_int64(rows);
    info->estimatedCost = rows * (ordered ? 1.2 : 1.0);
    return SQLITE_OK;
}

int open(sqlite3_vtab* v, sqlite3_vtab_cursor** out) {
    auto* c = new (std::nothrow) Cursor();
    if (!c) return SQLITE_NOMEM;
    try {
        c->impl = tableOf(v).def->open();
    } catch (const std::bad_alloc&) {
        delete c;
        return SQLITE_NOMEM;
    }
    *out = c;
    return SQLITE_OK;
}

int close(sqlite3_vtab_cursor* c) {
    delete static_cast<Cursor*>(c);
    return SQLITE_OK;
}

int filter(sqlite3_vtab_cursor* cur, int idxNum, const char* idxStr, int argc, sqlite3_value** argv) {
    std::vector<SqlConstraint> constraints;
    const size_t n = idxStr ? std::strlen(idxStr) / 2 : 0;
    for (size_t i = 0; i < n && int(i) < argc; ++i)
        constraints.push_back({int((unsigned char)idxStr[2 * i]) - 1, int((unsigned char)idxStr[2 * i + 1]), argv[i]});
    auto* c = static_cast<Cursor*>(cur);
    try {
        c->impl->filter(constraints, idxNum & 1);
    } catch (const std::bad_alloc&) {
        return SQLITE_NOMEM;
    } catch (const std::exception& e) {  // a table made from an analysis that failed
        sqlite3_free(cur->pVtab->zErrMsg);
        cur->pVtab->zErrMsg = sqlite3_mprintf("%s", e.what());
        return SQLITE_ERROR;
    }
    if (!c->impl->eof()) ++tableOf(cur->pVtab).scan->rowsProduced;
    return SQLITE_OK;
}

int next(sqlite3_vtab_cursor* cur) {
    auto* c = static_cast<Cursor*>(cur);
    if (tableOf(cur->pVtab).scan->stop) return SQLITE_INTERRUPT;
    try {
        c->impl->next();
    } catch (const std::bad_alloc&) {
        return SQLITE_NOMEM;
    }
    if (!c->impl->eof()) ++tableOf(cur->pVtab).scan->rowsProduced;
    return SQLITE_OK;
}

int eof(sqlite3_vtab_cursor* cur) { return static_cast<Cursor*>(cur)->impl->eof(); }

int column(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int i) {
    try {
        static_cast<Cursor*>(cur)->impl->column(ctx, i);
    } catch (const std::bad_alloc&) {
        sqlite3_result_error_nomem(ctx);
    }
    return SQLITE_OK;
}

int rowid(sqlite3_vtab_cursor* cur, sqlite3_int64* out) {
    *out = static_cast<Cursor*>(cur)->impl->rowid();
    return SQLITE_OK;
}

// Eponymous-only (xCreate null): the table exists in every connection it is registered with
// under its own name; with no xUpdate, writes are refused ("table slice may not be modified").
const sqlite3_module kModule = {
    /* iVersion */ 0,
    /* xCreate */ nullptr,
    /* xConnect */ connect,
    /* xBestIndex */ bestIndex,
    /* xDisconnect */ disconnect,
    /* xDestroy */ disconnect,
    /* xOpen */ open,
    /* xClose */ close,
    /* xFilter */ filter,
    /* xNext */ next,
    /* xEof */ eof,
    /* xColumn */ column,
    /* xRowid */ rowid,
    /* xUpdate */ nullptr,
    /* xBegin */ nullptr,
    /* xSync */ nullptr,
    /* xCommit */ nullptr,
    /* xRollback */ nullptr,
    /* xFindFunction */ nullptr,
    /* xRename */ nullptr,
    /* xSavepoint */ nullptr,
    /* xRelease */ nullptr,
    /* xRollbackTo */ nullptr,
    /* xShadowName */ nullptr,
};

// An integer at or beyond a real value: floor or ceil, saturated to int64.
int64_t integerNear(double v, bool up) {
    const double r = up ? std::ceil(v) : std::floor(v);
    if (std::isnan(r)) return 0;
    if (r >= 9.2e18) return std::numeric_limits<int64_t>::max();
    if (r <= -9.2e18) return std::numeric_limits<int64_t>::min();
    return int64_t(r);
}

}  // namespace

int registerSqlTable(sqlite3* db, const SqlTableDef* def, SqlScanState* scan) {
    // The module's client data: the table and the scan state (freed with the module).
    auto* aux = new std::pair<const SqlTableDef*, SqlScanState*>(def, scan);
    return sqlite3_create_module_v2(db, def->name.c_str(), &kModule, aux,
                                    [](void* p) { delete static_cast<std::pair<const SqlTableDef*, SqlScanState*>*>(p); });
}

bool lowerBoundOf(const SqlConstraint& c, int64_t& bound) {
    const int type = sqlite3_value_numeric_type(c.value);
    if (type != SQLITE_INTEGER && type != SQLITE_FLOAT) return false;
    if (c.op != SQLITE_INDEX_CONSTRAINT_GT && c.op != SQLITE_INDEX_CONSTRAINT_GE && c.op != SQLITE_INDEX_CONSTRAINT_EQ)
        return false;
    // > x keeps x itself too: a loose bound, SQLite drops the row again.
    bound = type == SQLITE_INTEGER ? sqlite3_value_int64(c.value) : integerNear(sqlite3_value_double(c.value), false);
    return true;
}

bool upperBoundOf(const SqlConstraint& c, int64_t& bound) {
    const int type = sqlite3_value_numeric_type(c.value);
    if (type != SQLITE_INTEGER && type != SQLITE_FLOAT) return false;
    if (c.op != SQLITE_INDEX_CONSTRAINT_LT && c.op != SQLITE_INDEX_CONSTRAINT_LE && c.op != SQLITE_INDEX_CONSTRAINT_EQ)
        return false;
    bound = type == SQLITE_INTEGER ? sqlite3_value_int64(c.value) : integerNear(sqlite3_value_double(c.value), true);
    return true;
}

bool integerKeyOf(const SqlConstraint& c, int64_t& key) {
    if (c.op != SQLITE_INDEX_CONSTRAINT_EQ) return false;
    const int type = sqlite3_value_numeric_type(c.value);
    if (type == SQLITE_INTEGER) {
        key = sqlite3_value_int64(c.value);
        return true;
    }
    if (type == SQLITE_FLOAT) {
        const double d = sqlite3_value_double(c.value);
        if (d != std::floor(d) || std::abs(d) >= 9.2e18) return false;
        key = int64_t(d);
        return true;
    }
    return false;
}

}  // namespace tracescope::sql
