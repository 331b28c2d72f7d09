// A reusable table page: a toolbar (name filter, page-specific controls, Export CSV),
// a sortable table, and a row count. Double-clicking a row reports its source row.
#pragma once

#include <QWidget>

class QAbstractItemModel;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QMenu;
class QTableView;
class QToolButton;

namespace tracescope {

// The most rows an analysis table shows (those with the most time). Sorting and
// filtering run on the UI thread through a proxy: 20k rows sort in a few frames,
// millions would take seconds. The CLI lists every row.
inline constexpr size_t kMaxTableRows = 20'000;

class ColumnFitter;
class TableFilterProxy;

class TablePage : public QWidget {
    Q_OBJECT
public:
    explicit TablePage(QWidget* parent = nullptr);

    // The model shown (not owned); sorted by `sortColumn` descending at first.
    void setSourceModel(QAbstractItemModel* model, int sortColumn = -1, Qt::SortOrder order = Qt::DescendingOrder);
    // A model whose rows come already sorted by `sortColumn` in `order` (large tables, sorted off
    // the UI thread): the header shows that order and the rows are not sorted again until the
    // user sorts by a header.
    void setPresortedSourceModel(QAbstractItemModel* model, int sortColumn, Qt::SortOrder order);
    // Columns the filter box searches, and its placeholder text.
    void setFilterColumns(std::vector<int> columns, const QString& placeholder);
    void setExportName(const QString& fileName) { exportName_ = fileName; }
    // Page-specific controls go into the toolbar, before the filter box.
    void addToolbarWidget(QWidget* widget);

    QTableView* view() const { return view_; }
    // Hide or show a column (the header's context menu lists them all).
    void setColumnShown(int column, bool shown);
    void fillColumnMenu(QMenu& menu);
    TableFilterProxy* proxy() const { return proxy_; }
    QLineEdit* filterBox() const { return filter_; }
    QToolButton* exportButton() const { return export_; }

    // The name column that yields width so the metric columns stay in view.
    void setElasticColumn(int column, int minWidth = 180);
    // Another text column that yields width with it when the columns would not fit.
    void addShrinkableColumn(int column, int minWidth = 100);
    // Sizes columns to their content (text capped; the elastic column fits the rest).
    void fitColumns(int maxTextWidth = 460);
    // The CSV of what the table shows now.
    QString csv() const;
    // Selects and scrolls to a source row; clears the filter when it hides the row. False if out of range.
    bool selectSourceRow(int sourceRow);
    // Source row of the current selection, or -1.
    int currentSourceRow() const;

public slots:
    void exportCsv();

signals:
    void sourceRowActivated(int sourceRow);

private:
    QHBoxLayout* toolbar_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QToolButton* export_ = nullptr;
    QLabel* count_ = nullptr;
    QTableView* view_ = nullptr;
    TableFilterProxy* proxy_ = nullptr;
    ColumnFitter* fitter_ = nullptr;
    QString exportName_ = QStringLiteral("table.csv");

    void updateCount();
};

}  // namespace tracescope
