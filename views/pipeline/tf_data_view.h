// tf.data page: the bottleneck summary and suggestion, a table of every input pipeline
// (host, pipeline, min / avg / max latency, calls, slow calls), and the graph of one pipeline's
// call (slowest first) with its critical path and bottleneck (PipelineGraphView). A box holds
// the iterator's events in that call, summed. Clicking a box selects those events in the
// timeline and shows the box's figures in the Details panel (the call, the events summed, a
// link to each); selecting an iterator event anywhere shows its pipeline, call and box here,
// and in its details which call and box it counted in (tf_data_details.h). Every number comes
// from computeTfData.
#pragma once

#include "model/analysis/tf_data.h"
#include "views/analysis_view.h"
#include "views/tables/analysis_table_model.h"

class QComboBox;
class QLabel;
class QSpinBox;

namespace tracescope {

class PipelineGraphView;
class TablePage;

class TfDataView : public AnalysisView {
    Q_OBJECT
public:
    explicit TfDataView(QWidget* parent = nullptr);

    struct PipelineRow {
        size_t index = 0;  // into TfDataResult::pipelines
        QString host, name, kind, bottleneck;
        qint64 minNs = 0, maxNs = 0, calls = 0, slowCalls = 0, bottleneckSelfNs = 0;
        double avgNs = 0;
    };
    enum Column { Host, Pipeline, Kind, Min, Avg, Max, Calls, SlowCalls, Bottleneck, BottleneckSelf, ColumnCount };

    const TfDataResult* result() const { return result_.get(); }
    TablePage* pipelinesTable() const { return table_; }
    PipelineGraphView* graph() const { return graph_; }
    // What the file lacks for this page (TfDataResult::notes), shown above the summary; hidden
    // when there is nothing to say.
    QLabel* notesLabel() const { return notes_; }
    // The pipeline (index into the result) and call rank the graph shows; -1 when none.
    int shownPipeline() const { return shownPipeline_; }
    int shownRank() const { return shownRank_; }
    // Shows a pipeline's call in the graph (and selects its table row).
    void showPipeline(int pipeline, int rank = 0);
    // The iterator id of each graph node, in node order.
    const std::vector<uint64_t>& nodeIterators() const { return nodeIds_; }
    // As a click on graph node `node` does.
    void activateNode(int node);
    // Registers the tf.data rows of an iterator event's details (TraceSelection::addAnnotator).
    void setSelection(TraceSelection* selection) override;
    // The figures tooltip of graph node `node` (for tests).
    QString nodeToolTip(int node) const;

protected:
    void startAnalysis(const std::shared_ptr<const Trace>& trace) override;
    void clearResult() override;
    void selectSlice(SliceRef slice) override;

private:
    std::shared_ptr<const TfDataResult> result_;
    QLabel* notes_ = nullptr;
    QLabel* summary_ = nullptr;
    QLabel* suggestion_ = nullptr;
    TablePage* table_ = nullptr;
    RowTableModel<PipelineRow>* model_ = nullptr;
    QComboBox* host_ = nullptr;
    QComboBox* pipeline_ = nullptr;
    QSpinBox* rank_ = nullptr;
    QLabel* callInfo_ = nullptr;
    PipelineGraphView* graph_ = nullptr;
    std::vector<uint64_t> nodeIds_;
    std::vector<QString> nodeTips_;
    int shownPipeline_ = -1;
    int shownRank_ = -1;
    bool updating_ = false;

    void showResult();
    void fillPipelineCombo(const QString& host);
    void showGraph();
    // Shows iterator `id` of a pipeline's call as a click on its box does.
    void showBox(size_t pipeline, size_t rank, uint64_t id);
};

}  // namespace tracescope
