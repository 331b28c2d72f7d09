#include "views/tables/scope_tree_view.h"

#include "model/results/trace_results.h"
#include "views/tables/column_fitter.h"
#include "views/tables/csv_export.h"
#include "views/tables/scope_tree_model.h"
#include "views/tables/table_filter_proxy.h"
#include "views/tables/table_page.h"
#include "views/tables/value_format.h"
#include "views/tables/wrapping_header_view.h"
#include "views/trace_selection.h"
#include "views/wrapping_label.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace tracescope {

namespace {

std::vector<RowTableModel<OpTypeRow>::Column> opColumns(const bool* hasMemory) {
    return {
        {{QObject::tr("Op type"), ColumnKind::Text, {}},
         [](const OpTypeRow& r) { return QVariant(QString::fromStdString(r.type)); }},
        {{QObject::tr("Occurrences"), ColumnKind::Integer, QObject::tr("Op slices of this type")},
         [](const OpTypeRow& r) { return QVariant(qint64(r.occurrences)); }},
        {{QObject::tr("Time"), ColumnKind::Duration,
          QObject::tr("Sum of the durations of the ops of this type (as in Op Stats)")},
         [](const OpTypeRow& r) { return QVariant(qint64(r.totalNs)); }},
        {{QObject::tr("Self time"), ColumnKind::Duration,
          QObject::tr("Sum of their self times: duration minus the ops nested directly in them")},
         [](const OpTypeRow& r) { return QVariant(qint64(r.selfNs)); }},
        {{QObject::tr("Device time"), ColumnKind::Duration,
          QObject::tr("Device activity launched by ops of this type: the innermost op around the launch "
                      "(PyTorch) or the activity's tf_op (XSpace); \"(no op)\" when there is none")},
         [](const OpTypeRow& r) { return QVariant(qint64(r.deviceNs)); }},
        {{QObject::tr("Allocated"), ColumnKind::Bytes, QObject::tr("Bytes allocated by ops of this type")},
         [hasMemory](const OpTypeRow& r) { return *hasMemory ? QVariant(qint64(r.bytesAllocated)) : QVariant(); }},
    };
}

}  // namespace

ScopeTreeView::ScopeTreeView(QWidget* parent) : AnalysisView(parent) {
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 6, 6, 6);
    summary_ = new WrappingLabel(content);
    layout->addWidget(summary_);

    auto* split = new QSplitter(Qt::Horizontal, content);
    split->setChildrenCollapsible(false);

    // Left: the scope tree with its own filter and export.
    auto* treePane = new QWidget(split);
    auto* treeLayout = new QVBoxLayout(treePane);
    treeLayout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    filter_ = new QLineEdit(treePane);
    filter_->setPlaceholderText(tr("Filter scopes (keeps the path to each match)"));
    filter_->setClearButtonEnabled(true);
    auto* exportButton = new QToolButton(treePane);
    exportButton->setText(tr("Export CSV..."));
    bar->addWidget(filter_, 1);
    bar->addWidget(exportButton);
    treeLayout->addLayout(bar);
    treeModel_ = new ScopeTreeModel(this);
    treeProxy_ = new TableFilterProxy(this);
    treeProxy_->setSourceModel(treeModel_);
    tree_ = new QTreeView(treePane);
    auto* treeHeader = new WrappingHeaderView(tree_);
    treeHeader->keepOneLine(ScopeTreeModel::Scope);
    tree_->setHeader(treeHeader);
    tree_->setModel(treeProxy_);
    tree_->setSortingEnabled(true);
    tree_->sortByColumn(ScopeTreeModel::Total, Qt::DescendingOrder);
    tree_->setAlternatingRowColors(true);
    tree_->setUniformRowHeights(true);
    tree_->setTextElideMode(Qt::ElideMiddle);  // the full path is in the tooltip
    tree_->setSelectionBehavior(QAbstractItemView::SelectRows);
    tree_->setContextMenuPolicy(Qt::CustomContextMenu);
    tree_->header()->setStretchLastSection(false);
    treeLayout->addWidget(tree_, 1);
    treeFitter_ = new ColumnFitter(tree_, tree_->header());
    treeFitter_->setElasticColumn(ScopeTreeModel::Scope, 220);
    split->addWidget(treePane);

    // Right: the op view.
    ops_ = new TablePage(split);
    opModel_ = new RowTableModel<OpTypeRow>(opColumns(&hasMemory_), this);
    ops_->setSourceModel(opModel_, Self, Qt::DescendingOrder);
    ops_->setFilterColumns({Type}, tr("Filter op types"));
    ops_->setExportName(QStringLiteral("op_types.csv"));
    ops_->setElasticColumn(Type, 160);
    split->addWidget(ops_);
    split->setStretchFactor(0, 2);  // the tree needs room for indented names
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    setContent(content);

    connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        treeProxy_->setNameFilter(text);
        if (!text.trimmed().isEmpty()) tree_->expandAll();
    });
    connect(exportButton, &QToolButton::clicked, this, &ScopeTreeView::exportTreeCsv);
    connect(tree_, &QTreeView::doubleClicked, this, &ScopeTreeView::activateNode);
    // The header's context menu hides and shows columns, as in every table.
    tree_->header()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(tree_->header(), &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu menu(this);
        fillColumnVisibilityMenu(menu, *tree_->header());
        menu.exec(tree_->header()->mapToGlobal(pos));
    });
    connect(tree_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu menu(this);
        QModelIndex index = tree_->indexAt(pos);
        if (index.isValid()) {
            menu.addAction(tr("Show occurrences in timeline"), this, [this, index] { activateNode(index); });
            menu.addSeparator();
        }
        menu.addAction(tr("Expand all"), tree_, &QTreeView::expandAll);
        menu.addAction(tr("Collapse all"), tree_, &QTreeView::collapseAll);
        menu.addAction(tr("Export CSV..."), this, &ScopeTreeView::exportTreeCsv);
        menu.exec(tree_->viewport()->mapToGlobal(pos));
    });
    connect(ops_, &TablePage::sourceRowActivated, this, &ScopeTreeView::activateOpRow);
}

void ScopeTreeView::startAnalysis(const std::shared_ptr<const Trace>& trace) {
    run<Computed>(
        estimateAnalysisCost(AnalysisKind::ScopeTree, *trace), {"scopes-page", ""},
        [](ResultStore& results) {
            Computed c;
            c.classified = classificationOf(results);
            analysisStep("Building the scope tree and its slice indexes", 0, 1);
            ScopeTreeWithIndexes built = computeScopeTreeWithIndexes(*c.classified);
            c.tree = std::make_shared<const ScopeTree>(std::move(built.tree));
            c.sliceNodes = std::move(built.sliceNodes);
            c.sliceTypes = std::move(built.sliceTypes);
            return c;
        },
        [this](std::shared_ptr<const Computed> c) {
            computed_ = std::move(c);
            const ScopeTree& tree = *computed_->tree;
            if (tree.nodes.size() <= 1 && tree.opView.empty()) {
                showEmptyResult(tr("No ops in this trace."));
                return;
            }
            hasMemory_ = tree.hasMemory;
            treeModel_->setTree(computed_->tree);
            tree_->setColumnHidden(ScopeTreeModel::Bytes, !tree.hasMemory);
            tree_->setColumnHidden(ScopeTreeModel::Allocations, !tree.hasMemory);
            // Open the first two levels: the model's big blocks are visible at once.
            tree_->expandToDepth(1);
            treeFitter_->fit(520);
            opModel_->setRows(tree.opView);
            ops_->view()->setColumnHidden(Bytes, !tree.hasMemory);
            ops_->view()->sortByColumn(Self, Qt::DescendingOrder);
            ops_->fitColumns(320);
            const ScopeNode& root = tree.nodes[0];
            summary_->setText(
                tr("%1 scopes over %2 events, covering %3 of wall time; %4 of device activity. "
                   "Double-click a scope or op type to highlight its slices in the timeline.")
                    .arg(formatCount(qint64(tree.nodes.size() - 1)), formatCount(qint64(tree.scopeEvents)),
                         formatDuration(root.totalNs), formatDuration(root.deviceNs)) +
                [&tree] {
                    QString notes;
                    for (const std::string& n : tree.notes)
                        notes += QStringLiteral("<br><i>%1</i>").arg(QString::fromStdString(n).toHtmlEscaped());
                    return notes;
                }());
        });
}

void ScopeTreeView::clearResult() {
    computed_.reset();
    treeModel_->setTree(nullptr);
    opModel_->setRows({});
    summary_->clear();
}

QString ScopeTreeView::treeCsv() const { return treeViewToCsv(*tree_); }

void ScopeTreeView::exportTreeCsv() { exportCsvWithDialog(this, treeCsv(), QStringLiteral("scopes.csv")); }

uint32_t ScopeTreeView::currentNode() const {
    QModelIndex index = tree_->selectionModel() ? tree_->selectionModel()->currentIndex() : QModelIndex();
    return index.isValid() ? treeModel_->nodeOf(treeProxy_->mapToSource(index)) : 0;
}

void ScopeTreeView::activateNode(const QModelIndex& proxyIndex) {
    std::shared_ptr<const Trace> t = trace();
    if (!computed_ || !t || !selection_) return;
    uint32_t node = treeModel_->nodeOf(treeProxy_->mapToSource(proxyIndex));
    if (node == 0) return;
    std::vector<SliceRef> slices = occurrencesOf(*computed_->classified, *computed_->tree, node);
    if (slices.empty()) return;
    QString label = tr("%1: %2 slices at or under it")
                        .arg(QString::fromStdString(computed_->tree->nodes[node].path))
                        .arg(slices.size());
    selection_->highlightSlices(std::move(slices), label);
}

void ScopeTreeView::activateOpRow(int row) {
    std::shared_ptr<const Trace> t = trace();
    if (!computed_ || !t || !selection_ || row < 0 || row >= opModel_->rowCount()) return;
    std::vector<SliceRef> slices = occurrencesOfOpType(*computed_->classified, *computed_->tree, size_t(row));
    if (slices.empty()) return;
    QString label = tr("%1: %2 occurrences").arg(QString::fromStdString(opModel_->row(row).type)).arg(slices.size());
    selection_->highlightSlices(std::move(slices), label);
}

void ScopeTreeView::selectSlice(SliceRef slice) {
    if (!computed_) return;
    if (std::optional<uint32_t> node = computed_->sliceNodes.rowOf(slice)) {
        QModelIndex index = treeProxy_->mapFromSource(treeModel_->indexOfNode(*node));
        if (!index.isValid()) {  // filtered out
            filter_->clear();
            index = treeProxy_->mapFromSource(treeModel_->indexOfNode(*node));
        }
        if (index.isValid()) {
            for (QModelIndex p = index.parent(); p.isValid(); p = p.parent()) tree_->expand(p);
            tree_->selectionModel()->setCurrentIndex(index,
                                                     QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            tree_->scrollTo(index);
        }
    }
    if (std::optional<uint32_t> row = computed_->sliceTypes.rowOf(slice)) ops_->selectSourceRow(int(*row));
}

}  // namespace tracescope
