// A virtual table over rows made once, on the first scan: the analyses (op stats, kernel stats,
// steps, the call tree) as tables. The rows come from a function, which asks the trace's result
// store, so an analysis is computed once whichever page, command or query asks first.
#pragma once

#include "model/sql/sql_table.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace tracescope::sql {

using SqlCell = std::variant<std::monostate, int64_t, double, std::string>;

struct SqlRows {
    size_t columns = 0;
    std::vector<SqlCell> cells;  // row-major
    size_t size() const { return columns ? cells.size() / columns : 0; }
    void add(std::vector<SqlCell> row) {
        row.resize(columns);
        for (SqlCell& c : row) cells.push_back(std::move(c));
    }
};

uint64_t resultBytes(const SqlRows& rows);

// The definition of a table whose rows `rows()` gives (called on the first scan of a query;
// it may block while the analysis runs, and may throw to fail the query with its message).
SqlTableDef rowsTableDef(std::string name, std::string meaning, std::vector<SqlColumn> columns,
                         std::function<std::shared_ptr<const SqlRows>()> rows);

}  // namespace tracescope::sql
