// Base of the analysis pages: runs the analysis of a trace on a worker thread
// (QtConcurrent) and applies the result on the UI thread when it is ready. A result
// that arrives after the trace changed is dropped. While computing (or with no
// trace) the page shows a message instead of stale content.
#pragma once

#include "model/analysis/steps.h"
#include "views/background_pools.h"
#include "views/trace_view.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <memory>

class QLabel;
class QStackedLayout;

namespace tracescope {

class PartialTraceNote;
class StepMarkerBox;
class StepMarkerChoice;

class AnalysisView : public TraceView {
    Q_OBJECT
public:
    explicit AnalysisView(QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace) override;
    // Follows the shared selection: each slice selected elsewhere reaches selectSlice().
    void setSelection(TraceSelection* selection) override;
    // Pages that use steps follow the shared choice: a new marker re-runs their analysis.
    void setStepMarkerChoice(StepMarkerChoice* choice) override;
    const std::shared_ptr<const Trace>& trace() const { return trace_; }
    // True from setTrace() until the result arrived (it is applied then, or when the
    // page is next shown; tests and --screenshot wait on resultReady).
    bool isComputing() const { return computing_; }

signals:
    // The page shows the analysis of the current trace.
    void resultReady();

protected:
    // The page's content widget (shown once a result is applied).
    void setContent(QWidget* content);
    // Starts the analysis of the new trace (never called with nullptr).
    virtual void startAnalysis(const std::shared_ptr<const Trace>& trace) = 0;
    // Clears the page when the trace closes.
    virtual void clearResult() {}
    // A slice was selected in another view: select the row that holds it (if any).
    virtual void selectSlice(SliceRef) {}
    // Shows a message instead of the content (e.g. "No GPU kernels in this trace").
    void showMessage(const QString& text);
    // A message for a result with nothing to show ("No GPU kernels in this trace"): for a
    // partial trace it adds that the missing events may be past the cut.
    void showEmptyResult(const QString& text);
    void showContent();
    // The "partial trace" note, made on the first call, for the page to place beside
    // its headline figures. Shown only while the trace lost data at import (see
    // model/trace/partial_trace.h); pages that never ask have none.
    PartialTraceNote* partialTraceNote();
    // The step-marker picker, made on the first call, for a page whose analysis uses steps to place;
    // from then on the page follows the step marker choice (its own until the main window's is set).
    StepMarkerBox* stepMarkerBox();
    // The steps the analysis should use: the chosen marker, or automatic.
    StepOptions stepOptions() const;

    // Runs `compute` on a worker; `apply` gets the result on the UI thread if the trace
    // is still the same. The trace is kept alive by the lambda's shared_ptr.
    template <typename Result>
    void run(std::function<Result()> compute, std::function<void(Result&)> apply) {
        const unsigned generation = ++generation_;
        computing_ = true;
        showMessage(tr("Analyzing…"));
        auto* watcher = new QFutureWatcher<std::shared_ptr<Result>>(this);
        connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, apply] {
            watcher->deleteLater();
            if (generation != generation_) return;
            std::shared_ptr<Result> result = watcher->result();
            computing_ = false;
            applyWhenShown([this, result, apply] {
                if (result) {
                    showContent();
                    apply(*result);
                } else {
                    showMessage(tr("The analysis failed."));
                }
                emit resultReady();
            });
        });
        watcher->setFuture(QtConcurrent::run(analysisPool(), [compute]() -> std::shared_ptr<Result> {
            try {
                return std::make_shared<Result>(compute());
            } catch (...) {
                return nullptr;
            }
        }));
    }

    void showEvent(QShowEvent* event) override;

private:
    // Filling a page (models, sorting, fitting columns) can take tens of ms on the UI
    // thread: a page on a hidden tab of a shown window is filled when it is shown.
    void applyWhenShown(std::function<void()> fill);
    std::function<void()> pendingFill_;
    std::shared_ptr<const Trace> trace_;
    unsigned generation_ = 0;
    bool computing_ = false;
    QStackedLayout* stack_ = nullptr;
    QLabel* message_ = nullptr;
    QWidget* content_ = nullptr;
    PartialTraceNote* partialNote_ = nullptr;
    StepMarkerBox* markerBox_ = nullptr;
    StepMarkerChoice* markerChoice_ = nullptr;
    void followStepMarker(StepMarkerChoice* choice);
};

}  // namespace tracescope
