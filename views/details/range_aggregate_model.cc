#include "views/details/range_aggregate_model.h"

#include "views/timeline/time_format.h"

namespace tracescope {

void RangeAggregateModel::setAggregate(std::shared_ptr<const Trace> trace, RangeAggregate aggregate) {
    beginResetModel();
    trace_ = std::move(trace);
    aggregate_ = std::move(aggregate);
    endResetModel();
}

int RangeAggregateModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(aggregate_.rows.size());
}

int RangeAggregateModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RangeAggregateModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || size_t(index.row()) >= aggregate_.rows.size() || !trace_) return {};
    const RangeAggregateRow& row = aggregate_.rows[size_t(index.row())];
    if (role == Qt::DisplayRole || role == SortRole) {
        const bool raw = role == SortRole;
        switch (index.column()) {
        case Name: {
            const std::string_view s = trace_->str(row.name);
            return QString::fromUtf8(s.data(), qsizetype(s.size()));
        }
        case Count: return raw ? QVariant(qulonglong(row.count)) : QVariant(QString::number(row.count));
        case Total: return raw ? QVariant(qlonglong(row.total)) : QVariant(formatDuration(row.total));
        case Self: return raw ? QVariant(qlonglong(row.self)) : QVariant(formatDuration(row.self));
        case Average: return raw ? QVariant(qlonglong(row.average())) : QVariant(formatDuration(row.average()));
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != Name) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == Name) {
        const std::string_view s = trace_->str(row.name);
        return QString::fromUtf8(s.data(), qsizetype(s.size()));
    }
    return {};
}

QVariant RangeAggregateModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Name: return tr("Name");
    case Count: return tr("Count");
    case Total: return tr("Total");
    case Self: return tr("Self");
    case Average: return tr("Average");
    }
    return {};
}

}  // namespace tracescope
