// Overview page (XProf overview, §7.5): performance summary, run environment,
// per-step stacked step-time chart, top-10 device ops and recommendations.
// Every number comes from computeOverview.
#pragma once

#include "model/analysis/overview.h"
#include "views/analysis_view.h"
#include "views/tables/analysis_table_model.h"

class QFormLayout;
class QGridLayout;
class QLabel;
class QTableView;

namespace tracescope {

class StackedColumnChart;

class OverviewView : public AnalysisView {
    Q_OBJECT
public:
    explicit OverviewView(QWidget* parent = nullptr);

    const Overview* result() const { return overview_ ? &overview_->overview : nullptr; }
    RowTableModel<TopOp>* topOpsModel() const { return topOps_; }
    StackedColumnChart* stepChart() const { return chart_; }
    // The text of the summary fields, by label (for tests).
    QString summaryField(const QString& label) const;

protected:
    void startAnalysis(const std::shared_ptr<const Trace>& trace) override;
    void clearResult() override;

private:
    struct Computed {
        Overview overview;
        std::vector<StepMarkerCandidate> markerCandidates;
        std::vector<std::string> gpuAdvice;  // the GPU advice's sentences (model/analysis/gpu_advice.h)
    };
    std::shared_ptr<const Computed> overview_;
    QFormLayout* summary_ = nullptr;
    QFormLayout* environment_ = nullptr;
    StackedColumnChart* chart_ = nullptr;
    QLabel* chartNote_ = nullptr;
    QWidget* chartBox_ = nullptr;
    QWidget* topBox_ = nullptr;
    QGridLayout* grid_ = nullptr;
    QLabel* noDeviceOps_ = nullptr;
    RowTableModel<TopOp>* topOps_ = nullptr;
    QTableView* topOpsView_ = nullptr;
    QLabel* recommendations_ = nullptr;

    void showResult(const Overview& o);
};

}  // namespace tracescope
