// Base of the analysis pages: asks the trace's result store (model/results/result_store.h)
// for the page's result, computed on the job runner once the memory it needs is free (or
// shared with whoever asked first), and applies it on the UI thread when it is ready. A result
// that arrives after the trace changed is dropped (the request is withdrawn). While computing
// (or with no trace) the page shows its progress or a message instead of stale content. A page
// not on screen asks at the runner's lowest priority, and moves its request up when shown.
#pragma once

#include "model/analysis/analysis_cost.h"
#include "model/analysis/analysis_progress.h"
#include "model/analysis/steps.h"
#include "model/results/result_store.h"
#include "views/result_delivery.h"
#include "views/trace_view.h"

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
    // No trace yet: `fileName` is loading (the timeline may show its first part meanwhile).
    void setLoading(const QString& fileName);
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
    // A message with one button (the Compare page's "Open…" while it has no second trace).
    void showMessage(const QString& text, const QString& action, std::function<void()> onAction);
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

    // The trace's result store (null with no trace): what the page's computation asks for the
    // results it shares with other pages (classification, memory profile...).
    const std::shared_ptr<ResultStore>& results() const { return results_; }
    // The key of a page result under step options (marker and step set).
    static std::string stepOptionsKey(const StepOptions& options);

    // Asks the store for the page's result `key`, computed by `compute` on the job runner once
    // the memory it needs (`cost`, see model/analysis/analysis_cost.h) is free; `apply` gets it
    // on the UI thread if the trace is still the same. Meanwhile the page shows the progress
    // the computation reports (model/analysis/analysis_progress.h) and a Cancel button; an
    // analysis that needs more than the machine has is not started: the page says so and offers
    // to run it anyway. `key` must name everything the result depends on besides the trace.
    template <typename Result>
    void run(AnalysisCost cost, ResultKey key, std::function<Result(ResultStore&)> compute,
             std::function<void(std::shared_ptr<const Result>)> apply) {
        const unsigned generation = beginRun(cost);
        if (!generation) return;                               // skipped: the page offers "Run anyway"
        const uint64_t reserve = ranAnyway_ ? 0 : cost.bytes;  // run anyway: admitted at once
        std::weak_ptr<ResultStore> weak = results_;
        auto computeIn = [weak, compute]() -> Result {
            std::shared_ptr<ResultStore> store = weak.lock();
            if (!store) throw AnalysisCancelled();
            return compute(*store);
        };
        std::shared_ptr<ResultDelivery> delivery = delivery_;
        auto done = [this, delivery, generation, apply](std::shared_ptr<const Result> result, std::exception_ptr) {
            delivery->post([this, generation, result, apply] {
                if (generation != generation_) return;  // another trace, options or run since
                finishRun(bool(result), [this, result, apply] {
                    showContent();
                    apply(result);
                });
            });
        };
        std::shared_ptr<ResultStore> store = results_;
        ask_ = [this, store, key, reserve, computeIn, done](JobPriority priority) {
            request_ = store->request<Result>(key, priority, reserve, computeIn, done);
        };
        ask_(wanted());
        requested();
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
    // A tooltip the page showed (a chart's hover) closes with it, not over the next page.
    void hideEvent(QHideEvent* event) override;

private:
    // Cancels the previous run, then either shows "Waiting…" and returns its generation, or
    // (the cost exceeds the whole budget and the user did not ask to run it anyway) shows
    // the skip message and returns 0.
    unsigned beginRun(const AnalysisCost& cost);
    // The skip message (what the run needs, `budget` is free) with Run anyway.
    void showSkipped(uint64_t budget);
    // Nobody can see the page in a visible window (another tab is current); a page on its own
    // (tests, screenshots) counts as seen.
    bool offScreen() const;
    // The priority the page asks at: Page when it is on screen (or on its own), else Background.
    JobPriority wanted() const;
    // The request was made: progress from it.
    void requested();
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
    std::shared_ptr<ResultStore> results_;
    std::shared_ptr<ResultDelivery> delivery_;
    ResultRequest request_;
    std::function<void(JobPriority)> ask_;  // asks again (at a higher priority once shown)
    JobPriority askedAt_ = JobPriority::Background;
    bool runAnyway_ = false;  // the next run skips the memory check
    bool ranAnyway_ = false;  // the current run does
    AnalysisCost cost_;       // the current run's estimate
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
