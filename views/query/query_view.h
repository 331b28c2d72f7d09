// Query page: SQL over the trace (model/sql/trace_database.h), as Perfetto's query page offers
// it. An editor with highlighting, the tables and their columns beside it (a double click
// inserts a name), Run (Ctrl+Enter) in the background with Cancel, the result as a sortable table
// with a filter and CSV export; the rows shown are capped (Export all writes every row); a row
// with a slice id selects that slice in the timeline. Add as track makes a result of ts and value
// a counter track of the timeline; Flame graph shows a result of stack and value as a flame graph
// beside the rows. The last queries (History) and named queries (Saved) are kept in the settings.
#pragma once

#include "model/analysis/call_tree.h"
#include "model/analysis/memory_tracks.h"
#include "model/sql/trace_database.h"
#include "views/analysis_view.h"

#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>

class QComboBox;
class QElapsedTimer;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QStandardItemModel;
class QTabWidget;
class QToolButton;
class QTreeView;

namespace tracescope {

class FlameGraphWidget;
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
    QStandardItemModel* schemaModel() const { return schemaModel_; }
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
    // Runs the shown result's query again and makes its rows a counter track (ts, value; see
    // model/sql/query_track.h): trackRequested carries it. False with `error` set when the last
    // result has no such columns or a query runs.
    bool addAsTrack(QString* error = nullptr);
    QPushButton* addTrackButton() const { return addTrack_; }
    // Runs the shown result's query again and shows its rows as a flame graph (stack, value; see
    // model/sql/query_flame.h) on the result's Flame graph tab. False with `error` set as above.
    bool showFlameGraph(QString* error = nullptr);
    QPushButton* flameButton() const { return flameButton_; }
    FlameGraphWidget* flameGraph() const { return flame_; }
    QComboBox* flameDirection() const { return flameDirection_; }
    QTabWidget* resultTabs() const { return resultTabs_; }
    // The timeline's query tracks (the Tracks menu: load a track's query, or remove the track).
    void setQueryTracks(const std::vector<DerivedCounterTrack>& tracks);
    QToolButton* tracksButton() const { return tracks_; }

signals:
    // A query finished (rows shown, or an error in the status line).
    void queryFinished();
    // "Add as track": the main window shows it in the timeline.
    void trackRequested(tracescope::DerivedCounterTrack track);
    // The Tracks menu's Remove: the main window takes the track off the timeline.
    void trackRemovalRequested(QString name);

protected:
    void startAnalysis(const std::shared_ptr<const Trace>& trace) override;
    void clearResult() override;

private:
    void fillSchema();
    void finished(const sql::QueryOutcome& outcome, QStringList columns, std::vector<QVariant> cells, double seconds,
                  const std::string& sql);
    // The SQL whose rows are shown: Export all and Add as track run it again, whatever the
    // editor holds now.
    std::string shownSql_;
    void remember(const QString& sql);
    void fillHistory();
    void fillSaved();
    void saveQuery();
    void activateRow(int row);

    std::shared_ptr<const Database> database_;
    std::shared_ptr<ResultDelivery> delivery_;
    QPlainTextEdit* editor_ = nullptr;
    SqlHighlighter* highlighter_ = nullptr;
    QTreeView* schema_ = nullptr;
    QStandardItemModel* schemaModel_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QPushButton* exportAll_ = nullptr;
    QPushButton* addTrack_ = nullptr;
    QPushButton* flameButton_ = nullptr;
    QTabWidget* resultTabs_ = nullptr;
    FlameGraphWidget* flame_ = nullptr;
    QLineEdit* flameSearch_ = nullptr;
    QComboBox* flameDirection_ = nullptr;  // top-down, bottom-up (callers of each leaf)
    std::shared_ptr<const CallTree> flameTopDown_, flameBottomUp_;
    void showFlameDirection();
    int tracksMade_ = 0;
    void setRunning(bool running);
    void forgetFlame();
    // Runs the shown result's query again on the job runner (on this thread when `wait`):
    // `columns` and `row` get its result (false from `row` stops it), then `finish` (on the same
    // thread) makes what the UI thread runs with it, unless a newer run or trace came since.
    // False with `error` set when it cannot start.
    using ColumnsSink = std::function<void(const std::vector<std::string>&)>;
    using RowSink = std::function<bool(const sql::SqlRow&)>;
    using Finish = std::function<std::function<void()>(const sql::QueryOutcome&)>;
    bool readyToRerun(QString* error) const;
    bool rerunShown(QString* error, ColumnsSink columns, RowSink row, Finish finish, bool wait = false);
    // "; 3 rows without `what` left out" (empty for none).
    static QString leftOutNote(uint64_t skipped, const QString& what);
    QComboBox* history_ = nullptr;
    QComboBox* saved_ = nullptr;
    QToolButton* tracks_ = nullptr;
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
