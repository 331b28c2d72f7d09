#include "views/query/query_result_model.h"

#include "views/tables/analysis_table_model.h"

#include <QApplication>
#include <QPalette>

namespace tracescope {

void QueryResultModel::setResult(QStringList columns, std::vector<QVariant> cells) {
    beginResetModel();
    columns_ = std::move(columns);
    cells_ = std::move(cells);
    endResetModel();
}

QVariant QueryResultModel::cell(int row, int column) const {
    if (row < 0 || column < 0 || row >= rowCount() || column >= columnCount()) return {};
    return cells_[size_t(row) * size_t(columns_.size()) + size_t(column)];
}

int QueryResultModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || columns_.isEmpty() ? 0 : int(cells_.size() / size_t(columns_.size()));
}

int QueryResultModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(columns_.size());
}

QVariant QueryResultModel::data(const QModelIndex& index, int role) const {
    const QVariant v = cell(index.row(), index.column());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
    case AnalysisTableModel::FullTextRole:
        if (v.isNull()) return role == AnalysisTableModel::FullTextRole ? QString() : QStringLiteral("NULL");
        if (v.typeId() == QMetaType::Double) return QString::number(v.toDouble(), 'g', 12);
        return v.toString();
    case AnalysisTableModel::SortRole: return v;
    case Qt::TextAlignmentRole:
        return v.typeId() == QMetaType::LongLong || v.typeId() == QMetaType::Double
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (v.isNull()) return QApplication::palette().color(QPalette::PlaceholderText);
        return {};
    default: return {};
    }
}

QVariant QueryResultModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columns_.size()) return {};
    if (role == Qt::DisplayRole) return columns_[section];
    return {};
}

}  // namespace tracescope
