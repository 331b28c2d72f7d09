// Base of the analysis pages: runs the analysis of a trace on a worker thread
// (QtConcurrent) once the memory it needs is free, and applies the result on the UI
// thread when it is ready. A result that arrives after the trace changed is dropped (the
// computation is cancelled). While computing (or with no trace) the page shows its
// progress or a message instead of stale content.
#pragma once

#include "model/analysis/analysis_cost.h"
#include "model/analysis/analysis_progress.h"
#include "model/analysis/steps.h"
#include "views/background_pools.h"
#include "views/trace_view.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <memory>

class QStackedLayout;
class QTimer;

namespace tracescope {

class AnalysisStatus;
class PartialTraceNote;
class StepMarkerBox;
class StepSetBox;
class StepMarkerChoice;

class AnalysisView : public TraceView {
    Q_OBJECT
public:
    explicit AnalysisView(QWidget* parent = nullptr);
    ~AnalysisView() override;

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
    // state() changed (queued, running, done, cancelled, skipped...).
    void stateChanged();

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
    // The "All steps" switch, made on the first call, likewise (and following the choice too).
    StepSetBox* stepSetBox();
    // For a page whose analysis uses steps but shows neither picker: it follows the choice.
    void followStepChoice();
    // The steps the analysis should use: the chosen marker, or automatic; all steps or the step set.
    StepOptions stepOptions() const;

    // Runs `compute` on a worker once the memory it needs (`cost`, see
    // model/analysis/analysis_cost.h) is free (views/analysis_queue.h); `apply` gets the
    // result on the UI thread if the trace is still the same. Meanwhile the page shows the
    // progress the computation reports (model/analysis/analysis_progress.h) and a Cancel
    // button; an analysis that needs more than the machine has is not started: the page says
    // so and offers to run it anyway. The trace is kept alive by the lambda's shared_ptr.
    template <typename Result>
    void run(AnalysisCost cost, std::function<Result()> compute, std::function<void(Result&)> apply) {
        const unsigned generation = beginRun(cost);
        if (!generation) return;  // skipped: the page offers "Run anyway"
        std::shared_ptr<AnalysisProgress> progress = progress_;
        admit(cost.bytes, [this, generation, progress, compute, apply](uint64_t ticket) {
            auto* watcher = new QFutureWatcher<std::shared_ptr<Result>>(this);
            connect(watcher, &QFutureWatcherBase::finished, this,
                    [this, watcher, generation, ticket, progress, apply] {
                        watcher->deleteLater();
                        jobEnded(ticket);
                        if (generation != generation_) return;
                        std::shared_ptr<Result> result = watcher->result();
                        if (progress->cancelled()) return;  // the page already says so
                        finishRun(bool(result), [this, result, apply] {
                            showContent();
                            apply(*result);
                        });
                    });
            watcher->setFuture(
                QtConcurrent::run(analysisPool(), [compute, progress]() -> std::shared_ptr<Result> {
                    const AnalysisProgressScope scope(progress.get());
                    try {
                        if (progress->cancelled()) return nullptr;  // cancelled while queued
                        auto result = std::make_shared<Result>(compute());
                        progress->finish();
                        return result;
                    } catch (...) {  // AnalysisCancelled included: whatever it held is freed
                        return nullptr;
                    }
                }));
        });
    }

public:
    // Where the page's analysis stands.
    enum class State { NoTrace, Queued, Running, Done, Failed, Cancelled, Skipped };
    State state() const { return state_; }
    // The text the page shows instead of its content (progress, skip or cancel message).
    QString statusText() const;
    // Cancel (while queued or running), Run again (cancelled), Run anyway (skipped): presses
    // the page's button, as a user would. False when it shows none.
    bool pressStatusButton();

protected:
    void showEvent(QShowEvent* event) override;

private:
    // Cancels the previous run, then either shows "Waiting…" and returns its generation, or
    // (the cost exceeds the whole budget and the user did not ask to run it anyway) shows
    // the skip message and returns 0.
    unsigned beginRun(const AnalysisCost& cost);
    // Submits `start` to the admission queue; it is called with the queue's ticket.
    void admit(uint64_t bytes, std::function<void(uint64_t ticket)> start);
    void jobEnded(uint64_t ticket);
    // A result (or failure) of the current run arrived.
    void finishRun(bool ok, std::function<void()> fill);
    void cancelRun();
    void showProgress();
    void startAgain(bool force);
    // Filling a page (models, sorting, fitting columns) can take tens of ms on the UI
    // thread: a page on a hidden tab of a shown window is filled when it is shown.
    void applyWhenShown(std::function<void()> fill);
    std::function<void()> pendingFill_;
    std::shared_ptr<const Trace> trace_;
    unsigned generation_ = 0;
    bool computing_ = false;
    State state_ = State::NoTrace;
    std::shared_ptr<AnalysisProgress> progress_;
    uint64_t ticket_ = 0;   // the queue's ticket of the current run, 0 when none
    bool runAnyway_ = false;  // the next run skips the memory check
    QTimer* progressTimer_ = nullptr;
    QStackedLayout* stack_ = nullptr;
    AnalysisStatus* message_ = nullptr;
    QWidget* content_ = nullptr;
    PartialTraceNote* partialNote_ = nullptr;
    StepMarkerBox* markerBox_ = nullptr;
    StepSetBox* setBox_ = nullptr;
    StepMarkerChoice* markerChoice_ = nullptr;
    bool followsStepChoice_ = false;
    void followStepMarker(StepMarkerChoice* choice);
};

}  // namespace tracescope
