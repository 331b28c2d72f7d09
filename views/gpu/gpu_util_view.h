// GPU Utilization page: why the GPU waits, as Holistic Trace Analysis and `nsys stats` answer it.
// Per GPU its temporal breakdown (compute, non-compute, idle over its active window) and the idle
// time by cause (host wait, kernel wait, other) per stream; kernel launch statistics with HTA's
// outliers; queue length per stream; the CUDA API, copy and synchronisation summaries; and, first,
// the advice: each finding (a GPU gap and what the host did meanwhile, a blocking call in a step,
// a pageable copy...) with its slices, highlighted in the timeline on a double click; and each
// step's critical path (HTA's), whose events a double click highlights in the timeline (the
// rest dimmed). Every figure is a result of the trace's store (model/analysis/gpu_utilization.h,
// launch_stats.h, queue_length.h, cuda_api_summary.h, gpu_advice.h, critical_path.h); the page
// only lays them out.
#pragma once

#include "model/analysis/critical_path.h"
#include "model/analysis/cuda_api_summary.h"
#include "model/analysis/gpu_advice.h"
#include "model/analysis/gpu_utilization.h"
#include "model/analysis/launch_stats.h"
#include "model/analysis/queue_length.h"
#include "views/analysis_view.h"
#include "views/tables/analysis_table_model.h"

class QLabel;
class QTabWidget;

namespace tracescope {

class TablePage;

class GpuUtilView : public AnalysisView {
    Q_OBJECT
public:
    explicit GpuUtilView(QWidget* parent = nullptr);

    // The store's results the page shows.
    struct OutlierItem {
        const LaunchRow* row;
        QString call, activity;  // their names
    };
    struct Computed {
        std::shared_ptr<const GpuUtilizationResult> gpus;
        std::shared_ptr<const LaunchStats> launches;
        std::shared_ptr<const QueueLengthResult> queues;
        std::shared_ptr<const CudaApiSummary> api;
        std::shared_ptr<const ClassifiedTrace> classified;
        std::shared_ptr<const GpuAdvice> advice;
        std::shared_ptr<const CriticalPathResult> paths;
        // The launch outliers' rows with their names, made off the UI thread (tens of thousands
        // on large traces).
        std::vector<OutlierItem> outliers;
    };
    struct FindingItem {
        const AdviceFinding* finding;
        QString details;  // what the host did in a gap, the steps of a sync, the queue's share
    };
    struct StreamItem {
        const GpuUtilization* gpu;
        const StreamIdle* stream;
        const QueueLengthStream* queue;  // null when the stream had no counted launch
    };
    struct DistributionItem {
        QString what;
        const LaunchDistribution* d;
    };

    QString summaryText() const;
    const Computed* computed() const { return computed_.get(); }
    TablePage* streamsTable() const { return streams_; }
    TablePage* adviceTable() const { return advice_; }
    TablePage* pathsTable() const { return paths_; }
    TablePage* outliersTable() const { return outliers_; }
    QString adviceText() const;

protected:
    void startAnalysis(const std::shared_ptr<const Trace>& trace) override;
    void clearResult() override;

private:
    std::shared_ptr<const Computed> computed_;
    QLabel* summary_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QLabel* adviceSummary_ = nullptr;
    TablePage* advice_ = nullptr;
    TablePage* gpus_ = nullptr;
    TablePage* streams_ = nullptr;
    TablePage* launches_ = nullptr;
    TablePage* outliers_ = nullptr;
    TablePage* api_ = nullptr;
    TablePage* copies_ = nullptr;
    TablePage* sync_ = nullptr;
    TablePage* paths_ = nullptr;
    RowTableModel<FindingItem>* adviceModel_ = nullptr;
    RowTableModel<const GpuUtilization*>* gpuModel_ = nullptr;
    RowTableModel<StreamItem>* streamModel_ = nullptr;
    RowTableModel<DistributionItem>* launchModel_ = nullptr;
    RowTableModel<OutlierItem>* outlierModel_ = nullptr;
    RowTableModel<const DurationRow*>* apiModel_ = nullptr;
    RowTableModel<const CopyRow*>* copyModel_ = nullptr;
    RowTableModel<const SyncRow*>* syncModel_ = nullptr;
    RowTableModel<const CriticalPath*>* pathModel_ = nullptr;

    void showResult(const std::shared_ptr<const Computed>& computed);
    void showAdvice(const Computed& computed);
    void activateFinding(int row);
    void activatePath(int row);
    void activateOutlier(int row);
};

}  // namespace tracescope
