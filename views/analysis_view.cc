#include "views/analysis_view.h"

#include "model/trace/partial_trace.h"
#include "views/partial_trace_note.h"
#include "views/step_marker_box.h"
#include "views/step_marker_choice.h"
#include "views/trace_selection.h"

#include <QLabel>
#include <QStackedLayout>

#include <utility>

namespace tracescope {

AnalysisView::AnalysisView(QWidget* parent) : TraceView(parent) {
    stack_ = new QStackedLayout(this);
    message_ = new QLabel(this);
    message_->setAlignment(Qt::AlignCenter);
    message_->setWordWrap(true);
    QFont f = message_->font();
    f.setPointSizeF(f.pointSizeF() * 1.2);
    message_->setFont(f);
    stack_->addWidget(message_);
    showMessage(tr("No trace loaded."));
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
        followStepMarker(markerChoice_ ? markerChoice_ : new StepMarkerChoice(this));
    }
    return markerBox_;
}

void AnalysisView::setStepMarkerChoice(StepMarkerChoice* choice) {
    if (markerBox_ && choice) followStepMarker(choice);
    else markerChoice_ = choice;  // followed once the page makes its picker
}

void AnalysisView::followStepMarker(StepMarkerChoice* choice) {
    if (markerChoice_) disconnect(markerChoice_, nullptr, this, nullptr);
    const QString before = markerChoice_ ? markerChoice_->marker() : QString();
    markerChoice_ = choice;
    markerBox_->setChoice(choice);
    connect(choice, &StepMarkerChoice::markerChanged, this, [this] {
        if (trace_) startAnalysis(trace_);
    });
    if (trace_ && choice->marker() != before) startAnalysis(trace_);
}

StepOptions AnalysisView::stepOptions() const { return markerChoice_ ? markerChoice_->stepOptions() : StepOptions{}; }

void AnalysisView::setSelection(TraceSelection* selection) {
    if (selection_) disconnect(selection_, nullptr, this, nullptr);
    TraceView::setSelection(selection);
    if (selection) connect(selection, &TraceSelection::sliceSelected, this, [this](SliceRef s) { selectSlice(s); });
}

void AnalysisView::setTrace(std::shared_ptr<const Trace> trace) {
    trace_ = std::move(trace);
    ++generation_;  // drops a result still in flight
    pendingFill_ = nullptr;
    computing_ = false;
    clearResult();
    if (partialNote_) partialNote_->setTrace(trace_.get());
    if (!trace_) {
        showMessage(tr("No trace loaded."));
        return;
    }
    startAnalysis(trace_);
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
    message_->setText(text);
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
