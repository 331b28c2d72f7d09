#include "views/tables/analysis_table_model.h"

#include "views/tables/value_format.h"

namespace tracescope {

AnalysisTableModel::AnalysisTableModel(std::vector<ColumnSpec> columns, QObject* parent)
    : QAbstractTableModel(parent), columns_(std::move(columns)) {}

int AnalysisTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : rows();
}

int AnalysisTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(columns_.size());
}

QString AnalysisTableModel::displayText(ColumnKind kind, const QVariant& raw) {
    if (!raw.isValid()) return {};
    switch (kind) {
    case ColumnKind::Text: return raw.toString();
    case ColumnKind::Integer: return formatCount(raw.toLongLong());
    case ColumnKind::Duration: return formatDuration(raw.toLongLong());
    case ColumnKind::Percent: return formatPercent(raw.toDouble());
    case ColumnKind::Bytes: return formatBytes(raw.toLongLong());
    case ColumnKind::Real: return QString::number(raw.toDouble(), 'f', 2);
    }
    return raw.toString();
}

QVariant AnalysisTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rows() || index.column() >= int(columns_.size())) return {};
    const ColumnKind kind = columns_[size_t(index.column())].kind;
    switch (role) {
    case Qt::DisplayRole: return displayText(kind, value(index.row(), index.column()));
    case SortRole: return value(index.row(), index.column());
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(kind == ColumnKind::Text ? (Qt::AlignLeft | Qt::AlignVCenter)
                                                            : (Qt::AlignRight | Qt::AlignVCenter));
    case Qt::ToolTipRole: {
        QString tip = cellToolTip(index.row(), index.column());
        if (!tip.isEmpty()) return tip;
        QVariant raw = value(index.row(), index.column());
        if (kind == ColumnKind::Text) return raw.toString();  // long names are elided in the cell
        if (kind == ColumnKind::Duration) return formatCount(raw.toLongLong()) + QStringLiteral(" ns");
        if (kind == ColumnKind::Bytes) return formatCount(raw.toLongLong()) + QStringLiteral(" bytes");
        return {};
    }
    default: return {};
    }
}

QVariant AnalysisTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= int(columns_.size())) return {};
    const ColumnSpec& c = columns_[size_t(section)];
    if (role == Qt::DisplayRole) return c.header;
    if (role == Qt::ToolTipRole && !c.tooltip.isEmpty()) return c.tooltip;
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(c.kind == ColumnKind::Text ? (Qt::AlignLeft | Qt::AlignVCenter)
                                                              : (Qt::AlignRight | Qt::AlignVCenter));
    return {};
}

}  // namespace tracescope
