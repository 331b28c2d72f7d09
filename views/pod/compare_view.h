// The Compare page (File > Compare with…): the open trace (A) against a second one (B):
// step time, op stats and kernel stats side by side with absolute and relative deltas,
// the largest regression first, new and vanished ops marked. Numbers from diffRuns; both runs'
// steps come from the step marker shared by every step-based page (its picker is here too).
// Ops and kernels are shown per step by default (runs of different lengths compare like for
// like), their totals behind the page's Per step / Totals switch. With no second trace the page
// offers Open…, which asks whoever chooses files (the main window) through openCompareRequested.
#pragma once

#include "model/analysis/run_diff.h"
#include "views/analysis_view.h"
#include "views/tables/analysis_table_model.h"

class QLabel;
class QRadioButton;
class QTabWidget;

namespace tracescope {

class TablePage;
class TimelineView;
class TraceSelection;

class CompareView : public AnalysisView {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);

    // The trace to compare against (B) and its name; null clears the comparison.
    void setCompareTrace(std::shared_ptr<const Trace> b, const QString& name);
    const RunDiff* result() const { return diff_.get(); }
    QString summaryText() const;
    // What the op and kernel tables show: per step (the default) or totals.
    DiffBasis basis() const { return basis_; }
    void setBasis(DiffBasis basis);

signals:
    // The empty page's Open… was pressed: choose the trace to compare with.
    void openCompareRequested();

protected:
    void startAnalysis(const std::shared_ptr<const Trace>& trace) override;
    void clearResult() override;

private:
    std::shared_ptr<const Trace> b_;
    QString bName_;
    std::shared_ptr<const RunDiff> diff_;
    uint64_t bSerial_ = 0;  // names the compared trace in the page's result key
    QLabel* summary_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    TablePage* steps_ = nullptr;
    TablePage* ops_ = nullptr;
    TablePage* kernels_ = nullptr;
    RowTableModel<DiffRow>* stepModel_ = nullptr;
    // Per basis (DiffBasis::PerStep, DiffBasis::Totals): the switch swaps the tables' models.
    RowTableModel<DiffRow>* opModels_[2] = {};
    RowTableModel<DiffRow>* kernelModels_[2] = {};
    DiffBasis basis_ = DiffBasis::PerStep;
    QRadioButton* perStepButton_ = nullptr;
    QRadioButton* totalsButton_ = nullptr;
    // Per step unless the user chose totals or a run has no steps (then only totals exist).
    DiffBasis shownBasis() const;
    void showTables();
    void updateSummary();
    // The two runs one above the other, their first steps' starts aligned, panned together.
    TimelineView* timelineA_ = nullptr;
    TimelineView* timelineB_ = nullptr;
    QLabel* labelA_ = nullptr;
    QLabel* labelB_ = nullptr;
    bool syncing_ = false;
    const Trace* shownA_ = nullptr;  // what the timelines show now
    const Trace* shownB_ = nullptr;
    TimeNs alignA_ = 0, alignB_ = 0;  // the first steps' starts
    void syncTimelines(TimelineView* from, TimelineView* to, TimeNs fromOrigin, TimeNs toOrigin);
    void alignTimelines();

    void showResult();
};

}  // namespace tracescope
