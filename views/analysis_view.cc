#include "views/analysis_view.h"

#include "model/results/analysis_budget.h"
#include "model/trace/partial_trace.h"
#include "views/analysis_status.h"
#include "views/partial_trace_note.h"
#include "views/step_marker_box.h"
#include "views/step_marker_choice.h"
#include "views/step_set_box.h"
#include "views/trace_selection.h"

#include <QPushButton>
#include <QToolTip>
#include <QStackedLayout>
#include <QTimer>

#include <utility>

namespace tracescope {

AnalysisView::AnalysisView(QWidget* parent) : TraceView(parent), delivery_(ResultDelivery::to(this)) {
    stack_ = new QStackedLayout(this);
    message_ = new AnalysisStatus(this);
    stack_->addWidget(message_);
    progressTimer_ = new QTimer(this);
    progressTimer_->setInterval(200);
    connect(progressTimer_, &QTimer::timeout, this, [this] { showProgress(); });
    showMessage(tr("No trace loaded."));
}

AnalysisView::~AnalysisView() {
    // Nothing reaches the page any more; its request is withdrawn (a computation nobody else
    // wants stops).
    delivery_->detach();
    request_.cancel();
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
    request_.cancel();
    ask_ = nullptr;
    trace_ = std::move(trace);
    results_ = ResultStore::of(trace_);
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

void AnalysisView::setLoading(const QString& fileName) {
    setTrace(nullptr);
    showMessage(tr("Loading %1 …\nThis page is computed when the whole trace is in; the timeline shows the part "
                   "read so far.")
                    .arg(fileName));
}

std::string AnalysisView::stepOptionsKey(const StepOptions& options) {
    return "marker=" + (options.marker.empty() ? std::string("(auto)") : '"' + options.marker + '"') +
           (options.allSteps ? " all-steps" : " step-set");
}

unsigned AnalysisView::beginRun(const AnalysisCost& cost) {
    cancelRun();
    const unsigned generation = ++generation_;
    pendingFill_ = nullptr;
    ranAnyway_ = std::exchange(runAnyway_, false);
    JobRunner& runner = results_->runner();
    cost_ = cost;
    const uint64_t budget = runner.memoryBudget();
    if (!ranAnyway_ && budget != 0 && cost.bytes > budget) {
        showSkipped(budget);
        return 0;
    }
    computing_ = true;
    state_ = State::Queued;
    progress_ = std::make_shared<AnalysisProgress>();
    progressTimer_->start();
    emit stateChanged();
    return generation;
}

void AnalysisView::showSkipped(uint64_t budget) {
    computing_ = false;
    progressTimer_->stop();
    state_ = State::Skipped;
    const MemoryBudget now = analysisMemoryBudget();
    message_->showAction(
        tr("%1 was not run: it needs about %2 of memory, and %3 is available (%4).\n"
           "Running it could make the machine swap or stop the application.")
            .arg(QString::fromStdString(cost_.what), QString::fromStdString(formatBytes(cost_.bytes)),
                 QString::fromStdString(formatBytes(budget)), QString::fromStdString(now.source)),
        tr("Run anyway"), [this] { startAgain(true); });
    stack_->setCurrentWidget(message_);
    emit stateChanged();
}

bool AnalysisView::offScreen() const { return window()->isVisible() && !isVisible(); }

JobPriority AnalysisView::wanted() const {
    // A page nobody can see in a visible window (another tab is current) computes ahead, at
    // the lowest priority; a shown page, or one on its own (tests, screenshots), at Page.
    return offScreen() ? JobPriority::Background : JobPriority::Page;
}

void AnalysisView::requested() {
    askedAt_ = wanted();
    if (std::shared_ptr<AnalysisProgress> p = request_.progress()) progress_ = std::move(p);
    if (state_ == State::Queued && request_.started()) state_ = State::Running;
    showProgress();
}

void AnalysisView::finishRun(bool ok, std::function<void()> fill) {
    computing_ = false;
    progressTimer_->stop();
    request_ = {};  // answered: the store holds the result
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
    // Withdrawn: a job still waiting never starts; a running one nobody else wants stops and
    // frees its memory and its reservation when the worker unwinds.
    request_.cancel();
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
    if (state_ == State::Queued && request_.started()) state_ = State::Running;
    if (std::shared_ptr<AnalysisProgress> p = request_.progress()) progress_ = std::move(p);
    QString text;
    if (state_ == State::Queued) {
        JobRunner& runner = results_->runner();
        text = runner.analysesRunning() >= runner.threads()
                   ? tr("Waiting for a free worker: %1 analyses run at a time.").arg(runner.threads())
               : askedAt_ == JobPriority::Background
                   ? tr("Waiting: pages on screen and the timeline go first.")
                   : tr("Waiting for memory: the analyses running now hold %1 of the %2 they may use.")
                         .arg(QString::fromStdString(formatBytes(runner.reserved())),
                              QString::fromStdString(formatBytes(runner.memoryBudget())));
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
    if (offScreen()) pendingFill_ = std::move(fill);
    else fill();
}

void AnalysisView::hideEvent(QHideEvent* event) {
    TraceView::hideEvent(event);
    if (QToolTip::isVisible()) QToolTip::hideText();
}

void AnalysisView::showEvent(QShowEvent* event) {
    TraceView::showEvent(event);
    // Shown while its result waits at the lowest priority: asked again at the page's (the store
    // moves the queued computation up).
    if (computing_ && ask_ && askedAt_ < JobPriority::Page && request_.active() && !request_.started()) {
        // It fitted when asked for; what the pages computed since may have taken the room. At
        // the page's priority it would start whatever it needs: it says so instead, as when
        // it is asked for without room.
        const uint64_t budget = results_->runner().memoryBudget();
        if (!ranAnyway_ && budget != 0 && cost_.bytes > budget) {
            request_.cancel();
            ++generation_;
            showSkipped(budget);
        } else {
            askedAt_ = JobPriority::Page;
            ask_(JobPriority::Page);
        }
    }
    if (std::function<void()> fill = std::exchange(pendingFill_, nullptr)) fill();
}

void AnalysisView::showMessage(const QString& text) {
    message_->showMessage(text);
    stack_->setCurrentWidget(message_);
}

void AnalysisView::showMessage(const QString& text, const QString& action, std::function<void()> onAction) {
    message_->showAction(text, action, std::move(onAction));
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
