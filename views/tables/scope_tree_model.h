// Item model over a ScopeTree: one item per scope node, children under their parent,
// with occurrences, inclusive time, self time, device time and allocated bytes (defined in
// model/analysis/scope_tree.h; the header tooltips say the same).
#pragma once

#include "model/analysis/scope_tree.h"

#include <QAbstractItemModel>

#include <memory>

namespace tracescope {

class ScopeTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Scope, Occurrences, Total, Self, Device, Bytes, Allocations, ColumnCount };

    using QAbstractItemModel::QAbstractItemModel;

    void setTree(std::shared_ptr<const ScopeTree> tree);
    const ScopeTree* tree() const { return tree_.get(); }
    // Scope node of an index (0 = the root, never shown) and back.
    uint32_t nodeOf(const QModelIndex& index) const;
    QModelIndex indexOfNode(uint32_t node, int column = 0) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const ScopeTree> tree_;
    std::vector<uint32_t> rowInParent_;  // per node: its position in its parent's children
};

}  // namespace tracescope
