// Scope tree page: op time aggregated by name scope ("model/dense/MatMul") in a tree,
// beside the flat op view by op type. Numbers come from computeScopeTree.
#pragma once

#include "model/analysis/scope_tree.h"
#include "model/query/slice_row_index.h"
#include "views/analysis_view.h"
#include "views/tables/analysis_table_model.h"

class QLabel;
class QLineEdit;
class QTreeView;

namespace tracescope {

class ColumnFitter;
class ScopeTreeModel;
class TableFilterProxy;
class TablePage;

class ScopeTreeView : public AnalysisView {
    Q_OBJECT
public:
    explicit ScopeTreeView(QWidget* parent = nullptr);

    enum OpColumn { Type, Occurrences, Total, Self, Device, Bytes, OpColumnCount };

    ScopeTreeModel* treeModel() const { return treeModel_; }
    QTreeView* treeView() const { return tree_; }
    TableFilterProxy* treeProxy() const { return treeProxy_; }
    QLineEdit* treeFilter() const { return filter_; }
    TablePage* opView() const { return ops_; }
    RowTableModel<OpTypeRow>* opModel() const { return opModel_; }
    QString treeCsv() const;
    // The scope node of the current tree selection (0 = none).
    uint32_t currentNode() const;

public slots:
    void exportTreeCsv();

protected:
    void startAnalysis(const std::shared_ptr<const Trace>& trace) override;
    void clearResult() override;

private:
    struct Computed {
        std::shared_ptr<const ScopeTree> tree;
        SliceRowIndex sliceNodes;                           // slice -> its own (deepest) scope node
        SliceRowIndex sliceTypes;                           // slice -> op view row
        std::shared_ptr<const ClassifiedTrace> classified;  // the store's, which the rows' occurrences are found on
    };
    std::shared_ptr<const Computed> computed_;
    QLabel* summary_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QTreeView* tree_ = nullptr;
    ColumnFitter* treeFitter_ = nullptr;
    ScopeTreeModel* treeModel_ = nullptr;
    TableFilterProxy* treeProxy_ = nullptr;
    TablePage* ops_ = nullptr;
    RowTableModel<OpTypeRow>* opModel_ = nullptr;
    bool hasMemory_ = false;  // read by the op view's bytes column

    void activateNode(const QModelIndex& proxyIndex);
    void activateOpRow(int row);
    void selectSlice(SliceRef slice) override;
};

}  // namespace tracescope
