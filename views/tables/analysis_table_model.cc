#include "views/tables/analysis_table_model.h"

#include "views/name_style.h"
#include "views/tables/value_format.h"

namespace tracescope {

AnalysisTableModel::AnalysisTableModel(std::vector<ColumnSpec> columns, QObject* parent)
    : QAbstractTableModel(parent), columns_(std::move(columns)) {
    connect(this, &QAbstractItemModel::modelReset, this, [this] { shortNames_.clear(); });
    bool anyNames = false;
    for (const ColumnSpec& c : columns_) anyNames = anyNames || c.names;
    if (anyNames)
        connect(&NameStyleSetting::instance(), &NameStyleSetting::changed, this, [this] {
            if (rows() > 0) emit dataChanged(index(0, 0), index(rows() - 1, columnCount() - 1), {Qt::DisplayRole});
        });
}

const QString& AnalysisTableModel::shortNameAt(int row, int column) const {
    auto it = shortNames_.find(column);
    if (it == shortNames_.end() || int(it->second.size()) != rows()) {
        std::vector<std::string> full;
        full.reserve(size_t(rows()));
        for (int r = 0; r < rows(); ++r) full.push_back(value(r, column).toString().toStdString());
        const std::vector<std::string> shorts = shortNames(std::span<const std::string>(full));
        std::vector<QString> texts;
        texts.reserve(shorts.size());
        for (const std::string& s : shorts) texts.push_back(QString::fromStdString(s));
        it = shortNames_.insert_or_assign(column, std::move(texts)).first;
    }
    return it->second[size_t(row)];
}

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
    case Qt::DisplayRole:
        if (columns_[size_t(index.column())].names && NameStyleSetting::instance().shortNames())
            return shortNameAt(index.row(), index.column());
        return displayText(kind, value(index.row(), index.column()));
    case FullTextRole: return displayText(kind, value(index.row(), index.column()));
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
    case Qt::WhatsThisRole: {  // Help › What's This on a cell: what its column means
        const ColumnSpec& c = columns_[size_t(index.column())];
        return c.tooltip.isEmpty() ? QVariant() : QVariant(QStringLiteral("<b>%1</b>: %2").arg(c.header, c.tooltip));
    }
    default: return {};
    }
}

QVariant AnalysisTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= int(columns_.size())) return {};
    const ColumnSpec& c = columns_[size_t(section)];
    if (role == Qt::DisplayRole) return c.header;
    if (role == Qt::ToolTipRole && !c.tooltip.isEmpty()) return c.tooltip;
    if (role == Qt::WhatsThisRole && !c.tooltip.isEmpty()) return QStringLiteral("<b>%1</b>: %2").arg(c.header, c.tooltip);
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(c.kind == ColumnKind::Text ? (Qt::AlignLeft | Qt::AlignVCenter)
                                                              : (Qt::AlignRight | Qt::AlignVCenter));
    return {};
}

}  // namespace tracescope
