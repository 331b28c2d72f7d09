// Sort by raw values and filter rows by a case-insensitive substring of one or
// more name columns (e.g. kernel name and op name).
//
// A flat table's sort reads each row's key once: the sorted column's raw values are kept in a
// vector until the source changes, so sorting 100,000 rows costs 100,000 data() calls and
// plain comparisons, not two data() calls per comparison (on the UI thread).
#pragma once

#include <QSortFilterProxyModel>
#include <QVariant>

#include <vector>

namespace tracescope {

class TableFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit TableFilterProxy(QObject* parent = nullptr);

    void setSourceModel(QAbstractItemModel* model) override;

    // Columns the filter text is matched against (default: column 0).
    void setFilterColumns(std::vector<int> columns);
    const std::vector<int>& filterColumns() const { return filterColumns_; }

public slots:
    void setNameFilter(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    std::vector<int> filterColumns_{0};
    QString filter_;

    struct SortKey {
        enum class Kind : uint8_t { Empty, Integer, Real, Text };
        Kind kind = Kind::Empty;
        qint64 integer = 0;
        double real = 0;
        QVariant raw;  // its text, when a number meets a text
    };
    static SortKey keyOf(const QVariant& v);
    static bool keyLess(const SortKey& a, const SortKey& b);
    // The keys of column keysColumn_ by source row (top-level rows only); empty: not read yet.
    mutable std::vector<SortKey> keys_;
    mutable int keysColumn_ = -1;
    bool flat_ = false;  // the source is a table (AnalysisTableModel): keys by row apply
    void dropKeys() { keys_.clear(); keysColumn_ = -1; }
};

}  // namespace tracescope
