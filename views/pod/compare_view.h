// The Compare page (File > Compare with…): the open trace (A) against a second one (B):
// step time, op stats and kernel stats side by side with absolute and relative deltas,
// the largest regression first, new and vanished ops marked. Numbers from diffRuns; both runs'
// steps come from the step marker shared by every step-based page (its picker is here too).
#pragma once

#include "model/analysis/run_diff.h"
#include "views/analysis_view.h"
#include "views/tables/analysis_table_model.h"

class QLabel;
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
    RowTableModel<DiffRow>* opModel_ = nullptr;
    RowTableModel<DiffRow>* kernelModel_ = nullptr;
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
