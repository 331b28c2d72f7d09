#include "views/tables/table_page.h"

#include "views/tables/column_fitter.h"
#include "views/tables/csv_export.h"
#include "views/tables/table_filter_proxy.h"
#include "views/tables/value_format.h"
#include "views/tables/wrapping_header_view.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSignalBlocker>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace tracescope {

TablePage::TablePage(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);

    toolbar_ = new QHBoxLayout;
    toolbar_->setSpacing(8);
    filter_ = new QLineEdit(this);
    filter_->setPlaceholderText(tr("Filter by name"));
    filter_->setClearButtonEnabled(true);
    filter_->setMinimumWidth(240);
    toolbar_->addWidget(filter_, 1);
    count_ = new QLabel(this);
    toolbar_->addWidget(count_);
    export_ = new QToolButton(this);
    export_->setText(tr("Export CSV..."));
    export_->setToolTip(tr("Save the rows shown (filtered and sorted as on screen) as CSV"));
    toolbar_->addWidget(export_);
    layout->addLayout(toolbar_);

    proxy_ = new TableFilterProxy(this);
    view_ = new QTableView(this);
    view_->setHorizontalHeader(new WrappingHeaderView(view_));
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setAlternatingRowColors(true);
    view_->setWordWrap(false);
    // Long names keep their start and end (a template's arguments, an op's suffix); the full name
    // is in the tooltip.
    view_->setTextElideMode(Qt::ElideMiddle);
    view_->verticalHeader()->setVisible(false);
    view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
    view_->horizontalHeader()->setHighlightSections(false);
    view_->horizontalHeader()->setStretchLastSection(false);
    view_->setContextMenuPolicy(Qt::CustomContextMenu);
    layout->addWidget(view_, 1);
    fitter_ = new ColumnFitter(view_, view_->horizontalHeader());

    connect(filter_, &QLineEdit::textChanged, proxy_, &TableFilterProxy::setNameFilter);
    connect(proxy_, &QAbstractItemModel::rowsInserted, this, &TablePage::updateCount);
    connect(proxy_, &QAbstractItemModel::rowsRemoved, this, &TablePage::updateCount);
    connect(proxy_, &QAbstractItemModel::modelReset, this, &TablePage::updateCount);
    connect(proxy_, &QAbstractItemModel::layoutChanged, this, &TablePage::updateCount);
    connect(export_, &QToolButton::clicked, this, &TablePage::exportCsv);
    connect(view_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        QModelIndex source = proxy_->mapToSource(index);
        if (source.isValid()) emit sourceRowActivated(source.row());
    });
    // The header's context menu hides and shows columns (CSV exports what is shown).
    view_->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view_->horizontalHeader(), &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu menu(this);
        fillColumnMenu(menu);
        menu.exec(view_->horizontalHeader()->mapToGlobal(pos));
    });
    connect(view_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu menu(this);
        QModelIndex index = view_->indexAt(pos);
        if (index.isValid()) {
            menu.addAction(tr("Show occurrences in timeline"), this, [this, index] {
                QModelIndex source = proxy_->mapToSource(index);
                if (source.isValid()) emit sourceRowActivated(source.row());
            });
            menu.addSeparator();
        }
        menu.addAction(tr("Export CSV..."), this, &TablePage::exportCsv);
        menu.exec(view_->viewport()->mapToGlobal(pos));
    });
    updateCount();
}

void TablePage::setPresortedSourceModel(QAbstractItemModel* model, int sortColumn, Qt::SortOrder order) {
    proxy_->setSourceModel(model);
    proxy_->sort(-1);  // the source's order
    {
        // The indicator alone: the view would sort on its change.
        const QSignalBlocker block(view_->horizontalHeader());
        view_->horizontalHeader()->setSortIndicator(sortColumn, order);
    }
    view_->horizontalHeader()->viewport()->update();
    updateCount();
}

void TablePage::setSourceModel(QAbstractItemModel* model, int sortColumn, Qt::SortOrder order) {
    proxy_->setSourceModel(model);
    if (sortColumn >= 0) view_->sortByColumn(sortColumn, order);
    updateCount();
}

void TablePage::setFilterColumns(std::vector<int> columns, const QString& placeholder) {
    proxy_->setFilterColumns(std::move(columns));
    filter_->setPlaceholderText(placeholder);
}

void TablePage::addToolbarWidget(QWidget* widget) {
    widget->setParent(this);
    toolbar_->insertWidget(toolbar_->indexOf(filter_), widget);
}

void TablePage::setElasticColumn(int column, int minWidth) {
    fitter_->setElasticColumn(column, minWidth);
    if (auto* header = qobject_cast<WrappingHeaderView*>(view_->horizontalHeader())) header->keepOneLine(column);
}

void TablePage::addShrinkableColumn(int column, int minWidth) { fitter_->addShrinkableColumn(column, minWidth); }

void TablePage::fitColumns(int maxTextWidth) { fitter_->fit(maxTextWidth); }

QString TablePage::csv() const { return tableViewToCsv(*view_); }

void TablePage::exportCsv() { exportCsvWithDialog(this, csv(), exportName_); }

bool TablePage::selectSourceRow(int sourceRow) {
    QAbstractItemModel* source = proxy_->sourceModel();
    if (!source || sourceRow < 0 || sourceRow >= source->rowCount()) return false;
    QModelIndex index = proxy_->mapFromSource(source->index(sourceRow, 0));
    if (!index.isValid()) {  // hidden by the filter: show everything again
        filter_->clear();
        index = proxy_->mapFromSource(source->index(sourceRow, 0));
        if (!index.isValid()) return false;
    }
    view_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    view_->scrollTo(index, QAbstractItemView::PositionAtCenter);
    return true;
}

int TablePage::currentSourceRow() const {
    QModelIndex index = view_->selectionModel() ? view_->selectionModel()->currentIndex() : QModelIndex();
    return index.isValid() ? proxy_->mapToSource(index).row() : -1;
}

void TablePage::updateCount() {
    const QAbstractItemModel* source = proxy_->sourceModel();
    int total = source ? source->rowCount() : 0;
    int shown = proxy_->rowCount();
    count_->setText(shown == total ? tr("%1 rows").arg(formatCount(total))
                                   : tr("%1 of %2 rows").arg(formatCount(shown), formatCount(total)));
}

void TablePage::fillColumnMenu(QMenu& menu) { fillColumnVisibilityMenu(menu, *view_->horizontalHeader()); }

void TablePage::setColumnShown(int column, bool shown) { view_->horizontalHeader()->setSectionHidden(column, !shown); }

}  // namespace tracescope
