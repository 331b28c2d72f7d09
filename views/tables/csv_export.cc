#include "views/tables/csv_export.h"

#include "views/tables/analysis_table_model.h"

#include <QAbstractItemModel>
#include <QFileDialog>
#include <QHeaderView>
#include <QMessageBox>
#include <QSaveFile>
#include <QTableView>
#include <QTreeView>

#include <vector>

namespace tracescope {

QString csvField(const QString& text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')) &&
        !text.contains(QLatin1Char('\r')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

namespace {

std::vector<int> visibleColumns(const QAbstractItemModel& model, const QHeaderView* header) {
    std::vector<int> cols;
    int n = model.columnCount();
    for (int visual = 0; visual < n; ++visual) {
        int logical = header ? header->logicalIndex(visual) : visual;
        if (logical < 0 || (header && header->isSectionHidden(logical))) continue;
        cols.push_back(logical);
    }
    return cols;
}

void appendRows(const QAbstractItemModel& model, const QModelIndex& parent, const std::vector<int>& cols, int depth,
                QString& out) {
    int rows = model.rowCount(parent);
    for (int r = 0; r < rows; ++r) {
        QStringList fields;
        for (size_t k = 0; k < cols.size(); ++k) {
            // The full text where a cell shows a short form (name columns), else what is shown.
            const QModelIndex cell = model.index(r, cols[k], parent);
            const QVariant full = cell.data(AnalysisTableModel::FullTextRole);
            QString text = full.isValid() ? full.toString() : cell.data(Qt::DisplayRole).toString();
            if (k == 0 && depth > 0) text = QString(depth * 2, QLatin1Char(' ')) + text;
            fields << csvField(text);
        }
        out += fields.join(QLatin1Char(',')) + QStringLiteral("\r\n");
        QModelIndex first = model.index(r, 0, parent);
        if (model.hasChildren(first)) appendRows(model, first, cols, depth + 1, out);
    }
}

}  // namespace

QString modelToCsv(const QAbstractItemModel& model, const QHeaderView* header) {
    const std::vector<int> cols = visibleColumns(model, header);
    QString out;
    QStringList headers;
    for (int c : cols) headers << csvField(model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
    out += headers.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    appendRows(model, {}, cols, 0, out);
    return out;
}

QString tableViewToCsv(const QTableView& view) {
    return view.model() ? modelToCsv(*view.model(), view.horizontalHeader()) : QString();
}

QString treeViewToCsv(const QTreeView& view) {
    return view.model() ? modelToCsv(*view.model(), view.header()) : QString();
}

bool writeTextFile(const QString& path, const QString& text, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error) *error = file.errorString();
        return false;
    }
    file.write(text.toUtf8());
    if (!file.commit()) {
        if (error) *error = file.errorString();
        return false;
    }
    return true;
}

void exportCsvWithDialog(QWidget* parent, const QString& csv, const QString& suggestedName) {
    QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export CSV"), suggestedName,
                                                QObject::tr("CSV files (*.csv);;All files (*)"));
    if (path.isEmpty()) return;
    QString error;
    if (!writeTextFile(path, csv, &error))
        QMessageBox::warning(parent, QObject::tr("Export CSV"),
                             QObject::tr("Could not write %1: %2").arg(path, error));
}

}  // namespace tracescope
