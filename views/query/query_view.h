// Query page: SQL over the trace (model/sql/trace_database.h), as Perfetto's query page offers
// it. An editor with highlighting, the tables and their columns beside it (a double click
// inserts a name), Run (Ctrl+Enter) in the background with Cancel, the result as a sortable table
// with a filter and CSV export; the rows shown are capped (Export all writes every row); a row
// with a slice id selects that slice in the timeline. The last queries (History) and named
// queries (Saved) are kept in the settings.
#pragma once

#include "model/sql/trace_database.h"
#include "views/analysis_view.h"

#include <QStringList>

#include <atomic>
#include <memory>

class QComboBox;
class QElapsedTimer;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace tracescope {

class QueryResultModel;
class SqlHighlighter;
class TablePage;

class QueryView : public AnalysisView {
    Q_OBJECT
public:
    explicit QueryView(QWidget* parent = nullptr);
    ~QueryView() override;

    // The database of the shown trace (on the store, one per page).
    struct Database {
        std::shared_ptr<sql::TraceDatabase> db;
        std::vector<sql::SqlTableSchema> schema;  // read once, with the database
    };
    // At most this many rows are kept for the table.
    static constexpr size_t kMaxShownRows = 100000;

    QPlainTextEdit* editor() const { return editor_; }
    TablePage* table() const { return table_; }
    QueryResultModel* resultModel() const { return model_; }
    QTreeWidget* schemaTree() const { return schema_; }
    QString statusText() const;
    bool isRunning() const { return running_; }
    // Runs the editor's text (as Run does); cancel() stops it.
    void runQuery();
    void cancel();
    // Writes every row of the editor's query to `path` as CSV (in the background when `wait` is
    // false); false with `error` set when it could not start or (waiting) failed.
    bool exportAll(const QString& path, bool wait, QString* error);
    QStringList history() const;
    // The slice a result row names (a `slice_id` column, or `id` beside ts and dur), if any.
    SliceRef sliceOfRow(int row) const;

signals:
    // A query finished (rows shown, or an error in the status line).
    void queryFinished();

protected:
    void startAnalysis(const std::shared_ptr<const Trace>& trace) override;
    void clearResult() override;

private:
    void fillSchema();
    void finished(const sql::QueryOutcome& outcome, QStringList columns, std::vector<QVariant> cells, double seconds);
    void remember(const QString& sql);
    void fillHistory();
    void fillSaved();
    void saveQuery();
    void activateRow(int row);

    std::shared_ptr<const Database> database_;
    std::shared_ptr<ResultDelivery> delivery_;
    QPlainTextEdit* editor_ = nullptr;
    SqlHighlighter* highlighter_ = nullptr;
    QTreeWidget* schema_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QPushButton* exportAll_ = nullptr;
    QComboBox* history_ = nullptr;
    QComboBox* saved_ = nullptr;
    QLabel* status_ = nullptr;
    TablePage* table_ = nullptr;
    QueryResultModel* model_ = nullptr;
    bool running_ = false;
    unsigned run_generation_ = 0;
    std::shared_ptr<std::atomic<uint64_t>> rowsSoFar_;
    QTimer* progress_ = nullptr;
    std::unique_ptr<QElapsedTimer> clock_;
};

}  // namespace tracescope
