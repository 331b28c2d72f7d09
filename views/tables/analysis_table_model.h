// Table models over analysis result rows. A column says what kind of value it holds;
// the model turns the raw value into display text (units), alignment, a sort key and
// a tooltip with the exact value, so every table in the app reads and sorts the same.
#pragma once

#include <QAbstractTableModel>
#include <QString>
#include <QVariant>

#include <functional>
#include <map>
#include <vector>

namespace tracescope {

enum class ColumnKind {
    Text,      // QString
    Integer,   // qint64, thousands separators
    Duration,  // qint64 nanoseconds, shown with a unit
    Percent,   // double, 0..100
    Bytes,     // qint64
    Real,      // double, shown with 2 decimals
};

struct ColumnSpec {
    QString header;
    ColumnKind kind = ColumnKind::Text;
    QString tooltip;  // header tooltip: what the column means
    // Text column of C++ / kernel names: shown short under View > Short Names
    // (told apart within the column), full in the tooltip and CSV.
    bool names = false;
};

class AnalysisTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // The raw value of a cell (numbers as numbers), used to sort and for tests.
    static constexpr int SortRole = Qt::UserRole + 1;
    // The full text of a cell (name columns: the full name whatever is shown), for CSV.
    static constexpr int FullTextRole = Qt::UserRole + 2;

    explicit AnalysisTableModel(std::vector<ColumnSpec> columns, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const ColumnSpec& column(int c) const { return columns_[size_t(c)]; }
    // Display text of a raw value of the given kind (shared with tree models).
    static QString displayText(ColumnKind kind, const QVariant& raw);

protected:
    virtual int rows() const = 0;
    virtual QVariant value(int row, int column) const = 0;
    // Optional per-cell tooltip; empty = the exact value for numbers.
    virtual QString cellToolTip(int row, int column) const { return {}; }

private:
    std::vector<ColumnSpec> columns_;
    mutable std::map<int, std::vector<QString>> shortNames_;  // per name column, by row; built when first shown
    const QString& shortNameAt(int row, int column) const;
};

// A table over a vector of rows, its columns given as functions of a row.
template <typename Row>
class RowTableModel : public AnalysisTableModel {
public:
    struct Column {
        ColumnSpec spec;
        std::function<QVariant(const Row&)> value;
    };

    explicit RowTableModel(std::vector<Column> columns, QObject* parent = nullptr)
        : AnalysisTableModel(specs(columns), parent), columns_(std::move(columns)) {}

    void setRows(std::vector<Row> rows) {
        beginResetModel();
        rows_ = std::move(rows);
        endResetModel();
    }
    const std::vector<Row>& allRows() const { return rows_; }
    // A column's cells get their own tooltip (e.g. why a value is what it is); "" = the default.
    void setCellToolTip(int column, std::function<QString(const Row&)> toolTip) {
        toolTips_[column] = std::move(toolTip);
    }
    const Row& row(int r) const { return rows_[size_t(r)]; }

protected:
    int rows() const override { return int(rows_.size()); }
    QVariant value(int r, int c) const override { return columns_[size_t(c)].value(rows_[size_t(r)]); }
    QString cellToolTip(int r, int c) const override {
        auto it = toolTips_.find(c);
        return it != toolTips_.end() ? it->second(rows_[size_t(r)]) : QString();
    }

private:
    static std::vector<ColumnSpec> specs(const std::vector<Column>& columns) {
        std::vector<ColumnSpec> out;
        for (const auto& c : columns) out.push_back(c.spec);
        return out;
    }
    std::vector<Column> columns_;
    std::vector<Row> rows_;
    std::map<int, std::function<QString(const Row&)>> toolTips_;
};

}  // namespace tracescope
