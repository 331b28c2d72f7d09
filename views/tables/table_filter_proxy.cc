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

void TableFilterProxy::setSourceModel(QAbstractItemModel* model) {
    if (QAbstractItemModel* old = sourceModel()) disconnect(old, nullptr, this, nullptr);
    dropKeys();
    flat_ = qobject_cast<AnalysisTableModel*>(model) != nullptr;  // a table: no row has children
    // Connected before the base class connects its own: the keys go before it sorts again.
    if (model) {
        connect(model, &QAbstractItemModel::modelAboutToBeReset, this, [this] { dropKeys(); });
        connect(model, &QAbstractItemModel::layoutAboutToBeChanged, this, [this] { dropKeys(); });
        connect(model, &QAbstractItemModel::rowsAboutToBeInserted, this, [this] { dropKeys(); });
        connect(model, &QAbstractItemModel::rowsAboutToBeRemoved, this, [this] { dropKeys(); });
        connect(model, &QAbstractItemModel::rowsAboutToBeMoved, this, [this] { dropKeys(); });
        connect(model, &QAbstractItemModel::dataChanged, this, [this] { dropKeys(); });
    }
    QSortFilterProxyModel::setSourceModel(model);
}

TableFilterProxy::SortKey TableFilterProxy::keyOf(const QVariant& v) {
    SortKey k;
    if (!v.isValid()) return k;
    k.raw = v;
    switch (v.typeId()) {
    case QMetaType::Int: case QMetaType::UInt: case QMetaType::LongLong: case QMetaType::ULongLong:
    case QMetaType::Long: case QMetaType::ULong:
        k.kind = SortKey::Kind::Integer;
        k.integer = v.toLongLong();
        k.real = v.toDouble();
        break;
    case QMetaType::Double: case QMetaType::Float:
        k.kind = SortKey::Kind::Real;
        k.real = v.toDouble();
        break;
    default: k.kind = SortKey::Kind::Text; k.raw = v.toString(); break;
    }
    return k;
}

// Numbers compare as numbers (as reals when either is one); empty cells sort before any value;
// the rest by text, ignoring case.
bool TableFilterProxy::keyLess(const SortKey& a, const SortKey& b) {
    using Kind = SortKey::Kind;
    if (a.kind == Kind::Empty || b.kind == Kind::Empty) return a.kind == Kind::Empty && b.kind != Kind::Empty;
    if (a.kind != Kind::Text && b.kind != Kind::Text) {
        if (a.kind == Kind::Real || b.kind == Kind::Real) return a.real < b.real;
        return a.integer < b.integer;
    }
    return QString::compare(a.raw.toString(), b.raw.toString(), Qt::CaseInsensitive) < 0;
}

bool TableFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    // Tree models (scopes) compare their children directly; flat tables through the keys.
    if (!flat_ || left.column() != right.column())
        return keyLess(keyOf(left.data(sortRole())), keyOf(right.data(sortRole())));
    if (keysColumn_ != left.column() || keys_.size() != size_t(sourceModel()->rowCount())) {
        const int rows = sourceModel()->rowCount();
        keys_.clear();
        keys_.reserve(size_t(rows));
        for (int r = 0; r < rows; ++r) keys_.push_back(keyOf(sourceModel()->index(r, left.column()).data(sortRole())));
        keysColumn_ = left.column();
    }
    return keyLess(keys_[size_t(left.row())], keys_[size_t(right.row())]);
}

}  // namespace tracescope
