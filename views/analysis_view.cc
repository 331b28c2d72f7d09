#include "views/analysis_view.h"

#include "model/results/analysis_budget.h"
#include "model/trace/partial_trace.h"
#include "views/analysis_queue.h"
#include "views/analysis_status.h"
#include "views/partial_trace_note.h"
#include "views/step_marker_box.h"
#include "views/step_marker_choice.h"
#include "views/step_set_box.h"
#include "views/trace_selection.h"

#include <QPushButton>
#include <QStackedLayout>
#include <QTimer>

#include <utility>

namespace tracescope {

AnalysisView::AnalysisView(QWidget* parent) : TraceView(parent) {
    stack_ = new QStackedLayout(this);
    message_ = new AnalysisStatus(this);
    stack_->addWidget(message_);
    progressTimer_ = new QTimer(this);
    progressTimer_->setInterval(200);
    connect(progressTimer_, &QTimer::timeout, this, [this] { showProgress(); });
    showMessage(tr("No trace loaded."));
}

AnalysisView::~AnalysisView() {
    // A waiting job would call into this page: it is withdrawn. A running one's watcher goes
    // with the page: its reservation is released here.
    if (computing_ && progress_) progress_->cancel();
    if (ticket_) AnalysisQueue::instance()->finished(ticket_);
}

void AnalysisView::setContent(QWidget* content) {
    content_ = content;
    stack_->addWidget(content);
}

PartialTraceNote* AnalysisView::partialTraceNote() {
    if (!partialNote_) {
        partialNote_ = new PartialTraceNote(this);
        partialNote_->setTrace(trace_.get());
    }
    return partialNote_;
}

StepMarkerBox* AnalysisView::stepMarkerBox() {
    if (!markerBox_) {
        markerBox_ = new StepMarkerBox(this);
        followStepChoice();
        markerBox_->setChoice(markerChoice_);
    }
    return markerBox_;
}

StepSetBox* AnalysisView::stepSetBox() {
    if (!setBox_) {
        setBox_ = new StepSetBox(this);
        followStepChoice();
        setBox_->setChoice(markerChoice_);
    }
    return setBox_;
}

void AnalysisView::followStepChoice() {
    if (followsStepChoice_) return;
    followsStepChoice_ = true;
    followStepMarker(markerChoice_ ? markerChoice_ : new StepMarkerChoice(this));
}

void AnalysisView::setStepMarkerChoice(StepMarkerChoice* choice) {
    if (followsStepChoice_ && choice) followStepMarker(choice);
    else markerChoice_ = choice;  // followed once the page asks for it
}

void AnalysisView::followStepMarker(StepMarkerChoice* choice) {
    const StepOptions before = stepOptions();
    if (markerChoice_) disconnect(markerChoice_, nullptr, this, nullptr);
    markerChoice_ = choice;
    if (markerBox_) markerBox_->setChoice(choice);
    if (setBox_) setBox_->setChoice(choice);
    connect(choice, &StepMarkerChoice::changed, this, [this] {
        if (trace_) startAnalysis(trace_);
    });
    const StepOptions now = stepOptions();
    if (trace_ && (now.marker != before.marker || now.allSteps != before.allSteps)) startAnalysis(trace_);
}

StepOptions AnalysisView::stepOptions() const { return markerChoice_ ? markerChoice_->stepOptions() : StepOptions{}; }

void AnalysisView::setSelection(TraceSelection* selection) {
    if (selection_) disconnect(selection_, nullptr, this, nullptr);
    TraceView::setSelection(selection);
    if (selection) connect(selection, &TraceSelection::sliceSelected, this, [this](SliceRef s) { selectSlice(s); });
}

void AnalysisView::setTrace(std::shared_ptr<const Trace> trace) {
    cancelRun();  // the old trace's analysis stops and frees its memory
    trace_ = std::move(trace);
    ++generation_;  // drops a result still in flight
    pendingFill_ = nullptr;
    computing_ = false;
    runAnyway_ = false;
    clearResult();
    if (partialNote_) partialNote_->setTrace(trace_.get());
    if (!trace_) {
        state_ = State::NoTrace;
        showMessage(tr("No trace loaded."));
        return;
    }
    startAnalysis(trace_);
}

unsigned AnalysisView::beginRun(const AnalysisCost& cost) {
    cancelRun();
    const unsigned generation = ++generation_;
    pendingFill_ = nullptr;
    const bool force = std::exchange(runAnyway_, false);
    AnalysisQueue* queue = AnalysisQueue::instance();
    if (!force && queue->exceedsBudget(cost.bytes)) {
        computing_ = false;
        state_ = State::Skipped;
        const MemoryBudget budget = analysisMemoryBudget();
        message_->showAction(
            tr("%1 was not run: it needs about %2 of memory, and %3 is available (%4).\n"
               "Running it could make the machine swap or stop the application.")
                .arg(QString::fromStdString(cost.what), QString::fromStdString(formatBytes(cost.bytes)),
                     QString::fromStdString(formatBytes(queue->budget())), QString::fromStdString(budget.source)),
            tr("Run anyway"), [this] { startAgain(true); });
        stack_->setCurrentWidget(message_);
        emit stateChanged();
        return 0;
    }
    computing_ = true;
    state_ = State::Queued;
    progress_ = std::make_shared<AnalysisProgress>(trace_ ? trace_->counts().slices + trace_->counts().asyncSlices : 0);
    showProgress();
    progressTimer_->start();
    emit stateChanged();
    return generation;
}

void AnalysisView::admit(uint64_t bytes, std::function<void(uint64_t)> start) {
    ticket_ = AnalysisQueue::instance()->submit(bytes, false, [this, start](uint64_t ticket) {
        if (state_ == State::Queued) state_ = State::Running;
        start(ticket);
    });
    showProgress();  // "Waiting…" only when it did not start at once
}

void AnalysisView::jobEnded(uint64_t ticket) {
    AnalysisQueue::instance()->finished(ticket);
    if (ticket == ticket_) ticket_ = 0;
}

void AnalysisView::finishRun(bool ok, std::function<void()> fill) {
    computing_ = false;
    progressTimer_->stop();
    ticket_ = 0;
    state_ = ok ? State::Done : State::Failed;
    applyWhenShown([this, ok, fill] {
        if (ok) fill();
        else showMessage(tr("The analysis failed."));
        emit resultReady();
    });
    emit stateChanged();
}

void AnalysisView::cancelRun() {
    if (!computing_ || !progress_) return;
    progress_->cancel();
    // A job still waiting never starts; a running one frees its memory when the worker
    // unwinds, and releases its reservation then (jobEnded).
    if (state_ == State::Queued && ticket_) {
        AnalysisQueue::instance()->finished(ticket_);
        ticket_ = 0;
    }
    ++generation_;
    computing_ = false;
    progressTimer_->stop();
    state_ = State::Cancelled;
    message_->showAction(tr("The analysis was cancelled."), tr("Run again"), [this] { startAgain(false); });
    stack_->setCurrentWidget(message_);
    emit stateChanged();
}

void AnalysisView::startAgain(bool force) {
    if (!trace_) return;
    runAnyway_ = force;
    startAnalysis(trace_);
}

void AnalysisView::showProgress() {
    if (!computing_ || !progress_) return;
    QString text;
    if (state_ == State::Queued) {
        const AnalysisQueue* queue = AnalysisQueue::instance();
        text = queue->running() >= AnalysisQueue::maxRunning()
                   ? tr("Waiting for a free worker: %1 analyses run at a time.").arg(AnalysisQueue::maxRunning())
                   : tr("Waiting for memory: the analyses running now hold %1 of the %2 they may use.")
                         .arg(QString::fromStdString(formatBytes(queue->reserved())),
                              QString::fromStdString(formatBytes(AnalysisQueue::instance()->budget())));
    } else {
        const QString step = QString::fromStdString(progress_->stepName());
        text = (step.isEmpty() ? tr("Analyzing") : step) + tr("… %1 %").arg(int(progress_->fraction() * 100));
    }
    message_->showProgress(text, progress_->fraction(), [this] { cancelRun(); });
    stack_->setCurrentWidget(message_);
}

QString AnalysisView::statusText() const { return message_->text(); }

bool AnalysisView::pressStatusButton() {
    QPushButton* b = message_->button();
    if (!b) return false;
    b->click();
    return true;
}

void AnalysisView::applyWhenShown(std::function<void()> fill) {
    // A page nobody can see in a visible window (another tab is current) waits; a
    // page on its own (tests) or a shown one is filled now.
    if (window()->isVisible() && !isVisible()) pendingFill_ = std::move(fill);
    else fill();
}

void AnalysisView::showEvent(QShowEvent* event) {
    TraceView::showEvent(event);
    if (std::function<void()> fill = std::exchange(pendingFill_, nullptr)) fill();
}

void AnalysisView::showMessage(const QString& text) {
    message_->showMessage(text);
    stack_->setCurrentWidget(message_);
}

void AnalysisView::showEmptyResult(const QString& text) {
    const std::string note = trace_ ? tracescope::partialTraceNote(*trace_) : std::string();
    showMessage(note.empty() ? text : text + QStringLiteral("\n\n⚠ ") + QString::fromStdString(note));
}

void AnalysisView::showContent() {
    if (content_) stack_->setCurrentWidget(content_);
}

}  // namespace tracescope
