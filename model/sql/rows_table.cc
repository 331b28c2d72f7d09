#include "model/sql/rows_table.h"

#include <limits>

namespace tracescope::sql {

namespace {

class RowsCursor final : public SqlCursor {
public:
    explicit RowsCursor(std::function<std::shared_ptr<const SqlRows>()> rows) : source_(std::move(rows)) {}
    void filter(const std::vector<SqlConstraint>&, bool) override {
        if (!rows_) rows_ = source_();
        pos_ = 0;
    }
    bool eof() const override { return !rows_ || pos_ >= rows_->size(); }
    void next() override { ++pos_; }
    void column(sqlite3_context* ctx, int col) override {
        if (col < 0 || size_t(col) >= rows_->columns) {
            sqlite3_result_null(ctx);
            return;
        }
        const SqlCell& c = rows_->cells[pos_ * rows_->columns + size_t(col)];
        if (const auto* i = std::get_if<int64_t>(&c)) sqlite3_result_int64(ctx, *i);
        else if (const auto* d = std::get_if<double>(&c)) sqlite3_result_double(ctx, *d);
        else if (const auto* s = std::get_if<std::string>(&c))
            sqlite3_result_text(ctx, s->data(), int(std::min<size_t>(s->size(), std::numeric_limits<int>::max())),
                                SQLITE_TRANSIENT);
        else sqlite3_result_null(ctx);
    }
    int64_t rowid() const override { return int64_t(pos_); }

private:
    std::function<std::shared_ptr<const SqlRows>()> source_;
    std::shared_ptr<const SqlRows> rows_;
    size_t pos_ = 0;
};

}  // namespace

uint64_t resultBytes(const SqlRows& rows) {
    uint64_t bytes = sizeof rows + rows.cells.capacity() * sizeof(SqlCell);
    for (const SqlCell& c : rows.cells)
        if (const auto* s = std::get_if<std::string>(&c)) bytes += s->capacity();
    return bytes;
}

SqlTableDef rowsTableDef(std::string name, std::string meaning, std::vector<SqlColumn> columns,
                         std::function<std::shared_ptr<const SqlRows>()> rows) {
    SqlTableDef def;
    def.name = std::move(name);
    def.meaning = std::move(meaning);
    def.columns = std::move(columns);
    def.rowCount = [] { return int64_t(1000); };
    def.open = [rows] { return std::make_unique<RowsCursor>(rows); };
    return def;
}

}  // namespace tracescope::sql
