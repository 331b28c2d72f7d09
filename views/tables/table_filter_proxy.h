// Sort by raw values and filter rows by a case-insensitive substring of one or
// more name columns (e.g. kernel name and op name).
#pragma once

#include <QSortFilterProxyModel>

#include <vector>

namespace tracescope {

class TableFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit TableFilterProxy(QObject* parent = nullptr);

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
};

}  // namespace tracescope
