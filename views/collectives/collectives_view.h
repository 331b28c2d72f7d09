// Collectives page: the collective communication of one rank's trace. A headline (calls, the
// communication/compute overlap as HTA's get_comm_comp_overlap defines it, what the file does not
// record), then tabs: the summary per (kind, size, group) with count, total, median and p90 time
// and nccl-tests' bandwidths (algbw, busbw); every call (its kind, group, Seq, size, time and
// bandwidths; a double click shows its host op and kernels in the timeline); the overlap per step.
// Every figure is a result of the trace's store (model/analysis/collectives.h); the page only lays
// them out. Several ranks' stragglers are the CLI's (`tracescope-cli collectives DIR`).
#pragma once

#include "model/analysis/collectives.h"
#include "views/analysis_view.h"
#include "views/tables/analysis_table_model.h"

class QLabel;
class QTabWidget;

namespace tracescope {

class TablePage;

class CollectivesView : public AnalysisView {
    Q_OBJECT
public:
    explicit CollectivesView(QWidget* parent = nullptr);

    QString summaryText() const;
    const CollectivesResult* result() const { return result_.get(); }
    TablePage* callsTable() const { return calls_; }
    TablePage* summaryTable() const { return summary_; }

protected:
    void startAnalysis(const std::shared_ptr<const Trace>& trace) override;
    void clearResult() override;

private:
    std::shared_ptr<const CollectivesResult> result_;
    QLabel* headline_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    TablePage* summary_ = nullptr;
    TablePage* calls_ = nullptr;
    TablePage* steps_ = nullptr;
    RowTableModel<const CollectiveSummaryRow*>* summaryModel_ = nullptr;
    RowTableModel<const CollectiveCall*>* callModel_ = nullptr;
    RowTableModel<const StepOverlap*>* stepModel_ = nullptr;

    void showResult(const std::shared_ptr<const CollectivesResult>& result);
    void activateCall(int row);
};

}  // namespace tracescope
