#include "views/query/query_view.h"

#include "model/results/sql_result_tables.h"
#include "model/sql/query_flame.h"
#include "model/sql/query_track.h"
#include "views/flame/flame_graph_widget.h"
#include "views/query/query_result_model.h"
#include "views/query/sql_highlighter.h"
#include "views/tables/csv_export.h"
#include "views/tables/table_filter_proxy.h"
#include "views/tables/table_page.h"
#include "views/timeline/time_format.h"
#include "views/trace_selection.h"
#include "views/wrapping_label.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QTabWidget>
#include <QTextCursor>
#include <QTextStream>
#include <QTimer>
#include <QToolButton>
#include <QTableView>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>

#include <numeric>

namespace tracescope {

namespace {

const char* kHistoryKey = "query/history";
const char* kSavedKey = "query/saved";
constexpr int kHistorySize = 50;

const char* kFirstQuery =
    "-- SQL over the trace (SQLite). Ctrl+Enter runs it; the tables are listed on the right.\n"
    "SELECT name, count(*) AS occurrences, sum(dur) AS total_ns, max(dur) AS longest_ns\n"
    "FROM slice\n"
    "GROUP BY name\n"
    "ORDER BY total_ns DESC\n"
    "LIMIT 100";

QVariant cellOf(const sql::SqlRow& row, int i) {
    switch (row.type(i)) {
    case SQLITE_INTEGER: return QVariant(qlonglong(row.integer(i)));
    case SQLITE_FLOAT: return QVariant(row.real(i));
    case SQLITE_NULL: return QVariant();
    default: {
        const std::string_view t = row.text(i);
        return QVariant(QString::fromUtf8(t.data(), qsizetype(t.size())));
    }
    }
}

QString csvCell(const sql::SqlRow& row, int i) {
    if (row.type(i) == SQLITE_NULL) return {};
    const QVariant v = cellOf(row, i);
    return v.typeId() == QMetaType::Double ? QString::number(v.toDouble(), 'g', 17) : v.toString();
}

}  // namespace

QueryView::QueryView(QWidget* parent)
    : AnalysisView(parent), delivery_(ResultDelivery::to(this)), clock_(std::make_unique<QElapsedTimer>()) {
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(8, 8, 8, 8);

    auto* bar = new QHBoxLayout;
    run_ = new QPushButton(tr("Run"));
    run_->setToolTip(tr("Run the query (Ctrl+Enter)"));
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setEnabled(false);
    history_ = new QComboBox;
    history_->setToolTip(tr("The last %1 queries run").arg(kHistorySize));
    history_->setMinimumContentsLength(18);
    history_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    saved_ = new QComboBox;
    saved_->setToolTip(tr("Queries saved by name"));
    saved_->setMinimumContentsLength(14);
    saved_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    auto* save = new QPushButton(tr("Save…"));
    save->setToolTip(tr("Save the query under a name"));
    exportAll_ = new QPushButton(tr("Export all…"));
    exportAll_->setToolTip(tr("Run the query again and write every row to a CSV file (the table keeps the first "
                              "%L1)")
                               .arg(qulonglong(kMaxShownRows)));
    bar->addWidget(run_);
    bar->addWidget(cancel_);
    bar->addSpacing(12);
    bar->addWidget(history_);
    bar->addWidget(saved_);
    bar->addWidget(save);
    bar->addWidget(exportAll_);
    addTrack_ = new QPushButton(tr("Add as track"));
    addTrack_->setEnabled(false);
    addTrack_->setToolTip(tr("Show the result as a track of the timeline: with ts and dur columns (ns) a box per row "
                             "labelled by its name column, else with ts and value a counter; under the process of its "
                             "upid or track_id column; saved with the timeline's layout"));
    bar->addWidget(addTrack_);
    flameButton_ = new QPushButton(tr("Flame graph"));
    flameButton_->setEnabled(false);
    flameButton_->setToolTip(tr("Show the result as a flame graph: its stack column (frames joined with ';', "
                                "as flamegraph.pl folds them) and its value column (ns)"));
    bar->addWidget(flameButton_);
    tracks_ = new QToolButton;
    tracks_->setPopupMode(QToolButton::InstantPopup);
    tracks_->setToolTip(tr("The timeline's query tracks: load a track's query into the editor, or remove the track"));
    bar->addWidget(tracks_);
    setQueryTracks({});
    bar->addStretch(1);
    layout->addLayout(bar);

    editor_ = new QPlainTextEdit;
    editor_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    editor_->setPlainText(QString::fromLatin1(kFirstQuery));
    editor_->setTabChangesFocus(false);
    editor_->setLineWrapMode(QPlainTextEdit::NoWrap);
    highlighter_ = new SqlHighlighter(editor_->document());

    // A QStandardItemModel, not a QTreeWidget: its columns' children are kept apart, as
    // QAbstractItemModelTester asks (a QTreeWidget gives column 1 the children of column 0).
    schemaModel_ = new QStandardItemModel(this);
    schemaModel_->setHorizontalHeaderLabels({tr("Table / column"), tr("Type")});
    schema_ = new QTreeView;
    schema_->setModel(schemaModel_);
    schema_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    schema_->setToolTip(tr("Double-click a name to insert it"));
    schema_->header()->setStretchLastSection(false);
    schema_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    schema_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    connect(schema_, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        editor_->insertPlainText(index.siblingAtColumn(0).data().toString());
        editor_->setFocus();
    });

    auto* top = new QSplitter(Qt::Horizontal);
    top->addWidget(editor_);
    top->addWidget(schema_);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 1);
    top->setSizes({860, 300});

    status_ = new WrappingLabel;
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    model_ = new QueryResultModel(this);
    table_ = new TablePage;
    table_->setSourceModel(model_);
    table_->setExportName(QStringLiteral("query.csv"));
    connect(table_, &TablePage::sourceRowActivated, this, &QueryView::activateRow);

    auto* split = new QSplitter(Qt::Vertical);
    auto* upper = new QWidget;
    auto* upperLayout = new QVBoxLayout(upper);
    upperLayout->setContentsMargins(0, 0, 0, 0);
    upperLayout->addWidget(top, 1);
    upperLayout->addWidget(status_);
    split->addWidget(upper);
    // The rows, and the flame graph of the last "Flame graph" (a tab, beside them).
    flame_ = new FlameGraphWidget;
    flame_->setSlicesShown(false);
    flameSearch_ = new QLineEdit;
    flameSearch_->setPlaceholderText(tr("Search frames"));
    flameSearch_->setClearButtonEnabled(true);
    flameDirection_ = new QComboBox;
    flameDirection_->addItems({tr("Top-down"), tr("Bottom-up")});
    flameDirection_->setToolTip(tr("Top-down: callers above their callees; bottom-up: each leaf frame at the top with "
                                   "its callers below it"));
    auto* flamePage = new QWidget;
    auto* flameLayout = new QVBoxLayout(flamePage);
    flameLayout->setContentsMargins(0, 4, 0, 0);
    auto* flameBar = new QHBoxLayout;
    flameBar->addWidget(flameDirection_);
    flameBar->addWidget(flameSearch_, 1);
    flameLayout->addLayout(flameBar);
    auto* flameScroll = new QScrollArea;
    flameScroll->setWidgetResizable(true);
    flameScroll->setWidget(flame_);
    flameLayout->addWidget(flameScroll, 1);
    connect(flameSearch_, &QLineEdit::textChanged, flame_, &FlameGraphWidget::setSearch);
    connect(flameDirection_, &QComboBox::currentIndexChanged, this, &QueryView::showFlameDirection);
    resultTabs_ = new QTabWidget;
    resultTabs_->addTab(table_, tr("Rows"));
    resultTabs_->addTab(flamePage, tr("Flame graph"));
    resultTabs_->setTabEnabled(1, false);
    split->addWidget(resultTabs_);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    layout->addWidget(split, 1);
    setContent(content);

    connect(run_, &QPushButton::clicked, this, &QueryView::runQuery);
    connect(cancel_, &QPushButton::clicked, this, &QueryView::cancel);
    auto* shortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), editor_);
    shortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(shortcut, &QShortcut::activated, this, &QueryView::runQuery);
    auto* enter = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Enter), editor_);
    enter->setContext(Qt::WidgetWithChildrenShortcut);
    connect(enter, &QShortcut::activated, this, &QueryView::runQuery);
    connect(history_, qOverload<int>(&QComboBox::activated), this, [this](int i) {
        if (i > 0) editor_->setPlainText(history_->itemData(i).toString());
        history_->setCurrentIndex(0);
    });
    connect(saved_, qOverload<int>(&QComboBox::activated), this, [this](int i) {
        if (i > 0) editor_->setPlainText(saved_->itemData(i).toString());
        saved_->setCurrentIndex(0);
    });
    connect(save, &QPushButton::clicked, this, &QueryView::saveQuery);
    connect(addTrack_, &QPushButton::clicked, this, [this] {
        QString error;
        if (!addAsTrack(&error)) status_->setText(error);
    });
    connect(flameButton_, &QPushButton::clicked, this, [this] {
        QString error;
        if (!showFlameGraph(&error)) status_->setText(error);
    });
    connect(exportAll_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export all rows"), QStringLiteral("query.csv"),
                                                          tr("CSV files (*.csv)"));
        QString error;
        if (!path.isEmpty() && !exportAll(path, false, &error)) status_->setText(error);
    });

    progress_ = new QTimer(this);
    progress_->setInterval(150);
    connect(progress_, &QTimer::timeout, this, [this] {
        if (rowsSoFar_)
            status_->setText(tr("Running… %L1 rows, %2 s")
                                 .arg(qulonglong(rowsSoFar_->load()))
                                 .arg(double(clock_->elapsed()) / 1000.0, 0, 'f', 1));
    });
    fillHistory();
    fillSaved();
}

QueryView::~QueryView() {
    delivery_->detach();
    if (database_ && running_) database_->db->interrupt();
}

void QueryView::startAnalysis(const std::shared_ptr<const Trace>& trace) {
    // The database is cheap (ids per track); one per page, so that its temporary tables are the
    // user's own. The analyses' tables come from the store.
    const std::string key = std::to_string(reinterpret_cast<uintptr_t>(this));
    run<Database>(
        {"Query", 0}, {"query-page-database", key},
        [trace](ResultStore& store) {
            Database d;
            d.db = std::make_shared<sql::TraceDatabase>(trace);
            addAnalysisTables(*d.db, store);
            d.schema = d.db->schema();
            return d;
        },
        [this](std::shared_ptr<const Database> d) {
            database_ = std::move(d);
            fillSchema();
            status_->setText(tr("Ready: %L1 slices, %L2 tracks. Ctrl+Enter runs the query.")
                                 .arg(qulonglong(database_->db->ids().slices()))
                                 .arg(qulonglong(database_->db->trace().tracks.size())));
        });
}

void QueryView::clearResult() {
    if (database_ && running_) database_->db->interrupt();
    database_.reset();
    ++run_generation_;
    model_->clear();
    shownSql_.clear();
    forgetFlame();
    setRunning(false);
    schemaModel_->removeRows(0, schemaModel_->rowCount());
    status_->clear();
}

void QueryView::fillSchema() {
    schemaModel_->removeRows(0, schemaModel_->rowCount());
    auto row = [](const std::string& name, const std::string& type, const std::string& meaning) {
        auto* first = new QStandardItem(QString::fromStdString(name));
        first->setToolTip(QString::fromStdString(meaning));
        return QList<QStandardItem*>{first, new QStandardItem(QString::fromStdString(type))};
    };
    for (const sql::SqlTableSchema& t : database_->schema) {
        QList<QStandardItem*> table = row(t.name, t.kind, t.meaning);
        for (const sql::SqlColumn& c : t.columns) table[0]->appendRow(row(c.name, c.type, c.meaning));
        schemaModel_->appendRow(table);
    }
}

QString QueryView::statusText() const { return status_->text(); }

void QueryView::runQuery() {
    if (!database_ || running_) return;
    const QString text = editor_->toPlainText();
    remember(text);
    setRunning(true);
    const unsigned generation = ++run_generation_;
    rowsSoFar_ = std::make_shared<std::atomic<uint64_t>>(0);
    clock_->start();
    progress_->start();
    status_->setText(tr("Running…"));
    std::shared_ptr<const Database> database = database_;
    std::shared_ptr<ResultDelivery> delivery = delivery_;
    std::shared_ptr<std::atomic<uint64_t>> rows = rowsSoFar_;
    const std::string sqlText = text.toStdString();
    results()->runner().submit(JobPriority::Interactive, 0, [this, database, delivery, rows, sqlText, generation] {
        QStringList columns;
        std::vector<QVariant> cells;
        QElapsedTimer timer;
        timer.start();
        const sql::QueryOutcome outcome = database->db->run(
            sqlText,
            [&](const std::vector<std::string>& names) {
                for (const std::string& n : names) columns << QString::fromStdString(n);
            },
            [&](const sql::SqlRow& row) {
                if (rows->fetch_add(1) < kMaxShownRows)
                    for (int i = 0; i < row.size(); ++i) cells.push_back(cellOf(row, i));
                return true;
            });
        const double seconds = double(timer.nsecsElapsed()) / 1e9;
        delivery->post([this, generation, outcome, columns, cells = std::move(cells), seconds, sqlText]() mutable {
            if (generation != run_generation_) return;
            finished(outcome, columns, std::move(cells), seconds, sqlText);
        });
    });
}

void QueryView::cancel() {
    if (database_ && running_) database_->db->interrupt();
}

void QueryView::setRunning(bool running) {
    running_ = running;
    run_->setEnabled(!running);
    cancel_->setEnabled(running);
    exportAll_->setEnabled(!running && !shownSql_.empty());
    // A track needs ts and dur or value among the shown result's columns, a flame graph stack and value.
    const QStringList& columns = model_->columns();
    const bool value = columns.contains(QStringLiteral("value"));
    addTrack_->setEnabled(!running && columns.contains(QStringLiteral("ts")) &&
                          (value || columns.contains(QStringLiteral("dur"))));
    flameButton_->setEnabled(!running && value && columns.contains(QStringLiteral("stack")));
    if (!running) progress_->stop();
}

void QueryView::finished(const sql::QueryOutcome& outcome, QStringList columns, std::vector<QVariant> cells,
                         double seconds, const std::string& sql) {
    if (!outcome.ok) {
        status_->setText(tr("Error: %1").arg(QString::fromStdString(outcome.error)));
        // The cursor goes where SQLite stopped, the word there selected, as long as the editor
        // still holds the text that ran.
        if (outcome.errorByte >= 0 && size_t(outcome.errorByte) <= sql.size() &&
            editor_->toPlainText().toStdString() == sql) {
            QTextCursor cursor(editor_->document());
            cursor.setPosition(int(QString::fromUtf8(sql.data(), qsizetype(outcome.errorByte)).size()));
            cursor.movePosition(QTextCursor::EndOfWord, QTextCursor::KeepAnchor);
            editor_->setTextCursor(cursor);
            editor_->ensureCursorVisible();
        }
        if (!outcome.interrupted) {
            model_->clear();
            shownSql_.clear();
        }
        setRunning(false);
        emit queryFinished();
        return;
    }
    model_->setResult(columns, std::move(cells));
    shownSql_ = sql;
    forgetFlame();  // it was of another result
    setRunning(false);
    // Rows in the query's own order until a header is clicked; the filter searches every column.
    table_->view()->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    table_->proxy()->sort(-1);
    std::vector<int> all(size_t(columns.size()));
    std::iota(all.begin(), all.end(), 0);
    table_->setFilterColumns(all, tr("Filter rows"));
    table_->fitColumns(700);
    QString text = tr("%L1 row%2 in %3")
                       .arg(qulonglong(outcome.rows))
                       .arg(outcome.rows == 1 ? QString() : QStringLiteral("s"))
                       .arg(formatDuration(TimeNs(seconds * 1e9), 3));
    if (outcome.rows > kMaxShownRows)
        text += tr(" — the first %L1 shown; Export all writes every row").arg(qulonglong(kMaxShownRows));
    if (const size_t warnings = trace()->warnings.size())
        text += warnings == 1 ? tr(" — the trace had an import warning; the answer covers what was read")
                              : tr(" — the trace had %L1 import warnings; the answer covers what was read")
                                    .arg(qulonglong(warnings));
    status_->setText(text);
    emit queryFinished();
}

bool QueryView::exportAll(const QString& path, bool wait, QString* error) {
    if (!readyToRerun(error)) return false;
    auto file = std::make_shared<QFile>(path);
    if (!file->open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) {
        if (error) *error = tr("Cannot write %1: %2").arg(path, file->errorString());
        return false;
    }
    auto out = std::make_shared<QTextStream>(file.get());
    auto outcome = std::make_shared<sql::QueryOutcome>();
    rerunShown(
        error,
        [out](const std::vector<std::string>& names) {
            QStringList header;
            for (const std::string& n : names) header << csvField(QString::fromStdString(n));
            *out << header.join(QLatin1Char(',')) << '\n';
        },
        [out](const sql::SqlRow& row) {
            for (int i = 0; i < row.size(); ++i) *out << (i ? "," : "") << csvField(csvCell(row, i));
            *out << '\n';
            return out->status() == QTextStream::Ok;
        },
        [this, file, out, outcome, path](const sql::QueryOutcome& o) -> std::function<void()> {
            out->flush();
            file->close();
            *outcome = o;
            return [this, o, path] {
                status_->setText(o.ok ? tr("Wrote %L1 rows to %2").arg(qulonglong(o.rows)).arg(path)
                                      : tr("Error: %1").arg(QString::fromStdString(o.error)));
            };
        },
        wait);
    if (!wait) return true;
    if (!outcome->ok && error) *error = QString::fromStdString(outcome->error);
    return outcome->ok;
}

bool QueryView::readyToRerun(QString* error) const {
    if (!database_ || running_) {
        if (error) *error = tr("A query is running: wait for it or cancel it first.");
        return false;
    }
    if (shownSql_.empty()) {
        if (error) *error = tr("Run a query first: its result is what this works on.");
        return false;
    }
    return true;
}

bool QueryView::rerunShown(QString* error, ColumnsSink columns, RowSink row, Finish finish, bool wait) {
    if (!readyToRerun(error)) return false;
    setRunning(true);
    const unsigned generation = ++run_generation_;
    rowsSoFar_ = std::make_shared<std::atomic<uint64_t>>(0);
    clock_->start();
    progress_->start();
    std::shared_ptr<const Database> database = database_;
    std::shared_ptr<std::atomic<uint64_t>> rows = rowsSoFar_;
    auto work = [database, rows, sqlText = shownSql_, columns, row, finish] {
        const sql::QueryOutcome outcome = database->db->run(sqlText, columns, [&](const sql::SqlRow& r) {
            rows->fetch_add(1);
            return row(r);
        });
        return finish(outcome);
    };
    auto show = [this, generation](const std::function<void()>& shown) {
        if (generation != run_generation_) return;
        setRunning(false);
        shown();
        emit queryFinished();
    };
    if (wait) {
        show(work());
        return true;
    }
    results()->runner().submit(JobPriority::Interactive, 0, [work, show, delivery = delivery_] {
        std::function<void()> shown = work();
        delivery->post([show, shown] { show(shown); });
    });
    return true;
}

void QueryView::forgetFlame() {
    flameTopDown_.reset();
    flameBottomUp_.reset();
    flame_->setTree(nullptr);
    resultTabs_->setCurrentIndex(0);
    resultTabs_->setTabEnabled(1, false);
}

QString QueryView::leftOutNote(uint64_t skipped, const QString& what) {
    if (!skipped) return {};
    return skipped == 1 ? tr("; 1 row without %1 left out").arg(what)
                        : tr("; %L1 rows without %2 left out").arg(qulonglong(skipped)).arg(what);
}

bool QueryView::addAsTrack(QString* error) {
    if (!running_ && !addTrack_->isEnabled()) {
        if (error) *error = tr("A track needs the columns ts (ns) and dur (ns) or value.");
        return false;
    }
    // A counter is named by its rows' own name column when it has one (boxes are labelled by
    // it), else numbered.
    const int nameColumn = int(model_->columns().indexOf(QStringLiteral("name")));
    const bool boxes = model_->columns().contains(QStringLiteral("dur"));
    const bool named =
        !boxes && nameColumn >= 0 && model_->rowCount() > 0 && !model_->cell(0, nameColumn).isNull();
    const std::string name =
        (named ? model_->cell(0, nameColumn).toString() : tr("query %1").arg(tracksMade_ + 1)).toStdString();
    auto builder = std::make_shared<std::unique_ptr<sql::QueryTrackBuilder>>();
    std::shared_ptr<const Trace> trace = this->trace();
    const bool started = rerunShown(
        error,
        [builder, trace](const std::vector<std::string>& names) {
            *builder = std::make_unique<sql::QueryTrackBuilder>(*trace, names);
        },
        [builder](const sql::SqlRow& row) {
            (*builder)->add(row);
            return true;
        },
        [this, builder, name, named, sqlText = shownSql_](const sql::QueryOutcome& outcome) -> std::function<void()> {
            if (!outcome.ok || !*builder || !(*builder)->usable()) {
                const QString why = QString::fromStdString(
                    !outcome.ok ? outcome.error : *builder ? (*builder)->whyNot() : "the query has no result");
                return [this, why] { status_->setText(tr("Error: %1").arg(why)); };
            }
            uint64_t skipped = 0;
            auto track = std::make_shared<DerivedCounterTrack>((*builder)->finish(name, sqlText, &skipped));
            return [this, track, skipped, named] {
                if (!named) ++tracksMade_;
                const bool boxes = track->isSpans();
                status_->setText(
                    (boxes ? tr("Added the track \"%1\" (%L2 boxes in %L3 lanes) to the timeline")
                                 .arg(QString::fromStdString(track->name))
                                 .arg(qulonglong(track->spans.count))
                                 .arg(qulonglong(track->spans.lanes.size()))
                           : tr("Added the track \"%1\" (%L2 samples) to the timeline")
                                 .arg(QString::fromStdString(track->name))
                                 .arg(qulonglong(track->series.size()))) +
                    leftOutNote(skipped, boxes ? tr("an integer ts and dur >= 0") : tr("a numeric ts and value")));
                emit trackRequested(*track);
            };
        });
    return started;
}

bool QueryView::showFlameGraph(QString* error) {
    if (!running_ && !flameButton_->isEnabled()) {
        if (error) *error = tr("A flame graph needs the columns stack (frames joined with ';') and value.");
        return false;
    }
    auto builder = std::make_shared<std::unique_ptr<sql::QueryFlameBuilder>>();
    return rerunShown(
        error,
        [builder](const std::vector<std::string>& names) {
            *builder = std::make_unique<sql::QueryFlameBuilder>(names);
        },
        [builder](const sql::SqlRow& row) {
            (*builder)->add(row);
            return true;
        },
        [this, builder](const sql::QueryOutcome& outcome) -> std::function<void()> {
            if (!outcome.ok || !*builder || !(*builder)->usable()) {
                const QString why = QString::fromStdString(
                    !outcome.ok ? outcome.error : *builder ? (*builder)->whyNot() : "the query has no result");
                return [this, why] { status_->setText(tr("Error: %1").arg(why)); };
            }
            auto tree = std::make_shared<const CallTree>((*builder)->finish());
            auto bottomUp = std::make_shared<const CallTree>(invertCallTree(*tree));
            const uint64_t skipped = (*builder)->skipped();
            return [this, tree, bottomUp, skipped] {
                flameTopDown_ = tree;
                flameBottomUp_ = bottomUp;
                showFlameDirection();
                resultTabs_->setTabEnabled(1, true);
                resultTabs_->setCurrentIndex(1);
                status_->setText(tr("Flame graph of %L1 stacks, %L2 frames").arg(qulonglong(tree->slices))
                                     .arg(qulonglong(tree->nodes.size() - 1)) +
                                 leftOutNote(skipped, tr("a stack and a number >= 0")));
            };
        });
}

void QueryView::remember(const QString& sql) {
    QSettings settings;
    QStringList history = settings.value(QLatin1String(kHistoryKey)).toStringList();
    history.removeAll(sql);
    history.prepend(sql);
    while (history.size() > kHistorySize) history.removeLast();
    settings.setValue(QLatin1String(kHistoryKey), history);
    fillHistory();
}

QStringList QueryView::history() const { return QSettings().value(QLatin1String(kHistoryKey)).toStringList(); }

void QueryView::fillHistory() {
    history_->clear();
    history_->addItem(tr("History"));
    for (const QString& q : history()) {
        QString label = q.simplified();
        if (label.size() > 60) label = label.left(57) + QStringLiteral("…");
        history_->addItem(label, q);
        history_->setItemData(history_->count() - 1, q, Qt::ToolTipRole);
    }
}

void QueryView::fillSaved() {
    saved_->clear();
    saved_->addItem(tr("Saved"));
    const QVariantMap saved = QSettings().value(QLatin1String(kSavedKey)).toMap();
    for (auto it = saved.begin(); it != saved.end(); ++it) {
        saved_->addItem(it.key(), it.value());
        saved_->setItemData(saved_->count() - 1, it.value(), Qt::ToolTipRole);
    }
}

void QueryView::saveQuery() {
    bool ok = false;
    const QString name =
        QInputDialog::getText(this, tr("Save query"), tr("Name:"), QLineEdit::Normal, QString(), &ok).trimmed();
    if (!ok || name.isEmpty()) return;
    QSettings settings;
    QVariantMap saved = settings.value(QLatin1String(kSavedKey)).toMap();
    saved[name] = editor_->toPlainText();
    settings.setValue(QLatin1String(kSavedKey), saved);
    fillSaved();
}

void QueryView::setQueryTracks(const std::vector<DerivedCounterTrack>& tracks) {
    auto* menu = new QMenu(tracks_);
    for (const DerivedCounterTrack& t : tracks) {
        const QString name = QString::fromStdString(t.name), sql = QString::fromStdString(t.query);
        QMenu* item = menu->addMenu(t.error.empty() ? name : tr("%1 (failed)").arg(name));
        item->setToolTipsVisible(true);
        QAction* load = item->addAction(tr("Load its query"), this, [this, sql] { editor_->setPlainText(sql); });
        load->setToolTip(sql);
        item->addAction(tr("Remove from the timeline"), this, [this, name] { emit trackRemovalRequested(name); });
    }
    delete tracks_->menu();
    tracks_->setMenu(menu);
    tracks_->setText(tr("Tracks (%1)").arg(tracks.size()));
    tracks_->setEnabled(!tracks.empty());
}

void QueryView::showFlameDirection() {
    flame_->setTree(flameDirection_->currentIndex() == 1 ? flameBottomUp_ : flameTopDown_);
    flame_->setSearch(flameSearch_->text());
}

SliceRef QueryView::sliceOfRow(int row) const {
    if (!database_) return {};
    const QStringList& columns = model_->columns();
    int column = int(columns.indexOf(QStringLiteral("slice_id")));
    if (column < 0 && columns.contains(QStringLiteral("ts")) && columns.contains(QStringLiteral("dur")))
        column = int(columns.indexOf(QStringLiteral("id")));
    if (column < 0) return {};
    const QVariant v = model_->cell(row, column);
    if (v.typeId() != QMetaType::LongLong) return {};
    SliceRef ref;
    if (!database_->db->ids().sliceAt(v.toLongLong(), ref.track, ref.index)) return {};
    return ref;
}

void QueryView::activateRow(int row) {
    const SliceRef ref = sliceOfRow(row);
    if (ref.valid() && selection_) selection_->selectSlice(ref);
}

}  // namespace tracescope
