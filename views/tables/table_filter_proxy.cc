#include "views/tables/table_filter_proxy.h"

#include "views/tables/analysis_table_model.h"

namespace tracescope {

TableFilterProxy::TableFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(AnalysisTableModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    setRecursiveFilteringEnabled(true);  // tree models: keep parents of matching children
}

void TableFilterProxy::setFilterColumns(std::vector<int> columns) {
    filterColumns_ = std::move(columns);
    invalidateFilter();
}

void TableFilterProxy::setNameFilter(const QString& text) {
    QString trimmed = text.trimmed();
    if (trimmed == filter_) return;
    filter_ = trimmed;
    invalidateFilter();
}

bool TableFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (filter_.isEmpty()) return true;
    for (int c : filterColumns_) {
        QModelIndex idx = sourceModel()->index(sourceRow, c, sourceParent);
        if (idx.data(Qt::DisplayRole).toString().contains(filter_, Qt::CaseInsensitive)) return true;
    }
    return false;
}

bool TableFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    QVariant a = left.data(sortRole()), b = right.data(sortRole());
    // Numbers compare as numbers; empty cells sort before any value.
    if (!a.isValid() || !b.isValid()) return !a.isValid() && b.isValid();
    const auto numeric = [](const QVariant& v) {
        switch (v.typeId()) {
        case QMetaType::Int: case QMetaType::UInt: case QMetaType::LongLong: case QMetaType::ULongLong:
        case QMetaType::Double: case QMetaType::Float: case QMetaType::Long: case QMetaType::ULong:
            return true;
        default: return false;
        }
    };
    if (numeric(a) && numeric(b)) {
        if (a.typeId() == QMetaType::Double || b.typeId() == QMetaType::Double || a.typeId() == QMetaType::Float ||
            b.typeId() == QMetaType::Float)
            return a.toDouble() < b.toDouble();
        return a.toLongLong() < b.toLongLong();
    }
    return QString::compare(a.toString(), b.toString(), Qt::CaseInsensitive) < 0;
}

}  // namespace tracescope
