#include "views/tables/scope_tree_model.h"

#include "views/tables/analysis_table_model.h"
#include "views/tables/value_format.h"

namespace tracescope {

namespace {

ColumnKind kindOf(int column) {
    switch (column) {
    case ScopeTreeModel::Scope: return ColumnKind::Text;
    case ScopeTreeModel::Occurrences: case ScopeTreeModel::Allocations: return ColumnKind::Integer;
    case ScopeTreeModel::Bytes: return ColumnKind::Bytes;
    default: return ColumnKind::Duration;
    }
}

}  // namespace

void ScopeTreeModel::setTree(std::shared_ptr<const ScopeTree> tree) {
    beginResetModel();
    tree_ = std::move(tree);
    rowInParent_.assign(tree_ ? tree_->nodes.size() : 0, 0);
    if (tree_)
        for (const ScopeNode& n : tree_->nodes)
            for (size_t i = 0; i < n.children.size(); ++i)
                if (n.children[i] < rowInParent_.size()) rowInParent_[n.children[i]] = uint32_t(i);
    endResetModel();
}

uint32_t ScopeTreeModel::nodeOf(const QModelIndex& index) const {
    return index.isValid() ? uint32_t(index.internalId()) : 0;
}

QModelIndex ScopeTreeModel::indexOfNode(uint32_t node, int column) const {
    if (!tree_ || node == 0 || node >= tree_->nodes.size()) return {};
    return createIndex(int(rowInParent_[node]), column, quintptr(node));
}

QModelIndex ScopeTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!tree_ || tree_->nodes.empty() || row < 0 || column < 0 || column >= ColumnCount) return {};
    const ScopeNode& p = tree_->nodes[nodeOf(parent)];
    if (size_t(row) >= p.children.size()) return {};
    return createIndex(row, column, quintptr(p.children[size_t(row)]));
}

QModelIndex ScopeTreeModel::parent(const QModelIndex& child) const {
    if (!tree_ || !child.isValid()) return {};
    uint32_t p = tree_->nodes[nodeOf(child)].parent;
    if (p == kNoIndex || p == 0) return {};
    return indexOfNode(p);
}

int ScopeTreeModel::rowCount(const QModelIndex& parent) const {
    if (!tree_ || tree_->nodes.empty() || (parent.isValid() && parent.column() != 0)) return 0;
    return int(tree_->nodes[nodeOf(parent)].children.size());
}

int ScopeTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant ScopeTreeModel::data(const QModelIndex& index, int role) const {
    if (!tree_ || !index.isValid()) return {};
    const ScopeNode& n = tree_->nodes[nodeOf(index)];
    auto raw = [&]() -> QVariant {
        switch (index.column()) {
        case Scope: return QString::fromStdString(n.name);
        case Occurrences: return qint64(n.occurrences);
        case Total: return qint64(n.totalNs);
        case Self: return qint64(n.selfNs);
        case Device: return qint64(n.deviceNs);
        case Bytes: return tree_->hasMemory ? QVariant(qint64(n.bytesAllocated)) : QVariant();
        case Allocations: return tree_->hasMemory ? QVariant(qint64(n.allocations)) : QVariant();
        }
        return {};
    };
    switch (role) {
    case Qt::DisplayRole: return AnalysisTableModel::displayText(kindOf(index.column()), raw());
    case AnalysisTableModel::SortRole: return raw();
    case Qt::ToolTipRole:
        if (index.column() == Scope) return QString::fromStdString(n.path);
        return {};
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(index.column() == Scope ? (Qt::AlignLeft | Qt::AlignVCenter)
                                                           : (Qt::AlignRight | Qt::AlignVCenter));
    default: return {};
    }
}

QVariant ScopeTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Scope: return tr("Scope");
        case Occurrences: return tr("Occurrences");
        case Total: return tr("Time");
        case Self: return tr("Self time");
        case Device: return tr("Device time");
        case Bytes: return tr("Allocated");
        case Allocations: return tr("Allocs");
        }
    }
    if (role == Qt::ToolTipRole) {
        // The definitions of model/analysis/scope_tree.h, in words.
        switch (section) {
        case Occurrences:
            return tr("Events of this scope itself (ops; in PyTorch traces also annotations and nn.Module spans), "
                      "not those of the scopes under it");
        case Total:
            return tr("Inclusive wall time: the time covered by this scope's events and everything under it "
                      "(nested or concurrent events counted once)");
        case Self: return tr("Time minus the time covered by the scopes under this one");
        case Device:
            return tr("Device activity (kernels, copies, memsets) launched at or under this scope (sum of durations)");
        case Bytes: return tr("Bytes allocated by ops at or under this scope");
        case Allocations: return tr("Number of allocations by ops at or under this scope");
        default: return {};
        }
    }
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(section == Scope ? (Qt::AlignLeft | Qt::AlignVCenter)
                                                    : (Qt::AlignRight | Qt::AlignVCenter));
    return {};
}

}  // namespace tracescope
