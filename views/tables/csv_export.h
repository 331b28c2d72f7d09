// CSV of exactly what a table view shows: its visible columns in their on-screen
// order, the rows that pass the filter in their sorted order, the display text.
#pragma once

#include <QString>

class QTableView;
class QTreeView;
class QAbstractItemModel;
class QHeaderView;
class QWidget;

namespace tracescope {

// RFC 4180 quoting: fields with comma, quote or newline are quoted, quotes doubled.
QString csvField(const QString& text);
// The CSV text of a model as shown through a header (visible sections in visual order).
// For trees, child rows follow their parent, with the first column indented by depth.
QString modelToCsv(const QAbstractItemModel& model, const QHeaderView* header);
QString tableViewToCsv(const QTableView& view);
QString treeViewToCsv(const QTreeView& view);
// Asks for a file name and writes the CSV; shows an error box on failure.
void exportCsvWithDialog(QWidget* parent, const QString& csv, const QString& suggestedName);
// Writes text to a file as UTF-8; false (and error set) on failure.
bool writeTextFile(const QString& path, const QString& text, QString* error);

}  // namespace tracescope
