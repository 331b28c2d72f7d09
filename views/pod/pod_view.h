// The Pod page (XProf's pod_viewer, for GPU jobs too): for a step (or the average over steps)
// one stacked column per worker of the step-time breakdown, sorted by worker or by step time,
// hover for the breakdown, click to open that worker and step in the timeline; the straggler
// heat map (worker x step) and collective communication overlap per worker. Every number
// comes from computePod.
#pragma once

#include "model/analysis/pod.h"
#include "model/results/summary_run.h"
#include "views/analysis_view.h"
#include "views/tables/analysis_table_model.h"

class QComboBox;
class QLabel;

namespace tracescope {

class StackedColumnChart;
class StragglerHeatmap;
class TablePage;

class PodView : public AnalysisView {
    Q_OBJECT
public:
    explicit PodView(QWidget* parent = nullptr);

    // The run the next trace belongs to (set before setTrace); null: the trace is the one worker.
    void setRun(std::shared_ptr<const MultiWorkerRun> run);
    // Or the run's rank summaries (set before setTrace; the trace is then an empty stand-in):
    // the figures come from them, and a worker's step opens that rank's trace.
    void setSummaryRun(std::shared_ptr<const SummaryRun> run);
    const PodResult* result() const { return data_ ? &data_->pod : nullptr; }
    // -1: the average over steps; else an index into result()->steps.
    void setStepIndex(int index);
    void setSortByTime(bool byTime);
    QString summaryText() const;

    struct OverlapRow {
        int order = 0;  // index of the worker in the run
        QString worker;
        qint64 offsetNs = 0;
        QString clock;
        qint64 stepNs = 0;
        CommOverlap overlap;
    };

signals:
    // Show `processPrefix`'s tracks over [begin, end) of the run's clock in the timeline.
    void openInTimeline(QString processPrefix, qint64 begin, qint64 end);
    // A rank summary's worker was chosen: open its trace (`tracePath` "" when no index names it).
    void openRankTrace(QString tracePath, QString worker);
    // The user set the workers' clock offsets by hand (ns, one per worker of the run).
    void offsetsEdited(std::vector<qint64> offsetsNs);

protected:
    void startAnalysis(const std::shared_ptr<const Trace>& trace) override;
    void clearResult() override;

private:
    struct Data {
        PodResult pod;
        std::vector<StepMarkerCandidate> candidates;
    };
    std::shared_ptr<const MultiWorkerRun> run_;
    std::shared_ptr<const SummaryRun> summaries_;
    std::shared_ptr<const Data> data_;
    uint64_t runSerial_ = 0;     // names the run in the page's result key
    std::vector<size_t> order_;  // chart column -> worker
    QLabel* summary_ = nullptr;
    QComboBox* step_ = nullptr;
    QComboBox* sort_ = nullptr;
    QWidget* offsetsButton_ = nullptr;
    void editOffsets();
    StackedColumnChart* chart_ = nullptr;
    StragglerHeatmap* heatmap_ = nullptr;
    TablePage* table_ = nullptr;
    RowTableModel<OverlapRow>* overlap_ = nullptr;

    void showResult();
    void refreshStep();
    void openWorkerStep(size_t worker, int stepIndex);
    QString breakdownText(size_t worker) const;
};

}  // namespace tracescope
