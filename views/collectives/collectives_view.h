// Collectives page: the collective communication of one rank's trace. A headline (calls, the
// communication/compute overlap as HTA's get_comm_comp_overlap defines it, what the file does not
// record), then tabs: the summary per (kind, size, group) with count, total, median and p90 time
// and nccl-tests' bandwidths (algbw, busbw); every call (its kind, group, Seq, size, time and
// bandwidths; a double click shows its host op and kernels in the timeline); the overlap per step.
// Every figure is a result of the trace's store (model/analysis/collectives.h); the page only lays
// them out. A run opened as several rank files adds the stragglers by collective: a heat map rank
// x collective of each rank's arrival after the first, the ranks by the wait they induced, and a
// choice of the rank whose tables are shown (model/results/run_collectives.h).
#pragma once

#include "model/analysis/collectives.h"
#include "model/results/run_collectives.h"
#include "model/results/summary_run.h"
#include "views/analysis_view.h"
#include "views/tables/analysis_table_model.h"

class QComboBox;
class QLabel;
class QTabWidget;

namespace tracescope {

class CollectiveWaitHeatmap;
class TablePage;

class CollectivesView : public AnalysisView {
    Q_OBJECT
public:
    explicit CollectivesView(QWidget* parent = nullptr);

    // The run the next trace belongs to (set before setTrace); null: the trace is one rank.
    void setRun(std::shared_ptr<const MultiWorkerRun> run);
    // Or the run's rank summaries (set before setTrace; the trace is then an empty stand-in): a
    // call or heat map cell opens that rank's trace.
    void setSummaryRun(std::shared_ptr<const SummaryRun> run);
    QString summaryText() const;
    const CollectivesResult* result() const { return result_.get(); }
    const RunCollectives* runResult() const { return runResult_.get(); }
    CollectiveWaitHeatmap* heatmap() const { return heatmap_; }
    // Run mode: show this rank's (an index into runResult()->ranks) tables.
    void setRankIndex(int index);
    TablePage* callsTable() const { return calls_; }
    TablePage* summaryTable() const { return summary_; }

signals:
    // Show `processPrefix`'s tracks over [begin, end) of the run's clock in the timeline.
    void openInTimeline(QString processPrefix, qint64 begin, qint64 end);
    // A rank summary's call was chosen: open its trace (`tracePath` "" when no index names it).
    void openRankTrace(QString tracePath, QString worker);

protected:
    void startAnalysis(const std::shared_ptr<const Trace>& trace) override;
    void clearResult() override;

private:
    std::shared_ptr<const CollectivesResult> result_;
    std::shared_ptr<const MultiWorkerRun> run_;
    std::shared_ptr<const SummaryRun> summaries_;
    uint64_t runSerial_ = 0;  // names the run in the page's result key
    std::shared_ptr<const RunCollectives> runResult_;
    size_t rankIndex_ = 0;
    QWidget* rankBar_ = nullptr;
    QComboBox* rank_ = nullptr;
    QWidget* stragglers_ = nullptr;
    CollectiveWaitHeatmap* heatmap_ = nullptr;
    TablePage* ranks_ = nullptr;
    RowTableModel<const RankWait*>* rankModel_ = nullptr;
    QLabel* headline_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    TablePage* summary_ = nullptr;
    TablePage* calls_ = nullptr;
    TablePage* steps_ = nullptr;
    RowTableModel<const CollectiveSummaryRow*>* summaryModel_ = nullptr;
    RowTableModel<const CollectiveCall*>* callModel_ = nullptr;
    RowTableModel<const StepOverlap*>* stepModel_ = nullptr;

    void showResult(const std::shared_ptr<const CollectivesResult>& result);
    void showRun(const std::shared_ptr<const RunCollectives>& run);
    void activateCall(int row);
    void openRankCall(size_t rank, const CollectiveCall& call);
};

}  // namespace tracescope
