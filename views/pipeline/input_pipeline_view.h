// Input Pipeline page (XProf input-pipeline analyzer, §7.5): the verdict, the device-side
// wait for input per step (mean / stddev / min / max and a per-step chart), the host-side
// split of input time by category, and the table of host input ops.
// Every number comes from computeInputPipeline.
#pragma once

#include "model/analysis/input_pipeline.h"
#include "model/query/slice_row_index.h"
#include "views/analysis_view.h"
#include "views/tables/analysis_table_model.h"

class QLabel;
class QTableView;

namespace tracescope {

class StackedColumnChart;
class TablePage;

class InputPipelineView : public AnalysisView {
    Q_OBJECT
public:
    explicit InputPipelineView(QWidget* parent = nullptr);

    enum OpColumn { Name, Category, Count, Total, Self, TotalPct, SelfPct, OpColumnCount };
    struct StatRow {
        QString what;
        Distribution d;
        bool percent = false;     // the distribution is of percentages, not ns
        double shareOfStep = -1;  // category rows: % of all step time; -1 = not applicable
    };
    struct CategoryRow {
        QString category;
        TimeNs ns = 0;
        double percent = 0;
    };

    const InputPipelineResult* result() const { return computed_ ? &computed_->result : nullptr; }
    TablePage* opsTable() const { return ops_; }
    RowTableModel<InputOpRow>* opsModel() const { return opsModel_; }
    RowTableModel<StatRow>* deviceStatsModel() const { return deviceStats_; }
    RowTableModel<CategoryRow>* hostCategoryModel() const { return hostCategories_; }
    StackedColumnChart* waitChart() const { return chart_; }

protected:
    void startAnalysis(const std::shared_ptr<const Trace>& trace) override;
    void clearResult() override;

private:
    struct Computed {
        InputPipelineResult result;
        SliceRowIndex sliceRows;
        std::shared_ptr<const ClassifiedTrace> classified;  // the store's, which the rows' occurrences are found on
        std::vector<StepMarkerCandidate> markerCandidates;
    };
    std::shared_ptr<const Computed> computed_;
    QLabel* verdict_ = nullptr;
    StackedColumnChart* chart_ = nullptr;
    RowTableModel<StatRow>* deviceStats_ = nullptr;
    QTableView* deviceStatsView_ = nullptr;
    RowTableModel<CategoryRow>* hostCategories_ = nullptr;
    QTableView* hostCategoriesView_ = nullptr;
    QLabel* hostNote_ = nullptr;
    QWidget* host_ = nullptr;
    TablePage* ops_ = nullptr;
    RowTableModel<InputOpRow>* opsModel_ = nullptr;

    void showResult(const Computed& c);
    void activateRow(int row);
    void selectSlice(SliceRef slice) override;
};

}  // namespace tracescope
