// Table model over a RangeAggregate: name, count, total, self, average.
#pragma once

#include "model/query/range_aggregate.h"

#include <QAbstractTableModel>

#include <memory>

namespace tracescope {

class RangeAggregateModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Count, Total, Self, Average, ColumnCount };
    // Raw numbers for sorting (durations in ns, counts as integers).
    static constexpr int SortRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;
    void setAggregate(std::shared_ptr<const Trace> trace, RangeAggregate aggregate);
    const RangeAggregate& aggregate() const { return aggregate_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Trace> trace_;
    RangeAggregate aggregate_;
};

}  // namespace tracescope
