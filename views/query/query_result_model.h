// The rows of a query as the Query page's table shows them: columns as the query named them,
// integers as written (ids and times copy as they are), reals to 12 digits, NULL greyed.
// Sorting uses the raw values (AnalysisTableModel::SortRole, as every table in the app).
#pragma once

#include <QAbstractTableModel>
#include <QStringList>
#include <QVariant>

#include <vector>

namespace tracescope {

class QueryResultModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    // `cells` row-major, columns.size() per row; a null QVariant is SQL's NULL.
    void setResult(QStringList columns, std::vector<QVariant> cells);
    void clear() { setResult({}, {}); }
    const QStringList& columns() const { return columns_; }
    // The raw value of a cell (null for NULL).
    QVariant cell(int row, int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QStringList columns_;
    std::vector<QVariant> cells_;
};

}  // namespace tracescope
